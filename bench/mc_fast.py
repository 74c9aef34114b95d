"""Speed of compiled Monte Carlo play: ``python -m bench.mc_fast [--rules PRESET] [--samples 100]
[--json]``.

Times :class:`agents.mc_fast.FastMCBot` (worlds from the compiled sampler,
:mod:`fh_env.compiled.sampler`), the same bot drawing its worlds with the Python sampler
(:class:`PythonSamplerMCBot`, ``fh_env.sampler.Determinizer``: the bot before the compiled
sampler) and :class:`agents.mc.MCBot` on the same PLAY decision points (from rule-bot hands,
:func:`bench.mc.decision_points`), CPU time of this process (one core), and reports the median
milliseconds per decision, over all play decisions and over those with more than one distinct
candidate (the others return at once), and each bot's time as a ratio of FastMCBot's.
``MCBot`` is timed at ``--mc-samples`` worlds and scaled linearly to ``--samples`` (its cost is
linear in the worlds).  The breakdown says where FastMCBot's time goes: the candidates, building
the compiled sampler and drawing the worlds, the fast-core records (the public history replayed
once, loaded, copied, each world's hidden cards written), the compiled rule-bot rollouts, the
rule bot's tie-break card; and, for comparison, the Python sampler's drawing of the same number
of worlds.  Every preset, at every table size (``--rules three-handed``, ``six-handed``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

from agents.mc import MCBot, distinct_plays
from agents.mc_fast import FastMCBot
from agents.rule import RuleBot
from fh_env.sampler import Determinizer
from fh_env.compiled.sampler import CompiledSampler
from bench.mc import decision_points
from fh_env.engine import Phase
from bench.common import positive_int
from fh_env.rules import PRESETS, Rules
from fh_env.view import SeatView


class PythonSamplerMCBot(FastMCBot):
    """FastMCBot drawing its worlds with the Python exact sampler, one ``State`` per world, then
    loading them into records (what ``mcfast`` did before the compiled sampler)."""

    def draw_worlds(self, view: SeatView, repeat: int, rng: random.Random) -> np.ndarray:
        det = Determinizer(view)
        worlds = [det.sample(rng) for _ in range(self.samples)]
        games = self._batch(worlds[0], len(worlds) * repeat)
        games["hands"] = np.repeat(np.array([w.hands for w in worlds], np.uint64), repeat, axis=0)
        games["kitty"] = np.repeat(np.array([w.kitty for w in worlds], np.uint64), repeat)
        games["dealt_hands"] = np.repeat(np.array([w.dealt[0] for w in worlds], np.uint64),
                                         repeat, axis=0)
        games["dealt_kitty"] = np.repeat(np.array([w.dealt[1] for w in worlds], np.uint64),
                                         repeat)
        return games


def play_views(rules: Rules, count: int, seed: int = 0) -> list[SeatView]:
    """``count`` PLAY decision points from rule-bot hands."""
    out: list[SeatView] = []
    n = count
    while len(out) < count:
        out = [v for v in decision_points(rules, 2 * n, seed) if v.phase == Phase.PLAY]
        n *= 2
    return out[:count]


def time_decisions(bot: Any, views: list[SeatView]) -> list[float]:
    """CPU milliseconds of ``bot.act`` at each view."""
    out = []
    for i, view in enumerate(views):
        t = time.process_time()
        bot.act(view, random.Random(i))
        out.append(1000 * (time.process_time() - t))
    return out


def breakdown(bot: FastMCBot, views: list[SeatView]) -> dict[str, float]:
    """Median CPU ms per decision of each stage of FastMCBot, at views with a choice."""
    stages: dict[str, list[float]] = {"candidates": [], "sampler": [], "records": [],
                                      "rollouts": [], "rule": [], "python_sampler": []}
    rule = RuleBot()
    for i, view in enumerate(views):
        t0 = time.process_time()
        candidates = distinct_plays(view)
        if len(candidates) < 2:
            continue
        rng = random.Random(i)
        t1 = time.process_time()
        sampler = CompiledSampler(view)
        worlds = sampler.draw(bot.samples, rng.getrandbits(64))
        t2 = time.process_time()
        games = sampler.games(worlds, len(candidates), bot._loader(view.rules))
        t3 = time.process_time()
        bot.score(view, candidates, games)
        t4 = time.process_time()
        rule.act(view, rng)
        t5 = time.process_time()
        det = Determinizer(view)
        for _ in range(bot.samples):
            det.sample(rng)
        t6 = time.process_time()
        for name, dt in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5)):
            stages[name].append(1000 * dt)
    return {name: statistics.median(v) for name, v in stages.items() if v}


def summary(ms: list[float], views: list[SeatView], scale: float = 1.0) -> dict[str, float]:
    choice = [m for m, v in zip(ms, views) if len(distinct_plays(v)) > 1]
    return {"median_ms": scale * statistics.median(ms), "mean_ms": scale * statistics.mean(ms),
            "median_ms_with_choice": scale * statistics.median(choice),
            "decisions": len(ms), "with_choice": len(choice)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.mc_fast", description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="australian-no-nullo", choices=sorted(PRESETS),
                   help="a preset name (three-handed, six-handed: the other table sizes)")
    p.add_argument("--positions", type=positive_int, default=60, help="play decision points")
    p.add_argument("--samples", type=positive_int, default=100,
                   help="worlds per decision (default 100)")
    p.add_argument("--mc-samples", type=positive_int, default=10,
                   help="worlds for MCBot, scaled to --samples (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    rules = Rules.preset(args.rules)
    views = play_views(rules, args.positions)
    fast = FastMCBot(args.samples)
    before = PythonSamplerMCBot(args.samples)
    for bot in (fast, before):  # compile (or load the cache) outside the timing
        bot.act(views[0], random.Random(0))
    result: dict[str, Any] = {"rules": args.rules, "samples": args.samples}
    result["fast"] = summary(time_decisions(fast, views), views)
    result["fast_python_sampler"] = summary(time_decisions(before, views), views)
    result["fast_breakdown_ms"] = breakdown(fast, views)
    scale = args.samples / args.mc_samples
    result["mc"] = summary(time_decisions(MCBot(args.mc_samples), views), views, scale)
    result["mc"]["measured_samples"] = args.mc_samples
    key = "median_ms_with_choice"
    result["speedup_median_with_choice"] = result["mc"][key] / result["fast"][key]
    result["sampler_speedup_median_with_choice"] = (result["fast_python_sampler"][key]
                                                    / result["fast"][key])
    if args.json:
        print(json.dumps(result, indent=2))
        return
    f = result["fast"]
    print(f"rules {args.rules}, {f['decisions']} play decisions ({f['with_choice']} with a "
          f"choice), {args.samples} worlds, CPU ms per decision (one core); ratio: median "
          f"(choice) / FastMCBot's")
    print(f"| {'bot':<38} | {'median':>6} | {'mean':>6} | {'median (choice)':>15} | "
          f"{'ratio':>6} |")
    print(f"|{'-' * 40}|{'-' * 7}:|{'-' * 7}:|{'-' * 16}:|{'-' * 7}:|")
    rows = (("FastMCBot (compiled sampler)", result["fast"]),
            ("FastMCBot, Python sampler (before)", result["fast_python_sampler"]),
            (f"MCBot ({args.mc_samples} worlds, scaled)", result["mc"]))
    for name, m in rows:
        print(f"| {name:<38} | {m['median_ms']:>6.2f} | {m['mean_ms']:>6.2f} | "
              f"{m[key]:>15.2f} | {m[key] / f[key]:>6.1f} |")
    print("FastMCBot stages, median ms: " + ", ".join(
        f"{k} {v:.3f}" for k, v in result["fast_breakdown_ms"].items()))


if __name__ == "__main__":
    main()
