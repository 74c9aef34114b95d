"""Who sits where in each play of a duplicate deal, and where every seat's randomness comes from.

Deal ``i`` is generated from the seed (its dealer too) and played several times with the same
cards, the bots changing seats:

* four players: twice, agent A's team on seats 0 and 2 and agent B's on 1 and 3, then the other
  way round, so that both teams hold the same cards;
* six players (§9.2): twice in the same way, A's team of three on seats 0, 2, 4 and B's on
  1, 3, 5, then the other way round;
* three players (§9.1, everyone for themselves): three times, A alone on seat 0, 1, then 2,
  with a copy of B on each of the two other seats.

Every random choice comes from the seed and the deal's index (each seat's generator is
``Random("seed/deal/swap/seat")``, ``swap`` the seating), so results depend neither on the
number of worker processes nor on whether the deals are played one by one
(:mod:`arena.duplicate`) or batched (:mod:`arena.batched`): both import this module.
"""

from __future__ import annotations

import random

from agents.base import Bot
from fh_env.engine import HandResult, side_of

#: Whole games are dealt from ``deal_seed(seed + GAME_SEED_OFFSET, index)``, apart from the deals.
GAME_SEED_OFFSET = 7919


def deal_seed(seed: int, index: int) -> int:
    """The engine seed of deal (or game) ``index`` of an evaluation seeded with ``seed``."""
    return random.Random(f"fh-eval/{seed}/{index}").getrandbits(62)


def seat_rngs(seed: int, index: int, swap: int, players: int = 4) -> list[random.Random]:
    return [random.Random(f"{seed}/{index}/{swap}/{seat}") for seat in range(players)]


def seatings(players: int = 4) -> range:
    """The seatings (``swap`` values) of one duplicate deal: 2, or 3 with three players."""
    return range(3 if players == 3 else 2)


def seat_bots(a: Bot, b: Bot, swap: int, players: int = 4) -> list[Bot]:
    """Four or six players: A on the even seats (``swap=0``) or the odd ones (``swap=1``).
    Three players: A on seat ``swap``, B on the two others."""
    if players == 3:
        return [a if seat == swap else b for seat in range(3)]
    return [a if seat % 2 == swap else b for seat in range(players)]


def a_side(swap: int, players: int = 4) -> int:
    """The side (team, or seat with three players) A scores for in seating ``swap``."""
    return swap


def hand_record(res: HandResult, players: int, swap: int) -> tuple:
    """(A points, B points, contract or None, declaring side 'A'/'B'/None, made) of a hand's
    result in seating ``swap``; with three players B's points are the mean of its two seats'."""
    mine = a_side(swap, players)  # A holds seats 0, 2 (team 0) unless swapped
    points = res.hand_points
    team = None
    if res.declarer is not None:
        team = "A" if side_of(players, res.declarer) == mine else "B"
    others = [p for side, p in enumerate(points) if side != mine]
    b_points = others[0] if len(others) == 1 else sum(others) / len(others)
    return (points[mine], b_points, res.contract, team, bool(res.made))


