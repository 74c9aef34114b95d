"""Card-play inputs a network derives from its observation: which cards are gone, which are
still out, which of its cards are masters, and who is winning the trick.

Why: the observation has perfect recall but stores each trick as a slot of cards by seat, so
"the ace of trumps has gone" is an OR over forty entries and "my king is now the highest
club out" is an AND over that and the hand.  An MLP can learn such things but search
distillation showed that ours had not: fitted to a search's card scores it lost points on its
leads (docs/training.md, "Where a plain fit loses: the leads").  These inputs compute them
exactly, from the observation alone (never more than the seat may know), inside the network,
so the observation, its version and every collector stay as they are.

Everything about bowers and jokers comes from :data:`fh_env.cards.TABLES`; the layout comes
from :mod:`fh_env.observe`.  4-player layout only.  The blocks (:data:`BLOCKS`), in order:

    played    46  cards played to a trick so far, the trick in progress included
    unseen    46  cards of the deck the seat cannot place (:attr:`fh_env.SeatView.unseen`)
    masters   46  cards of the hand that no unseen card of their (effective) suit outranks
                  (without trumps a joker outranks every suit)
    out       5   unseen cards per effective suit S C D H and no-suit jokers, / 11
    winning   4   the seat whose card is winning the trick in progress (none before its lead)
    best      46  that winning card
    beats     46  cards of the hand that would take the lead of the trick in progress
"""

from __future__ import annotations

import torch
from torch import nn

from fh_env import actions as A
from fh_env import observe
from fh_env.cards import (DECKS, NT_J5, NT_JOKERS_LOW, NT_STANDARD, NUM_CARDS, NUM_CONTEXTS,
                          TABLES)

#: (name, width) of each derived block, in the order they follow the observation.
BLOCKS: tuple[tuple[str, int], ...] = (
    ("played", NUM_CARDS), ("unseen", NUM_CARDS), ("masters", NUM_CARDS), ("out", 5),
    ("winning", 4), ("best", NUM_CARDS), ("beats", NUM_CARDS))
FEATURE_SIZE = sum(w for _, w in BLOCKS)

_C = NUM_CARDS
_L = observe.LAYOUT
_SLOT = observe.TRICK_WIDTH


def _slices() -> dict[str, slice]:
    out, start = {}, 0
    for name, width in BLOCKS:
        out[name], start = slice(start, start + width), start + width
    return out


#: Where each block lies in :meth:`CardFeatures.forward`'s output (tests read these).
FEATURE_SLICES: dict[str, slice] = _slices()


