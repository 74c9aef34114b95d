"""The house's one-way imports: engine → environments → agents → training and front ends.

Checked on the source (every import statement, at any depth, lazy ones included) and by
importing the public API in a fresh interpreter, so that a user of ``fh_env`` never pays for
torch or the bots.
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
    "train": {"fh_env", "agents"},
    "play": {"fh_env", "agents"},
    "bench": {"fh_env", "agents", "train"},
}
PROJECT = set(ALLOWED) | {"examples", "tests", "scripts"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every absolute module an import statement in ``path`` names (line, dotted name)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


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
