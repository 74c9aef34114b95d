"""Speed of Monte Carlo decisions: ``python -m bench.mc [--rules R] [--positions N] [--json]``.

Collects decision points from rule-bot hands (auction, kitty exchange and play; only decisions
with a choice), lets each ``mc`` level decide at every one of them (CPU time of this process),
and reports milliseconds per decision by phase, decisions per second and rollouts per second
(one rollout = one candidate action played out to the end of the hand in one sampled world).
Also the speed of bare rollouts (from play positions) and of the sampler.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from agents.mc import LEVELS, MCBot, rollout
from agents.rule import RuleBot
from fh_env.sampler import Determinizer
from fh_env.engine import Phase, State
from bench.common import positive_int
from fh_env.rules import PRESETS, Rules
from fh_env.view import SeatView, seat_view


def decision_points(rules: Rules, count: int, seed: int = 0) -> list[SeatView]:
    """Views of seats on turn with more than one legal action, from rule-bot hands."""
    rng = random.Random(seed)
    bot = RuleBot()
    out: list[SeatView] = []
    hand = 0
    while len(out) < count:
        state = State(rules, seed=seed * 100_000 + hand)
        hand += 1
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            if view.legal & (view.legal - 1) and rng.random() < 0.25:
                out.append(view)
            state.apply(bot.act(view, rng))
    return out[:count]


def time_bot(bot: MCBot, views: list[SeatView]) -> dict[str, Any]:
    """Decisions of ``bot`` at every view: ms per decision by phase, decisions/s, rollouts/s."""
    by_phase: dict[str, list[float]] = {}
    bot.rollouts = 0
    start = time.process_time()
    for i, view in enumerate(views):
        t = time.process_time()
        bot.act(view, random.Random(i))
        by_phase.setdefault(view.phase.name.lower(), []).append(time.process_time() - t)
    total = time.process_time() - start
    return {"ms_per_decision": 1000 * total / len(views),
            "ms_by_phase": {k: 1000 * sum(v) / len(v) for k, v in by_phase.items()},
            "decisions_per_s": len(views) / total, "rollouts_per_s": bot.rollouts / total,
            "rollouts": bot.rollouts}


def bare_speed(rules: Rules, seconds: float = 2.0) -> dict[str, float]:
    """Rollouts per second from play decision points, and sampler draws per second."""
    views = [v for v in decision_points(rules, 60, seed=1) if v.phase == Phase.PLAY]
    worlds = [Determinizer(v).sample(random.Random(0)) for v in views]
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        rollout(worlds[n % len(worlds)].clone())
        n += 1
    rollouts = n / (time.process_time() - start)
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        det = Determinizer(views[n % len(views)])
        for _ in range(10):
            det.sample(random.Random(n))
        n += 1
    return {"rollouts_per_s": rollouts, "samples_per_s": 10 * n / (time.process_time() - start)}


def _levels(text: str) -> list[int]:
    """argparse type: comma-separated mc levels among 4, 5, 6."""
    try:
        levels = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of levels such as 4,5,6") from None
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad:
        raise argparse.ArgumentTypeError(f"no mc level {bad[0]}; levels: "
                                         f"{', '.join(map(str, sorted(LEVELS)))}")
    return levels


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.mc", description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="australian-no-nullo", choices=sorted(PRESETS),
                   help="a preset name")
    p.add_argument("--positions", type=positive_int, default=60,
                   help="decision points (default 60)")
    p.add_argument("--levels", default="4,5,6", type=_levels,
                   help="mc levels to time, among 4, 5, 6 (default 4,5,6)")
    p.add_argument("--infer", action="store_true", help="also time mc-infer at level 4")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    rules = Rules.preset(args.rules)
    views = decision_points(rules, args.positions)
    bots = {f"mc{lv}": MCBot(samples=LEVELS[lv]) for lv in args.levels}
    if args.infer:
        bots["mc-infer"] = MCBot(samples=LEVELS[4], infer=True)
    result: dict[str, Any] = {"rules": args.rules, "positions": len(views),
                              "bare": bare_speed(rules)}
    for name, bot in bots.items():
        result[name] = time_bot(bot, views)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    bare = result["bare"]
    print(f"rules {args.rules}, {len(views)} decision points (CPU time, one process)")
    print(f"bare rollouts from play positions: {bare['rollouts_per_s']:,.0f}/s; "
          f"sampler draws: {bare['samples_per_s']:,.0f}/s")
    print(f"{'bot':<10}{'worlds':>7}{'ms/decision':>13}{'auction':>9}{'exchange':>10}"
          f"{'play':>8}{'decisions/s':>13}{'rollouts/s':>12}")
    for name, bot in bots.items():
        r = result[name]
        ph = r["ms_by_phase"]
        print(f"{name:<10}{bot.samples:>7}{r['ms_per_decision']:>13.1f}"
              f"{ph.get('auction', 0):>9.1f}{ph.get('exchange', 0):>10.1f}"
              f"{ph.get('play', 0):>8.1f}{r['decisions_per_s']:>13.1f}"
              f"{r['rollouts_per_s']:>12,.0f}")


if __name__ == "__main__":
    main()
