"""Compile the batched core's kernels ahead, in parallel: ``python -m arena.warm``.

``fh-eval`` between bots with a batched form (``rule``, ``random``, ``neural``: see
:mod:`arena.batched`) runs three trees of numba kernels: the engine's (deal, legal actions,
``step``), the compiled rule bot's and the observation's.  A fresh install compiles them once
(numba's ``cache=True`` keeps the machine code in each package's ``__pycache__``, or in
``NUMBA_CACHE_DIR``), which takes tens of seconds in one process.  The three trees are
independent, so each *part* here compiles one in its own process, all at once; the caller then
loads them from the cache.

* ``make venv`` runs ``python -m arena.warm`` (every table size), so that the README's commands
  never meet a cold compile;
* ``fh-eval`` (:func:`arena.duplicate.duplicate_values`) checks the cache before its first deal.
  A small match (:data:`ENGINE_WORK_WHEN_COLD`) does not wait for a compile: it plays on the
  reference engine, which gives the same games, while :func:`compile_in_background` fills the
  cache for the next run (one detached, low-priority process; a lock keeps it to one).  A larger
  match calls :func:`warm_if_cold`: when the machine has two cores or more the parts compile in
  parallel (else the first deal compiles them in the process).

Each part calls the kernels through the same Python functions, with the same argument types, as
:mod:`arena.batched` does, so that what it caches is what ``fh-eval`` loads (a kernel compiles
once per signature: a part that called it with other types would cache the wrong one).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Sequence

import numpy as np

from fh_env.rules import PRESETS, Rules, load_rules

PARTS = ("engine", "rule", "observe")
#: The most work (deals; a game counts as ten) that plays on the reference engine rather than
#: wait for a cold compile.  On two cores ``fh-eval neural:best rule --deals 50`` took 2.9 s
#: warm (batched), 6.2 s on the engine and 20 s waiting for the compile; the engine's 0.06 s a
#: deal against the batched core's 0.016 s catches up with a 20 s compile near 450 deals.
ENGINE_WORK_WHEN_COLD = 200
#: The notice of a small match on a cold cache, on stderr.
BACKGROUND_NOTICE = ("the batched core is not compiled yet: compiling it in the background, "
                     "once, about {seconds} s (numba caches it for later runs); meanwhile this "
                     "match plays on the reference engine, with the same games")


def run_part(part: str, rules: Rules) -> None:
    """Compile (or load) one part's kernels for ``rules``' table size."""
    if part == "engine":  # deal, legal masks, step, results: a deal between random players
        from .batched import _random_player, play_deals

        play_deals(_random_player, _random_player, rules, 0, range(1))
        return
    from fh_env.compiled import observe as fastobs
    from fh_env.compiled.engine import HAND_OVER
    from fh_env.compiled.games import FastGames
    from fh_env.engine import deal_cards

    n, players = 2, rules.players
    fast = FastGames(n, rules)
    hands = np.empty((n, players), dtype=np.uint64)
    kitty = np.empty(n, dtype=np.uint64)
    for r in range(n):
        hands[r], kitty[r] = deal_cards(rules, r, 0)
    fast.set_deals(hands, kitty, np.zeros(n, dtype=np.int8), check=False)
    rows = np.arange(n, dtype=np.int64)
    live = rows[fast.games["phase"][rows] < HAND_OVER]  # as arena.batched._Table.play_hands
    if part == "rule":
        from agents.compiled.rule import RuleSeats

        RuleSeats(rules).act(fast, live[live >= 0])
    elif part == "observe":
        from fh_env.observe import layout

        obs = np.zeros((n, layout(players).size), dtype=np.float32)
        fastobs.observe_turn(fast, live[live >= 0], obs, np.zeros(n, dtype=np.int64), None)
        from fh_env.compiled.table import CompiledTable  # the AEC env's fast path
        from fh_env.engine import State

        table = CompiledTable(rules)
        table.load(State(rules, seed=0))
        table.observe(0)
        table.apply(table.legal_actions()[0])
    else:
        raise ValueError(f"part {part!r}: choose one of {', '.join(PARTS)}")


def _kernels(part: str) -> list:
    """The top-level dispatchers a part compiles (for the cache check)."""
    from fh_env.compiled import engine as K
    from fh_env.compiled import observe as fastobs

    if part == "engine":
        return [K.new_games, K.legal_masks, K.step_all]
    if part == "rule":
        from agents.compiled import rule

        return [rule.act]
    from fh_env.compiled import table

    return [fastobs._observe_turn, *table.KERNELS]


def cached(part: str) -> bool:
    """Whether numba's cache holds the part's kernels (for some table size; fresh: the cache
    index is dropped when the source changes).  False when that cannot be told."""
    try:
        return all(len(k._cache._cache_file._load_index()) > 0 for k in _kernels(part))
    except Exception:  # numba's internals moved: say cold, and compile in the process
        return False


def warm(rules_list: Sequence[Rules], parts: Sequence[str] = PARTS,
         jobs: int | None = None) -> float:
    """Run each (part, rules) in its own process, ``jobs`` at a time (default: the cores);
    returns the seconds taken.  A part that fails leaves its kernels to be compiled in use."""
    start = time.perf_counter()
    todo = [[sys.executable, "-m", "arena.warm", "--part", part, "--rules-json",
             json.dumps(rules.to_dict())] for rules in rules_list for part in parts]
    jobs = max(1, jobs or os.cpu_count() or 1)
    env = dict(os.environ, FH_COMPILE_NOTICE="0")  # the caller says it once
    running: list[subprocess.Popen] = []
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    while todo or running:
        while todo and len(running) < jobs:
            running.append(subprocess.Popen(todo.pop(0), env=env, cwd=root,
                                            stdout=subprocess.DEVNULL))
        running[0].wait()
        running = [p for p in running if p.poll() is None]
    return time.perf_counter() - start


def warm_if_cold(rules: Rules, parts: Sequence[str] = PARTS) -> None:
    """Compile the parts not yet in the cache in parallel processes, when there are cores
    for it (two or more: on two busy cores a cold ``fh-eval neural:best rule --deals 50`` took
    30 s so against 53 s in one process); else leave them to the first deal."""
    cold = [p for p in parts if not cached(p)]
    if len(cold) < 2 or (os.cpu_count() or 1) < 2:
        return
    from fh_env.compiled import COMPILE_NOTICE, COMPILE_SECONDS_PARALLEL, _CompileNotice

    if not _CompileNotice.said:
        _CompileNotice.said = True
        if os.environ.get("FH_COMPILE_NOTICE", "1") != "0":
            print(COMPILE_NOTICE.format(seconds=COMPILE_SECONDS_PARALLEL), file=sys.stderr,
                  flush=True)
    warm([rules], cold)


def parts_for(bots: Sequence[Any]) -> list[str]:
    """The parts a batched match of ``bots`` (objects or registry specs) runs: the engine's
    always, the rule bot's and the observation's when one of them is such a bot."""
    kinds = set()
    for bot in bots:
        if isinstance(bot, str):
            from agents.registry import bot_kind

            kind = bot_kind(bot)
            kinds.update(("rule", "neural") if kind == "nmc" else (kind,))
            continue
        from agents.compiled.rule import compiles

        neural = sys.modules.get("agents.neural")  # loaded only if a bot is one (torch)
        if compiles(bot) is not None:
            kinds.add("rule")
        elif neural is not None and type(bot) is neural.NeuralBot:
            kinds.add("neural")
    return (["engine"] + (["rule"] if "rule" in kinds else [])
            + (["observe"] if "neural" in kinds else []))


def _lock_path() -> str:
    """One lock file per numba cache (``NUMBA_CACHE_DIR``, else this checkout's folders)."""
    where = os.environ.get("NUMBA_CACHE_DIR") or os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha1(os.path.abspath(where).encode()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), f"fivehundred-rl-warm-{digest}.lock")


