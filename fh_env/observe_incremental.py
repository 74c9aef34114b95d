"""Incremental observations: each seat's observation kept up to date by the events of the game.

:func:`fh_env.observe.encode` builds an observation from a :class:`~fh_env.view.SeatView` from
nothing (2,509 entries with four players), which costs more than the game step itself.  An
:class:`IncrementalObserver` keeps one float32 buffer per seat and, when a seat is observed,
brings its buffer up to date with what happened since that seat was last observed: a call sets
one auction entry (and the bid, bidder, turn, ``num_calls`` entries), a discard moves a card
from the hand to ``discarded``, a card played sets one entry of its trick slot and clears one of
the hand, a finished trick moves ``tricks_won``, and so on.  Nothing else is touched.

It works by comparing, per seat, a small record of what its buffer holds (the phase, the turn,
the high bid, how many calls, tricks and cards of the current trick it has written, its hand,
the voids, the scores, …) with the engine :class:`~fh_env.engine.State`: the state is the one
source of truth, so nothing has to tell the observer which action was applied (an illegal
action changes nothing in the state, hence nothing here), any seat may be observed at any time,
and a seat that is not observed costs nothing.  Every entry position comes from the table
size's :class:`~fh_env.observe.Layout` (its block slices, ``trick_width``, ``led_shift``), the
same block list that :func:`~fh_env.observe.encode` reads.  A new hand or a new state (a reset,
``next_hand``, a state restored from a pickle or with other hidden cards) starts the buffer
again: a copy of the rule set's template (every entry 0 but the ``rules`` and ``rule_values``
blocks, built once per rule set from :func:`~fh_env.observe.rules_features`), the entries a hand
starts with (phase, turn, dealer, scores, hands played), then the state's events so far.

The result is byte-identical to ``fh_env.observe.observation(seat_view(state, seat))`` at every
step for every seat (tests/test_observe_incremental.py plays random games of every preset).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import actions as A
from .cards import NT_STANDARD
from .engine import NO_CONTRACT, State, sitting_out_seats, trick_order
from .observe import (CALLS_SCALE, HANDS_SCALE, NUM_BIDS, TRICKS_SCALE, VALUE_SCALE, Layout,
                      _unpack, layout)

_PASS, _MISDEAL, _EXCHANGE = A.PASS, A.MISDEAL, 1  # Phase.EXCHANGE


class _Seat:
    """One seat's buffer and what it holds (the values of the state it was last brought to)."""

    __slots__ = ("buf", "mv", "state", "dealt", "rd", "kitty_size", "phase", "turn", "bid",
                 "bidder", "trump", "sitting", "ncalls", "high", "shows", "hand", "nexch",
                 "picked", "discarded", "exposed", "voids", "ntricks", "ncards",
                 "won", "scores", "hands_played", "discards_left",
                 # constants of the seat (set once by the observer): seat -> relative seat,
                 # seat -> its ``turn`` entry, where each trick slot's entries are (``slots``)
                 "rel", "turn_at", "slots")

    def __init__(self, size: int) -> None:
        self.buf = np.zeros(size, np.float32)
        self.mv = memoryview(self.buf)  # item assignment without numpy's per-call overhead
        self.state: State | None = None
        self.dealt: Any = None


