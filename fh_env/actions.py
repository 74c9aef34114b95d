"""The fixed tables of integer actions: one for three and four players, one for six.

One flat action space shared by every phase (as OpenSpiel's card games do), so one agent can
play under any rules: a rule set only changes which actions are legal.

======================  ========  =====================================================
actions                 ids       names
======================  ========  =====================================================
pass                    0         ``pass``
ordinary bids           1..25     ``6S 6C 6D 6H 6NT 7S … 10NT`` (level-major, strains S C D H NT)
nullo-type bids         26..28    ``nullo``, ``open nullo``, ``double nullo``
misdeal                 29        ``misdeal``
discard a card          30..75    ``discard 4S`` … (``30 + card id``)
play a card             76..121   ``play 4S`` … (``76 + card id``)
lead a joker, naming    122..129  ``play JK S`` … ``play JK H`` (122..125; ``BJ`` with two
a suit                            jokers), ``play RJ S`` … ``play RJ H`` (126..129)
======================  ========  =====================================================

A joker led without a trump suit is always led with one of the naming actions; a joker
played in any other situation (following, or led to a trump contract) uses ``play JK``.

The six-handed pack (§9.2) has 18 more cards (ids 46..63 of :mod:`fh_env.cards`), so six
players use a longer table of the same shape, :data:`SIX_HANDED`: 64 discards (30..93), 64
plays (94..157) and the joker leads (158..165), 166 actions.  Three players use the table above
(their pack is a part of the 4-player one).  The module's constants and functions are the
4-player table's; :func:`action_table` gives the table of a table size.
"""

from __future__ import annotations

import random
from operator import index

from dataclasses import dataclass

from .cards import ALL_CARDS, JOKER, NUM_CARDS, SUITS, card_name, is_joker, parse_card

PASS = 0
BID_BASE = 1
MIN_LEVEL, MAX_LEVEL = 6, 10
STRAINS = ("S", "C", "D", "H", "NT")
NT = 4
NUM_ORDINARY_BIDS = 25
NULLO = 26
OPEN_NULLO = 27
DOUBLE_NULLO = 28
MISDEAL = 29
DISCARD_BASE = 30
PLAY_BASE = DISCARD_BASE + NUM_CARDS  # 76
JOKER_LEAD_BASE = PLAY_BASE + NUM_CARDS  # 122
NUM_ACTIONS = JOKER_LEAD_BASE + 8  # 130
NULLO_TYPES = (NULLO, OPEN_NULLO, DOUBLE_NULLO)


def bid_action(level: int, strain: int) -> int:
    return BID_BASE + (level - MIN_LEVEL) * 5 + strain


def bid_level(action: int) -> int:
    return MIN_LEVEL + (action - BID_BASE) // 5


def bid_strain(action: int) -> int:
    return (action - BID_BASE) % 5


def is_ordinary_bid(action: int) -> bool:
    return BID_BASE <= action < BID_BASE + NUM_ORDINARY_BIDS


def joker_lead_action(joker: int, suit: int) -> int:
    return JOKER_LEAD_BASE + (joker - JOKER) * 4 + suit


def played_card(action: int) -> int:
    """The card id of a play action (plain or joker lead)."""
    if action >= JOKER_LEAD_BASE:
        return JOKER + (action - JOKER_LEAD_BASE) // 4
    return action - PLAY_BASE


_SPECIAL = {PASS: "pass", NULLO: "nullo", OPEN_NULLO: "open nullo",
            DOUBLE_NULLO: "double nullo", MISDEAL: "misdeal"}
_BY_NAME = {name: a for a, name in _SPECIAL.items()}


def random_action(legal: int, rng: "random.Random") -> int:
    """A uniformly random action of the bitmask ``legal`` (bit ``a`` set: ``a`` legal), drawn
    from ``rng``: the play of the ``random`` bot and of the single-seat env's default seats."""
    n = rng.randrange(legal.bit_count())
    while n:
        legal &= legal - 1
        n -= 1
    return (legal & -legal).bit_length() - 1


def action_id(action: object) -> int:
    """``action`` as a plain ``int``: any integer type is an action id (a Python ``int``, a
    NumPy integer, a 0-d integer array, anything with ``__index__``); ``bool`` is not.

    Raises ``TypeError`` for anything else.  The range (0..129) is not checked here.
    """
    if type(action) is int:
        return action
    if isinstance(action, bool) or type(action).__name__ == "bool_":
        raise TypeError(f"action {action!r} is a bool, not an integer action id "
                        f"0..{NUM_ACTIONS - 1}")
    try:
        value = index(action)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"action {action!r} is not an integer action id "
                        f"0..{NUM_ACTIONS - 1}") from None
    if isinstance(value, bool):  # a 0-d bool array indexes as a bool
        raise TypeError(f"action {action!r} is a bool, not an integer action id "
                        f"0..{NUM_ACTIONS - 1}")
    return int(value)