def _take_lock(path: str) -> Any:
    """The open lock file, held (until closed), or None when another process holds it.
    Raises ImportError where ``fcntl`` does not exist (not POSIX)."""
    import fcntl

    handle = open(path, "a")  # noqa: SIM115 (held for the life of the compile)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def compile_in_background(rules: Rules, parts: Sequence[str]) -> bool:
    """Start one detached, low-priority process that compiles ``parts`` for ``rules`` into the
    cache (nothing when one is already at it) and say so on stderr; False where that cannot be
    done (no ``fcntl``: the caller compiles in the foreground)."""
    try:
        lock = _take_lock(_lock_path())
    except ImportError:
        return False
    if lock is not None:  # free: release it for the child, which takes it
        lock.close()
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        subprocess.Popen([sys.executable, "-m", "arena.warm", "--background",
                          "--parts", ",".join(parts), "--rules-json", json.dumps(rules.to_dict())],
                         cwd=root, env=dict(os.environ, FH_COMPILE_NOTICE="0"),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    from fh_env.compiled import COMPILE_SECONDS, _CompileNotice

    if not _CompileNotice.said:
        _CompileNotice.said = True
        if os.environ.get("FH_COMPILE_NOTICE", "1") != "0":
            print(BACKGROUND_NOTICE.format(seconds=COMPILE_SECONDS), file=sys.stderr, flush=True)
    return True


def _background(rules: Rules, parts: Sequence[str]) -> int:
    """The detached compile of :func:`compile_in_background`: under the lock, one part at a
    time, at low priority, so that the match playing meanwhile keeps its core."""
    lock = _take_lock(_lock_path())
    if lock is None:
        return 0  # another one is at it
    with lock:
        os.nice(10)
        warm([rules], [p for p in parts if not cached(p)], jobs=1)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m arena.warm", description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", action="append",
                   help="a preset or rules file (repeatable; default: a preset of each table "
                        "size)")
    p.add_argument("--jobs", type=int, default=None, help="processes at once (default: cores)")
    p.add_argument("--part", choices=PARTS, help=argparse.SUPPRESS)
    p.add_argument("--background", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--parts", default=",".join(PARTS), help=argparse.SUPPRESS)
    p.add_argument("--rules-json", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.background:  # compile_in_background's process
        return _background(Rules.from_dict(json.loads(args.rules_json)), args.parts.split(","))
    if args.part:  # one part, in a process of warm()
        run_part(args.part, Rules.from_dict(json.loads(args.rules_json)))
        return 0
    try:
        if args.rules:
            rules_list = [load_rules(r) for r in args.rules]
        else:
            by_size: dict[int, Rules] = {}
            for name in PRESETS:
                rules = Rules.preset(name)
                by_size.setdefault(rules.players, rules)
            rules_list = list(by_size.values())
        if args.jobs is not None and args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    except ValueError as err:
        print(f"python -m arena.warm: error: {err}", file=sys.stderr)
        return 2
    print(f"compiling the batched core for {len(rules_list)} table size(s), once (numba caches "
          "it) ...", file=sys.stderr, flush=True)
    seconds = warm(rules_list, jobs=args.jobs)
    print(f"compiled in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
