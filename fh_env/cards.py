"""Cards, decks, and the one place that knows how a card behaves under a contract.

Card ids are small integers so that a hand fits in one Python ``int`` used as a bitmask:
bit ``c`` of a hand is set when the hand holds card ``c``.

* ``id = suit * 11 + rank`` for the 44 plain cards of the 4-player decks, with suits
  S, C, D, H = 0, 1, 2, 3 (the strain order of the auction) and ranks 4 5 6 7 8 9 10 J Q K A
  = 0 … 10;
* ``44`` is the highest joker (``JK`` in a one-joker deck, ``BJ`` with two jokers) and ``45``
  the red joker ``RJ``.

The ids of the 6-player cards (11, 12, 13) would follow from 46 on, so the 4-player action table
(which covers ids 0..45) never changes when they arrive.

Everything about bowers and jokers is decided by :func:`effective_suit` and
:func:`card_strength`; the engine only reads the lookup tables built from them once per
trump context (:data:`TABLES`).
"""

from __future__ import annotations

from typing import Iterable, Iterator

SUITS = "SCDH"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
SUIT_SYMBOLS = "♠♣♦♥"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
S, C, D, H = 0, 1, 2, 3
NO_SUIT = 4  # the effective suit of a joker when there is no trump suit
JACK = RANKS.index("J")
JOKER = 44  # the highest joker: "JK" (one joker) or "BJ" (black joker, two jokers)
RED_JOKER = 45
NUM_CARDS = 46  # ids covered by the 4-player action table
JOKERS = (JOKER, RED_JOKER)
JOKER_BITS = (1 << JOKER) | (1 << RED_JOKER)


def card(rank: str, suit: str) -> int:
    """The id of a plain card from its rank and suit letters."""
    return SUITS.index(suit) * 11 + RANKS.index(rank)


def suit_of(c: int) -> int:
    """The printed suit of a plain card (``NO_SUIT`` for a joker)."""
    return c // 11 if c < JOKER else NO_SUIT


def rank_of(c: int) -> int:
    """The printed rank index of a plain card (0 = '4' … 10 = 'A')."""
    return c % 11


def is_joker(c: int) -> bool:
    return c >= JOKER


def same_colour_suit(suit: int) -> int:
    """The other suit of the same colour: S<->C, D<->H."""
    return suit ^ 1


# ----------------------------------------------------------------------------------- names


def card_name(c: int, jokers: int = 1) -> str:
    """Rank then suit (``10S``, ``JD``); ``JK`` for the joker, ``BJ``/``RJ`` with two jokers."""
    if c == JOKER:
        return "BJ" if jokers == 2 else "JK"
    if c == RED_JOKER:
        return "RJ"
    if not 0 <= c < JOKER:
        raise ValueError(f"no card has id {c!r}; ids are 0..{NUM_CARDS - 1}")
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♤": "S", "♧": "C", "♢": "D", "♡": "H"})


def parse_card(name: str) -> int:
    """The id of a card name such as ``10S``, ``TS``, ``jd``, ``Q♥``, ``JK``, ``BJ``, ``RJ``."""
    text = str(name).strip().upper()
    if text in ("JK", "BJ", "JOKER"):
        return JOKER
    if text == "RJ":
        return RED_JOKER
    if len(text) >= 2:
        rank, suit = text[:-1], _SYMBOL_TO_SUIT.get(text[-1], text[-1])
        rank = "10" if rank == "T" else rank
        if rank in RANKS and suit in SUITS:
            return card(rank, suit)
    raise ValueError(
        f"bad card name {name!r}: expected a rank (4-10 or T, J, Q, K, A) followed by a suit "
        "(S, C, D, H), for example '10S', 'JD', 'AH'; or 'JK' for the joker ('BJ'/'RJ' for the "
        "black and red jokers)"
    )


