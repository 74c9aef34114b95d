"""Shared helpers for the rules tests: hand-built deals, scripted calls and plays.

Deals are written as card names (``"AS KS 10H JK"``).  :func:`deal` takes the hands a test cares
about and completes the rest of the deck in a fixed order, so that every test names the cards
that matter to its rule and nothing depends on a random deal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Mapping, Sequence

import pytest

from fh_env.actions import str_to_action
from fh_env.cards import DECKS, cards_of, mask_of, parse_card
from fh_env.engine import Phase, State
from fh_env.rules import PRESETS, Rules

# The presets of the 4-player stack.  The table sizes of §9 (three-handed, six-handed) run on
# the reference engine and the environments; the compiled core, the bots' samplers and the
# tests written for four seats take these.
FOUR_PLAYER_PRESETS = {name: o for name, o in PRESETS.items() if o.get("players", 4) == 4}

# Every option with a closed set of values (the wording of docs/rules.md).
CHOICES = {
    "deck": ("41", "42", "43", "44", "44-nojoker", "45", "46"),
    "min_bid_level": (6, 7, 8),
    "nullo": ("off", "after7", "anytime"),
    "open_nullo": ("off", "after7", "after8", "anytime"),
    "double_nullo": ("off", "after_partner_nullo", "anytime"),
    "nullo_ranking": ("fixed", "points"),
    "open_nullo_ties": ("higher", "lower", "equal"),
    "all_pass": ("redeal", "play"),
    "reenter": ("never", "always", "after_change"),
    "nullo_kitty": ("always", "never", "nullo_only"),
    "first_leader": ("declarer", "left_of_dealer"),
    "notrump_ranking": ("standard", "j5", "off"),
    "joker_lead": ("any", "not_led", "not_shown_void", "last_card"),
    "joker_follow": ("anytime", "void_only", "first_or_last"),
    "open_nullo_exposed": ("at_first_lead", "after_first_trick"),
    "scoring": ("avondale", "original", "perfect"),
    "slam": ("bonus", "bid_value"),
    "when_set": ("subtract", "to_defenders"),
    "defender_scoring": ("none", "tricks", "tricks_and_nullo"),
    "game_over": ("points", "hands"),
    "on_target": ("highest", "must_bid", "declarers_win_both", "defenders_stop_10",
                  "defenders_stop_40"),
}
BOOLS = ("highest_joker_in_kitty", "inkle", "raise_own_bid", "stick_the_dealer",
         "six_nt_shows_joker", "misdeal", "nullo_must_play_joker", "jokers_low_in_nullo",
         "finish_early")

STRAINS = ("S", "C", "D", "H", "NT")
# §6.1 and §6.8, copied row by row from docs/rules.md.
SCORING_TABLES = {
    "avondale": {6: [40, 60, 80, 100, 120], 7: [140, 160, 180, 200, 220],
                 8: [240, 260, 280, 300, 320], 9: [340, 360, 380, 400, 420],
                 10: [440, 460, 480, 500, 520]},
    "original": {6: [40, 60, 80, 100, 120], 7: [80, 120, 160, 200, 240],
                 8: [120, 180, 240, 300, 360], 9: [160, 240, 320, 400, 480],
                 10: [200, 300, 400, 500, 600]},
    "perfect": {6: [20, 40, 60, 80, 100], 7: [120, 140, 160, 180, 200],
                8: [220, 240, 260, 280, 300], 9: [320, 340, 360, 380, 400],
                10: [420, 440, 460, 480, 500]},
}

# A deal (the ``deal`` reset option of the environments) for 8NT: seat 0 holds the joker and
# a spade run.
SPADE_RUN = "JK AS KS QS JS 10S 9S 8S 7S 6S".split()
NT_DEAL = {"hands": [SPADE_RUN,
                     "5S 5C 6C 7C 8C 9C 10C JC QC KC".split(),
                     "AC 4D 5D 6D 7D 8D 9D 10D JD QD".split(),
                     "KD AD 4H 5H 6H 7H 8H 9H 10H JH".split()],
           "kitty": "QH KH AH".split()}


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
    return _complete_deal(hands, kitty, 4, DECKS[rules.deck], f"deck {rules.deck}")


def _complete_deal(hands: Mapping[int, str] | Sequence[str], kitty: str | None, players: int,
                   pack: Sequence[int], pack_name: str) -> tuple[list[list[int]], list[int]]:
    """The hands of :func:`deal` and :func:`table_deal`: ``players`` 10-card hands and the
    kitty, the named cards first, then the rest of ``pack`` in its order."""
    if not isinstance(hands, Mapping):
        hands = dict(enumerate(hands))
    given = [cards(hands.get(seat, "")) for seat in range(players)]
    kitty_cards = cards(kitty) if kitty is not None else []
    named = [c for hand in given for c in hand] + kitty_cards
    if len(set(named)) != len(named):
        raise AssertionError(f"a card is named twice in the deal: {named}")
    if set(named) - set(pack):
        raise AssertionError(f"cards not in {pack_name}: {named}")
    rest = [c for c in pack if c not in named]
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


def random_walk(rules: Rules, seed: int, steps: int) -> tuple[State, random.Random]:
    """A game ``State(rules, seed=seed)`` after up to ``steps`` random legal actions (fewer if
    it ends), and the ``random.Random(seed)`` that chose them, for the test to play on with."""
    rng = random.Random(seed)
    state = State(rules, seed=seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state, rng


def play_until(state: State, phase: Phase, rng: random.Random) -> State:
    while state.phase != phase and not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


class RecordingBot:
    """The first legal action; remembers the seats it was asked to play."""

    name = "recording"

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def act(self, view, rng):
        self.seats.add(view.seat)
        return view.legal_actions()[0]


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


# ------------------------------------------------------------------ any table size (§9)
def table_deal(rules: Rules, hands: Mapping[int, str] | Sequence[str],
               kitty: str | None = None) -> tuple[list[list[int]], list[int]]:
    """:func:`deal` for every table size: a 10-card hand per player (``rules.players``) and the
    kitty, the named cards first, then the rest of the rules' pack in id order."""
    return _complete_deal(hands, kitty, rules.players, list(rules.cards),
                          f"the {rules.players}-player pack")


