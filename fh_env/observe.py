"""Observation vectors and action masks, built from a :class:`~fh_env.view.SeatView` only.

Pure numpy, no PettingZoo: the env, batched collectors and bots share these functions.  An
observation is read from the view of one seat, so it can never hold more than that seat may
know; it is *seat-relative* (the observer is seat 0 of its own vector: "seat r" means ``r``
seats to the observer's left, so 2 is its partner) and has *perfect recall*: the whole auction,
every trick and every exchange the observer made are in it.

Observation version ``OBS_VERSION = 1``: ``OBS_SIZE = 2509`` float32 entries, 0/1 up to
``BINARY_SIZE = 2492``, scalars after it. "seat" blocks have one entry per relative seat 0..3;
card blocks one per card id of :mod:`fh_env.cards` (0..45).  Indices::

    0-4       phase           one-hot AUCTION EXCHANGE PLAY HAND_OVER GAME_OVER
    5-8       turn            one-hot seat on turn (none once the hand is over)
    9-12      dealer          one-hot seat
    13-16     bidder          one-hot seat: the high bidder (auction), then the declarer
    17-45     bid             one-hot high bid (auction) or contract: b at b - 1; 28: no contract
    46-49     trump           one-hot S C D H: the trump suit of the contract
    50-53     sitting_out     one-hot seat: the declarer's partner in nullo and open nullo
    54-165    auction_bids    [bid b - 1, seat]: who made each bid
    166-281   auction_passes  [high bid h - 1 (28: none yet), seat]: who passed
    282-285   misdeal         one-hot seat that called a misdeal
    286-289   shows_joker     per seat: its 6NT bid showed a joker (§3.8)
    290-335   hand            the observer's hand
    336-381   picked_up       the kitty the observer picked up in its exchange
    382-427   discarded       the cards the observer discarded in its exchange
    428-431   exchanged       per seat: it exchanged with the kitty this hand
    432-477   exposed         the open-nullo declarer's hand once exposed (§5.9)
    478-497   voids           [seat, S C D H J]: suits shown void; J: shown to hold no joker
    498-2417  tricks          10 slots [leader seat 4, cards 4 x 46 by seat, led suit 4]
    2418-2491 rules           0/1 rule options, below
    2418-2424   deck                    one-hot 41 42 43 44 44-nojoker 45 46
    2425        highest_joker_in_kitty  0/1
    2426-2428   min_bid_level           one-hot 6 7 8
    2429-2431   nullo                   one-hot off after7 anytime
    2432-2435   open_nullo              one-hot off after7 after8 anytime
    2436-2438   double_nullo            one-hot off after_partner_nullo anytime
    2439-2440   nullo_ranking           one-hot fixed points
    2441-2443   open_nullo_ties         one-hot higher lower equal
    2444        bidding_rounds          1 when unlimited
    2445-2446   all_pass                one-hot redeal play
    2447        inkle                   0/1
    2448        raise_own_bid           0/1
    2449-2451   reenter                 one-hot never always after_change
    2452        stick_the_dealer        0/1
    2453        six_nt_shows_joker      0/1
    2454        misdeal                 0/1
    2455-2457   nullo_kitty             one-hot always never nullo_only
    2458-2459   first_leader            one-hot declarer left_of_dealer
    2460-2462   notrump_ranking         one-hot standard j5 off
    2463-2466   joker_lead              one-hot any not_led not_shown_void last_card
    2467-2469   joker_follow            one-hot anytime void_only first_or_last
    2470        nullo_must_play_joker   0/1
    2471        jokers_low_in_nullo     0/1
    2472-2473   open_nullo_exposed      one-hot at_first_lead after_first_trick
    2474        finish_early            0/1
    2475-2477   scoring                 one-hot avondale original perfect
    2478-2479   slam                    one-hot bonus bid_value
    2480-2481   when_set                one-hot subtract to_defenders
    2482-2484   defender_scoring        one-hot none tricks tricks_and_nullo
    2485-2486   game_over               one-hot points hands
    2487-2491   on_target               one-hot highest must_bid declarers_win_both
                                          defenders_stop_10 defenders_stop_40
    2492      bid_value       value (§6) of the high bid or contract / 500
    2493      num_calls       calls made in the auction / 32
    2494      discards_left   discards still to make / kitty size
    2495-2498 tricks_won      per seat: tricks won / 10
    2499-2500 scores          game score: the observer's team, the other team / 500
    2501      hands_played    hands played in this game / 10
    2502-2508 rule_values     numeric rule options, below
    2502        nullo_value             value / 500
    2503        open_nullo_value        value / 500
    2504        double_nullo_value      value / 500
    2505        bidding_rounds          rounds / 10, 0 when unlimited
    2506        hands_to_play           value / 10
    2507        target                  value / 500
    2508        floor                   value / 500

The auction (OpenSpiel bridge's compact form): ``auction_bids[b - 1, r]`` is set when seat
``r`` made bid ``b`` (actions 1..28), ``auction_passes[h - 1, r]`` when seat ``r`` passed while
bid ``h`` was the high bid (row 28: before any bid).  A bid must outrank every earlier bid of
the auction (the engine's reading of §2.5, which also holds for the non-transitive ranking of
§6.8), so each bid is made at most once and their order is the order in which they outrank
each other; a seat calls at most once while one bid stands high, in clockwise turn.  So each
cell holds at most one call and the two tables are the whole call history: there is no cap on
the number of calls to document (``num_calls`` counts them).

A trick slot ``t`` (0..9) holds trick ``t``, finished or in progress: its leader, the card each
seat played (one 46-entry row per relative seat) and the led suit (for a joker led without
trumps, the suit its player named).  A sitting-out seat's row stays empty.

The rules (:func:`rules_features`) are every option of :class:`~fh_env.rules.Rules` in field
order: the ``rules`` block holds the multiple-choice options one-hot, the true/false options
and the "unlimited" flag of ``bidding_rounds``; ``rule_values`` holds the numbers.

:func:`encode_state` (for centralised critics) is the observation of one seat followed by what
that seat cannot see: the other seats' hands (seats 1, 2, 3), the kitty now, the kitty as
dealt, and the cards each seat discarded in an exchange (seats 0..3), 46 entries each.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from . import actions as A
from .cards import NT_STANDARD, NUM_CARDS
from .contracts import contract_value
from .engine import NO_CONTRACT, State, trick_order
from .rules import _CHOICES, Rules
from .view import SeatView, seat_view

OBS_VERSION = 1
NUM_BIDS = A.DOUBLE_NULLO  # bid actions 1..28
TRICK_WIDTH = 4 + 4 * NUM_CARDS + 4  # leader, the cards by seat, led suit
# Divisors of the scalar entries (fh_env.compiled.observe, the compiled encoder, reads them too).
VALUE_SCALE = 500.0  # bid_value, scores and the point-valued rule options
CALLS_SCALE = 32.0  # num_calls
TRICKS_SCALE = 10.0  # tricks_won
HANDS_SCALE = 10.0  # hands_played
_ROUNDS_SCALE = 10.0
_SCALES = {"hands_to_play": 10.0}  # every other integer option is divided by VALUE_SCALE


# ---------------------------------------------------------------------------- the layout
def _rules_layout() -> tuple[list[tuple[str, int, str]], list[tuple[str, str]]]:
    """The 0/1 rules entries (name, width, meaning) and the rule values (name, meaning)."""
    flags, values = [], []
    for f in dataclasses.fields(Rules):
        if f.name == "players":
            continue  # only 4 players are implemented; the env is a 4-seat env
        if f.name in _CHOICES:
            choices = _CHOICES[f.name]
            flags.append((f.name, len(choices), "one-hot " + " ".join(str(c) for c in choices)))
        elif f.name == "bidding_rounds":
            flags.append((f.name, 1, "1 when unlimited"))
            values.append((f.name, f"rounds / {_ROUNDS_SCALE:g}, 0 when unlimited"))
        elif isinstance(f.default, bool):
            flags.append((f.name, 1, "0/1"))
        else:
            values.append((f.name, f"value / {_SCALES.get(f.name, VALUE_SCALE):g}"))
    return flags, values


_RULE_FLAGS, _RULE_VALUES = _rules_layout()

# (name, width, meaning): first every 0/1 block, then the scalars.
_BINARY_BLOCKS: list[tuple[str, int, str]] = [
    ("phase", 5, "one-hot AUCTION EXCHANGE PLAY HAND_OVER GAME_OVER"),
    ("turn", 4, "one-hot seat on turn (none once the hand is over)"),
    ("dealer", 4, "one-hot seat"),
    ("bidder", 4, "one-hot seat: the high bidder (auction), then the declarer"),
    ("bid", NUM_BIDS + 1, "one-hot high bid (auction) or contract: b at b - 1; 28: no contract"),
    ("trump", 4, "one-hot S C D H: the trump suit of the contract"),
    ("sitting_out", 4, "one-hot seat: the declarer's partner in nullo and open nullo"),
    ("auction_bids", NUM_BIDS * 4, "[bid b - 1, seat]: who made each bid"),
    ("auction_passes", (NUM_BIDS + 1) * 4, "[high bid h - 1 (28: none yet), seat]: who passed"),
    ("misdeal", 4, "one-hot seat that called a misdeal"),
    ("shows_joker", 4, "per seat: its 6NT bid showed a joker (§3.8)"),
    ("hand", NUM_CARDS, "the observer's hand"),
    ("picked_up", NUM_CARDS, "the kitty the observer picked up in its exchange"),
    ("discarded", NUM_CARDS, "the cards the observer discarded in its exchange"),
    ("exchanged", 4, "per seat: it exchanged with the kitty this hand"),
    ("exposed", NUM_CARDS, "the open-nullo declarer's hand once exposed (§5.9)"),
    ("voids", 4 * 5, "[seat, S C D H J]: suits shown void; J: shown to hold no joker"),
    ("tricks", 10 * TRICK_WIDTH, "10 slots [leader seat 4, cards 4 x 46 by seat, led suit 4]"),
    ("rules", sum(w for _, w, _ in _RULE_FLAGS), "0/1 rule options, below"),
]
_SCALAR_BLOCKS: list[tuple[str, int, str]] = [
    ("bid_value", 1, "value (§6) of the high bid or contract / 500"),
    ("num_calls", 1, "calls made in the auction / 32"),
    ("discards_left", 1, "discards still to make / kitty size"),
    ("tricks_won", 4, "per seat: tricks won / 10"),
    ("scores", 2, "game score: the observer's team, the other team / 500"),
    ("hands_played", 1, "hands played in this game / 10"),
    ("rule_values", len(_RULE_VALUES), "numeric rule options, below"),
]

LAYOUT: dict[str, slice] = {}
_pos = 0
for _name, _width, _ in _BINARY_BLOCKS + _SCALAR_BLOCKS:
    LAYOUT[_name] = slice(_pos, _pos + _width)
    _pos += _width
OBS_SIZE: int = _pos
BINARY_SIZE: int = LAYOUT["bid_value"].start  # entries [0, BINARY_SIZE) are 0/1
STATE_SIZE: int = OBS_SIZE + 9 * NUM_CARDS
RULES_SIZE: int = LAYOUT["rules"].stop - LAYOUT["rules"].start + len(_RULE_VALUES)

_O = {name: s.start for name, s in LAYOUT.items()}
_PHASE, _TURN, _DEALER, _BIDDER, _BID = (_O[k] for k in ("phase", "turn", "dealer", "bidder",
                                                         "bid"))
_TRUMP, _SITTING, _BIDS, _PASSES, _MISDEAL = (_O[k] for k in ("trump", "sitting_out",
                                                              "auction_bids", "auction_passes",
                                                              "misdeal"))
_SHOWS, _HAND, _PICKED, _DISCARDED, _EXCHANGED = (_O[k] for k in ("shows_joker", "hand",
                                                                  "picked_up", "discarded",
                                                                  "exchanged"))
_EXPOSED, _VOIDS, _TRICKS, _RULES = (_O[k] for k in ("exposed", "voids", "tricks", "rules"))
_NO_BID_ROW = NUM_BIDS  # row of auction_passes for passes before any bid
LED_SHIFT = 4 + 4 * NUM_CARDS  # the led-suit entries inside a trick slot

# _REL[me][seat]: a seat relative to the observer ``me``.
_REL = tuple(tuple((s - me) % 4 for s in range(4)) for me in range(4))
# _CARD_BITS[me][leader][sitting_out + 1]: for each card of a trick in play order, the bits
# (inside a trick slot) of each card id in its player's row.
_CARD_BITS = tuple(
    tuple(
        tuple(
            tuple(tuple(1 << (4 + NUM_CARDS * _REL[me][s] + c) for c in range(NUM_CARDS))
                  for s in trick_order(leader, out))
            for out in (-1, 0, 1, 2, 3))
        for leader in range(4))
    for me in range(4))
# _SLOT_HEAD[me][leader][led]: the leader and led-suit bits of a trick slot.
_SLOT_HEAD = tuple(
    tuple(tuple(1 << _REL[me][leader] | 1 << (LED_SHIFT + led) for led in range(4))
          for leader in range(4))
    for me in range(4))


def layout_table() -> str:
    """The index table of the module docstring (a test checks that they agree)."""
    rows = [f"Observation version ``OBS_VERSION = {OBS_VERSION}``: ``OBS_SIZE = {OBS_SIZE}`` "
            "float32 entries, 0/1 up to", f"``BINARY_SIZE = {BINARY_SIZE}``, scalars after it. "
            "\"seat\" blocks have one entry per relative seat 0..3;",
            "card blocks one per card id of :mod:`fh_env.cards` (0..45).  Indices::", ""]

    def row(span: str, name: str, meaning: str, indent: str = "") -> None:
        line = f"    {span:<10}{indent}{name:<{16 if not indent else 24}}{meaning}"
        while len(line) > 99:  # wrap long choice lists under their option
            cut = line.rindex(" ", 0, 99)
            rows.append(line[:cut])
            line = " " * (30 + 12 * bool(indent)) + line[cut + 1:]
        rows.append(line)

    for name, width, meaning in _BINARY_BLOCKS + _SCALAR_BLOCKS:
        s = LAYOUT[name]
        row(f"{s.start}" if width == 1 else f"{s.start}-{s.stop - 1}", name, meaning)
        if name in ("rules", "rule_values"):
            pos = s.start
            subs = _RULE_FLAGS if name == "rules" else [(n, 1, m) for n, m in _RULE_VALUES]
            for opt, w, what in subs:
                row(f"{pos}" if w == 1 else f"{pos}-{pos + w - 1}", opt, what, "  ")
                pos += w
    return "\n".join(rows)


# ---------------------------------------------------------------------------- rules
class _RulesData:
    """What encoding needs of one rule set, computed once."""

    __slots__ = ("rules", "flag_bits", "values", "bid_values", "features")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        flag_bits, pos = 0, 0
        for name, width, _ in _RULE_FLAGS:
            value = getattr(rules, name)
            if name in _CHOICES:
                flag_bits |= 1 << (pos + _CHOICES[name].index(value))
            elif name == "bidding_rounds":
                flag_bits |= int(value == "unlimited") << pos
            else:
                flag_bits |= int(value) << pos
            pos += width
        self.flag_bits = flag_bits << _RULES
        values = []
        for name, _ in _RULE_VALUES:
            value = getattr(rules, name)
            if name == "bidding_rounds":
                values.append(0.0 if value == "unlimited" else value / _ROUNDS_SCALE)
            else:
                values.append(value / _SCALES.get(name, VALUE_SCALE))
        self.values = values
        self.bid_values = [0.0] + [contract_value(rules, b) / VALUE_SCALE
                                   for b in range(1, NUM_BIDS + 1)]
        flags = np.unpackbits(np.frombuffer(flag_bits.to_bytes(16, "little"), np.uint8),
                              count=pos, bitorder="little")
        self.features = np.concatenate([flags, values]).astype(np.float32)
        self.features.flags.writeable = False


_RULES_BY_ID: dict[int, _RulesData] = {}


def _rules_data(rules: Rules) -> _RulesData:
    """Cached per Rules object (by identity; the entry keeps the object alive)."""
    data = _RULES_BY_ID.get(id(rules))
    if data is None or data.rules is not rules:
        if len(_RULES_BY_ID) >= 256:
            _RULES_BY_ID.clear()
        data = _RULES_BY_ID[id(rules)] = _rules_data_by_value(rules)
    return data


@lru_cache(maxsize=64)
def _rules_data_by_value(rules: Rules) -> _RulesData:
    return _RulesData(rules)


def bid_values(rules: Rules) -> list[float]:
    """The ``bid_value`` entry of each bid id 0..28 under ``rules`` (0.0 at 0: no bid)."""
    return _rules_data(rules).bid_values


def rules_features(rules: Rules) -> np.ndarray:
    """The compact encoding of a rule set: the ``rules`` block then ``rule_values`` (read-only
    float32[RULES_SIZE]), cached per Rules."""
    return _rules_data(rules).features


# ---------------------------------------------------------------------------- encoding
# The 0/1 entries are gathered as the bits of one Python int (bit i = entry i), so that a card
# set is one shift; numpy unpacks the int once at the end.
def _unpack(bits: int, size: int) -> np.ndarray:
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=size, bitorder="little")


_AUCTION_CACHE: dict[tuple[int, tuple[tuple[int, int], ...]], int] = {}


def _auction_bits(me: int, calls: tuple[tuple[int, int], ...]) -> int:
    """The auction blocks (bids, passes, misdeal) of ``calls`` seen from seat ``me``; cached,
    as the calls stay the same through the exchange and the play."""
    key = (me, calls)
    bits = _AUCTION_CACHE.get(key)
    if bits is not None:
        return bits
    rel = _REL[me]
    table = 0  # auction_bids and auction_passes are adjacent: one small int for both
    high = _NO_BID_ROW
    misdeal = 0
    for seat, action in calls:
        if action == A.PASS:
            table |= 1 << (_PASSES - _BIDS + 4 * high + rel[seat])
        elif action == A.MISDEAL:
            misdeal = 1 << (_MISDEAL + rel[seat])
        else:
            high = action - 1
            table |= 1 << (4 * high + rel[seat])
    bits = table << _BIDS | misdeal
    if len(_AUCTION_CACHE) >= 4096:
        _AUCTION_CACHE.clear()
    _AUCTION_CACHE[key] = bits
    return bits


# _TRICK_CACHE[me][sitting_out + 1]: the slot bits of finished tricks (they never change).
_TRICK_CACHE: tuple[tuple[dict[tuple, int], ...], ...] = tuple(
    tuple({} for _ in range(5)) for _ in range(4))


def encode(view: SeatView, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view`` (float32[OBS_SIZE]); fills ``out`` in place if given."""
    if out is None:
        out = np.empty(OBS_SIZE, np.float32)
    rd = _rules_data(view.rules)
    _fill(view, rd, out, _binary_bits(view, rd), BINARY_SIZE)
    return out


