"""Why an entry is illegal, in words, worked out from the engine's own answer.

The engine alone decides what is legal (:meth:`fh_env.State.is_legal`,
:meth:`~fh_env.State.legal_actions`); nothing here restates a rule's condition, so the text cannot
drift from the rules the game is played under.  :func:`explain_illegal` compares the refused
action with the legal ones and with plain facts of the state: the phase, the cards held, the suit
led and which cards follow it under the contract (``fh_env.cards.TABLES.suit_mask``), the bids
made so far (``State.open_bids``: the bids that outrank all of them).  Where no such fact says
more, it gives the engine's own message (:meth:`~fh_env.State.illegal_message`), which names the
action, the phase, the seat on turn and the legal actions.
"""

from __future__ import annotations

from typing import Iterable

from fh_env import actions as A
from fh_env.cards import (SUIT_NAMES, SUITS, TABLES, card_name, cards_of, effective_suit,
                          is_joker, suit_of)
from fh_env.engine import Phase, State

from .entries import bid_levels
from .render import action_label, card_label, decode


def explain_illegal(state: State, action: int) -> str:
    """Why ``action`` is not legal for the seat on turn, in words (``... is legal`` when it is)."""
    jokers, n = state.rules.jokers, state.rules.players
    table = A.action_table(n)
    if not isinstance(action, int) or not 0 <= action < table.num_actions:
        return state.illegal_message(action)
    if state.is_legal(action):
        return f"{action_label(action, jokers, n)} is legal"
    if state.is_terminal:
        return "the hand is over"
    kind, c, _ = decode(action, n)
    if state.phase == Phase.AUCTION:
        if kind != "call":  # a card typed in the auction (5H, a bid too low, is one)
            return (f"this is the auction: bid or pass; {bid_levels(state)} (cards are "
                    "played after the auction)")
        return _explain_call(state, action)
    if state.phase == Phase.EXCHANGE:
        if kind != "discard":
            return (f"you are exchanging with the kitty: discard {state.discards_left} more "
                    f"card{'s' if state.discards_left > 1 else ''} (type a card, such as 4S)")
        if not state.hands[state.turn] >> c & 1:
            return f"you do not hold {card_label(c, jokers)}"
        return state.illegal_message(action)
    if kind != "play":
        return "this is the play: play a card (type one, such as QS)"
    return _explain_play(state, action)


def _explain_call(state: State, action: int) -> str:
    """A bid that does not outrank the bids made so far; anything else in the engine's words."""
    jokers = state.rules.jokers
    is_bid = A.BID_BASE <= action <= A.DOUBLE_NULLO
    if is_bid and state.high_bid >= 0 and not state.open_bids >> action & 1:
        return (f"{action_label(action, jokers)} does not outrank the bids made so far (the "
                f"high bid is {action_label(state.high_bid, jokers)}); legal calls: "
                f"{_legal_list(state)}")
    return state.illegal_message(action)


def _explain_play(state: State, action: int) -> str:
    """A card not held, a failure to follow suit, a joker lead naming (or not naming) a suit
    where the legal actions do the other; anything else in the engine's words."""
    jokers, ctx, n = state.rules.jokers, state.context, state.rules.players
    table = A.action_table(n)
    hand = state.hands[state.turn]
    _, c, named = decode(action, n)
    label = card_label(c, jokers)
    if not hand >> c & 1:
        return f"you do not hold {label}"
    naming = named >= 0
    plain_legal = state.is_legal(table.play_base + c)
    if state.trick:
        if naming and plain_legal:
            return (f"only a joker that leads names a suit: play it as plain "
                    f"{card_name(c, jokers)}")
        led = state.led
        follow = hand & TABLES.suit_mask[ctx][led]
        legal_cards = {decode(a, n)[1] for a in state.legal_actions()}
        if follow and not follow >> c & 1 and legal_cards & set(cards_of(follow)):
            held = list(cards_of(follow))
            text = (f"you must follow {SUIT_NAMES[led]}: you hold "
                    + " ".join(card_label(x, jokers) for x in held))
            notes = _suit_notes([c] + held, ctx, jokers)
            return text + ("; " + "; ".join(notes) if notes else "")
        return state.illegal_message(action)
    named_ok = [s for s in range(4) if state.is_legal(table.joker_lead_action(c, s))] \
        if is_joker(c) else []
    if naming and plain_legal:
        notes = _suit_notes([c], ctx, jokers)
        return ((notes[0] + ": " if notes else "")
                + f"lead it as plain {card_name(c, jokers)}, without naming a suit")
    if not naming and named_ok:
        return (f"a joker lead names a suit here: type {card_name(c, jokers)} followed by one "
                f"of {' '.join(SUITS[s] for s in named_ok)}")
    if naming and named_ok:
        return (f"the joker may not name {SUIT_NAMES[named]} now; it may name "
                + ", ".join(SUIT_NAMES[s] for s in named_ok))
    return state.illegal_message(action)


def _suit_notes(cards: Iterable[int], context: int, jokers: int) -> list[str]:
    """``J♦ is a heart this hand`` for each card whose suit the contract changes (a fact of
    :func:`fh_env.cards.effective_suit`)."""
    notes = []
    for c in cards:
        suit = effective_suit(c, context)
        if not is_joker(c) and suit != suit_of(c):
            notes.append(f"{card_label(c, jokers)} is a {SUIT_NAMES[suit][:-1]} this hand")
        elif is_joker(c) and suit < 4:
            notes.append(f"{card_label(c, jokers)} is a {SUIT_NAMES[suit][:-1]} (a trump) "
                         "this hand")
    return notes


def _legal_list(state: State) -> str:
    return ", ".join(action_label(a, state.rules.jokers, state.rules.players)
                     for a in state.legal_actions())