def new_table_state(rules: Rules, hands: Mapping[int, str] | Sequence[str] = (),
                    kitty: str | None = None, dealer: int | None = None) -> State:
    """A game whose first hand is :func:`table_deal`; the last seat deals by default, so seat 0
    calls first."""
    hand_lists, kitty_list = table_deal(rules, hands, kitty)
    dealer = rules.players - 1 if dealer is None else dealer
    return State.from_deal(rules, hand_lists, kitty_list, dealer=dealer)


def act(state: State, *names: str) -> State:
    """:func:`do` in the action table of the state's own table size (six players have their
    own action ids): calls by name, then bare card names played (or discarded) in turn."""
    for text in names:
        if state.phase == Phase.AUCTION or text.split()[0].lower() in ("play", "discard"):
            state.apply_str(text)
            continue
        for word in text.split():
            prefix = "discard" if state.phase == Phase.EXCHANGE else "play"
            state.apply_str(f"{prefix} {word.replace(':', ' ')}")
    return state


def start_table_play(rules: Rules, hands: Mapping[int, str] | Sequence[str],
                     calls: Sequence[str], kitty: str | None = None,
                     dealer: int | None = None) -> State:
    """A hand-built deal of any table size taken to the first lead: the ``calls`` in order
    (they must end the auction), then every exchange discards exactly the cards it picked up,
    so the hands stay as dealt."""
    state = new_table_state(rules, hands, kitty, dealer)
    act(state, *calls)
    assert state.phase != Phase.AUCTION, "the scripted calls did not end the auction"
    while state.phase == Phase.EXCHANGE:
        for c in cards_of(state.exchanges[-1][1]):
            state.apply_str("discard " + state.card_name(c))
    assert state.phase == Phase.PLAY
    return state


IMITATE_TOY = """
seed = {seed}
rules = "{rules}"
init = "{init}"
eval_deals = 2
final_eval_deals = 2
eval_opponents = ["random"]

[[stages]]
kind = "imitate"
teacher = "{teacher}"
{stage}
"""


def imitate_config(path: Path, rules: str, init: str, teacher: str, stage: str = "",
                   seed: int = 3) -> Path:
    """Write a toy pipeline config of one imitate stage to ``path`` (``stage``: its other
    keys, as TOML lines) and return the path."""
    path.write_text(IMITATE_TOY.format(seed=seed, rules=rules, init=init, teacher=teacher,
                                       stage=stage), encoding="utf-8")
    return path
