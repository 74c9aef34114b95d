"""Observations and action masks of the fast core's games, compiled: :mod:`fh_env.observe` for
a :class:`~fh_env.compiled.games.FastGames` batch.

``encode(fast)`` is, row for row, ``observe.encode(seat_view(fast.to_state(i), seat))`` (the seat
on turn unless ``seats`` says otherwise), byte for byte, written by a numba kernel straight from
each game's record; ``encode_state`` is ``observe.encode_state`` likewise, and ``action_masks``
is ``observe.action_mask`` (int8, all zero off turn).  ``tests/test_compiled_observe.py`` holds them to
that on random games of every preset and of random rule sets.

Every table size (§9) is encoded in its own layout, ``observe.layout(players)``: the kernels
are the same, the number of seats, of card ids and of sides come with the layout.

Nothing about the layout is declared here: the offsets, widths and scales are read from
:mod:`fh_env.observe` (``observe.layout(players)`` and its constants) when first needed and
reach the kernels as data, together with the per-rule-set tables (``observe.rules_features``,
``observe.bid_values``).  Data rather than compiled-in constants because numba's on-disk cache
(``cache=True``) would not notice a change to another module's globals.  What is compiled in are
the action ids and the codes of the game record (:mod:`fh_env.compiled.engine`), as there.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from .. import actions as A
from .. import observe
from .cards import U0, U1, lowest_bit
from ..cards import NT_STANDARD
from .games import FastGames
from .engine import NO_CONTRACT, NO_CONTRACT_YET
from ..rules import Rules

__all__ = ["encode", "encode_state", "action_masks", "observe_turn"]

# ---------------------------------------------------------------------------- the layout, as data
_BLOCKS = ("phase", "turn", "dealer", "bidder", "bid", "trump", "sitting_out", "auction_bids",
           "auction_passes", "misdeal", "shows_joker", "hand", "picked_up", "discarded",
           "exchanged", "exposed", "voids", "tricks", "rules", "bid_value", "num_calls",
           "discards_left", "tricks_won", "scores", "hands_played", "rule_values")
(_PHASE, _TURN, _DEALER, _BIDDER, _BID, _TRUMP, _SITTING, _BIDS, _PASSES, _MISDEAL, _SHOWS,
 _HAND, _PICKED, _DISCARDED, _EXCHANGED, _EXPOSED, _VOIDS, _TRICKS, _RULES, _BID_VALUE,
 _NUM_CALLS, _DISCARDS_LEFT, _TRICKS_WON, _SCORES, _HANDS_PLAYED, _RULE_VALUES) = range(
    len(_BLOCKS))
# after the block starts: the sizes, the inside of a trick slot, the table size
(_RULES_WIDTH, _OBS_SIZE, _STATE_SIZE, _NUM_BIDS, _TRICK_WIDTH, _LED_SHIFT, _CARDS, _SEATS,
 _SIDES) = range(len(_BLOCKS), len(_BLOCKS) + 9)


def _layout_array(players: int) -> np.ndarray:
    """The layout of a table size as the kernels read it (a block the layout lacks, the
    3-player ``sitting_out``, starts at -1)."""
    lay = observe.layout(players)
    starts = [lay.slices[name].start if name in lay.slices else -1 for name in _BLOCKS]
    return np.array(
        starts + [lay.slices["rules"].stop - lay.slices["rules"].start, lay.size,
                  lay.state_size, observe.NUM_BIDS, lay.trick_width, lay.led_shift,
                  lay.num_cards, players, lay.sides], dtype=np.int64)


_LAYOUT = _layout_array(4)
_LAYOUTS = {4: _LAYOUT}


def _layout(players: int) -> np.ndarray:
    found = _LAYOUTS.get(players)
    if found is None:
        found = _LAYOUTS[players] = _layout_array(players)
    return found
_VALUE, _CALLS, _TRICKS_SCALE, _HANDS = range(4)
_SCALES = np.array([observe.VALUE_SCALE, observe.CALLS_SCALE, observe.TRICKS_SCALE,
                    observe.HANDS_SCALE], dtype=np.float64)
_PASS, _MISDEAL_CALL = A.PASS, A.MISDEAL


class _Tables:
    """What the kernels need of one rule set: ``observe``'s rule features and bid values."""

    __slots__ = ("rules", "features", "bid_values", "kitty_size")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.features = np.ascontiguousarray(observe.rules_features(rules), dtype=np.float32)
        self.bid_values = np.array(observe.bid_values(rules), dtype=np.float64)
        self.kitty_size = int(rules.kitty_size)


