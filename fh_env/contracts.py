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


def hand_points(rules: Rules, contract: int, declaring_team: int,
                team_tricks: tuple[int, int]) -> tuple[int, int]:
    """The points each team scores for one hand (§6), before any game-level cap (§7.2).

    ``contract`` is a bid action, or -1 for no-contract play (§3.3 ``play``), in which case
    ``declaring_team`` is ignored.
    """
    if contract < 0:
        return (10 * team_tricks[0], 10 * team_tricks[1])
    value = contract_value(rules, contract)
    taken = team_tricks[declaring_team]
    defenders_taken = NUM_TRICKS - taken
    if contract in NULLO_TYPES:
        made = taken == 0
        defence = 10 * taken if rules.defender_scoring == "tricks_and_nullo" else 0
    else:
        made = taken >= bid_level(contract)
        if made and taken == NUM_TRICKS and rules.slam == "bonus" and value < 250:
            value = 250
        defence = 10 * defenders_taken if rules.defender_scoring != "none" else 0
    if made:
        declarer_pts = value
    elif rules.when_set == "subtract":
        declarer_pts = -value
    else:
        declarer_pts, defence = 0, defence + value
    points = [0, 0]
    points[declaring_team] = declarer_pts
    points[1 - declaring_team] = defence
    return (points[0], points[1])


def contract_made(contract: int, declaring_tricks: int) -> bool:
    if contract in NULLO_TYPES:
        return declaring_tricks == 0
    return declaring_tricks >= bid_level(contract)


DRAW = 2  # the "winner" of a drawn game


def end_of_hand(rules: Rules, scores: tuple[int, int], points: tuple[int, int],
                declaring_team: int, made: bool, hands_played: int
                ) -> tuple[tuple[int, int], int | None]:
    """Apply a hand's points to the game (§7): the new scores and the winner, if the game ended.

    ``declaring_team`` is -1 for no-contract play.  The winner is 0 or 1 (a team), ``DRAW``, or
    None while the game goes on.  ``hands_played`` counts this hand.

    Decisions where the specification is silent: under ``defenders_stop_*`` the cap also applies to both
    teams' points in no-contract play (nobody declared, so nobody earned them by bidding), and
    to the value awarded to the defenders under ``when_set=to_defenders``.
    """
    new = [scores[0] + points[0], scores[1] + points[1]]
    on_target = rules.on_target
    # §7.2's on_target options apply "with points"; a game of a fixed number of hands has no
    # target, so defending points are not capped there.
    if on_target.startswith("defenders_stop_") and rules.game_over == "points":
        ceiling = rules.target - int(on_target.rsplit("_", 1)[1])
        for team in (0, 1):
            if team != declaring_team and points[team] > 0:
                new[team] = min(new[team], max(scores[team], ceiling))
    result = (new[0], new[1])
    if rules.game_over == "hands":
        if hands_played >= rules.hands_to_play:
            return result, _higher(result)
        return result, None
    target, floor = rules.target, rules.floor
    if on_target == "must_bid":
        if declaring_team >= 0 and made and new[declaring_team] >= target:
            return result, declaring_team
        down = [team for team in (0, 1) if new[team] <= floor]
        if len(down) == 1:
            return result, 1 - down[0]
        if len(down) == 2:
            return result, _higher(result)
        return result, None
    if any(s >= target or s <= floor for s in new):
        if (on_target == "declarers_win_both" and declaring_team >= 0
                and new[0] >= target and new[1] >= target):
            return result, declaring_team
        return result, _higher(result)
    return result, None


def _higher(scores: tuple[int, int]) -> int:
    if scores[0] == scores[1]:
        return DRAW
    return 0 if scores[0] > scores[1] else 1
