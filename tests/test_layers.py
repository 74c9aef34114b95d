"""The house's one-way imports: engine → environments → players → evaluation → training and
front ends, and no circle of imports between any two files.

Checked on the source (every import statement, at any depth, lazy ones included) and by
importing the public API in a fresh interpreter, so that a user of ``fh_env`` never pays for
torch or the bots.  A graph of files without a circle has no import running back up: each file
stands on a floor above everything it imports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each top-level package may import from the project's other packages.
ALLOWED = {
    "fh_env": set(),
    "agents": {"fh_env"},
    "arena": {"fh_env", "agents"},
    "train": {"fh_env", "agents", "arena"},
    "play": {"fh_env", "agents", "arena"},
    "bench": {"fh_env", "agents", "arena", "train"},
}
PROJECT = set(ALLOWED) | {"examples", "tests", "scripts"}


def imported_modules(path: Path, package: str | None = None,
                     modules: set[str] | frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """Every module an import statement in ``path`` names (line, dotted name): absolute ones,
    and, given ``package`` (the dotted package ``path`` is in), relative ones resolved.  In
    ``from X import name`` the module is ``X.name`` where that is one of ``modules`` (a
    submodule), else ``X``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            elif package is None:
                continue
            else:
                parts = package.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.append((node.lineno, sub if sub in modules else base))
    return sorted(set(out))


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    out = {}
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (at any depth, lazy imports included)."""
    files = module_files()
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = {m for _, m in imported_modules(path, package, set(files))
                       if m in files and m != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    """No two files of the project import each other, directly or round a loop, even lazily
    (an import inside a function is how such loops used to be held together)."""
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_check_finds_a_circle(tmp_path):
    """The check must see a loop through a relative and a lazy import."""
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert circles(graph) == [["p.a", "p.b", "p.c"]]
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from .registry import make_bot\n    from . import nmc\n")
    assert imported_modules(source, "agents", {"agents.registry", "agents.nmc"}) == [
        (2, "agents.registry"), (3, "agents.nmc")]


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_flow_one_way(package):
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, name in imported_modules(path):
            top = name.split(".")[0]
            if top in PROJECT and top != package and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
            if package == "fh_env" and top == "torch":
                bad.append(f"{path.relative_to(ROOT)}:{line} imports torch")
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_the_checker_sees_a_lazy_import(tmp_path):
    """The check above must catch an import inside a function (the way it used to creep in)."""
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from agents.registry import make_bot\n    return make_bot\n")
    assert (2, "agents.registry") in imported_modules(source)


def test_public_api_imports_neither_torch_nor_the_bots():
    code = ("import sys, fh_env\n"
            "e = fh_env.env(); e.reset(seed=1)\n"
            "fh_env.SingleSeatEnv(); fh_env.VectorEnv(2)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'agents', 'train', 'play'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert out.stdout.strip() == ""
