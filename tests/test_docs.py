"""The documentation: README.md and docs/*.md say what the code does, and stay inside the repository.

* every fenced ``python`` block runs (each page's blocks in order, in one namespace, from the
  repository root); output and shell sessions use other fence languages (``text``, ``console``);
* the observation layout tables (4, 3 and 6 players) and the action tables of
  docs/environment.md are the ones :mod:`fh_env.observe` and :mod:`fh_env.envs.aec` make;
* nothing in the repository points outside it (at a rules file or notes beside the checkout);
* every relative link of the pages leads to a file that exists (and, with ``#anchor``, to a
  heading of that page);
* docs/rules.md lists every option of :class:`fh_env.rules.Rules` with its default, and every
  preset.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import subprocess
from pathlib import Path

import pytest

import fh_env.observe as O
from fh_env.rules import PRESETS, Rules, _CHOICES

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def fenced_blocks(text: str) -> list[tuple[str, str, int]]:
    """(language, code, line number of the opening fence) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


# ---------------------------------------------------------------------- (a) examples run
def test_the_pages_exist() -> None:
    names = {p.name for p in PAGES}
    assert {"README.md", "rules.md", "environment.md", "bots.md", "training.md", "benchmarks.md",
            "rl-libraries.md", "play.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's ``python`` blocks run in order in one namespace, with cwd at the repository
    root (so relative paths such as configs/ resolve as they would for a reader)."""
    text = page.read_text(encoding="utf-8")
    blocks = [(code, line) for lang, code, line in fenced_blocks(text) if lang == "python"]
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__doc_example__"}
    for code, line in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(code, f"{_rel(page)}:{line}", "exec"), namespace)
            except Exception as err:  # name the block in the failure
                raise AssertionError(f"{_rel(page)}, the python block at line {line}: "
                                     f"{type(err).__name__}: {err}") from err


def test_fence_languages_are_known() -> None:
    """A block without a language would be neither run nor marked as output: say which it is."""
    for page in PAGES:
        for lang, _, line in fenced_blocks(page.read_text(encoding="utf-8")):
            assert lang in {"python", "text", "console"}, (
                f"{_rel(page)}:{line}: fence language {lang!r}; use python (run by the tests), "
                "console (commands) or text (output)")


def test_random_play_examples_play_a_whole_hand() -> None:
    """The PettingZoo loop of the README and of docs/environment.md plays one hand to the end
    and prints the infos it promises."""
    for page in (ROOT / "README.md", ROOT / "docs" / "environment.md"):
        blocks = [code for lang, code, _ in fenced_blocks(page.read_text(encoding="utf-8"))
                  if lang == "python" and "agent_iter" in code]
        assert blocks, f"{_rel(page)} has no random-play example"
        namespace: dict = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(blocks[0], _rel(page), "exec"), namespace)
        info = namespace["info"]
        assert set(info) >= {"contract", "declarer", "tricks", "hand_points", "game_points"}
        assert not namespace["env"].agents  # the hand was played to the end


# ---------------------------------------------------------------------- (b) the layout table
def test_environment_page_shows_the_observation_layout() -> None:
    """The layout tables of 4, 3 and 6 players, in that order, are those fh_env.observe makes."""
    text = (ROOT / "docs" / "environment.md").read_text(encoding="utf-8")
    tables = [code.strip("\n") for lang, code, _ in fenced_blocks(text)
              if lang == "text" and "0-4       phase" in code]
    assert len(tables) == 3, "docs/environment.md should hold the layout tables of 4, 3, 6 players"
    for players, table in zip((4, 3, 6), tables):
        expected = O.layout(players).table().split("Indices::\n\n", 1)[1].strip("\n")
        assert table == expected, (
            f"the {players}-player layout table of docs/environment.md differs from "
            f"fh_env.observe.layout({players}).table(); paste the new one:\n" + expected)


def test_environment_page_shows_the_action_tables() -> None:
    """The action tables of docs/environment.md (four players, then six) are made from the
    code, fh_env.envs.aec.action_table_markdown."""
    from fh_env.envs.aec import action_table_markdown

    text = (ROOT / "docs" / "environment.md").read_text(encoding="utf-8")
    four, six = action_table_markdown(4), action_table_markdown(6)
    assert four in text and six in text
    assert text.index(four) < text.index(six)


def test_layout_table_names_every_rule_option() -> None:
    """The table the page is checked against really covers the rules (so (b) checks something)."""
    table = O.layout_table()
    for f in dataclasses.fields(Rules):
        if f.name not in O._NOT_OBSERVED:
            assert f.name in table, f.name


# ---------------------------------------------------------------------- (c) nothing outside
_OUTSIDE = ("../" + "shared", "shared/" + "RULES.md", "shared/" + "notes")


def _repository_files() -> list[Path]:
    """Tracked files and new files git does not ignore; without git, every file of the tree
    but virtual environments, caches and build output."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = [ROOT / line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", ".venv-recipes", "__pycache__", "runs", "build", "dist"}
        files = [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.parts)]
    return [p for p in files if p.is_file()]


