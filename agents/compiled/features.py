"""The derived card-play inputs of :mod:`agents.features`, compiled: one observation row at a time.

Why: ``nmc``'s network rollouts (:mod:`agents.net_rollouts`) compute them at every step of
every rollout, and the torch module spent most of that time moving whole tensors (a trick block
of ten slots by seat by card, for each row) to find the handful of cards in them.  A row here
reads the trick block once.  Only observations as they are (not relabelled for ``trump_first``:
the rollouts fold that relabelling into the network's first layer); the values are those of
:meth:`agents.features.CardFeatures.forward` with ``row=None``, bit for bit
(``tests/test_features.py`` compares both on observations of play at every table size).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fh_env import observe
from fh_env.cards import NT_J5, NT_JOKERS_LOW, NT_STANDARD

from ..features import CardFeatures, feature_slices


class CompiledFeatures:
    """:class:`agents.features.CardFeatures` of unrelabelled rows, compiled."""

    def __init__(self, features: CardFeatures) -> None:
        lay, n, c = features.layout, features.players, features.layout.num_cards
        sl = lay.slices
        self.size = features.size
        starts = feature_slices(n)
        self.blocks = np.array([starts[name].start for name in
                                ("played", "unseen", "masters", "out", "winning", "best",
                                 "beats")], dtype=np.int64)
        sitting = sl.get("sitting_out")
        deck = features.deck_slice
        # every offset and width the kernel reads, in one int64 array
        self.where = np.array([
            n, c, sl["hand"].start, sl["tricks"].start, lay.trick_width, sl["exposed"].start,
            sl["discarded"].start, sl["bidder"].start, sl["exchanged"].start,
            sitting.start if sitting is not None else -1, sl["trump"].start,
            sl["phase"].start, features.jokers_low_index, features.j5_index,
            deck.start if deck is not None else -1,
            (deck.stop - deck.start) if deck is not None else 0], dtype=np.int64)
        self.nullo_bids = np.asarray(features.nullo_bids, dtype=np.int64)
        self.deck = features.deck.numpy().astype(np.float32)
        self.higher = features.higher.numpy() > 0
        self.strength = features.strength.numpy().astype(np.float32)
        self.suit = features.suit_onehot.numpy().argmax(2).astype(np.int64)  # [T, C]
        self.suit_scale = np.float32(features.suit_scale)

    def __call__(self, obs: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """float32 ``[len(rows), size]``: the derived inputs of ``obs[rows]``."""
        out = np.zeros((len(rows), self.size), dtype=np.float32)
        _features(obs, rows, self.where, self.nullo_bids, self.deck, self.higher, self.strength,
                  self.suit, self.suit_scale, self.blocks, out)
        return out


@njit(cache=True)
def _features(obs: np.ndarray, rows: np.ndarray, where: np.ndarray, nullo_bids: np.ndarray,
              decks: np.ndarray, higher: np.ndarray, strength: np.ndarray, suit: np.ndarray,
              suit_scale: np.float32, blocks: np.ndarray, out: np.ndarray) -> None:
    n, c, hand_at, tricks_at, trick_width = where[0], where[1], where[2], where[3], where[4]
    exposed_at, discarded_at, bidder_at, exchanged_at = where[5], where[6], where[7], where[8]
    sitting_at, trump_at, phase_at, jokers_low_at, j5_at = (where[9], where[10], where[11],
                                                            where[12], where[13])
    deck_at, deck_width = where[14], where[15]
    played_at, unseen_at, masters_at, out_at = blocks[0], blocks[1], blocks[2], blocks[3]
    winning_at, best_at, beats_at = blocks[4], blocks[5], blocks[6]
    played = np.zeros(c, dtype=np.float32)
    unseen = np.zeros(c, dtype=np.float32)
    seat_key = np.zeros(n, dtype=np.float32)  # each seat's best card in the trick, -2: none
    for k in range(rows.shape[0]):
        o = obs[rows[k]]
        f = out[k]
        # the trump context, as CardFeatures.context (not relabelled)
        ctx = -1
        for s in range(4):
            if o[trump_at + s] > 0 and ctx < 0:
                ctx = s
        if ctx < 0:
            nullo = False
            for b in nullo_bids:
                if o[b] > 0:
                    nullo = True
            if nullo:
                ctx = NT_JOKERS_LOW if o[jokers_low_at] > 0 else NT_STANDARD
            else:
                ctx = NT_J5 if o[j5_at] > 0 else NT_STANDARD
            if o[phase_at] > 0:  # the auction
                ctx = NT_STANDARD
        # the cards played to every trick, and the last trick started
        played[:] = 0.0
        last, started = 0, False
        for t in range(10):
            slot = tricks_at + t * trick_width
            for s in range(n):
                if o[slot + s] > 0:
                    last, started = t, True
            for j in range(n * c):
                if o[slot + n + j] > 0:
                    played[j % c] = 1.0
        deck = 0
        if deck_at >= 0:
            for j in range(1, deck_width):
                if o[deck_at + j] > o[deck_at + deck]:
                    deck = j
        lost = (n == 4 and o[bidder_at] > 0 and o[exchanged_at + 2] > 0)
        for j in range(c):
            known = max(o[hand_at + j], played[j], o[exposed_at + j])
            if not lost:
                known = max(known, o[discarded_at + j])
            unseen[j] = decks[deck, j] * (1.0 - known)
            f[played_at + j] = played[j]
            f[unseen_at + j] = unseen[j]
        counts = np.zeros(5, dtype=np.float32)
        for j in range(c):
            if unseen[j] > 0:
                counts[suit[ctx, j]] += unseen[j]
        for s in range(5):
            f[out_at + s] = counts[s] / suit_scale
        for j in range(c):
            if o[hand_at + j] > 0:
                outranked = False
                for d in range(c):
                    if unseen[d] > 0 and higher[ctx, j, d]:
                        outranked = True
                        break
                if not outranked:
                    f[masters_at + j] = o[hand_at + j]
        # the trick in progress: the last slot started, if it has fewer cards than players
        slot = tricks_at + last * trick_width
        count = 0.0
        for j in range(n * c):
            count += o[slot + n + j]
        players = float(n)
        if sitting_at >= 0:
            for s in range(n):
                players -= o[sitting_at + s]
        live = started and count > 0 and count < players
        led = 0
        for s in range(1, 4):
            if o[slot + trick_width - 4 + s] > o[slot + trick_width - 4 + led]:
                led = s
        top = np.float32(-2.0)
        for s in range(n):
            best = np.float32(0.0)
            for j in range(c):
                v = o[slot + n + s * c + j] * (strength[ctx, led, j] + 2)
                if v > best:
                    best = v
            seat_key[s] = best - 2
            if seat_key[s] > top:
                top = seat_key[s]
        for s in range(n):
            if live and top >= 0 and seat_key[s] == top:
                f[winning_at + s] = 1.0
                for j in range(c):
                    f[best_at + j] += o[slot + n + s * c + j]
        if live:
            for j in range(c):
                if strength[ctx, led, j] > top:
                    f[beats_at + j] = o[hand_at + j]
