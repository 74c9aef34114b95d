"""Shared helpers for the rules tests: hand-built deals, scripted calls and plays.

Deals are written as card names (``"AS KS 10H JK"``).  :func:`deal` takes the hands a test cares
about and completes the rest of the deck in a fixed order, so that every test names the cards
that matter to its rule and nothing depends on a random deal.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

import pytest

from fh_env.actions import str_to_action
from fh_env.cards import DECKS, cards_of, mask_of, parse_card
from fh_env.engine import Phase, State
from fh_env.rules import Rules


def cards(text: str) -> list[int]:
    """Card ids of a space-separated list of card names."""
    return [parse_card(word) for word in text.split()]


def mask(text: str) -> int:
    return mask_of(cards(text))


def deal(rules: Rules, hands: Mapping[int, str] | Sequence[str],
         kitty: str | None = None) -> tuple[list[list[int]], list[int]]:
    """Four 10-card hands and the kitty: the named cards, then the rest of the deck in id order.

    Hands not named (or named short of 10 cards) are filled from the unnamed cards, lowest id
    first; the kitty gets what is left when it is not named (or gets the remainder after it).
    """
    if not isinstance(hands, Mapping):
        hands = dict(enumerate(hands))
    given = [cards(hands.get(seat, "")) for seat in range(4)]
    kitty_cards = cards(kitty) if kitty is not None else []
    named = [c for hand in given for c in hand] + kitty_cards
    if len(set(named)) != len(named):
        raise AssertionError(f"a card is named twice in the deal: {named}")
    rest = [c for c in DECKS[rules.deck] if c not in named]
    if set(named) - set(DECKS[rules.deck]):
        raise AssertionError(f"cards not in deck {rules.deck}: {set(named) - set(DECKS[rules.deck])}")
    for hand in given:
        while len(hand) < 10:
            hand.append(rest.pop(0))
    if kitty is None:
        kitty_cards = rest
    elif rest:
        raise AssertionError(f"cards left over after the named kitty: {rest}")
    return given, kitty_cards


def new_state(rules: Rules | None = None, hands: Mapping[int, str] | Sequence[str] = (),
              kitty: str | None = None, dealer: int = 3) -> State:
    """A game whose first hand is :func:`deal`; dealer 3 by default, so seat 0 calls first."""
    rules = rules or Rules()
    hand_lists, kitty_list = deal(rules, hands, kitty)
    return State.from_deal(rules, hand_lists, kitty_list, dealer=dealer)


def do(state: State, *names: str) -> State:
    """Apply actions by name (``"pass"``, ``"7H"``, ``"open nullo"``, ``"play JK S"``).

    Outside the auction a text of bare card names applies one card after another: ``"AH 5H"``
    plays (or, in the exchange, discards) them in turn, and ``"JK:S"`` leads the joker naming
    spades.
    """
    for text in names:
        if state.phase == Phase.AUCTION or text.split()[0].lower() in ("play", "discard"):
            state.apply(str_to_action(text))
            continue
        for word in text.split():
            prefix = "discard" if state.phase == Phase.EXCHANGE else "play"
            state.apply(str_to_action(f"{prefix} {word.replace(':', ' ')}"))
    return state


def legal(state: State) -> set[str]:
    """The names of the legal actions of the seat on turn."""
    return {state.action_name(a) for a in state.legal_actions()}


def legal_cards(state: State) -> set[str]:
    """The names of the cards the seat on turn may play or discard (joker leads as ``JK:S``)."""
    out = set()
    for name in legal(state):
        words = name.split()
        out.add(words[1] if len(words) == 2 else f"{words[1]}:{words[2]}")
    return out


def names(m: int, jokers: int = 1) -> set[str]:
    from fh_env.cards import card_name
    return {card_name(c, jokers) for c in cards_of(m)}


def play_randomly(state: State, rng: random.Random) -> State:
    """Play random legal actions until the hand is over."""
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def play_until(state: State, phase: Phase, rng: random.Random) -> State:
    while state.phase != phase and not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


def start_play(rules: Rules | None, hands: Mapping[int, str] | Sequence[str], bid: str,
               kitty: str | None = None, declarer: int = 0, dealer: int = 3) -> State:
    """A hand-built deal taken to the first lead: ``declarer`` bids ``bid``, everyone else
    passes, and every exchange discards exactly the cards it picked up (so the hands stay
    as dealt)."""
    state = new_state(rules, hands, kitty, dealer)
    while state.phase == Phase.AUCTION:
        do(state, bid if state.turn == declarer and state.high_bid < 0 else "pass")
    assert state.declarer == declarer, "the scripted auction did not reach the contract"
    while state.phase == Phase.EXCHANGE:
        picked = state.exchanges[-1][1]
        for c in cards_of(picked):
            state.apply(str_to_action("discard " + state.card_name(c)))
    assert state.phase == Phase.PLAY
    return state


def follow_low(state: State, count: int = 1) -> State:
    """Let the next ``count`` seats play their lowest-id legal action."""
    for _ in range(count):
        state.apply(state.legal_actions()[0])
    return state