def action_to_str(action: int, jokers: int = 1) -> str:
    """The name of an action of the 4-player table; ``jokers=2`` names the high joker ``BJ``
    instead of ``JK``.  ``action`` may be of any integer type (a NumPy integer too); ``bool`` is
    not an action.  Other table sizes: ``action_table(players).to_str``."""
    return FOUR_HANDED.to_str(action, jokers)


def str_to_action(name: str) -> int:
    """The id of an action name in the 4-player table, the inverse of :func:`action_to_str`
    (case-insensitive)."""
    return FOUR_HANDED.from_str(name)


@dataclass(frozen=True)
class ActionTable:
    """The action ids of one table size: calls 0..29 (the same for all), then one discard and
    one play per card id below ``num_cards``, then the joker leads naming a suit."""

    num_cards: int

    @property
    def discard_base(self) -> int:
        return DISCARD_BASE

    @property
    def play_base(self) -> int:
        return DISCARD_BASE + self.num_cards

    @property
    def joker_lead_base(self) -> int:
        return DISCARD_BASE + 2 * self.num_cards

    @property
    def num_actions(self) -> int:
        return self.joker_lead_base + 8

    def joker_lead_action(self, joker: int, suit: int) -> int:
        return self.joker_lead_base + (joker - JOKER) * 4 + suit

    def played_card(self, action: int) -> int:
        """The card id of a play action (plain or joker lead)."""
        if action >= self.joker_lead_base:
            return JOKER + (action - self.joker_lead_base) // 4
        return action - self.play_base

    def to_str(self, action: int, jokers: int = 1) -> str:
        """The name of an action (as :func:`action_to_str`)."""
        try:
            value = action_id(action)
        except TypeError as err:
            raise ValueError(f"no action has id {action!r} ({err}); action ids are "
                             f"0..{self.num_actions - 1}") from None
        if not 0 <= value < self.num_actions:
            raise ValueError(f"no action has id {action!r}; action ids are "
                             f"0..{self.num_actions - 1}")
        if value < DISCARD_BASE:
            return CALL_NAMES[value]
        if value < self.play_base:
            return "discard " + card_name(value - DISCARD_BASE, jokers)
        if value < self.joker_lead_base:
            return "play " + card_name(value - self.play_base, jokers)
        return (f"play {card_name(self.played_card(value), jokers)} "
                f"{SUITS[(value - self.joker_lead_base) % 4]}")

    def from_str(self, name: str) -> int:
        """The id of an action name, the inverse of :meth:`to_str` (case-insensitive)."""
        text = " ".join(str(name).strip().lower().split())
        if text in _BY_NAME:
            return _BY_NAME[text]
        words = text.upper().split()
        try:
            if len(words) == 1:
                word = words[0]
                level, strain = word[:-2] if word.endswith("NT") else word[:-1], (
                    "NT" if word.endswith("NT") else word[-1:])
                if level.isdigit() and MIN_LEVEL <= int(level) <= MAX_LEVEL and strain in STRAINS:
                    return bid_action(int(level), STRAINS.index(strain))
            elif len(words) == 2 and words[0] in ("DISCARD", "PLAY"):
                c = parse_card(words[1])
                if c < self.num_cards:
                    return (DISCARD_BASE if words[0] == "DISCARD" else self.play_base) + c
            elif len(words) == 3 and words[0] == "PLAY" and words[2] in SUITS:
                c = parse_card(words[1])
                if is_joker(c):
                    return self.joker_lead_action(c, SUITS.index(words[2]))
        except ValueError:
            pass
        raise ValueError(
            f"bad action name {name!r}: expected 'pass', a bid such as '6S' … '10NT', 'nullo', "
            "'open nullo', 'double nullo', 'misdeal', 'discard <card>', 'play <card>', or "
            "'play JK <suit>' (a joker lead naming S, C, D or H; 'BJ'/'RJ' with two jokers)")


CALL_NAMES = tuple(_SPECIAL.get(a) or f"{bid_level(a)}{STRAINS[bid_strain(a)]}"
                   for a in range(DISCARD_BASE))
FOUR_HANDED = ActionTable(NUM_CARDS)
SIX_HANDED = ActionTable(ALL_CARDS)
_TABLES = {3: FOUR_HANDED, 4: FOUR_HANDED, 6: SIX_HANDED}


def action_table(players: int) -> ActionTable:
    """The action table of a table size (three players share the 4-player table)."""
    return _TABLES[players]


ACTION_NAMES = tuple(action_to_str(a) for a in range(NUM_ACTIONS))
