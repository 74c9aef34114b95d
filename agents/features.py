"""Card-play inputs a network derives from its observation: which cards are gone, which are
still out, which of its cards are masters, and who is winning the trick.

Why: the observation has perfect recall but stores each trick as a slot of cards by seat, so
"the ace of trumps has gone" is an OR over forty entries and "my king is now the highest
club out" is an AND over that and the hand.  An MLP can learn such things but search
distillation showed that ours had not: fitted to a search's card scores it lost points on its
leads (docs/research-log.md, "Where a plain fit loses: the leads").  These inputs compute them
exactly, from the observation alone (never more than the seat may know), inside the network,
so the observation, its version and every collector stay as they are.

Everything about bowers and jokers comes from :data:`fh_env.cards.TABLES`; the layout comes
from :mod:`fh_env.observe`, for any table size (``C`` card ids: 46 with three or four players,
64 with six; ``n`` seats).  The blocks (:func:`feature_blocks`), in order:

    played    C   cards played to a trick so far, the trick in progress included
    unseen    C   cards of the pack the seat cannot place (:attr:`fh_env.SeatView.unseen`)
    masters   C   cards of the hand that no unseen card of their (effective) suit outranks
                  (without trumps a joker outranks every suit)
    out       5   unseen cards per effective suit S C D H and no-suit jokers, / the most cards
                  a suit has (11; 16 in the six-handed pack)
    winning   n   the seat whose card is winning the trick in progress (none before its lead)
    best      C   that winning card
    beats     C   cards of the hand that would take the lead of the trick in progress
"""

from __future__ import annotations

from functools import lru_cache

import torch
from torch import nn

from fh_env import actions as A
from fh_env import observe
from fh_env.cards import (DECKS, NT_J5, NT_JOKERS_LOW, NT_STANDARD, NUM_CONTEXTS, TABLE_DECKS,
                          TABLES)


@lru_cache(maxsize=None)
def feature_blocks(players: int = 4) -> tuple[tuple[str, int], ...]:
    """(name, width) of each derived block at a table size, in the order they follow the
    observation."""
    c = observe.layout(players).num_cards
    return (("played", c), ("unseen", c), ("masters", c), ("out", 5), ("winning", players),
            ("best", c), ("beats", c))


def feature_size(players: int = 4) -> int:
    """How many derived inputs a network at this table size reads."""
    return sum(w for _, w in feature_blocks(players))


@lru_cache(maxsize=None)
def feature_slices(players: int = 4) -> dict[str, slice]:
    """Where each block lies in :meth:`CardFeatures.forward`'s output (tests read these)."""
    out, start = {}, 0
    for name, width in feature_blocks(players):
        out[name], start = slice(start, start + width), start + width
    return out


#: The 4-player width (the shipped agents' inputs).
FEATURE_SIZE = feature_size(4)