def observation(view: SeatView) -> dict[str, np.ndarray]:
    """``{"observation": encode(view), "action_mask": action_mask(view)}``, the PettingZoo
    observation, with one unpacking of the bits for both."""
    out = np.empty(OBS_SIZE, np.float32)
    rd = _rules_data(view.rules)
    bits = _binary_bits(view, rd) | view.legal << _MASK_AT
    unpacked = _fill(view, rd, out, bits, _MASK_AT + A.NUM_ACTIONS)
    return {"observation": out, "action_mask": unpacked[_MASK_AT:].view(np.int8)}


_MASK_AT = (BINARY_SIZE + 7) // 8 * 8  # the mask bits follow the observation's, byte-aligned


def _binary_bits(view: SeatView, rd: _RulesData) -> int:
    """The 0/1 entries of the observation as the bits of one int."""
    me = view.seat
    rel = _REL[me]
    bits = (rd.flag_bits | _auction_bits(me, view.calls)
            | 1 << (_PHASE + view.phase) | 1 << (_DEALER + rel[view.dealer]))
    if view.turn >= 0:
        bits |= 1 << (_TURN + rel[view.turn])
    contract = view.contract
    bid = view.high_bid if contract is None else contract
    if bid > 0:
        bidder = view.declarer if contract is not None else view.high_bidder
        bits |= 1 << (_BID + bid - 1) | 1 << (_BIDDER + rel[bidder])
    elif contract == NO_CONTRACT:
        bits |= 1 << (_BID + NUM_BIDS)
    if contract is not None and view.context < NT_STANDARD:
        bits |= 1 << (_TRUMP + view.context)
    if view.sitting_out >= 0:
        bits |= 1 << (_SITTING + rel[view.sitting_out])
    shows = view.shows_joker
    if shows:
        for seat in range(4):
            if shows >> seat & 1:
                bits |= 1 << (_SHOWS + rel[seat])

    # -- the cards the observer knows
    bits |= view.hand << _HAND | view.exposed << _EXPOSED
    for _, picked, discarded in view.exchanges:
        bits |= picked << _PICKED | discarded << _DISCARDED
    for seat in view.exchanging:
        bits |= 1 << (_EXCHANGED + rel[seat])

    # -- the play
    voids = view.voids
    for seat in range(4):
        if voids[seat]:
            bits |= voids[seat] << (_VOIDS + 5 * rel[seat])
    card_bits = _CARD_BITS[me]
    head = _SLOT_HEAD[me]
    out_seat = view.sitting_out + 1
    base = _TRICKS
    cache = _TRICK_CACHE[me][out_seat]
    for trick in view.tricks:
        slot = cache.get(trick)
        if slot is None:
            leader, cards, _, led = trick
            slot = head[leader][led]
            for row, c in zip(card_bits[leader][out_seat], cards):
                slot |= row[c]
            if len(cache) >= 2048:
                cache.clear()
            cache[trick] = slot
        bits |= slot << base
        base += TRICK_WIDTH
    if view.trick:
        leader = view.leader
        slot = head[leader][view.led]
        for row, c in zip(card_bits[leader][out_seat], view.trick):
            slot |= row[c]
        bits |= slot << base

    return bits


