"""Contract values (§6.1, §6.8), the ranking of bids (§2.4, §2.5) and the score of a hand (§6).

Pure functions of the rules; the engine builds a :class:`Bidding` table once per rule set.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import (BID_BASE, DOUBLE_NULLO, NULLO, NULLO_TYPES, NUM_ORDINARY_BIDS, OPEN_NULLO,
                      bid_level, bid_strain, is_ordinary_bid)
from .rules import Rules

NUM_TRICKS = 10


def ordinary_value(scoring: str, level: int, strain: int) -> int:
    """The value of an ordinary contract under a scoring table (§6.1, §6.8)."""
    six = 40 + 20 * strain
    if scoring == "avondale":
        return six + 100 * (level - 6)
    if scoring == "perfect":
        return six - 20 + 100 * (level - 6)
    if scoring == "original":
        return six * (level - 5)
    raise ValueError(f"unknown scoring table {scoring!r}")


def contract_value(rules: Rules, bid: int) -> int:
    """The value of any bid as a contract (§6.1, §2.4)."""
    if bid == NULLO:
        return rules.nullo_value
    if bid == OPEN_NULLO:
        return rules.open_nullo_value
    if bid == DOUBLE_NULLO:
        return rules.double_nullo_value
    return ordinary_value(rules.scoring, bid_level(bid), bid_strain(bid))


@dataclass(frozen=True)
class Bidding:
    """Which bid outranks which under one rule set (§2.4-2.5), as a precomputed table."""

    rules: Rules

    def __post_init__(self) -> None:
        bids = list(range(BID_BASE, BID_BASE + NUM_ORDINARY_BIDS)) + list(NULLO_TYPES)
        table = {(new, old): self._outranks(new, old) for new in bids for old in bids}
        object.__setattr__(self, "_table", table)

    def outranks(self, new: int, old: int) -> bool:
        """Whether bid ``new`` may be made over the current high bid ``old`` (-1: none)."""
        return old < 0 or self._table[(new, old)]  # type: ignore[attr-defined]

    def _outranks(self, new: int, old: int) -> bool:
        r = self.rules
        if is_ordinary_bid(new) and is_ordinary_bid(old):
            return new > old  # action ids follow the bid order: level, then strain
        if not is_ordinary_bid(new) and not is_ordinary_bid(old):
            # Two nullo-type bids compare by value; equal values never outrank each other.
            return contract_value(r, new) > contract_value(r, old)
        nullo_type, ordinary = (new, old) if is_ordinary_bid(old) else (old, new)
        if nullo_type == NULLO and r.nullo_ranking == "fixed":
            nullo_higher = bid_level(ordinary) <= 7  # above every 7-level bid, below 8S
        else:
            nv, ov = contract_value(r, nullo_type), contract_value(r, ordinary)
            nullo_higher = nv > ov or (nv == ov and r.open_nullo_ties == "higher")
            if nv == ov and r.open_nullo_ties == "equal":
                return False  # neither outranks the other: the earlier bid keeps precedence
        return nullo_higher if new == nullo_type else not nullo_higher


def hand_points(rules: Rules, contract: int, declaring_side: int,
                side_tricks: tuple[int, ...]) -> tuple[int, ...]:
    """The points each side scores for one hand (§6), before any game-level cap (§7.2).

    A side is a team (four or six players) or a player (three players, §9.1); ``side_tricks``
    holds the tricks each side took.  ``contract`` is a bid action, or -1 for no-contract play
    (§3.3 ``play``), in which case ``declaring_side`` is ignored.  Each defending side scores on
    its own account: its own tricks, and under ``tricks_and_nullo`` or ``when_set=to_defenders``
    what the defence earns (with three players each defender scores it in full: the
    specification gives the defenders' rights to each of them).
    """
    if contract < 0:
        return tuple(10 * n for n in side_tricks)
    value = contract_value(rules, contract)
    taken = side_tricks[declaring_side]
    nullo = contract in NULLO_TYPES
    if nullo:
        made = taken == 0
    else:
        made = taken >= bid_level(contract)
        if made and taken == NUM_TRICKS and rules.slam == "bonus" and value < 250:
            value = 250
    if made:
        declarer_pts, bonus = value, 0
    elif rules.when_set == "subtract":
        declarer_pts, bonus = -value, 0
    else:
        declarer_pts, bonus = 0, value
    points = []
    for side, tricks in enumerate(side_tricks):
        if side == declaring_side:
            points.append(declarer_pts)
        elif nullo:
            points.append(bonus + (10 * taken if rules.defender_scoring == "tricks_and_nullo" else 0))
        else:
            points.append(bonus + (10 * tricks if rules.defender_scoring != "none" else 0))
    return tuple(points)


def contract_made(contract: int, declaring_tricks: int) -> bool:
    if contract in NULLO_TYPES:
        return declaring_tricks == 0
    return declaring_tricks >= bid_level(contract)


DRAW = -2  # the "winner" of a drawn game: no side (team or player) has this number


def end_of_hand(rules: Rules, scores: tuple[int, ...], points: tuple[int, ...],
                declaring_side: int, made: bool, hands_played: int,
                takers: tuple[int, ...] = ()) -> tuple[tuple[int, ...], int | None]:
    """Apply a hand's points to the game (§7): the new scores and the winner, if the game ended.

    One entry per side (two teams, or three players).  ``declaring_side`` is -1 for
    no-contract play.  The winner is a side, ``DRAW``, or None while the game goes on.
    ``hands_played`` counts this hand; ``takers`` is, in order, the side each trick earned 10
    points (three players: who reached the target first, §9.1).  It is empty when tricks earn
    their takers nothing (a nullo-type contract, ``defender_scoring=none``).

    ``defenders_stop_*`` caps "points earned as defenders" (§7.2): a defending side's tricks and
    the value awarded to the defenders under ``when_set=to_defenders``, never points of
    no-contract play, where nobody defends (they count as under ``highest``).  Decisions where
    the specification is silent, with three players:

    * a player who falls to the floor ends the game and the highest score wins (a tie for it is
      a draw), as the higher score wins between two teams; under ``must_bid`` the player at the
      floor loses and the highest of the others wins;
    * when two players reach the target on one hand and neither declared (two defenders, or
      no-contract play), the one whose own trick took them there first wins, counting 10 per
      trick that scored for its taker in the order the tricks were played and anything else
      (the set value under ``when_set=to_defenders``) after the last trick; if no trick took
      either of them there, the higher score wins (equal scores are a draw).
    """
    sides = len(scores)
    new = [s + p for s, p in zip(scores, points)]
    on_target = rules.on_target
    # §7.2's on_target options apply "with points"; a game of a fixed number of hands has no
    # target, so defending points are not capped there.  No-contract play has no defenders.
    if on_target.startswith("defenders_stop_") and rules.game_over == "points":
        ceiling = rules.target - int(on_target.rsplit("_", 1)[1])
        for side in range(sides):
            if declaring_side >= 0 and side != declaring_side and points[side] > 0:
                new[side] = min(new[side], max(scores[side], ceiling))
    result = tuple(new)
    if rules.game_over == "hands":
        if hands_played >= rules.hands_to_play:
            return result, _higher(result)
        return result, None
    target, floor = rules.target, rules.floor
    if on_target == "must_bid":
        if declaring_side >= 0 and made and new[declaring_side] >= target:
            return result, declaring_side
        down = [side for side in range(sides) if new[side] <= floor]
        if not down:
            return result, None
        if len(down) == sides:
            return result, _higher(result)
        return result, _higher(result, [s for s in range(sides) if s not in down])
    reached = [side for side in range(sides) if new[side] >= target]
    if not reached and all(s > floor for s in new):
        return result, None
    if sides == 3 and len(reached) > 1:
        if declaring_side in reached:
            return result, declaring_side
        first = _first_to_reach(scores, reached, takers, target)
        return result, first if first is not None else _higher(result, reached)
    if (on_target == "declarers_win_both" and declaring_side >= 0
            and len(reached) == sides):
        return result, declaring_side
    return result, _higher(result)


def _first_to_reach(scores: tuple[int, ...], reached: list[int], takers: tuple[int, ...],
                    target: int) -> int | None:
    """Of the sides that reached ``target``, the one whose own trick (10 points each, ``takers``
    as in :func:`end_of_hand`) took it there first; None if no trick did (what took them there
    was scored after the tricks: the set value)."""
    running = list(scores)
    for side in takers:
        running[side] += 10
        if side in reached and running[side] >= target:
            return side
    return None


def _higher(scores: tuple[int, ...], among: list[int] | None = None) -> int:
    """The side with the highest score (of ``among``), or ``DRAW`` when two share it."""
    sides = list(range(len(scores))) if among is None else among
    best = max(scores[s] for s in sides)
    top = [s for s in sides if scores[s] == best]
    return top[0] if len(top) == 1 else DRAW