class CardFeatures(nn.Module):
    """The derived blocks of a batch of observations of one table size (a pure function, no
    weights).

    Given ``row``, the observations went through :func:`fh_env.observe.trump_first_indices`
    (that row each), so a suit contract's trump is spades and card ids are relabelled; the deck
    is relabelled the same way and the trump context is spades."""

    def __init__(self, players: int = 4) -> None:
        super().__init__()
        lay = self.layout = observe.layout(players)
        self.players, c = players, lay.num_cards
        self.size = feature_size(players)
        if players == 4:  # the deck is a rule option; other table sizes have their own pack
            self.deck_slice, decks = observe.rule_flag_slice("deck")
            deck = torch.zeros(len(decks), c)
            for i, name in enumerate(decks):
                deck[i, list(DECKS[name])] = 1.0
        else:
            self.deck_slice = None
            deck = torch.zeros(1, c)
            deck[0, list(TABLE_DECKS[players])] = 1.0
        self.register_buffer("deck", deck, False)
        ranking, choices = observe.rule_flag_slice("notrump_ranking", players)
        self.j5_index = ranking.start + choices.index("j5")
        self.jokers_low_index = observe.rule_flag_slice("jokers_low_in_nullo", players)[0].start
        bid = lay.slices["bid"].start
        self.nullo_bids = [bid + b - 1 for b in A.NULLO_TYPES]
        if players == 4:
            # relabelled card ids: new id c holds old id card_index[row, c] (row 4: identity)
            obs_index, _ = observe.trump_first_indices()
            hand = lay.slices["hand"].start
            self.register_buffer("card_index",
                                 torch.from_numpy(obs_index[:, hand:hand + c] - hand).long(),
                                 False)
        suit = torch.tensor([TABLES.suit[t][:c] for t in range(NUM_CONTEXTS)])
        strength = torch.tensor([[TABLES.strength[t][led][:c] for led in range(5)]
                                 for t in range(NUM_CONTEXTS)], dtype=torch.float32)
        self.register_buffer("suit_onehot", nn.functional.one_hot(suit, 5).float(), False)
        self.register_buffer("strength", strength, False)
        # the most plain cards of one suit in the action table's ids (11; 16 with six players)
        self.suit_scale = float(max((suit[NT_STANDARD] == s).sum() for s in range(4)))
        # higher[t, c, d]: card d outranks card c in c's own suit (a no-suit joker: every suit)
        own = strength.gather(1, suit.clamp(max=3)[:, None, :]).squeeze(1)  # [T, C]
        same = (suit[:, :, None] == suit[:, None, :]) | (suit[:, None, :] == 4)
        higher = same & (own[:, None, :] > own[:, :, None])
        self.register_buffer("higher", higher.float(), False)

    def context(self, obs: torch.Tensor, relabelled: bool) -> torch.Tensor:
        """The trump context of each row (:data:`fh_env.cards` numbering), as the engine sets
        it: the trump suit, else the nullo or no-trump context of the rules (plain no-trump
        while the auction lasts)."""
        trump = obs[:, self.layout.slices["trump"]]
        nullo = obs[:, self.nullo_bids].sum(1) > 0
        no_trump = torch.where(
            nullo, torch.where(obs[:, self.jokers_low_index] > 0, NT_JOKERS_LOW, NT_STANDARD),
            torch.where(obs[:, self.j5_index] > 0, NT_J5, NT_STANDARD))
        no_trump = torch.where(obs[:, self.layout.slices["phase"].start] > 0, NT_STANDARD,
                               no_trump)  # auction
        suit = torch.zeros_like(no_trump) if relabelled else trump.argmax(1)
        return torch.where(trump.sum(1) > 0, suit, no_trump)

    def forward(self, obs: torch.Tensor, row: torch.Tensor | None = None) -> torch.Tensor:
        """[B, feature_size] from [B, the layout's size]; ``row``: the trump-first row of each
        observation when they are relabelled (4 players only), None when not."""
        b, n, lay = obs.shape[0], self.players, self.layout
        c, sl = lay.num_cards, lay.slices
        ctx = self.context(obs, row is not None)
        hand = obs[:, sl["hand"]]
        slots = obs[:, sl["tricks"]].view(b, 10, lay.trick_width)
        leaders = slots[:, :, :n]
        cards = slots[:, :, n:n + n * c].reshape(b, 10, n, c)
        # any slot, any seat (0/1 inputs); a sum over the joined dims, as amax over two of
        # them is several times slower on the CPU
        played = (cards.flatten(1, 2).sum(1) > 0).to(obs.dtype)
        if self.deck_slice is None:
            deck = self.deck.expand(b, c)
        else:
            deck = self.deck[obs[:, self.deck_slice].argmax(1)]
        if row is not None:
            deck = deck.gather(1, self.card_index[row])
        known = torch.maximum(hand, played)
        known = torch.maximum(known, obs[:, sl["exposed"]])
        discarded = obs[:, sl["discarded"]]
        if n == 4:
            # its discards are the kitty unless its partner exchanged after it (double nullo,
            # four players only: the declarer exchanges first, so a declarer whose partner
            # exchanged cannot place them)
            lost = (obs[:, sl["bidder"]][:, 0] > 0) & (obs[:, sl["exchanged"]][:, 2] > 0)
            discarded = discarded * (~lost)[:, None]
        known = torch.maximum(known, discarded)
        unseen = deck * (1 - known)
        higher = self.higher[ctx]  # [B, C, C]
        outranked = torch.einsum("bd,bcd->bc", unseen, higher) > 0
        masters = hand * (~outranked)
        out = torch.einsum("bc,bcs->bs", unseen, self.suit_onehot[ctx]) / self.suit_scale

        # the trick in progress: the last started slot, if it has fewer cards than players
        started = leaders.sum(2) > 0  # [B, 10]
        last = (started.long() * torch.arange(1, 11, device=obs.device)).argmax(1)
        rows = torch.arange(b, device=obs.device)
        trick = cards[rows, last]  # [B, n, C]
        count = trick.sum((1, 2))
        players = n - obs[:, sl["sitting_out"]].sum(1) if "sitting_out" in sl else n
        live = started.any(1) & (count > 0) & (count < players)
        led = slots[rows, last, -4:].argmax(1)
        key = self.strength[ctx, led]  # [B, C]: -1 cannot win
        seat_key = (trick * (key[:, None, :] + 2)).amax(2) - 2  # [B, n]; -2: no card
        top = seat_key.amax(1)
        winning = ((seat_key == top[:, None]) & (top[:, None] >= 0) & live[:, None]).float()
        best = (trick * winning[:, :, None]).sum(1)
        beats = hand * ((key > top[:, None]) & live[:, None]).float()
        return torch.cat([played, unseen, masters, out, winning, best, beats], dim=1)
