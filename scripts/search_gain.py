"""What a search adds a decision, measured on the true deal.

In self-play hands of ``neural:best`` (every seat the network, greedy), at every decision with a
choice (the calls, or with ``--cards`` the cards) the candidates are each played out once on
the true cards by the network at every seat to the end of the hand (``nmc``'s batched replay):
the network's four favourite calls, or every distinct card.  A search's gain at that decision is
the score of the action it takes minus that of the network's.  The true deal is a draw from the
exact posterior of the seat's view, so the mean gain estimates what the search adds a decision
without the noise of the rest of the game (docs/research-log.md, "Searching the calls and the
discards")::

    python scripts/search_gain.py 21200 100 "nmc:best,samples=1,calls=64,rollout=net,belief=1"
    python scripts/search_gain.py 21300 50 --cards nmc:best "nmc:best,rollout=net"
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from agents.registry import make_bot
from arena.stats import mean_ci
from fh_env.actions import PASS
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State
from fh_env.view import seat_view


def true_deal(state: State, repeat: int) -> np.ndarray:
    """The state itself as the one world of a search, ``repeat`` times (fast-core records)."""
    loader = FastGames(1, state.rules)
    loader.set_state(0, state)
    return np.repeat(loader.games, repeat)


def candidates_of(view, network, judge) -> list[int]:
    """The actions a search weighs: the network's four favourite calls (pass among them when
    legal), or every distinct card (``mcfast``'s candidates)."""
    legal = view.legal_actions()
    if view.phase == Phase.PLAY:
        return judge.search._mc.candidates(view)
    preferred = network.preferences(view)
    candidates = sorted(legal, key=lambda a: preferred[a])[:4]
    if PASS in legal and PASS not in candidates:
        candidates[-1] = PASS
    return candidates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first_seed", type=int, help="the first hand's seed")
    parser.add_argument("hands", type=int, help="hands, of seeds first_seed onwards")
    parser.add_argument("specs", nargs="+", help="nmc specs (with calls=N for the calls)")
    parser.add_argument("--cards", action="store_true", help="the card decisions, not the "
                        "calls")
    args = parser.parse_args(argv)
    try:
        searches = [make_bot(spec) for spec in args.specs]
    except ValueError as err:
        parser.exit(2, f"search_gain: error: {err}\n")
    if not all(hasattr(b, "decide_call") for b in searches) or (
            not args.cards and not all(b.calls for b in searches)):
        parser.exit(2, "search_gain: error: every spec must be nmc (with calls=N above 0 for "
                       "the calls)\n")
    judge = make_bot("nmc:best,samples=1,calls=1,rollout=net")
    network = judge.network
    gains: list[list[float]] = [[] for _ in searches]
    changed, seconds, decisions = [0] * len(searches), [0.0] * len(searches), 0
    own = [0] * len(searches)  # the decisions each search made itself (cards=leads: the leads)
    for seed in range(args.first_seed, args.first_seed + args.hands):
        state = State(seed=seed)
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            view = seat_view(state, state.turn)
            mine = network.act(view, random.Random(0))
            searched = view.phase == (Phase.PLAY if args.cards else Phase.AUCTION)
            candidates = candidates_of(view, network, judge) if searched else []
            if candidates and mine not in candidates:
                candidates.append(mine)  # a card the search counts as equal to one of them
            if len(candidates) > 1:
                world = true_deal(state, len(candidates))
                values = (judge.network_scores(view, candidates, world) if args.cards
                          else judge.call_scores(view, candidates, world))
                scores = dict(zip(candidates, values))
                for k, bot in enumerate(searches):
                    started = time.perf_counter()
                    rng = random.Random(seed * 7 + decisions)
                    if args.cards and not bot.searches(view):  # cards=leads and the like
                        action = mine
                    else:
                        action = (bot.decide if args.cards else bot.decide_call)(view, rng)[0]
                        own[k] += 1
                    seconds[k] += time.perf_counter() - started
                    gains[k].append(scores[action] - scores[mine])
                    changed[k] += action != mine
                decisions += 1
            if not args.cards and view.phase != Phase.AUCTION:
                break
            state.apply(mine)
    for k, spec in enumerate(args.specs):
        mean, low, high, _ = mean_ci(gains[k])
        print(f"{spec}: decisions {decisions}, changed {changed[k]}, gain a decision "
              f"{mean:+.1f} [{low:+.1f}, {high:+.1f}], "
              f"{1000 * seconds[k] / max(own[k], 1):.0f} ms a searched decision "
              f"({own[k]} searched)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
