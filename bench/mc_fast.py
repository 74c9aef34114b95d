"""Speed of compiled Monte Carlo play: ``python -m bench.mc_fast [--samples 100] [--json]``.

Times :class:`agents.mc_fast.FastMCBot` and :class:`agents.mc.MCBot` on the same PLAY decision
points (from rule-bot hands, :func:`bench.mc.decision_points`), CPU time of this process (one
core), and reports the median milliseconds per decision, over all play decisions and over those
with more than one distinct candidate (the others return at once).  ``MCBot`` is timed at
``--mc-samples`` worlds and scaled linearly to ``--samples`` (its cost is linear in the worlds).
The breakdown says where FastMCBot's time goes: building the sampler and drawing the worlds,
loading them into a fast-core batch, the compiled rollouts, the rule bot's tie-break card.
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
from agents.sampler import Determinizer
from bench.mc import decision_points
from fh_env.engine import Phase
from agents.rollout_policy import policy_rollouts
from fh_env.rules import Rules
from fh_env.view import SeatView


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
    stages: dict[str, list[float]] = {"sample": [], "load": [], "rollouts": [], "rule": []}
    rule = RuleBot()
    for i, view in enumerate(views):
        candidates = distinct_plays(view)
        if len(candidates) < 2:
            continue
        rng = random.Random(i)
        t0 = time.process_time()
        det = Determinizer(view)
        worlds = [det.sample(rng) for _ in range(bot.samples)]
        t1 = time.process_time()
        n, k = len(worlds), len(candidates)
        games = bot._batch(worlds[0], n * k)
        games["hands"] = np.repeat(np.array([w.hands for w in worlds], np.uint64), k, axis=0)
        first = np.tile(np.asarray(candidates, np.int64), n)
        t2 = time.process_time()
        policy_rollouts(games, bot._loaders[view.rules]._rules, first)
        t3 = time.process_time()
        rule.act(view, rng)
        t4 = time.process_time()
        for name, dt in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            stages[name].append(1000 * dt)
    return {name: statistics.median(v) for name, v in stages.items() if v}


def summary(ms: list[float], views: list[SeatView], scale: float = 1.0) -> dict[str, float]:
    choice = [m for m, v in zip(ms, views) if len(distinct_plays(v)) > 1]
    return {"median_ms": scale * statistics.median(ms), "mean_ms": scale * statistics.mean(ms),
            "median_ms_with_choice": scale * statistics.median(choice),
            "decisions": len(ms), "with_choice": len(choice)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.mc_fast", description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="australian-no-nullo", help="a preset name")
    p.add_argument("--positions", type=int, default=60, help="play decision points")
    p.add_argument("--samples", type=int, default=100, help="worlds per decision (default 100)")
    p.add_argument("--mc-samples", type=int, default=10,
                   help="worlds for MCBot, scaled to --samples (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    rules = Rules.preset(args.rules)
    views = play_views(rules, args.positions)
    fast = FastMCBot(args.samples)
    fast.act(views[0], random.Random(0))  # compile (or load the cache) outside the timing
    result: dict[str, Any] = {"rules": args.rules, "samples": args.samples}
    result["fast"] = summary(time_decisions(fast, views), views)
    result["fast_breakdown_ms"] = breakdown(fast, views)
    scale = args.samples / args.mc_samples
    result["mc"] = summary(time_decisions(MCBot(args.mc_samples), views), views, scale)
    result["mc"]["measured_samples"] = args.mc_samples
    result["speedup_median_with_choice"] = (result["mc"]["median_ms_with_choice"]
                                            / result["fast"]["median_ms_with_choice"])
    if args.json:
        print(json.dumps(result, indent=2))
        return
    f, m = result["fast"], result["mc"]
    print(f"rules {args.rules}, {f['decisions']} play decisions ({f['with_choice']} with a "
          f"choice), {args.samples} worlds, CPU ms per decision (one core)")
    print(f"{'bot':<28}{'median':>8}{'mean':>8}{'median (choice)':>17}")
    print(f"{'FastMCBot':<28}{f['median_ms']:>8.1f}{f['mean_ms']:>8.1f}"
          f"{f['median_ms_with_choice']:>17.1f}")
    print(f"{f'MCBot ({args.mc_samples} worlds, scaled)':<28}{m['median_ms']:>8.1f}"
          f"{m['mean_ms']:>8.1f}{m['median_ms_with_choice']:>17.1f}")
    print("FastMCBot stages, median ms: " + ", ".join(
        f"{k} {v:.2f}" for k, v in result["fast_breakdown_ms"].items()))


if __name__ == "__main__":
    main()