def _fill(view: SeatView, rd: _RulesData, out: np.ndarray, bits: int, count: int
          ) -> np.ndarray:
    """Write the 0/1 entries (from ``bits``) and the scalars into ``out``; returns the unpacked
    bits (``count`` of them)."""
    unpacked = _unpack(bits, count)
    out[:BINARY_SIZE] = unpacked[:BINARY_SIZE]
    me = view.seat
    won = view.tricks_won
    scores = view.scores
    team = me & 1
    contract = view.contract
    bid = view.high_bid if contract is None else contract
    out[BINARY_SIZE:] = [
        rd.bid_values[bid] if bid > 0 else 0.0, len(view.calls) / CALLS_SCALE,
        view.discards_left / view.kitty_size if view.discards_left else 0.0,
        won[me] / TRICKS_SCALE, won[(me + 1) & 3] / TRICKS_SCALE,
        won[(me + 2) & 3] / TRICKS_SCALE, won[(me + 3) & 3] / TRICKS_SCALE,
        scores[team] / VALUE_SCALE, scores[1 - team] / VALUE_SCALE,
        view.hands_played / HANDS_SCALE,
        *rd.values]
    return unpacked


def action_mask(view: SeatView) -> np.ndarray:
    """int8[NUM_ACTIONS]: 1 for each legal action of the view's seat (all 0 off turn)."""
    if not view.legal:
        return np.zeros(A.NUM_ACTIONS, np.int8)
    return _unpack(view.legal, A.NUM_ACTIONS).view(np.int8)


