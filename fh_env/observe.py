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

Other table sizes (§9): :func:`layout` gives the layout of 3 or 6 players, built from the same
block list with the number of seats and of card ids as parameters: every seat block has one
entry per relative seat (0..2 or 0..5: with six players the partners are seats 2 and 4), every
card block one per card id of the table size's action table (0..45 with three players, whose
pack is a part of the 4-player one; 0..63 with six), a trick slot one row per seat, and the
scores one entry per side (three players: the observer, its left, its right; six: its team,
the other).  Three players have no ``sitting_out`` block (nobody sits out); with six both
partners of a nullo declarer are marked.  The rules block leaves out, besides ``players`` and
``nullo_claims``, the options that the table size fixes (``deck``, ``double_nullo``, §9.3).
The names of this module (``LAYOUT``, ``OBS_SIZE``, ``layout_table()`` …) are the 4-player
layout's; :func:`encode`, :func:`observation`, :func:`action_mask`, :func:`encode_state`,
:func:`decode` and :func:`observation_bounds` take any table size.  The index tables of 3 and
6 players are in docs/environment.md (``layout(3).table()``, ``layout(6).table()``).

The environments do not call :func:`encode` at every step: :mod:`fh_env.observe_incremental`
keeps each seat's observation up to date from the game's events (byte-identical to
:func:`observation`, entry positions from the same :class:`Layout`).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Iterable, Mapping

import numpy as np

from . import actions as A
from .actions import action_table
from .cards import NT_STANDARD, NUM_CARDS
from .contracts import contract_value
from .engine import NO_CONTRACT, State, side_of, sitting_out_seats, trick_order
from .rules import _CHOICES, Rules
from .view import SeatView, seat_view

OBS_VERSION = 1
NUM_BIDS = A.DOUBLE_NULLO  # bid actions 1..28
TRICK_WIDTH = 4 + 4 * NUM_CARDS + 4  # leader, the cards by seat, led suit (4 players)
# Divisors of the scalar entries (fh_env.compiled.observe, the compiled encoder, reads them too).
VALUE_SCALE = 500.0  # bid_value, scores and the point-valued rule options
CALLS_SCALE = 32.0  # num_calls
TRICKS_SCALE = 10.0  # tricks_won
HANDS_SCALE = 10.0  # hands_played
_ROUNDS_SCALE = 10.0
_SCALES = {"hands_to_play": 10.0}  # every other integer option is divided by VALUE_SCALE
TABLE_SIZES = (4, 3, 6)


# ---------------------------------------------------------------------------- the layout
# Rule options the observation leaves out: the table size is the layout's own (one layout per
# size), and claims are made by people at the table, never by an agent (§5.11).
_NOT_OBSERVED = ("players", "nullo_claims")
# ... and, with 3 or 6 players, the options the table size fixes (§9.3).
_FIXED_BY_SIZE = ("deck", "double_nullo")


def _rules_layout(not_observed: tuple[str, ...] = _NOT_OBSERVED
                  ) -> tuple[list[tuple[str, int, str]], list[tuple[str, str]]]:
    """The 0/1 rules entries (name, width, meaning) and the rule values (name, meaning)."""
    flags, values = [], []
    for f in dataclasses.fields(Rules):
        if f.name in not_observed:
            continue
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


# The range of each scalar entry, next to its block: a function of (rules, episode) giving
# (low, high) as values *before* scaling by the block's divisor (scalars or per-entry lists);
# :func:`observation_bounds` divides them.  Where the rules set no bound, ``UNBOUNDED`` (the
# largest float32, unscaled): a game to points with on_target=must_bid can go on without end.
def _range_bid_value(rules: Rules, episode: str) -> tuple[float, float]:
    values = [contract_value(rules, b) for b in range(1, NUM_BIDS + 1)]
    return min(0, *values), max(0, *values)


def _range_scores(rules: Rules, episode: str) -> tuple[float, float]:
    """One hand gives a side at most ``gain`` (a contract, a slam's 250, 100 for tricks in
    defence or no-contract play, plus a set contract's value under when_set=to_defenders) and
    takes at most ``loss`` (a set contract's value); a game to points ends once a side is at
    the target or the floor, a game of hands after ``hands_to_play`` hands."""
    top = max(abs(contract_value(rules, b)) for b in range(1, NUM_BIDS + 1))
    gain, loss = max(top, 250) + 100, top
    if episode == "hand":  # one hand from 0 : 0
        return -loss, gain
    if rules.game_over == "hands":
        return -loss * rules.hands_to_play, gain * rules.hands_to_play
    low = min(0, rules.floor) - loss
    if rules.on_target == "must_bid":  # points in defence never end the game: no upper bound
        return low, UNBOUNDED
    return low, max(0, rules.target) + gain


def _range_hands_played(rules: Rules, episode: str) -> tuple[float, float]:
    if episode == "hand":
        return 0, 1
    if rules.game_over == "hands":
        return 0, rules.hands_to_play
    return 0, UNBOUNDED  # a game to points has no limit on its number of hands


