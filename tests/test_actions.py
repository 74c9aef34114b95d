"""The fixed action table and illegal-action handling."""

from __future__ import annotations

import random

import pytest

from fh_env import IllegalActionError
from fh_env.actions import (ACTION_NAMES, NUM_ACTIONS, action_to_str, joker_lead_action,
                            str_to_action)
from fh_env.cards import JOKER, RED_JOKER, parse_card
from fh_env.engine import Phase, State
from fh_env.rules import Rules

from conftest import do, new_state, play_until


def test_action_table_layout() -> None:
    """The documented ids: pass, 25 bids level-major, nullo types, misdeal, discards, plays."""
    assert NUM_ACTIONS == 130
    assert action_to_str(0) == "pass"
    bids = [f"{level}{strain}" for level in range(6, 11) for strain in ("S", "C", "D", "H", "NT")]
    assert [action_to_str(a) for a in range(1, 26)] == bids
    assert [action_to_str(a) for a in (26, 27, 28, 29)] == [
        "nullo", "open nullo", "double nullo", "misdeal"]
    assert action_to_str(30 + parse_card("4S")) == "discard 4S"
    assert action_to_str(30 + parse_card("AH")) == "discard AH"
    assert action_to_str(76 + parse_card("10D")) == "play 10D"
    assert action_to_str(76 + JOKER) == "play JK"
    assert [action_to_str(a) for a in range(122, 130)] == [
        "play JK S", "play JK C", "play JK D", "play JK H",
        "play RJ S", "play RJ C", "play RJ D", "play RJ H"]
    assert joker_lead_action(RED_JOKER, 3) == 129
    assert ACTION_NAMES[27] == "open nullo"


@pytest.mark.parametrize("jokers", [1, 2])
def test_names_and_ids_are_inverse_for_all_130(jokers: int) -> None:
    seen = set()
    for a in range(NUM_ACTIONS):
        name = action_to_str(a, jokers)
        assert str_to_action(name) == a
        assert str_to_action(name.lower()) == a
        assert str_to_action("  " + name.upper().replace(" ", "   ") + " ") == a
        seen.add(name)
    assert len(seen) == NUM_ACTIONS
    assert ("play BJ S" in seen) == (jokers == 2)


@pytest.mark.parametrize("bad", ["", "bid", "5S", "11NT", "6X", "discard", "play", "play 1S",
                                 "play AS H", "discard JK S", "play JK X", "nullo nullo"])
def test_bad_action_name_says_what_is_accepted(bad: str) -> None:
    with pytest.raises(ValueError, match=r"bad action name.*'pass'.*'6S'.*'nullo'.*'play JK"):
        str_to_action(bad)


@pytest.mark.parametrize("bad", [-1, 130, 1.0, "pass", None])
def test_bad_action_id_says_what_is_accepted(bad: object) -> None:
    with pytest.raises(ValueError, match=r"action ids are 0\.\.129"):
        action_to_str(bad)  # type: ignore[arg-type]


def _assert_illegal(state: State, action: object, phase: str) -> None:
    before = state.to_dict()
    legal_names = [state.action_name(a) for a in state.legal_actions()]
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(action) in message and phase in message
    assert "legal actions: " + ", ".join(legal_names) in message
    if isinstance(action, int) and 0 <= action < NUM_ACTIONS:
        assert state.action_name(action) in message
    assert state.to_dict() == before
    assert isinstance(info.value, ValueError)


def test_illegal_action_in_every_phase_raises_and_leaves_state_unchanged() -> None:
    rng = random.Random(3)
    state = new_state(Rules(), {0: "JK JH JD AH KH QH 10H 9H 8H 7H"})
    do(state, "7H", "8S")  # seat 1 bids 8S
    _assert_illegal(state, str_to_action("7NT"), "AUCTION")  # below the high bid
    _assert_illegal(state, str_to_action("play AS"), "AUCTION")
    _assert_illegal(state, 999, "AUCTION")
    _assert_illegal(state, "pass", "AUCTION")
    do(state, "pass", "pass")
    do(state, "pass")  # seat 0 passes: seat 1 declares 8S
    assert state.phase == Phase.EXCHANGE
    _assert_illegal(state, str_to_action("discard JK"), "EXCHANGE")  # seat 1 does not hold it
    _assert_illegal(state, str_to_action("pass"), "EXCHANGE")
    play_until(state, Phase.PLAY, rng)
    _assert_illegal(state, str_to_action("discard AS"), "PLAY")
    _assert_illegal(state, str_to_action("play JK"), "PLAY")  # held by seat 0, not on turn
    play_until(state, Phase.HAND_OVER, rng)
    _assert_illegal(state, 0, "HAND_OVER")
    assert "legal actions: none" in str(pytest.raises(IllegalActionError, state.apply, 0).value)


def test_apply_str_and_is_legal() -> None:
    state = new_state(Rules())
    assert state.is_legal(str_to_action("6S")) and not state.is_legal(-1)
    assert not state.is_legal(NUM_ACTIONS)
    state.apply_str("6 S".replace(" ", ""))
    assert state.calls == [(0, str_to_action("6S"))]
    with pytest.raises(ValueError, match="bad action name"):
        state.apply_str("six spades")
