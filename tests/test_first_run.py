"""A first run that explains itself (issue 32, point 2): the notice of the first compile, the
parallel warm-up of arena.warm, and fh-eval's progress bar, which starts only once the kernels
are compiled or loaded.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_compile_of_a_kernel_of_ours_says_so_once():
    """A kernel of the batched core that starts compiling prints the notice, once a process;
    numba's own compiles (or anyone else's) print nothing."""
    code = (
        "import numba, fh_env.compiled\n"
        "def f(x):\n    return x + 1\n"
        "def g(x):\n    return x * 2\n"
        "numba.njit(lambda x: x - 1)(1)\n"  # not ours: silent
        "f.__module__ = g.__module__ = 'fh_env.compiled.probe'\n"
        "numba.njit(f)(1); numba.njit(g)(2)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin"}, check=True)
    lines = out.stderr.strip().splitlines()
    assert lines == ["compiling the batched core, once, about 40 s (numba; later runs load it "
                     "from its cache)"], out.stderr
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=ROOT, env={"PATH": "/usr/bin:/bin", "FH_COMPILE_NOTICE": "0"},
                           check=True)
    assert quiet.stderr == ""


@pytest.mark.parametrize("preset", ["australian", "three-handed", "six-handed"])
def test_each_part_of_the_warm_up_runs(preset):
    from arena.warm import PARTS, cached, run_part
    from fh_env.rules import Rules

    for part in PARTS:
        run_part(part, Rules.preset(preset))
        assert cached(part)  # what it compiled (or loaded) is in numba's cache


def test_warm_refuses_a_bad_part_and_bad_flags(capsys):
    from arena.warm import main, run_part
    from fh_env.rules import Rules

    with pytest.raises(ValueError, match="choose one of engine, rule, observe"):
        run_part("rollouts", Rules())
    assert main(["--jobs", "0"]) == 2
    assert capsys.readouterr().err.strip() == ("python -m arena.warm: error: --jobs must be at "
                                               "least 1, not 0")
    assert main(["--rules", "australain"]) == 2
    assert "'australain' is neither" in capsys.readouterr().err


def test_make_venv_warms_the_cache():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    venv = makefile.split("$(STAMP): pyproject.toml Makefile\n", 1)[1].split("\n\n", 1)[0]
    assert "$(VENV)/bin/python -m arena.warm" in venv
    assert venv.index("arena.warm") < venv.index("touch $(STAMP)")


def test_fh_eval_compiles_before_its_progress_bar(monkeypatch):
    """The kernels are compiled (or loaded) by a throw-away deal before the bar is drawn: the
    bar never sits at 0 through a compile, and the notice gets its own line."""
    from arena import batched, duplicate

    events = []
    real_play, real_bar = batched.play_deals, duplicate.progress_bar
    monkeypatch.setattr(batched, "play_deals",
                        lambda *a: events.append(("deals", list(a[-1]))) or real_play(*a))
    monkeypatch.setattr(duplicate, "progress_bar",
                        lambda *a: events.append(("bar",)) or real_bar(*a))
    plain = duplicate.duplicate("rule", "random", deals=3, seed=5)
    assert events[:2] == [("deals", [0]), ("bar",)]
    monkeypatch.undo()
    assert duplicate.duplicate("rule", "random", deals=3, seed=5).mean == plain.mean