def encode_state(state: State, seat: int = 0, out: np.ndarray | None = None) -> np.ndarray:
    """The full information state from ``seat``'s side (float32[STATE_SIZE]), for critics:
    the observation of ``seat`` followed by the cards it cannot see (module docstring)."""
    if out is None:
        out = np.empty(STATE_SIZE, np.float32)
    encode(seat_view(state, seat), out[:OBS_SIZE])
    bits = 0
    shift = 0
    for r in (1, 2, 3):
        bits |= state.hands[(seat + r) % 4] << shift
        shift += NUM_CARDS
    bits |= state.kitty << shift | state.dealt[1] << (shift + NUM_CARDS)
    shift += 2 * NUM_CARDS
    for who, _, discarded in state.exchanges:
        bits |= discarded << (shift + NUM_CARDS * ((who - seat) % 4))
    out[OBS_SIZE:] = _unpack(bits, STATE_SIZE - OBS_SIZE)
    return out


# ---------------------------------------------------------------------- trump-first relabelling
#: For each trump suit (S C D H), the new label of every suit: the trump becomes suit 0, the
#: suit of its colour (the left bower's) suit 1, the other two suits 2 and 3 in their order.
TRUMP_FIRST = ((0, 1, 2, 3), (1, 0, 2, 3), (2, 3, 0, 1), (2, 3, 1, 0))


