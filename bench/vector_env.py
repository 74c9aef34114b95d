"""Steps and hands per second of ``fh_env.envs.vector.VectorEnv``, beside the engine one at a time.

    python -m bench.vector_env [--preset NAME] [--sizes 64 256 1024] [--seconds 1.0] [--runs 5]
                               [--json]

Every configuration plays uniformly random legal actions, one hand per episode, and produces
for every decision what a trainer needs (the observation and the action mask of the seat on
turn):

* ``engine``: the reference ``fh_env.engine.State``, one game at a time: ``State.apply``, then
  ``observe.encode`` and ``observe.action_mask`` of ``seat_view(state, state.turn)``, the random
  action drawn with ``random.Random`` from the legal actions (what ``fh_env.envs.aec`` does per step);
* ``vector``: ``VectorEnv(N).step`` at each batch size N, the actions drawn in numpy as a masked
  argmax of random numbers over the ``[N, 130]`` masks it returned.  ``core`` leaves out the
  time of that numpy draw, so it is ``step`` alone.

A step is one decision of one game (a ``VectorEnv.step`` call makes N of them); a hand is one
deal played to its end (a hand thrown in counts).  Each figure is the median of ``--runs``
timed runs of about ``--seconds`` of CPU time, after a warm-up (JIT compilation is never timed);
the runs go in rounds, one run of each configuration per round, and each ratio is the median of
the ratios to the engine's run of the same round.  One process, one thread.
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
from fh_env import observe
from fh_env.engine import State
from fh_env.rules import Rules
from fh_env.envs.vector import VectorEnv
from fh_env.view import seat_view

Runner = Callable[[], tuple[int, int, float]]  # -> (steps, hands, CPU s of the chooser)


def _timed(run: Runner, seconds: float) -> dict[str, float]:
    steps = hands = 0
    excluded = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        s, h, chooser = run()
        steps, hands, excluded = steps + s, hands + h, excluded + chooser
        cpu_s = time.process_time() - cpu
        if cpu_s >= seconds:
            wall_s = time.perf_counter() - wall
            return {"steps_per_s": steps / wall_s, "hands_per_s": hands / wall_s,
                    "steps_per_cpu_s": steps / cpu_s, "hands_per_cpu_s": hands / cpu_s,
                    "core_steps_per_cpu_s": steps / (cpu_s - excluded)}


def engine_runner(rules: Rules, seed: int = 0) -> Runner:
    rng = random.Random(seed)
    counter = [seed]
    out = np.empty(observe.OBS_SIZE, np.float32)

    def run() -> tuple[int, int, float]:
        steps = 0
        for _ in range(5):
            counter[0] += 1
            state = State(rules, seed=counter[0])
            while True:
                view = seat_view(state, state.turn)
                observe.encode(view, out)
                observe.action_mask(view)
                state.apply(rng.choice(view.legal_actions()))
                steps += 1
                if state.is_terminal:
                    break
        return steps, 5, 0.0

    return run


def vector_runner(rules: Rules, n: int, seed: int = 0) -> Runner:
    venv = VectorEnv(n, rules, seed=seed)
    rng = np.random.default_rng(seed)
    calls = max(1, 2_000 // n)
    clock = time.process_time
    _, mask, _ = venv.obs, venv.mask, venv.seat

    def run() -> tuple[int, int, float]:
        nonlocal mask
        hands, chooser = 0, 0.0
        for _ in range(calls):
            start = clock()
            actions = np.argmax(np.where(mask != 0, rng.random(mask.shape), -1.0), axis=1)
            chooser += clock() - start
            _, mask, _, _, _, infos = venv.step(actions)
            hands += int(np.count_nonzero(infos["hand_over"]))
        return calls * n, hands, chooser

    return run


def measure(preset: str, sizes: list[int], seconds: float, runs: int) -> dict:
    """Every figure of the benchmark (see the module docstring), as a JSON-compatible dict."""
    rules = Rules.preset(preset)

    runners: dict[tuple[str, int], Runner] = {("engine", 1): engine_runner(rules)}
    for n in sizes:
        runners["vector", n] = vector_runner(rules, n)
    for run in runners.values():
        run()  # warm-up: compile the kernels, fill the caches
    rounds = [{key: _timed(run, seconds) for key, run in runners.items()}
              for _ in range(runs)]
    rows = []
    for key in runners:
        row: dict = {"what": key[0], "n": key[1]}
        for name in rounds[0][key]:
            row[name] = statistics.median(r[key][name] for r in rounds)
        base = "steps_per_cpu_s"
        row["ratio_cpu_s"] = statistics.median(r[key][base] / r["engine", 1][base]
                                               for r in rounds)
        rows.append(row)
    result = {"preset": preset, "seconds": seconds, "runs": runs,
              "python": platform.python_version(), "machine": platform.machine(),
              "results": rows}
    return result


def main(argv: list[str] | None = None) -> dict:
    args = batch_parser(__doc__.split("\n\n")[0], [64, 256, 1024]).parse_args(argv)
    result = measure(args.preset, args.sizes, args.seconds, args.runs)
    rows = result["results"]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"random legal actions, obs + mask per decision, preset {args.preset}, median of "
              f"{args.runs} runs of {args.seconds:g} CPU s, one core")
        print(f"{'what':<7} {'N':>5} {'steps/s':>10} {'hands/s':>9} {'steps/CPU s':>12} "
              f"{'x engine':>9} {'core steps/CPU s':>17}")
        for row in rows:
            print(f"{row['what']:<7} {row['n']:>5} {row['steps_per_s']:>10,.0f} "
                  f"{row['hands_per_s']:>9,.0f} {row['steps_per_cpu_s']:>12,.0f} "
                  f"{row['ratio_cpu_s']:>9.1f} {row['core_steps_per_cpu_s']:>17,.0f}")
    return result


if __name__ == "__main__":
    main()