class IncrementalObserver:
    """The observations of every seat of one table, updated from the state (module docstring).

    ``observation(state, seat)`` is ``fh_env.observe.observation(seat_view(state, seat))``
    and ``encode(state, seat)`` is ``fh_env.observe.encode(seat_view(state, seat))``, as new
    arrays (the buffers stay inside).  ``clear()`` forgets every buffer.
    """

    def __init__(self, players: int = 4) -> None:
        lay = self.layout = layout(players)
        self.players = n = players
        self._seats = [_Seat(lay.size) for _ in range(n)]
        sl = lay.slices
        self._phase = sl["phase"].start
        self._turn = sl["turn"].start
        self._dealer = sl["dealer"].start
        self._bidder = sl["bidder"].start
        self._bid = sl["bid"].start
        self._trump = sl["trump"].start
        self._sitting = sl["sitting_out"].start if "sitting_out" in sl else -1
        self._bids = sl["auction_bids"].start
        self._passes = sl["auction_passes"].start
        self._misdeal = sl["misdeal"].start
        self._shows = sl["shows_joker"].start
        self._hand = sl["hand"].start
        self._picked = sl["picked_up"].start
        self._discarded = sl["discarded"].start
        self._exchanged = sl["exchanged"].start
        self._exposed = sl["exposed"].start
        self._voids = sl["voids"].start
        self._tricks = sl["tricks"].start
        self._bid_value = sl["bid_value"].start
        self._num_calls = sl["num_calls"].start
        self._discards_left = sl["discards_left"].start
        self._won = sl["tricks_won"].start
        self._scores = sl["scores"].start
        self._hands_played = sl["hands_played"].start
        self._rules = sl["rules"]
        self._rule_values = sl["rule_values"]
        self._templates: dict[int, tuple[Any, np.ndarray]] = {}
        self._masks: dict[int, np.ndarray] = {}  # auction masks, which repeat
        self._num_actions = lay.num_actions
        self._width = lay.trick_width
        self._led_shift = lay.led_shift
        C = lay.num_cards
        # _rel[me][seat]: seat relative to the observer me.
        self._rel = tuple(tuple((s - me) % n for s in range(n)) for me in range(n))
        # _rows[me][leader][sitting_out + 1][i]: where (inside a trick slot) the row of the
        # i-th card of a trick in play order starts.
        self._rows = tuple(
            tuple(tuple(tuple(n + C * self._rel[me][s] for s in trick_order(leader, out, n))
                        for out in range(-1, n))
                  for leader in range(n))
            for me in range(n))
        # Per seat, per trick slot k: (the leader entry of each leader seat, the first led-suit
        # entry, [leader][sitting_out + 1][i]: the row of the i-th card played), absolute.
        slots = lay.slices["tricks"]
        nslots = (slots.stop - slots.start) // self._width
        for me, st in enumerate(self._seats):
            rel = st.rel = self._rel[me]
            st.turn_at = tuple(self._turn + r for r in rel)
            st.slots = tuple(
                (tuple(base + rel[leader] for leader in range(n)), base + self._led_shift,
                 tuple(tuple(tuple(base + row for row in rows) for rows in by_out)
                       for by_out in self._rows[me]))
                for base in (self._tricks + k * self._width for k in range(nslots)))

    def clear(self) -> None:
        """Forget every buffer: the next observation of each seat starts its buffer again."""
        for st in self._seats:
            st.state = st.dealt = None

    # ------------------------------------------------------------------ the public calls
    def encode(self, state: State, seat: int) -> np.ndarray:
        """``fh_env.observe.encode(seat_view(state, seat))``, a new array."""
        return self._update(state, seat).buf.copy()

    def observation(self, state: State, seat: int) -> dict[str, np.ndarray]:
        """``fh_env.observe.observation(seat_view(state, seat))``: new arrays."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        return self._observation(state, seat)

    def _observation(self, state: State, seat: int) -> dict[str, np.ndarray]:
        """:meth:`observation` for a seat known to be one (the AEC env's, at every step)."""
        st = self._seats[seat]  # _update, inlined
        if state is not st.state or state.dealt is not st.dealt:
            self._full(st, state, seat)
        else:
            self._catch_up(st, state, seat)
        if state.turn != seat:
            return {"observation": st.buf.copy(),
                    "action_mask": np.zeros(self._num_actions, np.int8)}
        legal = state.legal_mask()
        if state.phase:  # a few discards or cards: set them
            mask = np.zeros(self._num_actions, np.int8)
            mv = memoryview(mask)
            while legal:
                low = legal & -legal
                mv[low.bit_length() - 1] = 1
                legal ^= low
        else:  # the auction's masks repeat from hand to hand
            masks = self._masks
            found = masks.get(legal)
            if found is None:
                if len(masks) >= 4096:
                    masks.clear()
                found = masks[legal] = _unpack(legal, self._num_actions).view(np.int8)
            mask = found.copy()
        return {"observation": st.buf.copy(), "action_mask": mask}

    # ------------------------------------------------------------------ updating
    def _update(self, state: State, seat: int) -> _Seat:
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        st = self._seats[seat]
        if state is not st.state or state.dealt is not st.dealt:
            self._full(st, state, seat)
        else:
            self._catch_up(st, state, seat)
        return st

    def _full(self, st: _Seat, state: State, me: int) -> None:
        """A new state or a new hand: the buffer from the rules' template (every entry 0 but the
        rules), the entries that a hand starts with, then everything since, as events."""
        lay: Layout = self.layout
        rules = state.rules
        template = self._templates.get(id(rules))
        if template is None or template[0] is not rules:
            lay.check_rules(rules)
            buf = np.zeros(lay.size, np.float32)
            features = lay.rules_data(rules).features
            flags = self._rules.stop - self._rules.start
            buf[self._rules] = features[:flags]
            buf[self._rule_values] = features[flags:]
            if len(self._templates) >= 64:
                self._templates.clear()
            template = self._templates[id(rules)] = (rules, buf)
        st.buf[:] = template[1]
        mv = st.mv
        rel = self._rel[me]
        n = self.players
        st.state, st.dealt = state, state.dealt
        st.rd = lay.rules_data(rules)
        st.kitty_size = rules.kitty_size
        # The entries of a hand before its first event: phase (the auction's, brought to the
        # state's by _catch_up), turn, dealer, scores.
        st.phase = 0
        mv[self._phase] = 1.0
        st.turn = turn = state.turn
        if turn >= 0:
            mv[self._turn + rel[turn]] = 1.0
        mv[self._dealer + rel[state.dealer]] = 1.0
        st.hand = 0
        scores = st.scores = list(state.scores)
        at = self._scores
        if lay.sides == 2:
            team = me & 1
            mv[at] = scores[team] / VALUE_SCALE
            mv[at + 1] = scores[1 - team] / VALUE_SCALE
        else:
            for r in range(n):
                mv[at + r] = scores[(me + r) % n] / VALUE_SCALE
        st.hands_played = state.hands_played
        mv[self._hands_played] = state.hands_played / HANDS_SCALE
        # ... and nothing of the rest yet: _catch_up writes it.
        st.bid = st.bidder = st.trump = st.sitting = -1
        st.ncalls = 0
        st.high = NUM_BIDS
        st.shows = st.nexch = st.picked = st.discarded = st.exposed = 0
        st.voids = [0] * n
        st.won = [0] * n
        st.ntricks = st.ncards = st.discards_left = 0
        self._catch_up(st, state, me)

    @staticmethod
    def _bid_of(s: State) -> tuple[int, int]:
        """(the bid entry set, -1 for none; the bidder seat, -1 for none), as the encoder."""
        contract = s.contract
        if contract is None:
            bid, bidder = s.high_bid, s.high_bidder
        else:
            bid, bidder = contract, s.declarer
        if bid > 0:
            return bid - 1, bidder
        return (NUM_BIDS if contract == NO_CONTRACT else -1), -1

    @staticmethod
    def _trump_of(s: State) -> int:
        return s.context if s.contract is not None and s.context < NT_STANDARD else -1

    @staticmethod
    def _exchange_of(s: State, me: int) -> tuple[int, int]:
        picked = discarded = 0
        for who, p, d in s.exchanges:
            if who == me:
                picked |= p
                discarded |= d
        return picked, discarded

    @staticmethod
    def _exposed_of(s: State, me: int) -> int:
        return s.hands[s.declarer] if s.exposed and me != s.declarer else 0

    def _catch_up(self, st: _Seat, s: State, me: int) -> None:
        """Write into the seat's buffer what changed in the state since it was last written."""
        mv = st.mv
        rel = st.rel
        old_phase = st.phase
        phase = s.phase
        if phase != old_phase:
            mv[self._phase + old_phase] = 0.0
            mv[self._phase + phase] = 1.0
            st.phase = phase
        turn = s.turn
        old = st.turn
        if turn != old:
            at = st.turn_at
            if old >= 0:
                mv[at[old]] = 0.0
            if turn >= 0:
                mv[at[turn]] = 1.0
            st.turn = turn
        hand = s.hands[me]
        old = st.hand
        if hand != old:  # _cards, inlined: a card played or discarded at nearly every step
            diff = hand ^ old
            at = self._hand
            while diff:
                low = diff & -diff
                mv[at + low.bit_length() - 1] = 1.0 if hand & low else 0.0
                diff ^= low
            st.hand = hand

        if old_phase <= _EXCHANGE:  # the auction and the exchanges
            calls = s.calls
            ncalls = len(calls)
            if ncalls != st.ncalls:
                if ncalls < st.ncalls:  # not a continuation of what the buffer holds
                    self._full(st, s, me)
                    return
                n = self.players
                high = st.high
                for seat, action in calls[st.ncalls:]:
                    if action == _PASS:
                        mv[self._passes + n * high + rel[seat]] = 1.0
                    elif action == _MISDEAL:
                        mv[self._misdeal + rel[seat]] = 1.0
                    else:
                        high = action - 1
                        mv[self._bids + n * high + rel[seat]] = 1.0
                st.high = high
                st.ncalls = ncalls
                mv[self._num_calls] = ncalls / CALLS_SCALE
                shows = s.shows_joker
                if shows != st.shows:
                    changed = shows ^ st.shows
                    for seat in range(n):
                        if changed >> seat & 1:
                            mv[self._shows + rel[seat]] = float(shows >> seat & 1)
                    st.shows = shows
                # The contract, trump and sitting out are settled by the call that ends the
                # auction.
                self._contract(st, s, mv, rel)
            exchanges = s.exchanges
            if exchanges:
                if len(exchanges) != st.nexch:
                    for who, _, _ in exchanges[st.nexch:]:
                        mv[self._exchanged + rel[who]] = 1.0
                    st.nexch = len(exchanges)
                picked, discarded = self._exchange_of(s, me)
                if picked != st.picked:
                    _cards(mv, self._picked, st.picked, picked)
                    st.picked = picked
                if discarded != st.discarded:
                    _cards(mv, self._discarded, st.discarded, discarded)
                    st.discarded = discarded
                left = s.discards_left
                if left != st.discards_left:
                    mv[self._discards_left] = left / st.kitty_size if left else 0.0
                    st.discards_left = left
        if s.exposed or st.exposed:
            exposed = self._exposed_of(s, me)
            if exposed != st.exposed:
                _cards(mv, self._exposed, st.exposed, exposed)
                st.exposed = exposed
        if phase < 2:
            return

        # -- the play
        trick = s.trick
        ncards = len(trick)
        tricks = s.tricks
        ntricks = len(tricks)
        k = st.ntricks
        start = st.ncards
        if ntricks != k or ncards != start:
            if ntricks < k:
                self._full(st, s, me)
                return
            st.ntricks = ntricks
            st.ncards = ncards
            out = s.sitting_out + 1
            slots = st.slots
            # tricks_won as the tricks finished since make it (checked against the state below)
            expected = st.won
            finished = ntricks - k
            # The tricks finished since (between two turns of a seat, one trick ends) ...
            while k < ntricks:
                leader, cards, winner, led = tricks[k]
                expected[winner] += 1
                if len(cards) > start:
                    heads, led_at, rows = slots[k]
                    order = rows[leader][out]
                    if start:
                        for i in range(start, len(cards)):
                            mv[order[i] + cards[i]] = 1.0
                    else:
                        mv[heads[leader]] = 1.0
                        mv[led_at + led] = 1.0
                        for row, card in zip(order, cards):
                            mv[row + card] = 1.0
                start = 0
                k += 1
            # ... and the trick in play.
            if ncards > start:
                leader = s.leader
                heads, led_at, rows = slots[k]
                order = rows[leader][out]
                if start:
                    for i in range(start, ncards):
                        mv[order[i] + trick[i]] = 1.0
                else:
                    mv[heads[leader]] = 1.0
                    mv[led_at + s.led] = 1.0
                    for row, card in zip(order, trick):
                        mv[row + card] = 1.0
            won = s.tricks_won
            if won != expected or finished > 1:  # every entry again
                at = self._won
                for seat, w in enumerate(won):
                    mv[at + rel[seat]] = w / TRICKS_SCALE
                st.won = won[:]
            elif finished:  # the usual: one trick finished, one entry moves
                mv[self._won + rel[winner]] = won[winner] / TRICKS_SCALE
            voids = s.voids
            old = st.voids
            if voids != old:
                at = self._voids
                for seat, v in enumerate(voids):
                    o = old[seat]
                    if v != o:  # _cards, inlined
                        base = at + 5 * rel[seat]
                        diff = v ^ o
                        while diff:
                            low = diff & -diff
                            mv[base + low.bit_length() - 1] = 1.0 if v & low else 0.0
                            diff ^= low
                st.voids = voids[:]
        if phase >= 3:  # the hand is scored: the scores and hands played
            scores = s.scores
            if scores != st.scores:
                at = self._scores
                if self.layout.sides == 2:
                    team = me & 1
                    mv[at] = scores[team] / VALUE_SCALE
                    mv[at + 1] = scores[1 - team] / VALUE_SCALE
                else:
                    n = self.players
                    for r in range(n):
                        mv[at + r] = scores[(me + r) % n] / VALUE_SCALE
                st.scores = list(scores)
            if s.hands_played != st.hands_played:
                st.hands_played = s.hands_played
                mv[self._hands_played] = s.hands_played / HANDS_SCALE

    def _contract(self, st: _Seat, s: State, mv: memoryview, rel: tuple[int, ...]) -> None:
        """The bid, bidder, bid_value, trump and sitting_out entries."""
        bid, bidder = self._bid_of(s)
        if bid != st.bid or bidder != st.bidder:
            if st.bid >= 0:
                mv[self._bid + st.bid] = 0.0
            if st.bidder >= 0:
                mv[self._bidder + rel[st.bidder]] = 0.0
            if bid >= 0:
                mv[self._bid + bid] = 1.0
            if bidder >= 0:
                mv[self._bidder + rel[bidder]] = 1.0
            mv[self._bid_value] = st.rd.bid_values[bid + 1] if bidder >= 0 else 0.0
            st.bid, st.bidder = bid, bidder
        trump = self._trump_of(s)
        if trump != st.trump:
            if st.trump >= 0:
                mv[self._trump + st.trump] = 0.0
            if trump >= 0:
                mv[self._trump + trump] = 1.0
            st.trump = trump
        out = s.sitting_out
        if out != st.sitting:
            n = self.players
            for seat in sitting_out_seats(n, st.sitting):
                mv[self._sitting + rel[seat]] = 0.0
            for seat in sitting_out_seats(n, out):
                mv[self._sitting + rel[seat]] = 1.0
            st.sitting = out

def _cards(mv: memoryview, at: int, old: int, new: int) -> None:
    """Write the entries of the card ids (or bits) that differ between ``old`` and ``new``."""
    diff = old ^ new
    while diff:
        low = diff & -diff
        mv[at + low.bit_length() - 1] = 1.0 if new & low else 0.0
        diff ^= low