_TABLES: dict[int, _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    """Cached per Rules object (by identity; the entry keeps the object alive)."""
    t = _TABLES.get(id(rules))
    if t is None or t.rules is not rules:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        t = _TABLES[id(rules)] = _Tables(rules)
    return t


# ---------------------------------------------------------------------------- kernels
@njit(cache=True)
def _cards(out, base, mask):
    """``out[base + c] = 1`` for each card ``c`` of the bitmask ``mask`` (ids up to 63)."""
    m = np.uint64(mask)
    while m != U0:
        out[base + lowest_bit(m)] = 1.0
        m &= m - U1


@njit(cache=True)
def _sits_out(seat, sitting_out, n):
    """``engine.sitting_out_seats``: the declarer's partner, both partners with six players."""
    return sitting_out >= 0 and (seat == sitting_out or (n == 6 and seat == (sitting_out + 2) % n))


@njit(cache=True)
def _trick(out, base, me, leader, led, sitting_out, cards, count, lay, n):
    """One trick slot: leader, led suit, and each card in its player's row (play order)."""
    out[base + (leader - me) % n] = 1.0
    out[base + lay[_LED_SHIFT] + led] = 1.0
    i = 0
    for j in range(n):
        player = (leader + j) % n
        if _sits_out(player, sitting_out, n):
            continue
        if i == count:
            break
        out[base + n + lay[_CARDS] * ((player - me) % n) + cards[i]] = 1.0
        i += 1


@njit(cache=True)
def _encode(g, me, lay, scales, features, bid_values, kitty_size, out):
    """``observe.encode`` of seat ``me``'s view of the game record ``g`` into ``out``."""
    n = g.hands.shape[0]  # the record's seats (a constant of its type: compiled per size)
    out[: lay[_OBS_SIZE]] = 0.0
    out[lay[_PHASE] + g.phase] = 1.0
    if g.turn >= 0:
        out[lay[_TURN] + (g.turn - me) % n] = 1.0
    out[lay[_DEALER] + (g.dealer - me) % n] = 1.0
    contract = np.int64(g.contract)
    has_contract = contract != NO_CONTRACT_YET
    bid = contract if has_contract else np.int64(g.high_bid)
    if bid > 0:
        bidder = g.declarer if has_contract else g.high_bidder
        out[lay[_BID] + bid - 1] = 1.0
        out[lay[_BIDDER] + (bidder - me) % n] = 1.0
    elif contract == NO_CONTRACT:
        out[lay[_BID] + lay[_NUM_BIDS]] = 1.0
    if has_contract and g.context < NT_STANDARD:
        out[lay[_TRUMP] + g.context] = 1.0
    if g.sitting_out >= 0 and lay[_SITTING] >= 0:
        out[lay[_SITTING] + (g.sitting_out - me) % n] = 1.0
        if n == 6:
            out[lay[_SITTING] + (g.sitting_out + 2 - me) % n] = 1.0
    for s in range(n):
        if (g.shows_joker >> s) & 1:
            out[lay[_SHOWS] + (s - me) % n] = 1.0

    # -- the auction (observe._auction_bits)
    high = lay[_NUM_BIDS]
    for k in range(min(np.int64(g.ncalls), g.calls.shape[0])):
        r = (g.calls[k, 0] - me) % n
        action = np.int64(g.calls[k, 1])
        if action == _PASS:
            out[lay[_PASSES] + n * high + r] = 1.0
        elif action == _MISDEAL_CALL:
            out[lay[_MISDEAL] + r] = 1.0
        else:
            high = action - 1
            out[lay[_BIDS] + n * high + r] = 1.0

    # -- the cards the observer knows
    _cards(out, lay[_HAND], g.hands[me])
    if g.exposed and me != g.declarer:
        _cards(out, lay[_EXPOSED], g.hands[g.declarer])
    for k in range(g.nexchanges):
        who = g.exch_seat[k]
        out[lay[_EXCHANGED] + (who - me) % n] = 1.0
        if who == me:
            _cards(out, lay[_PICKED], g.exch_picked[k])
            _cards(out, lay[_DISCARDED], g.exch_discards[k])

    # -- the play
    for s in range(n):
        v = np.int64(g.voids[s])
        for b in range(5):
            if (v >> b) & 1:
                out[lay[_VOIDS] + 5 * ((s - me) % n) + b] = 1.0
    width = lay[_TRICK_WIDTH]
    for k in range(g.ntricks):
        _trick(out, lay[_TRICKS] + k * width, me, g.trick_leader[k], g.trick_led[k],
               g.sitting_out, g.trick_cards[k], n, lay, n)
    if g.ntrick > 0:
        _trick(out, lay[_TRICKS] + np.int64(g.ntricks) * width, me, g.leader, g.led,
               g.sitting_out, g.trick, g.ntrick, lay, n)

    # -- the rules and the scalars (observe._fill)
    # element by element: a slice assignment of an array would compile numba's shape-mismatch
    # error, string formatting and all (about 6 s of the first run's compile)
    flags = lay[_RULES_WIDTH]
    for k in range(flags):
        out[lay[_RULES] + k] = features[k]
    for k in range(features.shape[0] - flags):
        out[lay[_RULE_VALUES] + k] = features[flags + k]
    if bid > 0:
        out[lay[_BID_VALUE]] = bid_values[bid]
    out[lay[_NUM_CALLS]] = np.int64(g.ncalls) / scales[_CALLS]
    if g.discards_left:
        out[lay[_DISCARDS_LEFT]] = np.int64(g.discards_left) / kitty_size
    for r in range(n):
        out[lay[_TRICKS_WON] + r] = np.int64(g.tricks_won[(me + r) % n]) / scales[_TRICKS_SCALE]
    if g.scores.shape[0] == 2:
        team = me & 1
        out[lay[_SCORES]] = g.scores[team] / scales[_VALUE]
        out[lay[_SCORES] + 1] = g.scores[1 - team] / scales[_VALUE]
    else:  # three players: the observer, its left, its right
        for r in range(n):
            out[lay[_SCORES] + r] = g.scores[(me + r) % n] / scales[_VALUE]
    out[lay[_HANDS_PLAYED]] = np.int64(g.hands_played) / scales[_HANDS]


@njit(cache=True)
def _hidden(g, me, lay, out):
    """The part of ``observe.encode_state`` after the observation: the other seats' hands
    (relative seats 1 .. players - 1), the kitty now, the kitty as dealt, the discards by
    seat."""
    c = lay[_CARDS]
    n = g.hands.shape[0]
    base = lay[_OBS_SIZE]
    out[base: lay[_STATE_SIZE]] = 0.0
    for r in range(1, n):
        _cards(out, base + (r - 1) * c, g.hands[(me + r) % n])
    _cards(out, base + (n - 1) * c, g.kitty)
    _cards(out, base + n * c, g.dealt_kitty)
    for k in range(g.nexchanges):
        _cards(out, base + (n + 1 + (g.exch_seat[k] - me) % n) * c, g.exch_discards[k])


@njit(cache=True)
def _encode_games(games, index, seats, full, lay, scales, features, bid_values, kitty_size,
                  out):
    """Row ``k`` of ``out``: game ``index[k]`` seen by ``seats[k]`` (-1: the seat on turn);
    with ``full``, ``encode_state``."""
    for k in range(index.shape[0]):
        g = games[index[k]]
        seat = seats[k] if seats[k] >= 0 else np.int64(g.turn)
        _encode(g, seat, lay, scales, features, bid_values, kitty_size, out[k])
        if full:
            _hidden(g, seat, lay, out[k])


@njit(cache=True)
def _observe_turn(games, rows, lay, scales, features, bid_values, kitty_size, obs, seat):
    """For each game ``i`` of ``rows``: ``obs[i]`` and ``seat[i]`` for the seat on turn."""
    for k in range(rows.shape[0]):
        i = rows[k]
        g = games[i]
        seat[i] = g.turn
        _encode(g, np.int64(g.turn), lay, scales, features, bid_values, kitty_size, obs[i])


# ---------------------------------------------------------------------------- the API
def _rows_and_seats(fast: FastGames, seats, index) -> tuple[np.ndarray, np.ndarray]:
    idx = (np.arange(fast.num_games, dtype=np.int64) if index is None
           else np.asarray(index, dtype=np.int64).reshape(-1))
    if ((idx < 0) | (idx >= fast.num_games)).any():
        raise IndexError(f"game indices must be in 0..{fast.num_games - 1}")
    if seats is None:
        who = np.full(len(idx), -1, dtype=np.int64)
        if (fast.turn[idx] < 0).any():
            raise ValueError("a game whose hand is over has no seat on turn: give seats")
    else:
        who = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, dtype=np.int64),
                                                   (len(idx),)))
        if ((who < 0) | (who >= fast.players)).any():
            raise ValueError(f"seats must be 0..{fast.players - 1}, got {who.tolist()}")
    return idx, who


