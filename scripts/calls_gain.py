"""What a call search adds a decision, measured on the true deal.

In self-play auctions of ``neural:best`` (every seat the network, greedy), at every call with a
choice the network's four favourite calls are each played out once on the true cards (the
network at every seat to the end of the hand, ``nmc``'s batched replay).  A search's gain at
that decision is the score of the call it makes minus that of the network's call.  The true
deal is a draw from the exact posterior of the seat's view, so the mean gain estimates what the
search adds a decision without the noise of the rest of the game (docs/research-log.md,
"Searching the calls and the discards")::

    python scripts/calls_gain.py 21200 100 "nmc:best,samples=1,calls=64,rollout=net,belief=1"
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from agents.registry import make_bot
from fh_env.actions import PASS
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State
from fh_env.view import seat_view


def true_deal(state: State, repeat: int) -> np.ndarray:
    """The state itself as the one world of a search, ``repeat`` times (fast-core records)."""
    loader = FastGames(1, state.rules)
    loader.set_state(0, state)
    return np.repeat(loader.games, repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first_seed", type=int, help="the first hand's seed")
    parser.add_argument("hands", type=int, help="hands, of seeds first_seed onwards")
    parser.add_argument("specs", nargs="+", help="nmc specs with calls=N (the searches)")
    args = parser.parse_args(argv)
    try:
        searches = [make_bot(spec) for spec in args.specs]
    except ValueError as err:
        parser.exit(2, f"calls_gain: error: {err}\n")
    if not all(getattr(b, "calls", 0) for b in searches):
        parser.exit(2, "calls_gain: error: every spec must be nmc with calls=N above 0\n")
    judge = make_bot("nmc:best,samples=1,calls=1,rollout=net")
    network = judge.network
    gains: list[list[float]] = [[] for _ in searches]
    changed, seconds, decisions = [0] * len(searches), [0.0] * len(searches), 0
    for seed in range(args.first_seed, args.first_seed + args.hands):
        state = State(seed=seed)
        while state.phase == Phase.AUCTION:
            view = seat_view(state, state.turn)
            mine = network.act(view, random.Random(0))
            legal = view.legal_actions()
            if len(legal) > 1:
                preferred = network.preferences(view)
                candidates = sorted(legal, key=lambda a: preferred[a])[:4]
                if PASS in legal and PASS not in candidates:
                    candidates[-1] = PASS
                scores = dict(zip(candidates, judge.call_scores(
                    view, candidates, true_deal(state, len(candidates)))))
                for k, bot in enumerate(searches):
                    started = time.perf_counter()
                    call = bot.decide_call(view, random.Random(seed * 7 + decisions))[0]
                    seconds[k] += time.perf_counter() - started
                    gains[k].append(scores[call] - scores[mine])
                    changed[k] += call != mine
                decisions += 1
            state.apply(mine)
    for k, spec in enumerate(args.specs):
        g = np.asarray(gains[k])
        half = 1.96 * g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        print(f"{spec}: decisions {decisions}, calls changed {changed[k]}, gain a decision "
              f"{g.mean():+.1f} [{g.mean() - half:+.1f}, {g.mean() + half:+.1f}], "
              f"{1000 * seconds[k] / max(decisions, 1):.0f} ms a call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
