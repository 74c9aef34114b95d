"""``fh-eval``'s two paths side by side: the same duplicate deals played through the reference
engine (one decision at a time, each bot reading a seat view) and batched in the compiled core
(:mod:`arena.batched`: the compiled rule bot, one network forward pass per step for all the
rows where the agent is on turn).  Both paths play the same games (checked here on every run);
the figure is duplicate deals (two hands each) per CPU second, median of ``runs``.  Then the
rollout policy of ``nmc:...,rollout=net`` against the network's own forward pass.

    OMP_NUM_THREADS=1 python -m bench.evaluate [--deals 200] [--runs 3] [--search-deals 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

PAIRS = (("neural:ppo-selfplay", "rule"), ("rule", "random"))
#: Searches, on fewer deals (a network-rollout decision takes tens of milliseconds): batched,
#: the network's calls of every row on turn take one forward pass and the card searches'
#: worlds are played out together.
SEARCH_PAIRS = (("nmc:best", "neural:best"), ("nmc:best,samples=30,rollout=net", "neural:best"))


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


def measure_rollout_net(spec: str = "best", positions: int = 1500, runs: int = 3,
                        batch: int | None = None) -> dict[str, float]:
    """Rows a CPU second of ``nmc``'s rollout policy (:class:`agents.net_rollouts.RolloutNet`:
    the first layer sparse, compiled) against the network's own torch forward pass, on the
    observations of ``positions`` decisions of its self-play repeated to ``batch`` rows (the
    size of ``nmc``'s batches in ``fh-eval``, ``agents.nmc.TOGETHER``, unless given: there the
    allocator's page faults once cost more than the arithmetic, and CPU time counts the
    system's); the logits are checked equal."""
    import random

    import numpy as np
    import torch

    from agents.neural import NeuralBot
    from agents.net_rollouts import RolloutNet
    from agents.nmc import TOGETHER
    from fh_env import observe
    from fh_env.engine import Phase, State
    from fh_env.view import seat_view

    torch.set_num_threads(1)
    bot = NeuralBot.load(spec)
    views, seed = [], 0
    while len(views) < positions:
        state = State(bot.rules, seed=seed)
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            views.append(seat_view(state, state.turn))
            state.apply(bot.act(views[-1], random.Random(0)))
        seed += 1
    obs = np.stack([observe.encode(v) for v in views[:positions]]).astype(np.float32)
    batch = TOGETHER if batch is None else batch
    obs = np.resize(obs, (max(batch, positions), obs.shape[1]))  # the positions, repeated
    rows = np.arange(len(obs), dtype=np.int64)
    fast = RolloutNet(bot.net)
    fast.logits(obs, rows)  # compile outside the clock
    torch_rates, fast_rates = [], []
    for _ in range(runs):
        t = time.process_time()
        with torch.no_grad():
            expected, _ = bot.net(torch.from_numpy(obs))
        torch_rates.append(len(rows) / (time.process_time() - t))
        t = time.process_time()
        got, _ = fast.logits(obs, rows)
        fast_rates.append(len(rows) / (time.process_time() - t))
        np.testing.assert_allclose(got, expected.numpy(), rtol=0, atol=2e-4)
    t, f = statistics.median(torch_rates), statistics.median(fast_rates)
    return {"torch_rows_per_cpu_s": t, "rollout_net_rows_per_cpu_s": f, "ratio": f / t}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--search-deals", type=int, default=10, help="deals of the search pairs")
    args = p.parse_args()
    found = measure(deals=args.deals, runs=args.runs)
    found.update(measure(SEARCH_PAIRS, deals=args.search_deals, runs=1))
    for pair, r in found.items():
        print(f"{pair:<54} engine {r['engine_deals_per_cpu_s']:8.1f} deals/s   batched "
              f"{r['batched_deals_per_cpu_s']:8.1f} deals/s   x{r['ratio']:.1f}")
    r = measure_rollout_net(runs=args.runs)
    print(f"{'nmc rollout policy (best), rows':<54} torch {r['torch_rows_per_cpu_s']:9.0f} "
          f"rows/s   RolloutNet {r['rollout_net_rows_per_cpu_s']:9.0f} rows/s   "
          f"x{r['ratio']:.1f}")


if __name__ == "__main__":
    main()
