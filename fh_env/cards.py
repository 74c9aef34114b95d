"""Cards, decks, and the one place that knows how a card behaves under a contract.

Card ids are small integers so that a hand fits in one Python ``int`` used as a bitmask:
bit ``c`` of a hand is set when the hand holds card ``c``.

* ``id = suit * 11 + rank`` for the 44 plain cards of the 4-player decks, with suits
  S, C, D, H = 0, 1, 2, 3 (the strain order of the auction) and ranks 4 5 6 7 8 9 10 J Q K A
  = 0 … 10;
* ``44`` is the highest joker (``JK`` in a one-joker deck, ``BJ`` with two jokers) and ``45``
  the red joker ``RJ``;
* ``46..63``: the cards only the six-handed pack has (§9.2): ``2``, ``3``, ``11``, ``12`` of
  every suit (``46 + 4 * suit + k``), then ``13H`` (62) and ``13D`` (63).  So the 4-player
  action table (ids 0..45) is untouched, and every hand still fits a 64-bit mask.

A card's rank has a name (``ALL_RANKS[rank_of(c)]``) and a place in the plain order 2 3 4 … 10
11 12 13 J Q K A (:data:`PLAIN_ORDER`), which is what decides tricks.

Everything about bowers and jokers is decided by :func:`effective_suit` and
:func:`card_strength`; the engine only reads the lookup tables built from them once per
trump context (:data:`TABLES`).
"""

from __future__ import annotations

from typing import Iterable, Iterator

SUITS = "SCDH"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
SUIT_SYMBOLS = "♠♣♦♥"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # of the 4-player packs
SIX_HANDED_RANKS = ("2", "3", "11", "12", "13")
ALL_RANKS = RANKS + SIX_HANDED_RANKS  # rank_of(c) indexes this
#: PLAIN_ORDER[rank_of(c)]: a plain card's place, low to high: 2 3 4 … 10 11 12 13 J Q K A.
PLAIN_ORDER = (2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 0, 1, 9, 10, 11)
S, C, D, H = 0, 1, 2, 3
NO_SUIT = 4  # the effective suit of a joker when there is no trump suit
JACK = RANKS.index("J")
JOKER = 44  # the highest joker: "JK" (one joker) or "BJ" (black joker, two jokers)
RED_JOKER = 45
NUM_CARDS = 46  # ids covered by the 4-player action table
ALL_CARDS = 64  # every id, the six-handed pack's included
FIRST_SIX_HANDED = 46
JOKERS = (JOKER, RED_JOKER)
JOKER_BITS = (1 << JOKER) | (1 << RED_JOKER)


def card(rank: str, suit: str) -> int:
    """The id of a plain card from its rank and suit letters (ValueError if no pack has it)."""
    s = SUITS.index(suit)
    if rank in RANKS:
        return s * 11 + RANKS.index(rank)
    if rank in ("2", "3", "11", "12"):
        return FIRST_SIX_HANDED + 4 * s + ("2", "3", "11", "12").index(rank)
    if rank == "13" and suit in "HD":
        return 62 if suit == "H" else 63
    raise ValueError(f"no pack has the card {rank}{suit}")


def _six_handed_card(c: int) -> tuple[int, int]:
    """(suit, rank index) of an id 46..63."""
    if c >= 62:
        return (H if c == 62 else D), len(ALL_RANKS) - 1
    k = c - FIRST_SIX_HANDED
    return k // 4, len(RANKS) + k % 4


def suit_of(c: int) -> int:
    """The printed suit of a plain card (``NO_SUIT`` for a joker)."""
    if c < JOKER:
        return c // 11
    return NO_SUIT if c <= RED_JOKER else _six_handed_card(c)[0]


def rank_of(c: int) -> int:
    """The printed rank of a plain card, an index into :data:`ALL_RANKS` (0 = '4' … 10 = 'A',
    then the six-handed pack's 2 3 11 12 13)."""
    return c % 11 if c < JOKER else _six_handed_card(c)[1]


def is_joker(c: int) -> bool:
    return c == JOKER or c == RED_JOKER


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
    if not 0 <= c < ALL_CARDS:
        raise ValueError(f"no card has id {c!r}; ids are 0..{ALL_CARDS - 1}")
    return ALL_RANKS[rank_of(c)] + SUITS[suit_of(c)]


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
        if rank in ALL_RANKS and suit in SUITS:
            try:
                return card(rank, suit)
            except ValueError:
                pass  # 13S, 13C: in no pack
    raise ValueError(
        f"bad card name {name!r}: expected a rank (2-13 or T, J, Q, K, A; 2, 3, 11, 12, 13 are "
        "the six-handed pack's) followed by a suit (S, C, D, H), for example '10S', 'JD', 'AH'; "
        "or 'JK' for the joker ('BJ'/'RJ' for the black and red jokers)"
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


#: The packs of the other table sizes (§9.1, §9.2), which the ``deck`` option does not choose.
TABLE_DECKS: dict[int, tuple[int, ...]] = {
    3: tuple(sorted({c for c in _ALL_PLAIN if rank_of(c) >= RANKS.index("7")} | {JOKER})),
    6: tuple(sorted(_ALL_PLAIN | {JOKER} | set(range(FIRST_SIX_HANDED, ALL_CARDS)))),
}


def deck_jokers(deck: str) -> int:
    """How many jokers a deck value holds."""
    return sum(1 for c in DECKS[deck] if is_joker(c))


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
        if is_joker(c):
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
    plain = 0 if is_joker(c) else PLAIN_ORDER[rank_of(c)]
    if context < NT_STANDARD and suit == context:
        if is_joker(c):
            return 300 if c == JOKER else 299
        if rank_of(c) == JACK:
            return 250 if suit_of(c) == context else 249
        return 200 + plain
    if is_joker(c):
        if context == NT_JOKERS_LOW:
            return 1 if c == JOKER else 0  # lowest of the suit, black still above red (§1.2)
        return 300 if c == JOKER else 299
    if suit != led:
        return -1
    if context == NT_J5 and rank_of(c) == JACK:
        return 100
    return 10 + plain


class Tables:
    """Per-context lookup tables built once from the two functions above."""

    __slots__ = ("suit", "suit_mask", "strength")

    def __init__(self) -> None:
        self.suit = [[effective_suit(c, t) for c in range(ALL_CARDS)] for t in range(NUM_CONTEXTS)]
        self.suit_mask = [
            [mask_of(c for c in range(ALL_CARDS) if self.suit[t][c] == s) for s in range(5)]
            for t in range(NUM_CONTEXTS)
        ]
        self.strength = [
            [[card_strength(c, t, led) for c in range(ALL_CARDS)] for led in range(5)]
            for t in range(NUM_CONTEXTS)
        ]


TABLES = Tables()
# The honours of the misdeal rule (§3.9): aces, kings, queens, jacks and every joker.
HONOURS = mask_of(c for c in range(44) if RANKS[rank_of(c)] in ("J", "Q", "K", "A")) | JOKER_BITS