def test_nothing_points_outside_the_repository() -> None:
    kinds = {".md", ".py", ".toml", ".sh", ".cfg", ".txt", ".yml", ".yaml"}
    checked, bad = 0, []
    for path in _repository_files():
        if path.suffix not in kinds and path.name not in {"Makefile", "run"}:
            continue
        checked += 1
        text = path.read_text(encoding="utf-8", errors="replace")
        bad += [f"{path.relative_to(ROOT)}: {s}" for s in _OUTSIDE if s in text]
    assert checked > 50 and not bad, bad


def test_the_pages_link_only_inside_the_repository() -> None:
    """No web link in the README or docs/ (the pages must read the same in a bare clone)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    bad = [f"{page.relative_to(ROOT)}: {url}" for page in pages
           for url in LINK.findall(page.read_text(encoding="utf-8"))
           if re.match(r"[a-z]+://", url) and not re.match(r"https?://(127\.0\.0\.1|localhost)", url)]
    assert not bad, bad


def test_the_outside_check_can_fail() -> None:
    pointer = "see " + _OUTSIDE[0] + "/" + "RULES.md"
    assert all(s in pointer for s in _OUTSIDE[:2])


# ---------------------------------------------------------------------- (d) links
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    text = FENCE.sub("", text)  # a "#" line inside a code block is not a heading
    return {github_slug(m.group(1)) for m in re.finditer(r"^#{1,6} +(.+?) *$", text, re.M)}


def relative_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return [t for t in LINK.findall(text) if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


def test_relative_links_lead_to_files_and_headings() -> None:
    bad, count = [], 0
    for page in PAGES:
        for target in relative_links(page):
            count += 1
            path_part, _, anchor = target.partition("#")
            dest = (page.parent / path_part).resolve() if path_part else page
            if not dest.exists():
                bad.append(f"{_rel(page)}: {target} (no such file)")
                continue
            try:
                dest.relative_to(ROOT)
            except ValueError:
                bad.append(f"{_rel(page)}: {target} (outside the repository)")
                continue
            if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(f"{_rel(page)}: {target} (no heading #{anchor})")
    assert count > 20 and not bad, bad


def test_the_link_check_can_fail(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# A page\n\n[x](missing.md) [y](#a-page) `[z](in-code.md)`\n")
    assert relative_links(page) == ["missing.md", "#a-page"]
    assert "a-page" in anchors(page) and not (tmp_path / "missing.md").exists()
    assert github_slug("8. Presets") == "8-presets"
    assert github_slug("The compiled core: `fh_env/compiled/`") == "the-compiled-core-fh_envcompiled"


# ---------------------------------------------------------------------- (e) the rules page
def options_table(text: str) -> dict[str, dict[str, str]]:
    """option name -> its row (column name -> cell), from the table whose header starts
    ``| option |``."""
    rows: dict[str, dict[str, str]] = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| option |"))
    header = [c.strip() for c in lines[start].strip().strip("|").split("|")]
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\w+)`", cells[0])
        assert match, line
        rows[match.group(1)] = dict(zip(header, cells))
    return rows


def default_text(value: object) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def rules_page_problems(text: str) -> list[str]:
    problems = []
    rows = options_table(text)
    defaults = Rules()
    for f in dataclasses.fields(Rules):
        row = rows.get(f.name)
        if row is None:
            problems.append(f"option {f.name} is not in the table of docs/rules.md")
            continue
        value = getattr(defaults, f.name)
        if not row["default"].startswith(default_text(value)):
            problems.append(f"option {f.name}: the page gives the default {row['default']!r}, "
                            f"Rules() has {value!r}")
        for choice in _CHOICES.get(f.name, ()):
            if f"`{choice}`" not in row["values"]:
                problems.append(f"option {f.name}: the value {choice!r} is not listed")
        if f"`{f.name}`" not in text.split("## 1. Cards", 1)[1]:
            problems.append(f"option {f.name} is not described in §§1-9")
    for name in PRESETS:
        if not re.search(rf"^\| `{re.escape(name)}`", text, re.M):
            problems.append(f"preset {name} is not in the §8 table")
    return problems


def test_rules_page_lists_every_option_default_and_preset() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert rules_page_problems(text) == []


def test_rules_page_keeps_the_section_numbers() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    titles = ["1. Cards", "2. Contracts and their ranking", "3. The auction",
              "4. The kitty exchange", "5. The play", "6. Scoring", "7. End of the game",
              "8. Presets", "9. Other table sizes", "Decisions where the specification is silent"]
    found = re.findall(r"^## (.+)$", text, re.M)
    assert [t for t in found if t in titles] == titles
    subsections = {"1": 4, "2": 5, "3": 10, "4": 3, "5": 11, "6": 8, "7": 2, "9": 4}
    for section, last in subsections.items():
        for k in range(1, last + 1):
            assert re.search(rf"^{section}\.{k} ", text, re.M), f"§{section}.{k}"


def test_the_rules_page_check_can_fail() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    without = re.sub(r"^\| `misdeal` \|.*\n", "", text, flags=re.M)
    assert any("misdeal" in p for p in rules_page_problems(without))
    wrong = text.replace("| `target` | 7.2 | an integer | `500` |",
                         "| `target` | 7.2 | an integer | `1000` |")
    assert wrong != text and any("target" in p for p in rules_page_problems(wrong))
    no_preset = text.replace("| `canadian` |", "| canadian |")
    assert any("canadian" in p for p in rules_page_problems(no_preset))
