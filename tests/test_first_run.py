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


def test_a_small_match_on_a_cold_cache_plays_on_the_engine_while_the_core_compiles(monkeypatch):
    """A cold cache: a small match does not wait for the compile (tens of seconds against a
    few for the match): it plays on the engine, with the same games as the batched core, and
    the kernels it needs compile in the background."""
    from arena import batched, duplicate, warm

    warm_result = duplicate.duplicate("rule", "random", deals=6, seed=7)
    started, played = [], []
    monkeypatch.setattr(warm, "cached", lambda part: part == "observe")
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda rules, parts: started.append(list(parts)) or True)
    monkeypatch.setattr(batched, "play_deals", lambda *a: played.append(a))
    cold_result = duplicate.duplicate("rule", "random", deals=6, seed=7)
    assert started == [["engine", "rule"]] and played == []
    assert cold_result.mean == warm_result.mean and cold_result.contracts == warm_result.contracts


def test_a_large_match_on_a_cold_cache_compiles_first(monkeypatch):
    from arena import duplicate, warm

    compiled = []
    monkeypatch.setattr(warm, "ENGINE_WORK_WHEN_COLD", 3)
    monkeypatch.setattr(warm, "cached", lambda part: False)
    monkeypatch.setattr(warm, "compile_in_background", lambda *a: pytest.fail("not background"))
    monkeypatch.setattr(warm, "warm_if_cold", lambda rules, parts: compiled.append(list(parts)))
    duplicate.duplicate("random", "random", deals=4, seed=7)
    assert compiled == [["engine"]]


def test_the_parts_a_match_needs():
    from agents.registry import make_bot
    from arena.warm import parts_for

    assert parts_for(["random", "random"]) == ["engine"]
    assert parts_for(["rule:aggressive", "random"]) == ["engine", "rule"]
    assert parts_for(["neural:best", "rule"]) == ["engine", "rule", "observe"]
    assert parts_for([make_bot("neural:best"), make_bot("random")]) == ["engine", "observe"]


def test_one_background_compile_at_a_time(monkeypatch, tmp_path, capsys):
    """The detached compile takes a lock: while one holds it, a second match starts none (and
    the background process itself gives up); the notice is said once a process."""
    from arena import warm
    from fh_env.compiled import _CompileNotice
    from fh_env.rules import Rules

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_CompileNotice, "said", False)
    spawned = []
    monkeypatch.setattr(warm.subprocess, "Popen", lambda args, **kw: spawned.append(args))
    assert warm.compile_in_background(Rules(), ["engine"])
    assert spawned and spawned[0][3:5] == ["--background", "--parts"]
    assert "compiling it in the background" in capsys.readouterr().err
    held = warm._take_lock(warm._lock_path())
    try:
        assert warm.compile_in_background(Rules(), ["engine"])
        assert len(spawned) == 1 and capsys.readouterr().err == ""
        monkeypatch.setattr(warm, "warm", lambda *a, **k: pytest.fail("compiled under a lock"))
        assert warm._background(Rules(), ["engine"]) == 0
    finally:
        held.close()