class CardFeatures(nn.Module):
    """The derived blocks of a batch of 4-player observations (a pure function, no weights).

    Given ``row``, the observations went through :func:`fh_env.observe.trump_first_indices`
    (that row each), so a suit contract's trump is spades and card ids are relabelled; the deck
    is relabelled the same way and the trump context is spades."""

    def __init__(self) -> None:
        super().__init__()
        deck_slice, decks = observe.rule_flag_slice("deck")
        self.deck_slice = deck_slice
        deck = torch.zeros(len(decks), _C)
        for i, name in enumerate(decks):
            deck[i, list(DECKS[name])] = 1.0
        self.register_buffer("deck", deck, False)
        ranking, choices = observe.rule_flag_slice("notrump_ranking")
        self.j5_index = ranking.start + choices.index("j5")
        self.jokers_low_index = observe.rule_flag_slice("jokers_low_in_nullo")[0].start
        bid = _L["bid"].start
        self.nullo_bids = [bid + b - 1 for b in A.NULLO_TYPES]
        # relabelled card ids: new id c holds old id card_index[row, c] (row 4: identity)
        obs_index, _ = observe.trump_first_indices()
        hand = _L["hand"].start
        self.register_buffer("card_index",
                             torch.from_numpy(obs_index[:, hand:hand + _C] - hand).long(), False)
        suit = torch.tensor([TABLES.suit[t][:_C] for t in range(NUM_CONTEXTS)])
        strength = torch.tensor([[TABLES.strength[t][led][:_C] for led in range(5)]
                                 for t in range(NUM_CONTEXTS)], dtype=torch.float32)
        self.register_buffer("suit_onehot", nn.functional.one_hot(suit, 5).float(), False)
        self.register_buffer("strength", strength, False)
        # higher[t, c, d]: card d outranks card c in c's own suit (a no-suit joker: every suit)
        own = strength.gather(1, suit.clamp(max=3)[:, None, :]).squeeze(1)  # [T, C]
        same = (suit[:, :, None] == suit[:, None, :]) | (suit[:, None, :] == 4)
        higher = same & (own[:, None, :] > own[:, :, None])
        self.register_buffer("higher", higher.float(), False)

    def context(self, obs: torch.Tensor, relabelled: bool) -> torch.Tensor:
        """The trump context of each row (:data:`fh_env.cards` numbering), as the engine sets
        it: the trump suit, else the nullo or no-trump context of the rules (plain no-trump
        while the auction lasts)."""
        trump = obs[:, observe.TRUMP_SLICE]
        nullo = obs[:, self.nullo_bids].sum(1) > 0
        no_trump = torch.where(
            nullo, torch.where(obs[:, self.jokers_low_index] > 0, NT_JOKERS_LOW, NT_STANDARD),
            torch.where(obs[:, self.j5_index] > 0, NT_J5, NT_STANDARD))
        no_trump = torch.where(obs[:, _L["phase"].start] > 0, NT_STANDARD, no_trump)  # auction
        suit = torch.zeros_like(no_trump) if relabelled else trump.argmax(1)
        return torch.where(trump.sum(1) > 0, suit, no_trump)

    def forward(self, obs: torch.Tensor, row: torch.Tensor | None = None) -> torch.Tensor:
        """[B, FEATURE_SIZE] from [B, OBS_SIZE]; ``row``: the trump-first row of each
        observation when they are relabelled, None when not."""
        b = obs.shape[0]
        ctx = self.context(obs, row is not None)
        hand = obs[:, _L["hand"]]
        slots = obs[:, _L["tricks"]].view(b, 10, _SLOT)
        leaders = slots[:, :, :4]
        cards = slots[:, :, 4:4 + 4 * _C].reshape(b, 10, 4, _C)
        # any slot, any seat (0/1 inputs); a sum over the joined dims, as amax over two of
        # them is several times slower on the CPU
        played = (cards.flatten(1, 2).sum(1) > 0).to(obs.dtype)
        deck = self.deck[obs[:, self.deck_slice].argmax(1)]
        if row is not None:
            deck = deck.gather(1, self.card_index[row])
        known = torch.maximum(hand, played)
        known = torch.maximum(known, obs[:, _L["exposed"]])
        # its discards are the kitty unless its partner exchanged after it (double nullo: the
        # declarer exchanges first, so a declarer whose partner exchanged cannot place them)
        bidder, exchanged = obs[:, _L["bidder"]], obs[:, _L["exchanged"]]
        lost = (bidder[:, 0] > 0) & (exchanged[:, 2] > 0)
        known = torch.maximum(known, obs[:, _L["discarded"]] * (~lost)[:, None])
        unseen = deck * (1 - known)
        higher = self.higher[ctx]  # [B, C, C]
        outranked = torch.einsum("bd,bcd->bc", unseen, higher) > 0
        masters = hand * (~outranked)
        out = torch.einsum("bc,bcs->bs", unseen, self.suit_onehot[ctx]) / 11.0

        # the trick in progress: the last started slot, if it has fewer cards than players
        started = leaders.sum(2) > 0  # [B, 10]
        last = (started.long() * torch.arange(1, 11, device=obs.device)).argmax(1)
        rows = torch.arange(b, device=obs.device)
        trick = cards[rows, last]  # [B, 4, C]
        count = trick.sum((1, 2))
        players = 4 - obs[:, _L["sitting_out"]].sum(1)
        live = started.any(1) & (count > 0) & (count < players)
        led = slots[rows, last, -4:].argmax(1)
        key = self.strength[ctx, led]  # [B, C]: -1 cannot win
        seat_key = (trick * (key[:, None, :] + 2)).amax(2) - 2  # [B, 4]; -2: no card
        top = seat_key.amax(1)
        winning = ((seat_key == top[:, None]) & (top[:, None] >= 0) & live[:, None]).float()
        best = (trick * winning[:, :, None]).sum(1)
        beats = hand * ((key > top[:, None]) & live[:, None]).float()
        return torch.cat([played, unseen, masters, out, winning, best, beats], dim=1)
