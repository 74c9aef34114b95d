"""Engine speed: random-play full hands per second, beside a bare-Python reference loop.

Run ``python -m bench.engine [--seconds S] [--runs N] [--json] [--profile]``.

Each measurement creates a :class:`fh_env.engine.State` per hand (so dealing is included) and
applies uniformly random legal actions (``rng.choice(state.legal_actions())``) until the hand
is over.  Rates are per wall-clock second; hands per CPU second of this process are reported
too, since a busy machine disturbs them less.  Hands thrown in (all pass, inkle, misdeal)
count as hands too: they are part of what random play produces.  Every figure is the median
of ``--runs`` runs of ``--seconds`` each.

The reference loop is plain Python doing work of the same kind (shuffle and deal 43 cards, then
50 ``random.choice`` calls over a 10-element list, about the number of decisions in a hand), so
the ratio ``hands/s ÷ reference/s`` stays meaningful on a busy or slower machine.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import random
import statistics
import sys
import time
from typing import Any, Callable

from fh_env.engine import State
from fh_env.rules import Rules

RULE_SETS = ("australian-no-nullo", "american-double-nullo")


def random_hands(rules: Rules, seconds: float, seed: int = 0) -> tuple[int, int, float, float]:
    """Play random hands for about ``seconds``: (hands, actions, wall seconds, CPU seconds)."""
    rng = random.Random(seed)
    choice = rng.choice
    hands = actions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):  # check the clock every 50 hands
            state = State(rules, seed=seed + hands)
            legal_actions, apply = state.legal_actions, state.apply
            while not state.is_terminal:
                apply(choice(legal_actions()))
                actions += 1
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands, actions, now - start, time.process_time() - cpu


def reference_loops(seconds: float, seed: int = 0) -> tuple[int, float]:
    """The bare-Python baseline: shuffle and deal 43 cards, then 50 choices from 10 items."""
    rng = random.Random(seed)
    choice, shuffle = rng.choice, rng.shuffle
    deck = list(range(43))
    options = list(range(10))
    loops = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            shuffle(deck)
            hands = [deck[10 * i:10 * i + 10] for i in range(4)]
            total = len(hands)
            for _ in range(50):
                total += choice(options)
            loops += 1
        now = time.perf_counter()
        if now >= deadline:
            return loops, now - start


def _median_rate(run: Callable[[], tuple[float, ...]], runs: int) -> list[float]:
    """The median over ``runs`` of each rate returned by ``run``."""
    samples = [run() for _ in range(runs)]
    return [statistics.median(s[i] for s in samples) for i in range(len(samples[0]))]


def measure(seconds: float, runs: int) -> dict[str, Any]:
    """All figures of the benchmark, as a JSON-compatible dict."""
    def reference() -> tuple[float]:
        loops, elapsed = reference_loops(seconds)
        return (loops / elapsed,)

    out: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_run": seconds,
        "runs": runs,
        "reference_loops_per_s": _median_rate(reference, runs)[0],
        "rules": {},
    }
    for name in RULE_SETS:
        rules = Rules.preset(name)

        def engine(rules: Rules = rules) -> tuple[float, float, float]:
            hands, actions, elapsed, cpu = random_hands(rules, seconds)
            return hands / elapsed, actions / elapsed, hands / cpu

        hands_per_s, actions_per_s, hands_per_cpu_s = _median_rate(engine, runs)
        out["rules"][name] = {
            "hands_per_s": hands_per_s,
            "actions_per_s": actions_per_s,
            "hands_per_cpu_s": hands_per_cpu_s,
            "actions_per_hand": actions_per_s / hands_per_s,
            "hands_per_reference_loop": hands_per_s / out["reference_loops_per_s"],
        }
    return out


def profile(seconds: float, top: int = 20) -> str:
    """cProfile of random play under the default rules: the functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    random_hands(Rules(), seconds)
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def report(result: dict[str, Any]) -> str:
    lines = [f"engine random play, median of {result['runs']} runs x "
             f"{result['seconds_per_run']:g} s (Python {result['python']})",
             f"  reference loop (deal 43 + 50 choices): "
             f"{result['reference_loops_per_s']:>10,.0f} /s"]
    for name, r in result["rules"].items():
        lines.append(f"  {name:<24} {r['hands_per_s']:>9,.0f} hands/s  "
                     f"{r['actions_per_s']:>10,.0f} actions/s  "
                     f"{r['hands_per_cpu_s']:>9,.0f} hands/CPU-s  "
                     f"({r['actions_per_hand']:.1f} actions/hand, "
                     f"{r['hands_per_reference_loop']:.3f} hands per reference loop)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run (s)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of random play (default rules)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be positive and --runs at least 1")
    result = measure(args.seconds, args.runs)
    print(json.dumps(result, indent=2) if args.json else report(result))
    if args.profile:
        print(profile(args.seconds), file=sys.stderr if args.json else sys.stdout)


if __name__ == "__main__":
    main()