@lru_cache(maxsize=None)
def trump_first_indices() -> tuple[np.ndarray, np.ndarray]:
    """Gather indices that relabel the suits of an observation so that trumps come first.

    Why: once the contract is made, the rules treat every trump suit alike, but card ids are
    absolute, so a network would have to learn card play four times, once per trump suit.
    Relabelled, "the right bower" or "a trump higher than the trick's best" is one input
    whatever the trump.  The auction and the contract blocks (bid, trump) keep their labels: the
    value of a contract does depend on its suit.

    Returns ``(obs_index, action_index)``, both int64 with 5 rows: row t < 4 for trump suit t,
    row 4 the identity (no trump: auction, no-trump, nullo).  ``relabelled = obs[obs_index[t]]``,
    and a policy's logits over relabelled actions go back to real actions by
    ``logits[action_index[t]]``.  The row is the suit set in the observation's ``trump``
    block (:data:`TRUMP_SLICE`), 4 when that block is empty.
    """
    obs_index = np.tile(np.arange(OBS_SIZE, dtype=np.int64), (5, 1))
    action_index = np.tile(np.arange(A.NUM_ACTIONS, dtype=np.int64), (5, 1))
    card_blocks = [_HAND, _PICKED, _DISCARDED, _EXPOSED]
    card_blocks += [_TRICKS + k * TRICK_WIDTH + 4 + r * NUM_CARDS
                    for k in range(10) for r in range(4)]
    suit_blocks = [_VOIDS + 5 * r for r in range(4)]
    suit_blocks += [_TRICKS + k * TRICK_WIDTH + 4 + 4 * NUM_CARDS for k in range(10)]
    for trump, label in enumerate(TRUMP_FIRST):
        card = {s * 11 + r: label[s] * 11 + r for s in range(4) for r in range(11)}
        for base in card_blocks:
            for old, new in card.items():
                obs_index[trump, base + new] = base + old
        for base in suit_blocks:
            for s in range(4):
                obs_index[trump, base + label[s]] = base + s
        for old, new in card.items():
            for action_base in (A.DISCARD_BASE, A.PLAY_BASE):
                action_index[trump, action_base + old] = action_base + new
        for joker in range(2):
            for s in range(4):
                first = A.JOKER_LEAD_BASE + 4 * joker
                action_index[trump, first + s] = first + label[s]
    obs_index.setflags(write=False)
    action_index.setflags(write=False)
    return obs_index, action_index


#: The trump block of an observation: which row of :func:`trump_first_indices` applies.
TRUMP_SLICE = LAYOUT["trump"]
