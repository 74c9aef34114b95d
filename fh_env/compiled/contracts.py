"""The score of a hand and of the game, compiled: the twins of :mod:`fh_env.contracts`.

``hand_points`` and ``contract_made`` read the tables :func:`fh_env.compiled.rules.encode_rules`
builds with the reference functions of the same names; ``end_of_hand`` and ``higher`` are the
reference's logic line by line.  Everything else of :mod:`fh_env.contracts` is only ever used
through the rules record: :data:`PRECOMPUTED` says where (``tests/test_twins.py`` holds every
function of ``fh_env.contracts`` to a twin here or an entry there).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..contracts import DRAW
from .rules import OT_DECLARERS_WIN_BOTH, OT_MUST_BID

GAME_GOES_ON = -1  # the winner field while the game goes on (DRAW is another negative code)

#: The functions of :mod:`fh_env.contracts` with no kernel here, and the rules record fields
#: (:data:`fh_env.compiled.rules.RULES_DTYPE`) that hold what they compute for one rule set.
#: Reference functions with no twin (none: every table size of §9 is compiled).
NOT_COMPILED: dict[str, str] = {}
PRECOMPUTED = {
    "ordinary_value": ("points", "outranking"),
    "contract_value": ("points", "outranking"),
    "Bidding": ("outranking",),  # via engine.rule_tables
}


@njit(cache=True)
def hand_points(r, contract, team, t0, t1):
    """``contracts.hand_points``: each team's points for one hand, given each team's tricks
    (``team`` the declaring team; a negative ``contract`` is no-contract play)."""
    if contract < 0:
        return 10 * np.int64(t0), 10 * np.int64(t1)
    taken = t0 if team == 0 else t1
    mine, theirs = r.points[contract, taken, 0], r.points[contract, taken, 1]
    return (mine, theirs) if team == 0 else (theirs, mine)


@njit(cache=True)
def side_points(r, contract, side, tricks, out):
    """``contracts.hand_points`` for any number of sides: ``out[s]`` the points of side ``s``
    given each side's tricks ``tricks[s]`` (two teams, or three players)."""
    sides = tricks.shape[0]
    if sides == 2:
        out[0], out[1] = hand_points(r, contract, side, tricks[0], tricks[1])
        return
    if contract < 0:
        for s in range(sides):
            out[s] = 10 * np.int64(tricks[s])
        return
    taken = tricks[side]
    per_trick = r.trick_points[contract]
    for s in range(sides):
        if s == side:
            out[s] = r.points[contract, taken, 0]
        else:
            out[s] = r.points[contract, taken, 1] + per_trick * np.int64(tricks[s])


@njit(cache=True)
def contract_made(r, contract, taken):
    """``contracts.contract_made``: whether the declaring team's ``taken`` tricks make it."""
    return r.made[contract, taken] != 0


@njit(cache=True)
def higher(n0, n1):
    """``contracts._higher``: the team with more points, or ``DRAW``."""
    if n0 == n1:
        return DRAW
    return 0 if n0 > n1 else 1


@njit(cache=True)
def higher_among(scores, among):
    """``contracts._higher(scores, among)``: the side (of the bit mask ``among``) with the
    highest score, or ``DRAW`` when two share it."""
    best, top, count = 0, -1, 0
    for s in range(scores.shape[0]):
        if not (among >> s) & 1:
            continue
        if top < 0 or scores[s] > best:
            best, top, count = scores[s], s, 1
        elif scores[s] == best:
            count += 1
    return top if count == 1 else DRAW


@njit(cache=True)
def first_to_reach(scores, reached, takers, ntakers, target):
    """``contracts._first_to_reach``: of the sides of the mask ``reached``, the one whose own
    trick (10 points each, ``takers[:ntakers]`` in order) took it to ``target`` first; -1 if
    none did."""
    r0, r1, r2 = scores[0], scores[1], scores[2]
    for k in range(ntakers):
        side = takers[k]
        if side == 0:
            r0 += 10
            v = r0
        elif side == 1:
            r1 += 10
            v = r1
        else:
            r2 += 10
            v = r2
        if (reached >> side) & 1 and v >= target:
            return side
    return -1


@njit(cache=True)
def end_of_hand_sides(r, scores, points, side, made, hands_played, takers, ntakers, new):
    """``contracts.end_of_hand`` for any number of sides (three players): writes the new scores
    into ``new`` and returns the winner (``GAME_GOES_ON`` while the game goes on)."""
    sides = scores.shape[0]
    everyone = (1 << sides) - 1
    for s in range(sides):
        new[s] = scores[s] + points[s]
        if r.cap_defenders and side >= 0 and s != side and points[s] > 0:
            new[s] = min(new[s], max(scores[s], r.ceiling))
    if r.game_over_hands:
        if hands_played >= r.hands_to_play:
            return higher_among(new, everyone)
        return GAME_GOES_ON
    target, floor = r.target, r.floor
    if r.on_target == OT_MUST_BID:
        if side >= 0 and made and new[side] >= target:
            return side
        down = 0
        for s in range(sides):
            if new[s] <= floor:
                down |= 1 << s
        if down == 0:
            return GAME_GOES_ON
        if down == everyone:
            return higher_among(new, everyone)
        return higher_among(new, everyone ^ down)
    reached, nreached, low = 0, 0, False
    for s in range(sides):
        if new[s] >= target:
            reached |= 1 << s
            nreached += 1
        if new[s] <= floor:
            low = True
    if nreached == 0 and not low:
        return GAME_GOES_ON
    if sides == 3 and nreached > 1:
        if side >= 0 and (reached >> side) & 1:
            return side
        first = first_to_reach(scores, reached, takers, ntakers, target)
        return first if first >= 0 else higher_among(new, reached)
    if r.on_target == OT_DECLARERS_WIN_BOTH and side >= 0 and nreached == sides:
        return side
    return higher_among(new, everyone)


@njit(cache=True)
def end_of_hand(r, s0, s1, p0, p1, team, made, hands_played):
    """``contracts.end_of_hand``: the new scores and the winner (``GAME_GOES_ON`` while it
    goes on)."""
    n0, n1 = s0 + p0, s1 + p1
    rule = r.on_target
    if r.cap_defenders and team >= 0:  # no-contract play has no defenders
        if team != 0 and p0 > 0:
            n0 = min(n0, max(s0, r.ceiling))
        if team != 1 and p1 > 0:
            n1 = min(n1, max(s1, r.ceiling))
    if r.game_over_hands:
        if hands_played >= r.hands_to_play:
            return n0, n1, higher(n0, n1)
        return n0, n1, GAME_GOES_ON
    target, floor = r.target, r.floor
    if rule == OT_MUST_BID:
        if team >= 0 and made and (n0 if team == 0 else n1) >= target:
            return n0, n1, team
        down0, down1 = n0 <= floor, n1 <= floor
        if down0 and down1:
            return n0, n1, higher(n0, n1)
        if down0:
            return n0, n1, 1
        if down1:
            return n0, n1, 0
        return n0, n1, GAME_GOES_ON
    if n0 >= target or n0 <= floor or n1 >= target or n1 <= floor:
        if rule == OT_DECLARERS_WIN_BOTH and team >= 0 and n0 >= target and n1 >= target:
            return n0, n1, team
        return n0, n1, higher(n0, n1)
    return n0, n1, GAME_GOES_ON


@njit(cache=True)
def compiled_codes():
    """The option codes compiled into this module's kernels (see :mod:`.rules`)."""
    return OT_MUST_BID, OT_DECLARERS_WIN_BOTH
