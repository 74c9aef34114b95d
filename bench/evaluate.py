"""``fh-eval``'s two paths side by side: the same duplicate deals played through the reference
engine (one decision at a time, each bot reading a seat view) and batched in the compiled core
(:mod:`arena.batched`: the compiled rule bot, one network forward pass per step for all the
rows where the agent is on turn).  Both paths play the same games (checked here on every run);
the figure is duplicate deals (two hands each) per CPU second, median of ``runs``.

    OMP_NUM_THREADS=1 python -m bench.evaluate [--deals 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

PAIRS = (("neural:ppo-selfplay", "rule"), ("rule", "random"))


def measure(pairs: tuple[tuple[str, str], ...] = PAIRS, deals: int = 200, runs: int = 3,
            seed: int = 0) -> dict[str, Any]:
    """Deals per CPU second of each path for each pair (A, B), and their ratio."""
    import torch

    from arena.batched import batch_player, play_deals
    from arena.duplicate import play_deal
    from agents.registry import make_bot
    from fh_env.rules import Rules

    torch.set_num_threads(1)
    rules = Rules()
    out: dict[str, Any] = {}
    for a_spec, b_spec in pairs:
        a, b = make_bot(a_spec, rules), make_bot(b_spec, rules)
        pa, pb = batch_player(a, rules), batch_player(b, rules)
        play_deals(pa, pb, rules, seed, range(2))  # compile outside the clock
        engine_rates, batched_rates = [], []
        for _ in range(runs):
            t = time.process_time()
            engine = [play_deal(a, b, rules, seed, i) for i in range(deals)]
            engine_rates.append(deals / (time.process_time() - t))
            t = time.process_time()
            batched = play_deals(pa, pb, rules, seed, range(deals))
            batched_rates.append(deals / (time.process_time() - t))
            if batched != engine:
                raise AssertionError(f"{a_spec} vs {b_spec}: the two paths played other games")
        e, bt = statistics.median(engine_rates), statistics.median(batched_rates)
        out[f"{a_spec} vs {b_spec}"] = {"engine_deals_per_cpu_s": e,
                                       "batched_deals_per_cpu_s": bt, "ratio": bt / e}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    for pair, r in measure(deals=args.deals, runs=args.runs).items():
        print(f"{pair:<28} engine {r['engine_deals_per_cpu_s']:8.1f} deals/s   batched "
              f"{r['batched_deals_per_cpu_s']:8.1f} deals/s   x{r['ratio']:.1f}")


if __name__ == "__main__":
    main()
