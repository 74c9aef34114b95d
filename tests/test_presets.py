"""Every preset of docs/rules.md §8 plays whole hands, with its characteristic rules on hand-built
deals."""

from __future__ import annotations

import random

import pytest

from fh_env.actions import str_to_action
from fh_env.contracts import hand_points
from fh_env.engine import Phase, State, side_of
from fh_env.rules import PRESETS, Rules
from fh_env.view import seat_view

from conftest import do, legal, legal_cards, new_state, start_play

TOP_TRUMPS = "JK JH JD AH KH QH 10H 9H 8H 7H"
NULLO_SAFE = {0: "4D 5D 6D 4H 5H 6H 5S 6S 5C 6C", 1: "AD KD QD JD 10D AH KH QH JH 10H",
              3: "AS KS QS JS 10S AC KC QC JC 10C"}


def _finish(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_plays_full_hands(name: str) -> None:
    """§8: under every preset random legal play reaches the end of several played hands."""
    rules = Rules.preset(name)
    played = 0
    for seed in range(40):
        state = _finish(State(rules, seed=seed), seed)
        result = state.result
        if result.thrown_in:
            assert result.hand_points == (0,) * rules.sides
            continue
        played += 1
        assert sum(result.tricks) == 10 or rules.finish_early
        side = side_of(rules.players, result.declarer)
        assert result.hand_points == hand_points(rules, result.contract, side, result.tricks)
        assert state.hands_played == 1 and state.deal_index == 1
        assert all(len(c) == state.active_seats() for _, c, _, _ in state.tricks)
        assert state.active_seats() == rules.players - (
            0 if state.sitting_out < 0 else 2 if rules.players == 6 else 1)
    assert played >= 20


def test_australian_no_nullo_default() -> None:
    """§8 australian-no-nullo: 43 cards, multi-round auction, no nullo bids."""
    state = new_state(Rules.preset("australian-no-nullo"), {0: TOP_TRUMPS})
    do(state, "6S", "6C", "7S", "pass", "7H")
    assert not legal(state) & {"nullo", "open nullo", "double nullo"}
    do(state, "pass", "pass")  # seat 3 passed before: the auction is over
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7H"), 0)


def test_australian_nullo_hand() -> None:
    """§8 australian: nullo after a 7-level bid, ranked between 7NT and 8S, played and made."""
    rules = Rules.preset("australian")
    state = new_state(rules, NULLO_SAFE)
    assert "nullo" not in legal(state)
    do(state, "6NT")
    assert "nullo" not in legal(state)
    do(state, "7S", "pass", "pass")
    assert "nullo" in legal(state) and state.turn == 0
    do(state, "nullo", "pass")
    assert (state.contract, state.declarer, state.sitting_out) == (str_to_action("nullo"), 0, 2)
    for c in ("JK", "8H", "9H"):  # the kitty, discarded back
        do(state, c)
    _finish(state, 1)
    assert state.result.hand_points == (250, 0) and state.scores == [250, 0]


def test_american_one_round_with_inkle() -> None:
    """§8 american: one round of bidding, 7-level minimum, inkle for the first two callers."""
    state = new_state(Rules.preset("american"), {2: TOP_TRUMPS})
    assert "6S" in legal(state)
    do(state, "6S", "pass")
    assert "6NT" not in legal(state) and "7S" in legal(state)
    do(state, "7H", "pass")
    assert state.phase == Phase.EXCHANGE and state.declarer == 2
    _finish(state, 2)
    assert state.result.tricks == (10, 0) and state.result.hand_points == (250, 0)


def test_american_double_nullo_hand() -> None:
    """§8 american-double-nullo: 45 cards (kitty 5); double nullo after the partner's nullo;
    both partners exchange in turn; four cards a trick; scored as a nullo-type contract."""
    rules = Rules.preset("american-double-nullo")
    assert rules.kitty_size == 5
    state = new_state(rules, {0: "4S 5S 6S 4C 5C 6C 4D 5D 4H 5H"})
    assert "nullo" in legal(state)  # nullo=anytime
    do(state, "nullo", "pass")
    assert "double nullo" in legal(state)
    do(state, "double nullo", "pass")
    assert (state.phase, state.turn, state.declarer) == (Phase.EXCHANGE, 2, 2)
    assert state.hands[2].bit_count() == 15
    for _ in range(5):
        state.apply(state.legal_actions()[-1])
    assert (state.phase, state.turn) == (Phase.EXCHANGE, 0)
    for _ in range(5):
        state.apply(state.legal_actions()[-1])
    assert state.phase == Phase.PLAY and state.sitting_out == -1
    _finish(state, 3)
    taken = state.result.tricks[0]
    assert state.result.hand_points == ((500, 0) if taken == 0 else (-500, 0))
    assert all(len(c) == 4 for _, c, _, _ in state.tricks)


def test_american_double_nullo_open_nullo_is_350() -> None:
    state = new_state(Rules.preset("american-double-nullo"))
    do(state, "10S")  # 440 > 350
    assert "open nullo" not in legal(state)
    state = new_state(Rules.preset("american-double-nullo"))
    do(state, "9NT")  # 420 > 350 too; 9C (360) > 350; 9S 340 < 350
    assert "open nullo" not in legal(state)
    state = new_state(Rules.preset("american-double-nullo"))
    do(state, "9S")
    assert "open nullo" in legal(state)


def test_canadian_set_goes_to_defenders() -> None:
    """§8 canadian: 46 cards, 7-level minimum, one round, defenders score nothing for tricks,
    a set contract's value goes to the defenders, target 1000."""
    rules = Rules.preset("canadian")
    state = new_state(rules, {1: "BJ RJ JH JD AH KH QH 10H 9H 8H"})
    assert "6S" not in legal(state) and "open nullo" in legal(state)
    do(state, "7H", "pass", "pass", "pass")
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    _finish(state, 4)
    assert state.result.tricks == (0, 10) and state.result.hand_points == (0, 200)


def test_avondale_classic() -> None:
    """§8 avondale-classic: open nullo ties lower (10H outranks it), exposed after the first
    trick, nullo declarers' opponents must play a joker when void, must_bid."""
    rules = Rules.preset("avondale-classic")
    state = new_state(rules)
    do(state, "10H")
    assert "open nullo" not in legal(state)
    state = new_state(rules)
    do(state, "10D", "open nullo")
    assert "10H" in legal(state)
    hands = {0: "5H 6S 7S 8S 9S 10S 5C 6C 7C 8C", 1: "JK 5D 6D 7D 8D 9D 10D 4D 5S JS",
             3: "6H 4H 7H"}
    state = start_play(rules, hands, "open nullo")
    assert seat_view(state, 1).exposed == 0
    do(state, "5H")
    assert legal_cards(state) == {"JK"}
    do(state, "JK", "6H")
    assert seat_view(state, 1).exposed == state.hands[0]


def test_american_45_slam_scores_bid_value_and_three_rounds() -> None:
    """§8 american-45: 45 cards, three rounds, inkle, slam scores the bid value."""
    rules = Rules.preset("american-45")
    state = new_state(rules, {0: TOP_TRUMPS})
    do(state, "6S", "6C")
    assert "6D" not in legal(state)
    do(state, "7S", "pass", "7H", "pass", "7NT")
    assert state.turn == 0  # the third round; seats 1 and 3 passed
    do(state, "8H", "9H")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("9H"), 2)  # three rounds are over
    state = start_play(rules, {0: TOP_TRUMPS}, "7H")
    _finish(state, 5)
    assert state.result.tricks == (10, 0) and state.result.hand_points == (200, 0)