def _run(fast: FastGames, seats, index, out, full: bool) -> np.ndarray:
    idx, who = _rows_and_seats(fast, seats, index)
    lay = _layout(fast.players)
    size = int(lay[_STATE_SIZE] if full else lay[_OBS_SIZE])
    if out is None:
        out = np.empty((len(idx), size), dtype=np.float32)
    elif out.shape != (len(idx), size) or out.dtype != np.float32:
        raise ValueError(f"out must be float32 [{len(idx)}, {size}], not {out.dtype} "
                         f"{list(out.shape)}")
    t = _tables(fast.rules)
    _encode_games(fast.games, idx, who, full, lay, _SCALES, t.features, t.bid_values,
                  t.kitty_size, out)
    return out


def encode(fast: FastGames, seats: int | Sequence[int] | np.ndarray | None = None,
           index: Sequence[int] | np.ndarray | None = None,
           out: np.ndarray | None = None) -> np.ndarray:
    """``float32 [M, OBS_SIZE]`` (``observe.layout(players).size`` at another table size): row
    ``k`` is ``observe.encode`` of game ``index[k]`` (default: every game) from ``seats[k]``
    (one seat for all, or default the seat on turn)."""
    return _run(fast, seats, index, out, full=False)


def encode_state(fast: FastGames, seats: int | Sequence[int] | np.ndarray | None = None,
                 index: Sequence[int] | np.ndarray | None = None,
                 out: np.ndarray | None = None) -> np.ndarray:
    """``float32 [M, STATE_SIZE]``: ``observe.encode_state`` (for centralised critics), with
    the rows and seats of :func:`encode`."""
    return _run(fast, seats, index, out, full=True)


