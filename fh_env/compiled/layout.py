"""Memory layout of the fast core (:mod:`fh_env.compiled.games`): a game record and a rules record.

A batch of games is one numpy structured array of :data:`GAME_DTYPE`, one record per game, so a
compiled kernel takes a single argument and finds one game's fields side by side in memory;
``games["hands"]`` is still the ``[N, 4]`` array of every game's hands (a view, no copy).

A rule set becomes one record of :data:`RULES_DTYPE`: every option encoded as a small integer plus
the tables the engine derives from it, built from the reference code (``fh_env.contracts``,
``fh_env.engine.rule_tables``) so that nothing about bid ranking or scoring is re-derived here,
and the card tables (effective suit, suit masks, strengths by trump context) of
``fh_env.cards.TABLES``.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..cards import DECKS, HONOURS, JOKER, NUM_CARDS, NUM_CONTEXTS, TABLES
from ..contracts import NUM_TRICKS, contract_made, hand_points
from ..engine import rule_tables
from ..rules import Rules

# Phases, as fh_env.engine.Phase.
AUCTION, EXCHANGE, PLAY, HAND_OVER, GAME_OVER = 0, 1, 2, 3, 4
NO_CONTRACT = -1  # as fh_env.engine.NO_CONTRACT
NO_CONTRACT_YET = -2  # the engine's ``contract is None`` (auction not over, or thrown in)
NOT_THROWN, ALL_PASS, INKLE, MISDEAL = 0, 1, 2, 3  # ``thrown_in`` codes; see THROWN_IN_NAMES
THROWN_IN_NAMES = (None, "all_pass", "inkle", "misdeal")
# Calls kept in the log.  An auction has at most 28 bids (each outranks every earlier bid, so no
# bid is made twice; see engine._RuleTables), each after at most 3 passes or an extra call, so it
# fits; to_state() still refuses a game whose log overflowed.
MAX_CALLS = 128

GAME_DTYPE = np.dtype([
    # What every step reads or writes comes first, so that it shares a cache line or two; the
    # logs (calls, tricks, the deal as dealt), read back only by to_state(), come last.
    ("rng", np.uint64),  # this game's random state (xorshift64*)
    ("hands", np.uint64, (4,)), ("kitty", np.uint64),
    ("ncalls", np.int32), ("hands_played", np.int32), ("deal_index", np.int32),
    ("position", np.int16),
    ("phase", np.int8), ("turn", np.int8), ("dealer", np.int8),
    ("winner", np.int8),  # -1 while the game goes on, else a team or contracts.DRAW
    # the auction
    ("open_bids", np.uint64),  # the bids that outrank every bid so far (engine.State.open_bids)
    ("high_bid", np.int8), ("high_bidder", np.int8), ("passed", np.uint8),
    ("passed_since", np.uint8), ("max_level", np.int8), ("nullo_bidders", np.uint8),
    ("reopened", np.bool_), ("shows_joker", np.uint8),
    # the contract and the kitty exchange
    ("contract", np.int8), ("declarer", np.int8), ("context", np.int8), ("sitting_out", np.int8),
    ("discards_left", np.int8), ("nexchanges", np.int8), ("exch_seat", np.int8, (2,)),
    # the play
    ("leader", np.int8), ("led", np.int8), ("ntrick", np.int8), ("trick", np.int8, (4,)),
    ("ntricks", np.int8), ("tricks_won", np.int8, (4,)), ("suits_led", np.uint8),
    ("first_led", np.int8, (5,)), ("voids", np.uint8, (4,)), ("exposed", np.bool_),
    # the result of the hand (valid when has_result) and the game score
    ("has_result", np.bool_), ("thrown_in", np.int8), ("made", np.int8),  # made: -1 = None
    ("result_tricks", np.int8, (2,)), ("hand_points", np.int64, (2,)),
    ("scores", np.int64, (2,)),
    # logs
    ("exch_picked", np.uint64, (2,)), ("exch_discards", np.uint64, (2,)),
    ("trick_leader", np.int8, (NUM_TRICKS,)), ("trick_cards", np.int8, (NUM_TRICKS, 4)),
    ("trick_winner", np.int8, (NUM_TRICKS,)), ("trick_led", np.int8, (NUM_TRICKS,)),
    ("dealt_hands", np.uint64, (4,)), ("dealt_kitty", np.uint64),
    ("calls", np.int8, (MAX_CALLS, 2)),  # (seat, action)
])

# Option codes: the index of each value in these tuples.
_CODES = {
    "reenter": ("never", "always", "after_change"),
    "nullo_kitty": ("always", "never", "nullo_only"),
    "first_leader": ("declarer", "left_of_dealer"),
    "joker_lead": ("any", "not_led", "not_shown_void", "last_card"),
    "joker_follow": ("anytime", "void_only", "first_or_last"),
    "double_nullo": ("off", "after_partner_nullo", "anytime"),
    "on_target": ("highest", "must_bid", "declarers_win_both", "defenders_stop_10",
                  "defenders_stop_40"),
}
JL_ANY, JL_NOT_LED, JL_NOT_SHOWN_VOID, JL_LAST_CARD = range(4)
JF_ANYTIME, JF_VOID_ONLY, JF_FIRST_OR_LAST = range(3)
RE_NEVER, RE_ALWAYS, RE_AFTER_CHANGE = range(3)
NK_ALWAYS, NK_NEVER, NK_NULLO_ONLY = range(3)
DN_OFF, DN_AFTER_PARTNER, DN_ANYTIME = range(3)
OT_HIGHEST, OT_MUST_BID, OT_DECLARERS_WIN_BOTH, OT_STOP_10, OT_STOP_40 = range(5)
NEVER_LEVEL = 99  # a max_level no auction reaches: the nullo-type bid is off
_AFTER_LEVEL = {"off": NEVER_LEVEL, "after7": 7, "after8": 8, "anytime": 0}
_NUM_BIDS = A.DOUBLE_NULLO + 1  # contract ids 1..28 index the points tables

RULES_DTYPE = np.dtype([
    # the card tables of fh_env.cards.TABLES, by trump context; the honours of §3.9 misdeal
    ("suit", np.int8, (NUM_CONTEXTS, NUM_CARDS)), ("suit_mask", np.uint64, (NUM_CONTEXTS, 5)),
    ("strength", np.int16, (NUM_CONTEXTS, 5, NUM_CARDS)), ("honours", np.uint64),
    ("deck", np.int8, (NUM_CARDS,)), ("deck_size", np.int8),  # shuffled cards (no fixed joker)
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
    # points[contract, declaring team's tricks] = (declaring team, other team), from hand_points
    ("points", np.int64, (_NUM_BIDS, NUM_TRICKS + 1, 2)),
    ("made", np.uint8, (_NUM_BIDS, NUM_TRICKS + 1)),  # 1 where made
])



def encode_rules(rules: Rules) -> np.ndarray:
    """The rules record (a 1-element array) of a rule set."""
    t = rule_tables(rules)
    rec = np.zeros(1, RULES_DTYPE)
    r = rec[0]
    r["suit"] = TABLES.suit
    r["suit_mask"] = TABLES.suit_mask
    r["strength"] = TABLES.strength
    r["honours"] = HONOURS
    deck = [c for c in DECKS[rules.deck] if not (rules.highest_joker_in_kitty and c == JOKER)]
    r["deck"][: len(deck)] = deck
    r["deck_size"] = len(deck)
    r["fixed_kitty"] = (1 << JOKER) if rules.highest_joker_in_kitty else 0
    r["kitty_size"] = t.kitty_size
    r["rounds"] = t.rounds
    r["min_level"] = rules.min_bid_level
    r["no_trump_context"] = t.no_trump_context
    r["nullo_context"] = t.nullo_context
    r["nullo_after"] = _AFTER_LEVEL[rules.nullo]
    r["open_nullo_after"] = _AFTER_LEVEL[rules.open_nullo]
    for name in ("double_nullo", "reenter", "nullo_kitty", "first_leader", "joker_lead",
                 "joker_follow", "on_target"):
        r[name] = _CODES[name].index(getattr(rules, name))
    for name in ("inkle", "raise_own_bid", "stick_the_dealer", "six_nt_shows_joker", "misdeal",
                 "nullo_must_play_joker", "finish_early"):
        r[name] = getattr(rules, name)
    r["all_pass_play"] = rules.all_pass == "play"
    r["exposed_at_first_lead"] = rules.open_nullo_exposed == "at_first_lead"
    r["game_over_hands"] = rules.game_over == "hands"
    r["hands_to_play"] = rules.hands_to_play
    r["target"], r["floor"] = rules.target, rules.floor
    stop = {"defenders_stop_10": 10, "defenders_stop_40": 40}.get(rules.on_target, 0)
    r["cap_defenders"] = stop > 0 and rules.game_over == "points"
    r["ceiling"] = rules.target - stop
    r["outranking"] = t.outranking
    r["ordinary_mask"], r["inkle_mask"] = t.ordinary_mask, t.inkle_mask
    for contract in range(A.BID_BASE, _NUM_BIDS):
        for taken in range(NUM_TRICKS + 1):
            r["points"][contract, taken] = hand_points(rules, contract, 0,
                                                       (taken, NUM_TRICKS - taken))
            r["made"][contract, taken] = contract_made(contract, taken)
    return rec
