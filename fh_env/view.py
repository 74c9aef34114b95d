"""What one seat may know: the object that bots, observations and the terminal game read.

A :class:`SeatView` copies out of the state exactly what the seat ``seat`` is entitled to see
(its own hand, the public auction and play, the kitty and discards of an exchange it made, an
exposed open-nullo hand) and nothing else, so code holding a view cannot peek at hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import actions as A
from .cards import cards_of, mask_of
from .engine import NO_CONTRACT, Phase, State, side_of
from .rules import Rules


@dataclass(frozen=True)
class SeatView:
    """Everything seat ``seat`` may know about the game now.  Card sets are bitmasks."""

    rules: Rules
    seat: int
    phase: Phase
    turn: int  # the seat on turn, -1 when the hand is over
    dealer: int
    hand: int
    hand_sizes: tuple[int, ...]  # one per seat (3, 4 or 6)
    calls: tuple[tuple[int, int], ...]  # (seat, action) in order
    high_bid: int  # -1 while nobody has bid
    high_bidder: int
    contract: int | None  # a bid action, NO_CONTRACT (-1) for no-contract play, None before
    declarer: int  # -1 when there is none
    context: int  # trump suit 0..3 or a no-trump context of fh_env.cards
    sitting_out: int  # -1 when all four play
    kitty_size: int
    exchanges: tuple[tuple[int, int, int], ...]  # (seat, picked up, discarded); own cards only
    exchanging: tuple[int, ...]  # the seats that exchanged (public), in order
    discards_left: int
    exposed: int  # the open-nullo declarer's hand when exposed to this seat, else 0
    leader: int
    trick: tuple[int, ...]  # cards of the trick in progress, in play order from ``leader``
    led: int  # the led suit of the trick in progress, -1 when none
    tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]  # (leader, cards, winner, led)
    tricks_won: tuple[int, ...]  # per seat
    voids: tuple[int, ...]  # per seat: bits 0..3 suits shown void, bit 4 shown no joker
    shows_joker: int  # seats whose 6NT showed a joker (§3.8), as a mask over seats
    scores: tuple[int, ...]  # per side: two teams, or three players
    hands_played: int
    legal: int  # legal action mask when ``seat`` is on turn, else 0

    @property
    def played(self) -> int:
        """Every card played to a trick so far, the current trick included."""
        m = mask_of(self.trick)
        for _, cards, _, _ in self.tricks:
            m |= mask_of(cards)
        return m

    @property
    def unseen(self) -> int:
        """Cards whose place this seat cannot see: in other hands or the kitty."""
        known = self.hand | self.played | self.exposed
        if self.exchanges and self.exchanging[-1] == self.seat:
            # Its discards are the kitty, unless a later exchange (double nullo's partner,
            # §4.3) picked them up: then they may be in the partner's hand.
            known |= self.exchanges[-1][2]
        return mask_of(self.rules.cards) & ~known

    def legal_actions(self) -> list[int]:
        return list(cards_of(self.legal))

    @property
    def team(self) -> int:
        """The side this seat scores for (its team, or itself with three players)."""
        return side_of(self.rules.players, self.seat)

    @property
    def is_nullo(self) -> bool:
        return self.contract in A.NULLO_TYPES

    @property
    def has_contract(self) -> bool:
        return self.contract is not None and self.contract != NO_CONTRACT


def seat_view(state: State, seat: int) -> SeatView:
    """The view of ``seat`` (0..players-1) of the current state."""
    if seat not in range(state.rules.players):
        raise ValueError(f"seat must be 0..{state.rules.players - 1}, not {seat!r}")
    exchanges = tuple((s, picked, discarded) for s, picked, discarded in state.exchanges
                      if s == seat)
    exposed = state.hands[state.declarer] if state.exposed and seat != state.declarer else 0
    # Filling __dict__ directly skips the frozen dataclass's 30 guarded __setattr__ calls (about
    # 3x faster); the fields are exactly those of SeatView, which a test checks.
    view = object.__new__(SeatView)
    view.__dict__.update(
        rules=state.rules,
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        dealer=state.dealer,
        hand=state.hands[seat],
        hand_sizes=tuple(h.bit_count() for h in state.hands),  # type: ignore[arg-type]
        calls=tuple(state.calls),
        high_bid=state.high_bid,
        high_bidder=state.high_bidder,
        contract=state.contract,
        declarer=state.declarer,
        context=state.context,
        sitting_out=state.sitting_out,
        kitty_size=state.rules.kitty_size,
        exchanges=exchanges,
        exchanging=tuple(e[0] for e in state.exchanges),
        discards_left=state.discards_left,
        exposed=exposed,
        leader=state.leader,
        trick=tuple(state.trick),
        led=state.led,
        tricks=tuple(state.tricks),
        tricks_won=tuple(state.tricks_won),  # type: ignore[arg-type]
        voids=tuple(state.voids),  # type: ignore[arg-type]
        shows_joker=state.shows_joker,
        scores=tuple(state.scores),
        hands_played=state.hands_played,
        legal=state.legal_mask() if state.turn == seat else 0,
    )
    return view
