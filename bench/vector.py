"""Random full hands per second: the fast batched core beside the reference engine, one process.

    python -m bench.vector [--preset NAME] [--sizes 1 64 1024 4096] [--seconds 1.0] [--runs 5]
                           [--json]

Three ways of playing uniformly random legal actions until each hand ends, every hand dealt
afresh (a hand thrown in counts as a hand, as it does in the engine):

* ``engine``: the reference ``fh_env.engine.State``, one game at a time, ``random.Random``
  choosing from ``legal_actions()``;
* ``fast_jit``: ``FastGames.random_hands`` at each batch size N, the whole loop compiled (deal,
  draw from each game's generator, apply);
* ``fast_step``: ``FastGames.step`` driven from Python with ``auto_reset``: each step asks for
  the ``[N, 130]`` legal masks and draws one action per game with numpy, as a policy would;
  the "core" columns leave out the time of that numpy draw (which dominates at large N), so
  they measure ``legal_masks()`` plus ``step()`` alone.

Each figure is the median of ``--runs`` timed runs of about ``--seconds`` of CPU time each, after
a warm-up that compiles the kernels, so JIT compilation is never timed.  Hands per CPU second
(``time.process_time``) are steadier than per wall second on a busy machine, so the ratios use
them.  The runs go in rounds, one run of every configuration per round, and each ratio is the
median of the ratios to the engine's run of the same round.  Everything runs on one core (numba
without ``parallel``, and the process is single-threaded).
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from typing import Callable

import numpy as np

from bench.common import batch_parser
from fh_env.engine import State
from fh_env.compiled.games import FastGames
from fh_env.rules import Rules


def _timed(run: Callable[[], tuple[int, float]], seconds: float) -> dict[str, float]:
    """Hands per wall second and per CPU second of ``run``, called repeatedly for about
    ``seconds`` of CPU time; ``run`` plays some hands and returns how many and how many CPU
    seconds to leave out of the "core" figure (the time the benchmark's own chooser took)."""
    hands, excluded = 0, 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        played, chooser = run()
        hands += played
        excluded += chooser
        cpu_elapsed = time.process_time() - cpu
        if cpu_elapsed >= seconds:
            return {"wall": hands / (time.perf_counter() - wall), "cpu": hands / cpu_elapsed,
                    "core": hands / (cpu_elapsed - excluded)}


def engine_runner(rules: Rules, seed: int = 0) -> Callable[[], tuple[int, float]]:
    rng = random.Random(seed)
    counter = [0]

    def run() -> int:
        for _ in range(20):
            counter[0] += 1
            state = State(rules, seed=counter[0])
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
        return 20, 0.0

    return run


def jit_runner(rules: Rules, n: int, seed: int = 0) -> Callable[[], tuple[int, float]]:
    games = FastGames(n, rules, seed=seed)
    hands_per_call = max(1, 20_000 // n)
    return lambda: (games.random_hands(hands_per_call), 0.0)


def step_runner(rules: Rules, n: int, seed: int = 0) -> Callable[[], tuple[int, float]]:
    games = FastGames(n, rules, seed=seed, auto_reset=True)
    rng = np.random.default_rng(seed)
    masks = np.empty((n, 130), dtype=np.bool_)
    steps_per_call = max(1, 2_000 // n)
    clock = time.process_time

    def run() -> tuple[int, float]:
        hands, chooser = 0, 0.0
        for _ in range(steps_per_call):
            games.legal_masks(out=masks)
            start = clock()
            # A uniform draw among each row's legal actions: the pick-th one (none: action 0).
            cum = np.cumsum(masks.T.view(np.int8), axis=0, dtype=np.int8)  # [130, n]
            pick = (rng.random(n) * cum[-1]).astype(np.int8)
            actions = np.argmax(cum > pick, axis=0)
            chooser += clock() - start
            games.step(actions)  # a game whose hand ended is dealt its next hand here
            hands += int(np.count_nonzero(games.done))
        return hands, chooser

    return run


def measure(preset: str, sizes: list[int], seconds: float, runs: int) -> dict:
    """Every figure of the benchmark (see the module docstring), as a JSON-compatible dict."""
    rules = Rules.preset(preset)
    runners = {("engine", 1): engine_runner(rules)}
    for kind, make in (("fast_jit", jit_runner), ("fast_step", step_runner)):
        for n in sizes:
            runners[kind, n] = make(rules, n)
    for run in runners.values():
        run()  # warm-up: compile the kernels and fill caches before any timing
    # Rounds interleave the configurations, so that each round's ratios to the engine compare
    # runs made under the same machine load; every figure is the median over the rounds.
    rounds = [{key: _timed(run, seconds) for key, run in runners.items()}
              for _ in range(runs)]
    rows = []
    for (kind, n) in runners:
        row: dict = {"what": kind, "n": n}
        for name, measure in (("hands_per_s", "wall"), ("hands_per_cpu_s", "cpu"),
                              ("core_hands_per_cpu_s", "core")):
            if measure == "core" and kind != "fast_step":
                continue
            row[name] = statistics.median(r[kind, n][measure] for r in rounds)
            base = "wall" if measure == "wall" else "cpu"  # core: against the whole engine
            row[name.replace("hands_per", "ratio")] = statistics.median(
                r[kind, n][measure] / r["engine", 1][base] for r in rounds)
        rows.append(row)
    result = {"preset": preset, "seconds": seconds, "runs": runs,
              "python": platform.python_version(), "machine": platform.machine(),
              "results": rows}
    return result


def main(argv: list[str] | None = None) -> dict:
    args = batch_parser(__doc__.split("\n\n")[0], [1, 64, 1024, 4096]).parse_args(argv)
    result = measure(args.preset, args.sizes, args.seconds, args.runs)
    rows = result["results"]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"random full hands, preset {args.preset}, median of {args.runs} runs of "
              f"{args.seconds:g} CPU s, one core; ratios to the engine per CPU second")
        print(f"{'what':<10} {'N':>5} {'hands/s':>9} {'hands/CPU s':>12} {'x engine':>9} "
              f"{'core/CPU s':>11} {'x engine':>9}")
        for row in rows:
            core = (f"{row['core_hands_per_cpu_s']:>11,.0f} {row['core_ratio_cpu_s']:>9.1f}"
                    if "core_hands_per_cpu_s" in row else "")
            print(f"{row['what']:<10} {row['n']:>5} {row['hands_per_s']:>9,.0f} "
                  f"{row['hands_per_cpu_s']:>12,.0f} {row['ratio_cpu_s']:>9.1f} {core}")
    return result


if __name__ == "__main__":
    main()