def observe_turn(fast: FastGames, rows: np.ndarray, obs: np.ndarray, seat: np.ndarray,
                 rules: Rules | None = None) -> None:
    """In place, for each game ``i`` in ``rows`` (int64): ``obs[i]`` the observation of the
    seat on turn, ``seat[i]`` that seat (the hot path of :class:`fh_env.envs.vector.VectorEnv`).

    ``rules``: encode the rule options as these rules' (default the games'), for a network
    trained under rules that play the same game (``Rules.same_game``), as ``NeuralBot`` does."""
    t = _tables(fast.rules if rules is None else rules)
    _observe_turn(fast.games, rows, _layout(fast.players), _SCALES, t.features, t.bid_values, t.kitty_size,
                  obs, seat)


def action_masks(fast: FastGames, seats: int | Sequence[int] | np.ndarray | None = None,
                 out: np.ndarray | None = None) -> np.ndarray:
    """``int8 [N, num_actions]`` (130, or 166 with six players): ``observe.action_mask`` of
    every game, for the seat on turn (or for ``seats``: all zero in a game where that seat is
    not on turn)."""
    if out is None:
        out = np.empty((fast.num_games, fast.num_actions), dtype=np.int8)
    fast.legal_masks(out=out.view(np.bool_))
    if seats is not None:
        who = np.broadcast_to(np.asarray(seats, dtype=np.int64), (fast.num_games,))
        out[who != fast.turn] = 0
    return out
