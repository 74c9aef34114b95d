"""The rules record, compiled: one rule set as a numpy record of :data:`RULES_DTYPE`.

Mirrors :mod:`fh_env.rules` (every option, encoded as a small integer or a flag) and what the
engine derives once from a rule set (``fh_env.engine.rule_tables``): the tables of bid ranking
and scoring are built from the reference code (``fh_env.contracts``, ``rule_tables``) so that
nothing about them is re-derived here, and the card tables (effective suit, suit masks, strengths
by trump context) are ``fh_env.cards.TABLES``.

An option's code is the index of its value in ``fh_env.rules._CHOICES``; the codes the kernels
compare against (``DN_AFTER_PARTNER``, ...) are derived from that table here, so the two cannot
disagree.  They are compiled into the kernels as constants, which numba's on-disk cache does not
notice when ``fh_env/rules.py`` changes: ``tests/test_twins.py`` checks the compiled-in values
against the current ones (``compiled_codes`` of :mod:`.engine` and :mod:`.contracts`).
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..cards import ALL_CARDS, HONOURS, JOKER, NUM_CONTEXTS, TABLES
from ..contracts import NUM_TRICKS, contract_made, hand_points
from ..engine import rule_tables
from ..rules import _CHOICES, Rules


def _code(option: str, value: str) -> int:
    """The code of one value of an option: its index in ``_CHOICES[option]``."""
    return _CHOICES[option].index(value)


# The options held as their code, each in the record field of the same name.
_CODED = ("double_nullo", "reenter", "nullo_kitty", "first_leader", "joker_lead", "joker_follow",
          "on_target")
JL_ANY, JL_NOT_LED, JL_NOT_SHOWN_VOID = (
    _code("joker_lead", v) for v in ("any", "not_led", "not_shown_void"))
JF_ANYTIME, JF_VOID_ONLY, JF_FIRST_OR_LAST = (
    _code("joker_follow", v) for v in ("anytime", "void_only", "first_or_last"))
RE_NEVER, RE_ALWAYS, RE_AFTER_CHANGE = (
    _code("reenter", v) for v in ("never", "always", "after_change"))
NK_ALWAYS, NK_NULLO_ONLY = (_code("nullo_kitty", v) for v in ("always", "nullo_only"))
DN_AFTER_PARTNER, DN_ANYTIME = (
    _code("double_nullo", v) for v in ("after_partner_nullo", "anytime"))
FL_DECLARER = _code("first_leader", "declarer")
OT_MUST_BID, OT_DECLARERS_WIN_BOTH = (
    _code("on_target", v) for v in ("must_bid", "declarers_win_both"))
NEVER_LEVEL = 99  # a max_level no auction reaches: the nullo-type bid is off
_NUM_BIDS = A.DOUBLE_NULLO + 1  # contract ids 1..28 index the points tables


def _after_level(value: str) -> int:
    """The ``max_level`` from which a ``nullo``/``open_nullo`` value allows the bid."""
    if value == "off":
        return NEVER_LEVEL
    return 0 if value == "anytime" else int(value.removeprefix("after"))


def _defenders_stop(on_target: str) -> int:
    """The points short of the target at which ``defenders_stop_*`` stops the defenders, else 0
    (as ``fh_env.contracts.end_of_hand``)."""
    return int(on_target.rsplit("_", 1)[1]) if on_target.startswith("defenders_stop_") else 0


RULES_DTYPE = np.dtype([
    # the table size (§9): seats, sides (two teams, or three players), the action table's ids
    ("players", np.int8), ("sides", np.int8), ("all_seats", np.uint8),  # all_seats: 1 << n - 1
    ("play_base", np.int16), ("joker_lead_base", np.int16), ("num_actions", np.int16),
    # the card tables of fh_env.cards.TABLES (every id, 0..63), by trump context; the honours
    # of §3.9 misdeal
    ("suit", np.int8, (NUM_CONTEXTS, ALL_CARDS)), ("suit_mask", np.uint64, (NUM_CONTEXTS, 5)),
    ("strength", np.int16, (NUM_CONTEXTS, 5, ALL_CARDS)), ("honours", np.uint64),
    ("deck", np.int8, (ALL_CARDS,)), ("deck_size", np.int8),  # shuffled cards (no fixed joker)
    ("fixed_kitty", np.uint64),  # the highest joker under highest_joker_in_kitty, else 0
    ("kitty_size", np.int8), ("rounds", np.int32), ("min_level", np.int8),
    ("no_trump_context", np.int8), ("nullo_context", np.int8),
    ("nullo_after", np.int8), ("open_nullo_after", np.int8), ("double_nullo", np.int8),
    ("inkle", np.bool_), ("raise_own_bid", np.bool_), ("reenter", np.int8),
    ("stick_the_dealer", np.bool_), ("six_nt_shows_joker", np.bool_), ("misdeal", np.bool_),
    ("all_pass_play", np.bool_), ("nullo_kitty", np.int8), ("first_leader", np.int8),
    ("joker_lead", np.int8), ("joker_follow", np.int8), ("nullo_must_play_joker", np.bool_),
    ("exposed_at_first_lead", np.bool_), ("finish_early", np.bool_),
    ("game_over_hands", np.bool_), ("hands_to_play", np.int64), ("target", np.int64),
    ("floor", np.int64), ("on_target", np.int8),
    ("cap_defenders", np.bool_), ("ceiling", np.int64),  # defenders_stop_*, in a points game
    # outranking[b]: the bids that outrank bid b; ordinary_mask / inkle_mask: the ordinary bids
    # at or above min_bid_level / the level-6 bids below it (engine._RuleTables)
    ("outranking", np.uint64, (_NUM_BIDS,)), ("ordinary_mask", np.uint64),
    ("inkle_mask", np.uint64),
    # points[contract, declaring side's tricks] = (declaring side, other team), from
    # hand_points; with three players (declarer, a defender who took no trick), a defender
    # scoring trick_points[contract] more for each trick it took (checked in encode_rules)
    ("points", np.int64, (_NUM_BIDS, NUM_TRICKS + 1, 2)),
    ("trick_points", np.int64, (_NUM_BIDS,)),
    ("made", np.uint8, (_NUM_BIDS, NUM_TRICKS + 1)),  # 1 where made
    # tricks earn their takers 10 points in an ordinary contract (defender_scoring not none):
    # who reached the target first among three players (contracts.end_of_hand's takers)
    ("defence_tricks_score", np.bool_),
])


def encode_rules(rules: Rules) -> np.ndarray:
    """The rules record (a 1-element array) of a rule set (any table size, §9)."""
    t = rule_tables(rules)
    rec = np.zeros(1, RULES_DTYPE)
    r = rec[0]
    r["players"], r["sides"], r["all_seats"] = rules.players, rules.sides, (1 << rules.players) - 1
    r["play_base"], r["joker_lead_base"] = t.actions.play_base, t.actions.joker_lead_base
    r["num_actions"] = t.actions.num_actions
    # The card tables cover every id (the 4-player packs use ids below 46).
    r["suit"] = TABLES.suit
    r["suit_mask"] = TABLES.suit_mask
    r["strength"] = TABLES.strength
    r["honours"] = HONOURS
    deck = [c for c in rules.cards if not (rules.highest_joker_in_kitty and c == JOKER)]
    r["deck"][: len(deck)] = deck
    r["deck_size"] = len(deck)
    r["fixed_kitty"] = (1 << JOKER) if rules.highest_joker_in_kitty else 0
    r["kitty_size"] = t.kitty_size
    r["rounds"] = t.rounds
    r["min_level"] = rules.min_bid_level
    r["no_trump_context"] = t.no_trump_context
    r["nullo_context"] = t.nullo_context
    r["nullo_after"] = _after_level(rules.nullo)
    r["open_nullo_after"] = _after_level(rules.open_nullo)
    for name in _CODED:
        r[name] = _code(name, getattr(rules, name))
    for name in ("inkle", "raise_own_bid", "stick_the_dealer", "six_nt_shows_joker", "misdeal",
                 "nullo_must_play_joker", "finish_early"):
        r[name] = getattr(rules, name)
    r["all_pass_play"] = rules.all_pass == "play"
    r["exposed_at_first_lead"] = rules.open_nullo_exposed == "at_first_lead"
    r["game_over_hands"] = rules.game_over == "hands"
    r["hands_to_play"] = rules.hands_to_play
    r["target"], r["floor"] = rules.target, rules.floor
    stop = _defenders_stop(rules.on_target)
    r["cap_defenders"] = stop > 0 and rules.game_over == "points"
    r["ceiling"] = rules.target - stop
    r["outranking"] = t.outranking
    r["ordinary_mask"], r["inkle_mask"] = t.ordinary_mask, t.inkle_mask
    r["defence_tricks_score"] = rules.defender_scoring != "none"
    three = rules.sides == 3
    for contract in range(A.BID_BASE, _NUM_BIDS):
        if three:
            base = hand_points(rules, contract, 0, (0, 0, NUM_TRICKS))[1]
            r["trick_points"][contract] = hand_points(rules, contract, 0,
                                                      (0, 1, NUM_TRICKS - 1))[1] - base
        for taken in range(NUM_TRICKS + 1):
            rest = NUM_TRICKS - taken
            if three:
                points = hand_points(rules, contract, 0, (taken, 0, rest))
                r["points"][contract, taken] = points[:2]
                for own in range(rest + 1):  # the decomposition holds for every split
                    want = hand_points(rules, contract, 0, (taken, own, rest - own))
                    got = (points[0], points[1] + own * int(r["trick_points"][contract]))
                    assert want[:2] == got, (rules, contract, taken, own)
            else:
                r["points"][contract, taken] = hand_points(rules, contract, 0, (taken, rest))
            r["made"][contract, taken] = contract_made(contract, taken)
    return rec