def _range_rule_values(names: list[str]) -> Any:
    """Each value with 0 (0 also stands for an unlimited bidding_rounds)."""
    def rng(rules: Rules, episode: str) -> tuple[list[float], list[float]]:
        values = [0 if v == "unlimited" else v for v in (getattr(rules, n) for n in names)]
        return [min(0, v) for v in values], [max(0, v) for v in values]
    return rng


UNBOUNDED = float(np.finfo(np.float32).max)


def max_calls(players: int = 4) -> int:
    """Calls in one auction at most: each bid once (28), a pass by each seat under each high
    bid and before any (29 per seat), one misdeal (§3.9)."""
    return NUM_BIDS + (NUM_BIDS + 1) * players + 1


MAX_CALLS = max_calls(4)

class Layout:
    """The observation layout of one table size: its blocks, their slices, the encoder and the
    decoder.  Built once per size by :func:`layout`; the module-level names are ``layout(4)``'s.

    ``players``, ``num_cards`` (card ids covered: the action table's), ``sides`` (score
    entries), ``slices`` (block name -> slice), ``size``, ``binary_size`` (entries before it are
    0/1), ``state_size`` (:meth:`encode_state`), ``rules_size``, ``trick_width``, ``led_shift``
    (the led-suit entries inside a trick slot), ``num_actions`` (the action mask's length).
    """

    def __init__(self, players: int) -> None:
        n = self.players = players
        table = action_table(players)
        C = self.num_cards = table.num_cards
        self.num_actions = table.num_actions
        self.sides = 3 if players == 3 else 2
        self.not_observed = _NOT_OBSERVED + (() if players == 4 else _FIXED_BY_SIZE)
        self.rule_flags, self.rule_values = _rules_layout(self.not_observed)
        self.trick_width = n + n * C + 4
        self.led_shift = n + n * C
        seat = "one-hot seat"
        if players == 4:
            sitting = ("sitting_out", 4, "one-hot seat: the declarer's partner in nullo and open "
                       "nullo")
        elif players == 6:
            sitting = ("sitting_out", 6, "per seat: the declarer's partners, who sit out in "
                       "nullo and open nullo")
        else:
            sitting = None
        blocks: list[tuple[str, int, str]] = [
            ("phase", 5, "one-hot AUCTION EXCHANGE PLAY HAND_OVER GAME_OVER"),
            ("turn", n, f"{seat} on turn (none once the hand is over)"),
            ("dealer", n, seat),
            ("bidder", n, f"{seat}: the high bidder (auction), then the declarer"),
            ("bid", NUM_BIDS + 1,
             "one-hot high bid (auction) or contract: b at b - 1; 28: no contract"),
            ("trump", 4, "one-hot S C D H: the trump suit of the contract"),
            sitting,
            ("auction_bids", NUM_BIDS * n, "[bid b - 1, seat]: who made each bid"),
            ("auction_passes", (NUM_BIDS + 1) * n,
             "[high bid h - 1 (28: none yet), seat]: who passed"),
            ("misdeal", n, f"{seat} that called a misdeal"),
            ("shows_joker", n, "per seat: its 6NT bid showed a joker (§3.8)"),
            ("hand", C, "the observer's hand"),
            ("picked_up", C, "the kitty the observer picked up in its exchange"),
            ("discarded", C, "the cards the observer discarded in its exchange"),
            ("exchanged", n, "per seat: it exchanged with the kitty this hand"),
            ("exposed", C, "the open-nullo declarer's hand once exposed (§5.9)"),
            ("voids", n * 5, "[seat, S C D H J]: suits shown void; J: shown to hold no joker"),
            ("tricks", 10 * self.trick_width,
             f"10 slots [leader seat {n}, cards {n} x {C} by seat, led suit 4]"),
            ("rules", sum(w for _, w, _ in self.rule_flags), "0/1 rule options, below"),
        ]
        self.binary_blocks = [b for b in blocks if b is not None]
        scores = ("game score: the observer's team, the other team / 500" if self.sides == 2
                  else "game score per player: the observer, its left, its right / 500")
        calls = max_calls(n)
        self.scalar_blocks: list[tuple[str, int, str, Any]] = [
            ("bid_value", 1, "value (§6) of the high bid or contract / 500",
             (_range_bid_value, VALUE_SCALE)),
            ("num_calls", 1, "calls made in the auction / 32",
             (lambda r, e: (0, calls), CALLS_SCALE)),
            ("discards_left", 1, "discards still to make / kitty size",
             (lambda r, e: (0, 1), 1.0)),
            ("tricks_won", n, "per seat: tricks won / 10", (lambda r, e: (0, 10), TRICKS_SCALE)),
            ("scores", self.sides, scores, (_range_scores, VALUE_SCALE)),
            ("hands_played", 1, "hands played in this game / 10",
             (_range_hands_played, HANDS_SCALE)),
            ("rule_values", len(self.rule_values), "numeric rule options, below",
             (_range_rule_values([name for name, _ in self.rule_values]),
              [_ROUNDS_SCALE if name == "bidding_rounds" else _SCALES.get(name, VALUE_SCALE)
               for name, _ in self.rule_values])),
        ]
        slices: dict[str, slice] = {}
        pos = 0
        for name, width, *_ in self.binary_blocks + self.scalar_blocks:
            slices[name] = slice(pos, pos + width)
            pos += width
        self.slices = slices
        self.size = pos
        self.binary_size = slices["bid_value"].start
        self.state_size = pos + (2 * n + 1) * C
        self.rules_size = slices["rules"].stop - slices["rules"].start + len(self.rule_values)
        self.mask_at = (self.binary_size + 7) // 8 * 8  # the mask follows, byte-aligned
        o = {name: s.start for name, s in slices.items()}
        self._o = o
        self._no_bid_row = NUM_BIDS
        # _rel[me][seat]: a seat relative to the observer ``me``.
        self._rel = tuple(tuple((s - me) % n for s in range(n)) for me in range(n))
        outs = range(-1, n)
        # _card_bits[me][leader][sitting_out + 1]: for each card of a trick in play order, the
        # bits (inside a trick slot) of each card id in its player's row.
        self._card_bits = tuple(
            tuple(
                tuple(
                    tuple(tuple(1 << (n + C * self._rel[me][s] + c) for c in range(C))
                          for s in trick_order(leader, out, n))
                    for out in outs)
                for leader in range(n))
            for me in range(n))
        # _slot_head[me][leader][led]: the leader and led-suit bits of a trick slot.
        self._slot_head = tuple(
            tuple(tuple(1 << self._rel[me][leader] | 1 << (self.led_shift + led)
                        for led in range(4))
                  for leader in range(n))
            for me in range(n))
        # _sitting_bits[me][sitting_out + 1]: the sitting_out block's bits.
        self._sitting_bits = tuple(
            tuple(sum(1 << (o[sitting[0]] + self._rel[me][s])
                      for s in sitting_out_seats(n, out)) if sitting else 0 for out in outs)
            for me in range(n))
        self._auction_cache: dict[tuple[int, tuple[tuple[int, int], ...]], int] = {}
        # _trick_cache[me][sitting_out + 1]: the slot bits of finished tricks (never change).
        self._trick_cache = tuple(tuple({} for _ in outs) for _ in range(n))
        self._rules_data: dict[int, _RulesData] = {}

    # ------------------------------------------------------------------ the table
    def table(self) -> str:
        """The index table of this layout (the 4-player one is in the module docstring)."""
        n, C = self.players, self.num_cards
        if n == 4:
            head = (f"Observation version ``OBS_VERSION = {OBS_VERSION}``: ``OBS_SIZE = "
                    f"{self.size}`` float32 entries, 0/1 up to")
            second = f"``BINARY_SIZE = {self.binary_size}``, scalars after it. "
        else:
            head = (f"Observation version ``OBS_VERSION = {OBS_VERSION}``, {n} players: "
                    f"``layout({n}).size = {self.size}`` float32 entries, 0/1 up to")
            second = f"``binary_size = {self.binary_size}``, scalars after it. "
        rows = [head, second + f"\"seat\" blocks have one entry per relative seat 0..{n - 1};",
                f"card blocks one per card id of :mod:`fh_env.cards` (0..{C - 1}).  Indices::",
                ""]

        def row(span: str, name: str, meaning: str, indent: str = "") -> None:
            line = f"    {span:<10}{indent}{name:<{16 if not indent else 24}}{meaning}"
            while len(line) > 99:  # wrap long choice lists under their option
                cut = line.rindex(" ", 0, 99)
                rows.append(line[:cut])
                line = " " * (30 + 12 * bool(indent)) + line[cut + 1:]
            rows.append(line)

        for name, width, meaning, *_ in self.binary_blocks + self.scalar_blocks:
            s = self.slices[name]
            row(f"{s.start}" if width == 1 else f"{s.start}-{s.stop - 1}", name, meaning)
            if name in ("rules", "rule_values"):
                pos = s.start
                subs = (self.rule_flags if name == "rules"
                        else [(nm, 1, m) for nm, m in self.rule_values])
                for opt, w, what in subs:
                    row(f"{pos}" if w == 1 else f"{pos}-{pos + w - 1}", opt, what, "  ")
                    pos += w
        return "\n".join(rows)

    # ------------------------------------------------------------------ rules
    def rules_data(self, rules: Rules) -> "_RulesData":
        """Cached per Rules object (by identity; the entry keeps the object alive)."""
        cache = self._rules_data
        data = cache.get(id(rules))
        if data is None or data.rules is not rules:
            if len(cache) >= 256:
                cache.clear()
            data = cache[id(rules)] = _rules_data_by_value(rules, self.players)
        return data

    def check_rules(self, rules: Rules) -> None:
        if rules.players != self.players:
            raise ValueError(f"rules for {rules.players} players do not fit the "
                             f"{self.players}-player observation layout")

    # ------------------------------------------------------------------ encoding
    def _auction_bits(self, me: int, calls: tuple[tuple[int, int], ...]) -> int:
        """The auction blocks (bids, passes, misdeal) of ``calls`` seen from seat ``me``;
        cached, as the calls stay the same through the exchange and the play."""
        key = (me, calls)
        cache = self._auction_cache
        bits = cache.get(key)
        if bits is not None:
            return bits
        rel = self._rel[me]
        n = self.players
        o = self._o
        bids_at, passes_at = o["auction_bids"], o["auction_passes"]
        table = 0  # auction_bids and auction_passes are adjacent: one small int for both
        high = self._no_bid_row
        misdeal = 0
        for seat, action in calls:
            if action == A.PASS:
                table |= 1 << (passes_at - bids_at + n * high + rel[seat])
            elif action == A.MISDEAL:
                misdeal = 1 << (o["misdeal"] + rel[seat])
            else:
                high = action - 1
                table |= 1 << (n * high + rel[seat])
        bits = table << bids_at | misdeal
        if len(cache) >= 4096:
            cache.clear()
        cache[key] = bits
        return bits

    def binary_bits(self, view: SeatView, rd: "_RulesData") -> int:
        """The 0/1 entries of the observation as the bits of one int."""
        o = self._o
        me = view.seat
        rel = self._rel[me]
        bits = (rd.flag_bits | self._auction_bits(me, view.calls)
                | 1 << (o["phase"] + view.phase) | 1 << (o["dealer"] + rel[view.dealer]))
        if view.turn >= 0:
            bits |= 1 << (o["turn"] + rel[view.turn])
        contract = view.contract
        bid = view.high_bid if contract is None else contract
        if bid > 0:
            bidder = view.declarer if contract is not None else view.high_bidder
            bits |= 1 << (o["bid"] + bid - 1) | 1 << (o["bidder"] + rel[bidder])
        elif contract == NO_CONTRACT:
            bits |= 1 << (o["bid"] + NUM_BIDS)
        if contract is not None and view.context < NT_STANDARD:
            bits |= 1 << (o["trump"] + view.context)
        out_seat = view.sitting_out + 1
        if out_seat:
            bits |= self._sitting_bits[me][out_seat]
        shows = view.shows_joker
        if shows:
            for seat in range(self.players):
                if shows >> seat & 1:
                    bits |= 1 << (o["shows_joker"] + rel[seat])

        # -- the cards the observer knows
        bits |= view.hand << o["hand"] | view.exposed << o["exposed"]
        picked_at, discarded_at = o["picked_up"], o["discarded"]
        for _, picked, discarded in view.exchanges:
            bits |= picked << picked_at | discarded << discarded_at
        for seat in view.exchanging:
            bits |= 1 << (o["exchanged"] + rel[seat])

        # -- the play
        voids = view.voids
        voids_at = o["voids"]
        for seat in range(self.players):
            if voids[seat]:
                bits |= voids[seat] << (voids_at + 5 * rel[seat])
        card_bits = self._card_bits[me]
        head = self._slot_head[me]
        base = o["tricks"]
        width = self.trick_width
        cache = self._trick_cache[me][out_seat]
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
            base += width
        if view.trick:
            leader = view.leader
            slot = head[leader][view.led]
            for row, c in zip(card_bits[leader][out_seat], view.trick):
                slot |= row[c]
            bits |= slot << base
        return bits

    def fill(self, view: SeatView, rd: "_RulesData", out: np.ndarray, bits: int, count: int
             ) -> np.ndarray:
        """Write the 0/1 entries (from ``bits``) and the scalars into ``out``; returns the
        unpacked bits (``count`` of them)."""
        unpacked = _unpack(bits, count)
        binary = self.binary_size
        out[:binary] = unpacked[:binary]
        n = self.players
        me = view.seat
        won = view.tricks_won
        scores = view.scores
        if self.sides == 2:
            team = me & 1
            side_scores = (scores[team] / VALUE_SCALE, scores[1 - team] / VALUE_SCALE)
        else:
            side_scores = tuple(scores[(me + r) % n] / VALUE_SCALE for r in range(n))
        contract = view.contract
        bid = view.high_bid if contract is None else contract
        out[binary:] = [
            rd.bid_values[bid] if bid > 0 else 0.0, len(view.calls) / CALLS_SCALE,
            view.discards_left / view.kitty_size if view.discards_left else 0.0,
            *(won[(me + r) % n] / TRICKS_SCALE for r in range(n)),
            *side_scores,
            view.hands_played / HANDS_SCALE,
            *rd.values]
        return unpacked

    def encode(self, view: SeatView, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``view`` (float32[size]); fills ``out`` if given."""
        if out is None:
            out = np.empty(self.size, np.float32)
        rd = self.rules_data(view.rules)
        self.fill(view, rd, out, self.binary_bits(view, rd), self.binary_size)
        return out

    def observation(self, view: SeatView) -> dict[str, np.ndarray]:
        """``{"observation": encode(view), "action_mask": action_mask(view)}``."""
        out = np.empty(self.size, np.float32)
        rd = self.rules_data(view.rules)
        bits = self.binary_bits(view, rd) | view.legal << self.mask_at
        unpacked = self.fill(view, rd, out, bits, self.mask_at + self.num_actions)
        return {"observation": out, "action_mask": unpacked[self.mask_at:].view(np.int8)}

    def action_mask(self, view: SeatView) -> np.ndarray:
        """int8[num_actions]: 1 for each legal action of the view's seat (all 0 off turn)."""
        if not view.legal:
            return np.zeros(self.num_actions, np.int8)
        return _unpack(view.legal, self.num_actions).view(np.int8)

    def encode_state(self, state: State, seat: int = 0, out: np.ndarray | None = None
                     ) -> np.ndarray:
        """The full information state from ``seat``'s side (float32[state_size])."""
        n, C = self.players, self.num_cards
        if out is None:
            out = np.empty(self.state_size, np.float32)
        self.encode(seat_view(state, seat), out[:self.size])
        bits = 0
        shift = 0
        for r in range(1, n):
            bits |= state.hands[(seat + r) % n] << shift
            shift += C
        bits |= state.kitty << shift | state.dealt[1] << (shift + C)
        shift += 2 * C
        for who, _, discarded in state.exchanges:
            bits |= discarded << (shift + C * ((who - seat) % n))
        out[self.size:] = _unpack(bits, self.state_size - self.size)
        return out

    # ------------------------------------------------------------------ bounds
    def bounds(self, rules: Rules | Iterable[Rules] = (), episode: str = "game"
               ) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of the observation (see :func:`observation_bounds`), over ``rules``
        and the presets of this table size."""
        from .rules import PRESETS

        sets = [rules] if isinstance(rules, Rules) else list(rules)
        for r in sets:
            self.check_rules(r)
        sets += [p for p in (Rules.preset(name) for name in PRESETS)
                 if p.players == self.players]
        low = np.zeros(self.size, np.float64)
        high = np.ones(self.size, np.float64)
        for name, width, _, (rng, divisor) in self.scalar_blocks:
            block = self.slices[name]
            lows = np.full((len(sets), width), np.inf)
            highs = np.full((len(sets), width), -np.inf)
            for i, r in enumerate(sets):
                lo, hi = rng(r, episode)
                lows[i], highs[i] = lo, hi
            div = np.asarray(divisor, np.float64)
            lo, hi = lows.min(axis=0), highs.max(axis=0)
            # Scaled as the encoder scales (float64 division, then float32), unless unbounded.
            low[block] = np.where(lo <= -UNBOUNDED, -UNBOUNDED, lo / div)
            high[block] = np.where(hi >= UNBOUNDED, UNBOUNDED, hi / div)
        return low.astype(np.float32), high.astype(np.float32)

    def state_bounds(self, rules: Rules | Iterable[Rules] = (), episode: str = "game"
                     ) -> tuple[np.ndarray, np.ndarray]:
        low = np.zeros(self.state_size, np.float32)
        high = np.ones(self.state_size, np.float32)
        low[:self.size], high[:self.size] = self.bounds(rules, episode)
        return low, high

    # ------------------------------------------------------------------ decoding
    def decode(self, vec: np.ndarray, mask: Any = None) -> dict[str, Any]:
        """See :func:`decode`."""
        from .cards import SUITS, card_name
        from .engine import Phase

        n, C = self.players, self.num_cards

        def block(name: str) -> np.ndarray:
            return vec[self.slices[name]]

        def ones(bits: np.ndarray) -> list[int]:
            return [int(i) for i in np.flatnonzero(bits > 0.5)]

        def one(name: str) -> int | None:
            if name not in self.slices:
                return None
            hot = ones(block(name))
            return hot[0] if hot else None

        rules = self.decode_rules(vec)  # the rules first: card names depend on the deck
        jokers = rules.jokers
        names = action_table(n)

        def cards(bits: np.ndarray) -> list[str]:
            return [card_name(c, jokers) for c in ones(bits)]

        def bid_name(b: int) -> str:
            return names.to_str(b, jokers)

        bid = one("bid")
        if bid is not None:
            bid = NO_CONTRACT if bid == NUM_BIDS else bid + 1
        bids = block("auction_bids").reshape(NUM_BIDS, n)
        passes = block("auction_passes").reshape(NUM_BIDS + 1, n)
        voids = block("voids").reshape(n, 5)
        sitting = ones(block("sitting_out")) if "sitting_out" in self.slices else []
        if len(sitting) == 2:  # six players: the first is the one the other follows by two
            sitting = [sitting[0] if (sitting[0] + 2) % n == sitting[1] else sitting[1]]
        out: dict[str, Any] = {
            "rules": rules,
            "phase": Phase(one("phase")),
            "turn": one("turn"),
            "dealer": one("dealer"),
            "bidder": one("bidder"),
            "bid": bid,
            "bid_name": None if bid is None else "no contract" if bid == NO_CONTRACT
            else bid_name(bid),
            "trump": None if one("trump") is None else SUITS[one("trump")],
            "sitting_out": sitting[0] if sitting else None,
            "auction_bids": [(bid_name(b + 1), r) for b in range(NUM_BIDS)
                             for r in ones(bids[b])],
            "auction_passes": [(None if h == NUM_BIDS else bid_name(h + 1), r)
                               for h in range(NUM_BIDS + 1) for r in ones(passes[h])],
            "misdeal": one("misdeal"),
            "shows_joker": ones(block("shows_joker")),
            "hand": cards(block("hand")),
            "picked_up": cards(block("picked_up")),
            "discarded": cards(block("discarded")),
            "exchanged": ones(block("exchanged")),
            "exposed": cards(block("exposed")),
            "voids": [[(SUITS + "J")[i] for i in ones(voids[r])] for r in range(n)],
        }
        out["tricks"] = self.decode_tricks(block("tricks"), out["sitting_out"], cards)
        value, calls, discards, won, scores, hands = (
            block(nm) for nm in ("bid_value", "num_calls", "discards_left", "tricks_won",
                                 "scores", "hands_played"))
        out.update(
            bid_value=int(round(value[0] * VALUE_SCALE)),
            num_calls=int(round(calls[0] * CALLS_SCALE)),
            discards_left=int(round(discards[0] * rules.kitty_size)),
            tricks_won=[int(round(w * TRICKS_SCALE)) for w in won],
            scores=tuple(int(round(x * VALUE_SCALE)) for x in scores),
            hands_played=int(round(hands[0] * HANDS_SCALE)),
        )
        if mask is not None:
            out["legal"] = [names.to_str(int(a), jokers) for a in np.flatnonzero(mask)]
        if vec.shape == (self.state_size,):
            hidden = vec[self.size:].reshape(2 * n + 1, C)
            out["hidden"] = {"hands": {r: cards(hidden[r - 1]) for r in range(1, n)},
                             "kitty": cards(hidden[n - 1]), "kitty_dealt": cards(hidden[n]),
                             "discards": [cards(hidden[n + 1 + r]) for r in range(n)]}
        return out

    def decode_rules(self, vec: np.ndarray) -> Rules:
        """The rules an observation carries (its ``rules`` and ``rule_values`` blocks)."""
        options: dict[str, Any] = {}
        flags = vec[self.slices["rules"]]
        pos = 0
        for name, width, _ in self.rule_flags:
            bits = flags[pos:pos + width]
            if name in _CHOICES:
                options[name] = _CHOICES[name][int(np.argmax(bits))]
            elif name == "bidding_rounds":
                options[name] = "unlimited" if bits[0] > 0.5 else None
            else:
                options[name] = bool(bits[0] > 0.5)
            pos += width
        for (name, _), value in zip(self.rule_values, vec[self.slices["rule_values"]]):
            if name == "bidding_rounds":
                if options[name] is None:
                    options[name] = int(round(value * _ROUNDS_SCALE))
            else:
                options[name] = int(round(value * _SCALES.get(name, VALUE_SCALE)))
        if self.players != 4:
            options["players"] = self.players
        return Rules(**options)

    def decode_tricks(self, block: np.ndarray, sitting_out: int | None,
                      cards: Any) -> list[dict[str, Any]]:
        """The ``tricks`` block as a list of tricks (leader, plays in order, suit led,
        complete); ``cards(bits)`` names the cards of a bit row."""
        from .cards import SUITS

        n = self.players
        out_seat = -1 if sitting_out is None else sitting_out
        tricks = []
        for slot in block.reshape(10, self.trick_width):
            leader = [int(i) for i in np.flatnonzero(slot[:n] > 0.5)]
            if not leader:
                break
            rows = slot[n:self.led_shift].reshape(n, self.num_cards)
            order = trick_order(leader[0], out_seat, n)
            plays = []
            for r in order:
                played = cards(rows[r])
                if played:
                    plays.append((r, played[0]))
            led = np.flatnonzero(slot[self.led_shift:] > 0.5)
            tricks.append({"leader": leader[0], "plays": plays,
                           "led": SUITS[int(led[0])] if len(led) else None,
                           "complete": len(plays) == len(order)})
        return tricks


_LAYOUTS: dict[int, Layout] = {}


def layout(players: int = 4) -> Layout:
    """The observation layout of a table size (3, 4 or 6 players), built once."""
    found = _LAYOUTS.get(players)
    if found is None:
        if players not in TABLE_SIZES:
            raise ValueError(f"players={players!r}: the table sizes are 3, 4 and 6")
        found = _LAYOUTS[players] = Layout(players)
    return found


_L4 = layout(4)
_BINARY_BLOCKS = _L4.binary_blocks
_SCALAR_BLOCKS = _L4.scalar_blocks
LAYOUT: dict[str, slice] = _L4.slices
OBS_SIZE: int = _L4.size
BINARY_SIZE: int = _L4.binary_size  # entries [0, BINARY_SIZE) are 0/1
STATE_SIZE: int = _L4.state_size
RULES_SIZE: int = _L4.rules_size
LED_SHIFT = _L4.led_shift  # the led-suit entries inside a trick slot
assert TRICK_WIDTH == _L4.trick_width
_O = _L4._o  # the 4-player block starts, for the trump-first relabelling below
_HAND, _PICKED, _DISCARDED, _EXPOSED, _VOIDS, _TRICKS = (
    _O[k] for k in ("hand", "picked_up", "discarded", "exposed", "voids", "tricks"))


def layout_table() -> str:
    """The index table of the module docstring (a test checks that they agree)."""
    return _L4.table()


# ---------------------------------------------------------------------------- rules
class _RulesData:
    """What encoding needs of one rule set, computed once (for its table size's layout)."""

    __slots__ = ("rules", "flag_bits", "values", "bid_values", "features")

    def __init__(self, rules: Rules, lay: Layout) -> None:
        self.rules = rules
        flag_bits, pos = 0, 0
        for name, width, _ in lay.rule_flags:
            value = getattr(rules, name)
            if name in _CHOICES:
                flag_bits |= 1 << (pos + _CHOICES[name].index(value))
            elif name == "bidding_rounds":
                flag_bits |= int(value == "unlimited") << pos
            else:
                flag_bits |= int(value) << pos
            pos += width
        self.flag_bits = flag_bits << lay.slices["rules"].start
        values = []
        for name, _ in lay.rule_values:
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


@lru_cache(maxsize=64)
def _rules_data_by_value(rules: Rules, players: int) -> _RulesData:
    return _RulesData(rules, layout(players))


def _rules_data(rules: Rules) -> _RulesData:
    """Cached per Rules object (by identity; the entry keeps the object alive)."""
    return layout(rules.players).rules_data(rules)


def bid_values(rules: Rules) -> list[float]:
    """The ``bid_value`` entry of each bid id 0..28 under ``rules`` (0.0 at 0: no bid)."""
    return _rules_data(rules).bid_values


def rules_features(rules: Rules) -> np.ndarray:
    """The compact encoding of a rule set: the ``rules`` block then ``rule_values`` (read-only
    float32[RULES_SIZE], or the rules size of its table size's layout), cached per Rules."""
    return _rules_data(rules).features


# ---------------------------------------------------------------------------- encoding
# The 0/1 entries are gathered as the bits of one Python int (bit i = entry i), so that a card
# set is one shift; numpy unpacks the int once at the end.
def _unpack(bits: int, size: int) -> np.ndarray:
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=size, bitorder="little")


def _auction_bits(me: int, calls: tuple[tuple[int, int], ...]) -> int:
    """The 4-player layout's auction bits (see :meth:`Layout._auction_bits`)."""
    return _L4._auction_bits(me, calls)


def _binary_bits(view: SeatView, rd: _RulesData) -> int:
    return layout(view.rules.players).binary_bits(view, rd)


def _fill(view: SeatView, rd: _RulesData, out: np.ndarray, bits: int, count: int
          ) -> np.ndarray:
    return layout(view.rules.players).fill(view, rd, out, bits, count)


def encode(view: SeatView, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view`` (float32[OBS_SIZE] with four players, the size of
    :func:`layout` of its table size otherwise); fills ``out`` in place if given."""
    return layout(view.rules.players).encode(view, out)


def observation(view: SeatView) -> dict[str, np.ndarray]:
    """``{"observation": encode(view), "action_mask": action_mask(view)}``, the PettingZoo
    observation, with one unpacking of the bits for both."""
    return layout(view.rules.players).observation(view)


_MASK_AT = _L4.mask_at  # the mask bits follow the observation's, byte-aligned


def action_mask(view: SeatView) -> np.ndarray:
    """int8[NUM_ACTIONS]: 1 for each legal action of the view's seat (all 0 off turn); the
    action table's length of its table size (166 with six players)."""
    return layout(view.rules.players).action_mask(view)


def encode_state(state: State, seat: int = 0, out: np.ndarray | None = None) -> np.ndarray:
    """The full information state from ``seat``'s side (float32[STATE_SIZE] with four players),
    for critics: the observation of ``seat`` followed by the cards it cannot see (module
    docstring)."""
    return layout(state.rules.players).encode_state(state, seat, out)


# ---------------------------------------------------------------------- bounds
def observation_bounds(rules: Rules | Iterable[Rules] = (), episode: str = "game",
                       players: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``, float32[OBS_SIZE] each: the range of every observation entry, for the
    ``Box`` of an environment's observation space.

    The 0/1 blocks are 0..1; each scalar's range comes from its entry in the block list (its
    ``range``), over ``rules`` (one rule set or several) and every preset of §8 of the same
    table size (so that ``reset(options={"rules": preset})`` stays inside), for episodes of one
    ``"hand"`` or of a whole ``"game"``.  Entries that no rule bounds (the scores of a game to
    points under ``on_target="must_bid"``, the hands played in a game to points) reach up to
    the largest finite float32.  The layout is that of ``players``, else of the rules given
    (which must share one table size), else the 4-player one.
    """
    sets = [rules] if isinstance(rules, Rules) else list(rules)
    return layout(_players_of(sets, players)).bounds(sets, episode)


def state_bounds(rules: Rules | Iterable[Rules] = (), episode: str = "game",
                 players: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of :func:`encode_state` (float32[STATE_SIZE]): the observation's, then
    0..1 for the hidden cards."""
    sets = [rules] if isinstance(rules, Rules) else list(rules)
    return layout(_players_of(sets, players)).state_bounds(sets, episode)


def _players_of(sets: list[Rules], players: int | None) -> int:
    sizes = {r.players for r in sets}
    if players is not None:
        sizes.add(players)
    if len(sizes) > 1:
        raise ValueError(f"observation bounds of rules for {sorted(sizes)} players at once: "
                         "each table size has its own layout")
    return sizes.pop() if sizes else 4


# ---------------------------------------------------------------------- decoding
def decode(obs: np.ndarray | Mapping[str, Any]) -> dict[str, Any]:
    """An observation back into named fields: the inverse of :func:`encode`, for reading and
    debugging.  ``obs`` is the float vector (``OBS_SIZE``, or ``STATE_SIZE`` from
    :func:`encode_state`, or the sizes of the 3- and 6-player layouts) or an env observation
    ``{"observation": ..., "action_mask": ...}``.

    Driven by the block list of the layout its length belongs to.  Seats are relative to the
    observer (0 the observer, 1 its left, 2 its partner with four players, …); cards and
    actions are named as :func:`fh_env.cards.card_name` and the table size's action table name
    them under the decoded rules.  The fields:

    ``rules`` (a :class:`~fh_env.rules.Rules`; the options the observation leaves out,
    ``_NOT_OBSERVED``, at their defaults, ``players`` that of the layout), ``phase`` (a
    :class:`~fh_env.engine.Phase`), ``turn``, ``dealer``, ``bidder`` (high bidder or
    declarer), ``sitting_out`` (with six players the first of the two partners, as
    ``State.sitting_out``), ``misdeal`` (relative seats or None); ``bid`` (the high bid in the
    auction, then the contract: an action id, -1 for no-contract play, None) and ``bid_name``
    ("10S", "nullo", "no contract", None); ``trump`` ("S" "C" "D" "H" or None);
    ``auction_bids`` (``[(bid name, seat)]`` in bid order), ``auction_passes`` (``[(high bid
    name or None, seat)]``), ``shows_joker`` (seats); ``hand``, ``picked_up``, ``discarded``,
    ``exposed`` (card names); ``exchanged`` (seats); ``voids`` (per seat, the suits shown void,
    "J" for no joker); ``tricks`` (``[{"leader", "plays": [(seat, card)] in play order, "led",
    "complete"}]``, the trick in progress last); ``bid_value`` (points), ``num_calls``,
    ``discards_left``, ``tricks_won`` (per seat), ``scores`` (per side: the observer's team,
    the other team; three players: the observer, its left, its right), ``hands_played``;
    ``legal`` (action names) when a mask is given; from a state vector also ``hidden``: the
    hands of the other seats (1, 2, …), ``kitty``, ``kitty_dealt`` and ``discards`` per seat.
    """
    mask = None
    if isinstance(obs, Mapping):
        mask = obs.get("action_mask")
        obs = obs["observation"]
    vec = np.asarray(obs, dtype=np.float64)
    for players in TABLE_SIZES:
        lay = layout(players)
        if vec.shape in ((lay.size,), (lay.state_size,)):
            return lay.decode(vec, mask)
    raise ValueError(f"an observation has shape ({OBS_SIZE},) (or ({STATE_SIZE},) for a "
                     f"state; "
                     + ", ".join(f"({layout(n).size},) or ({layout(n).state_size},) with {n} "
                                 "players" for n in (3, 6))
                     + f"), not {vec.shape}")


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


def rule_flag_slice(name: str, players: int = 4) -> tuple[slice, tuple[Any, ...]]:
    """Where the 0/1 entries of rule option ``name`` lie in an observation of ``players``, and
    the option's choices in the order of its one-hot entries (empty for a single 0/1 entry).

    Why: code that reads an observation (a network's derived inputs) must not re-count the
    rules block by hand.  A KeyError for an option the layout does not observe (``deck`` with
    3 or 6 players: the table size fixes it)."""
    lay = layout(players)
    start = lay.slices["rules"].start
    for flag, width, _ in lay.rule_flags:
        if flag == name:
            return slice(start, start + width), tuple(_CHOICES.get(name, ()))
        start += width
    raise KeyError(f"no 0/1 rule entries named {name!r} with {players} players")