def cards_of(mask: int) -> Iterator[int]:
    """The card ids in a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ----------------------------------------------------------------------------------- decks

_ALL_PLAIN = frozenset(range(44))
_NO_BLACK_FOURS = _ALL_PLAIN - {card("4", "S"), card("4", "C")}
_NO_FOURS = frozenset(c for c in _ALL_PLAIN if rank_of(c) != 0)

DECKS: dict[str, tuple[int, ...]] = {
    "41": tuple(sorted(_NO_FOURS | {JOKER})),
    "42": tuple(sorted(_NO_BLACK_FOURS)),
    "43": tuple(sorted(_NO_BLACK_FOURS | {JOKER})),
    "44": tuple(sorted(_NO_BLACK_FOURS | {card("4", "C"), JOKER})),
    "44-nojoker": tuple(sorted(_ALL_PLAIN)),
    "45": tuple(sorted(_ALL_PLAIN | {JOKER})),
    "46": tuple(sorted(_ALL_PLAIN | {JOKER, RED_JOKER})),
}


def deck_jokers(deck: str) -> int:
    """How many jokers a deck value holds."""
    return sum(1 for c in DECKS[deck] if c >= JOKER)


# -------------------------------------------------------------------- behaviour under a contract
# A trump context says how cards behave in one hand: a trump suit (0..3) or one of the
# no-trump contexts below.  Contexts are small ints so that tables can be indexed by them.
NT_STANDARD = 4  # notrump / no-contract play, aces high, jokers win any trick
NT_J5 = 5  # notrump with the jack as the highest plain card (notrump_ranking = j5)
NT_JOKERS_LOW = 6  # nullo-type contract with jokers_low_in_nullo
NUM_CONTEXTS = 7


def effective_suit(c: int, context: int) -> int:
    """The suit a card belongs to for following and being void.

    Under a trump suit the jokers and the left bower are trumps; without one a joker belongs
    to no suit (``NO_SUIT``): the suit it stands for is the named or led suit of its trick.
    """
    if context < NT_STANDARD:
        if c >= JOKER:
            return context
        if rank_of(c) == JACK and suit_of(c) == same_colour_suit(context):
            return context
    return suit_of(c)


def card_strength(c: int, context: int, led: int) -> int:
    """How strongly a card plays to a trick whose led suit is ``led``; -1 cannot win it.

    Trumps rank above everything (jokers, right bower, left bower, A K Q 10 …); without
    trumps a joker wins any trick (black over red) unless jokers are low, when it is the
    lowest card of the led suit.
    """
    suit = effective_suit(c, context)
    plain = rank_of(c) if c < JOKER else 0
    if context < NT_STANDARD and suit == context:
        if c >= JOKER:
            return 300 if c == JOKER else 299
        if rank_of(c) == JACK:
            return 250 if suit_of(c) == context else 249
        return 200 + plain
    if c >= JOKER:
        if context == NT_JOKERS_LOW:
            return 1 if c == JOKER else 0  # lowest of the suit, black still above red (§1.2)
        return 300 if c == JOKER else 299
    if suit != led:
        return -1
    if context == NT_J5 and plain == JACK:
        return 100
    return 10 + plain


class Tables:
    """Per-context lookup tables built once from the two functions above."""

    __slots__ = ("suit", "suit_mask", "strength")

    def __init__(self) -> None:
        self.suit = [[effective_suit(c, t) for c in range(NUM_CARDS)] for t in range(NUM_CONTEXTS)]
        self.suit_mask = [
            [mask_of(c for c in range(NUM_CARDS) if self.suit[t][c] == s) for s in range(5)]
            for t in range(NUM_CONTEXTS)
        ]
        self.strength = [
            [[card_strength(c, t, led) for c in range(NUM_CARDS)] for led in range(5)]
            for t in range(NUM_CONTEXTS)
        ]


TABLES = Tables()
# The honours of the misdeal rule (§3.9): aces, kings, queens, jacks and every joker.
HONOURS = mask_of(c for c in range(44) if RANKS[rank_of(c)] in ("J", "Q", "K", "A")) | JOKER_BITS
