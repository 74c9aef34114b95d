"""The end of the game (docs/rules.md §7) and the dealer across hands (§1.4)."""

from __future__ import annotations

import random

import pytest

from fh_env import IllegalActionError
from fh_env.actions import MISDEAL, PASS
from fh_env.cards import mask_of
from fh_env.contracts import DRAW, end_of_hand
from fh_env.engine import Phase, State
from fh_env.rules import Rules

from conftest import deal, do, new_state, start_play

TOP_TRUMPS = "JK JH JD AH KH QH 10H 9H 8H 7H"


def _end(rules: Rules, scores, points, declarers: int, made: bool = True, hands: int = 1):
    return end_of_hand(rules, scores, points, declarers, made, hands)


# ------------------------------------------------------------------ §7.2 on_target
def test_highest_ends_at_target_or_floor_and_higher_score_wins() -> None:
    """§7.2 highest: ends as soon as a team is at/above target or at/below floor."""
    rules = Rules(on_target="highest")
    assert _end(rules, (400, 0), (80, 20), 0) == ((480, 20), None)
    assert _end(rules, (420, 0), (80, 20), 0) == ((500, 20), 0)
    assert _end(rules, (0, 470), (-80, 30), 0, made=False) == ((-80, 500), 1)  # as defenders
    assert _end(rules, (-450, -300), (-80, 20), 0, made=False) == ((-530, -280), 1)
    assert _end(rules, (370, 480), (140, 30), 0) == ((510, 510), DRAW)  # a tie is a draw
    assert _end(rules, (380, 480), (140, 30), 0) == ((520, 510), 0)


def test_declarers_win_both() -> None:
    """§7.2 declarers_win_both: both teams reach target on the same hand: the declarers win."""
    rules = Rules(on_target="declarers_win_both")
    assert _end(rules, (495, 460), (40, 40), 1) == ((535, 500), 1)  # lower, but declared
    assert _end(rules, (370, 480), (140, 30), 0) == ((510, 510), 0)
    assert _end(rules, (495, 300), (40, 40), 1) == ((535, 340), 0)  # only one reached: highest
    assert _end(Rules(on_target="highest"), (495, 460), (40, 40), 1) == ((535, 500), 0)


@pytest.mark.parametrize("rule,cap", [("defenders_stop_10", 490), ("defenders_stop_40", 460)])
def test_defenders_stop(rule: str, cap: int) -> None:
    """§7.2 defenders_stop_10/40: defending points cannot take a team above target - 10/40."""
    rules = Rules(on_target=rule)
    assert _end(rules, (0, 450), (-100, 100), 0, made=False) == ((-100, cap), None)
    assert _end(rules, (0, cap - 30), (-100, 20), 0, made=False) == ((-100, cap - 10), None)
    assert _end(rules, (0, 495), (-100, 30), 0, made=False) == ((-100, 495), None)  # no loss
    # the declarers' own points are not capped
    assert _end(rules, (450, 450), (100, 0), 0) == ((550, 450), 0)
    # to_defenders: the set value given to the defenders is capped too
    to_def = rules.replace(when_set="to_defenders")
    assert _end(to_def, (0, 300), (0, 400), 0, made=False) == ((0, cap), None)


def test_defenders_stop_is_the_default() -> None:
    assert Rules().on_target == "defenders_stop_10"


def test_must_bid() -> None:
    """§7.2 must_bid: a team at/above target wins only on a hand it declared and made; a
    declaring team at/below floor loses; defending points alone never end the game."""
    rules = Rules(on_target="must_bid")
    assert _end(rules, (0, 480), (-100, 100), 0, made=False) == ((-100, 580), None)
    assert _end(rules, (0, 580), (100, 0), 0) == ((100, 580), None)
    assert _end(rules, (100, 580), (40, 60), 1) == ((140, 640), 1)  # declared and made
    assert _end(rules, (480, 0), (40, 60), 0, made=True) == ((520, 60), 0)
    assert _end(rules, (-450, 0), (-100, 10), 0, made=False) == ((-550, 10), 1)
    assert _end(rules, (520, 0), (-100, 10), 0, made=False) == ((420, 10), None)


def test_floor_option() -> None:
    """§7.2: floor (default -500) ends the game with the lower team losing."""
    assert _end(Rules(), (-400, 0), (-100, 0), 0, made=False) == ((-500, 0), 1)
    assert _end(Rules(), (-400, 0), (-90, 0), 0, made=False) == ((-490, 0), None)
    rules = Rules(floor=-200, on_target="highest")
    assert _end(rules, (-150, 0), (-60, 40), 0, made=False) == ((-210, 40), 1)


def test_target_option() -> None:
    rules = Rules(target=1000, floor=-1000, on_target="highest")
    assert _end(rules, (900, 0), (80, 0), 0) == ((980, 0), None)
    assert _end(rules, (900, 0), (100, 0), 0) == ((1000, 0), 0)


# ------------------------------------------------------------------ §7.1 hands
def test_hands_mode() -> None:
    """§7.1 hands: after hands_to_play hands the higher score wins, a tie is a draw; the
    points target does not end the game and defending points are not capped."""
    rules = Rules(game_over="hands", hands_to_play=3)
    assert _end(rules, (480, 0), (100, 0), 0, hands=1) == ((580, 0), None)
    assert _end(rules, (0, 480), (-100, 100), 0, made=False, hands=2) == ((-100, 580), None)
    assert _end(rules, (-600, 0), (-100, 0), 0, made=False, hands=2) == ((-700, 0), None)
    assert _end(rules, (100, 200), (100, 0), 0, hands=3) == ((200, 200), DRAW)
    assert _end(rules, (100, 200), (120, 0), 0, hands=3) == ((220, 200), 0)


def _play_out(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_hands_mode_whole_game_counts_played_hands_only() -> None:
    """§7.1 with the engine: thrown-in hands are not hands played (engine decision)."""
    state = State(Rules(game_over="hands", hands_to_play=2), seed=1)
    do(state, "pass", "pass", "pass", "pass")
    assert state.phase == Phase.HAND_OVER and state.hands_played == 0
    state.next_hand()
    do(state, "6S", "pass", "pass", "pass")
    _play_out(state, 0)
    assert state.phase == Phase.HAND_OVER and state.hands_played == 1
    state.next_hand()
    do(state, "6S", "pass", "pass", "pass")
    _play_out(state, 0)
    assert state.phase == Phase.GAME_OVER and state.hands_played == 2
    s = state.scores
    assert state.winner == (DRAW if s[0] == s[1] else int(s[1] > s[0]))
    with pytest.raises(IllegalActionError, match="GAME_OVER"):
        state.next_hand()


# ------------------------------------------------------------------ whole hands with the engine
def test_engine_caps_defenders_at_490() -> None:
    """§7.2 defenders_stop_10 in a played hand: team 1 at 450 defends all 10 tricks."""
    state = start_play(Rules(), {1: TOP_TRUMPS}, "6H")
    state.scores = [0, 450]
    _play_out(state, 1)
    assert state.result.hand_points == (-100, 100)
    assert state.scores == [-100, 490] and state.result.game_points == (-100, 490)
    assert state.phase == Phase.HAND_OVER


def test_engine_declarer_reaching_target_wins() -> None:
    state = start_play(Rules(), {0: TOP_TRUMPS}, "7H")
    state.scores = [300, 480]
    _play_out(state, 1)
    assert state.scores == [550, 480]
    assert state.phase == Phase.GAME_OVER and state.winner == 0 and state.game_over


def test_engine_must_bid_defenders_do_not_win() -> None:
    state = start_play(Rules(on_target="must_bid"), {1: TOP_TRUMPS}, "6H")
    state.scores = [0, 450]
    _play_out(state, 1)
    assert state.scores == [-100, 550] and state.phase == Phase.HAND_OVER
    state.next_hand()
    assert state.dealer == 0 and state.phase == Phase.AUCTION and state.scores == [-100, 550]


def test_engine_floor_ends_the_game() -> None:
    state = start_play(Rules(), {1: TOP_TRUMPS}, "10H")
    state.scores = [-20, 0]
    _play_out(state, 1)
    assert state.scores == [-520, 100] and state.winner == 1


def test_dealer_passes_left_after_each_hand_over_a_game() -> None:
    """§1.4: after each hand, played or thrown in, the deal passes left; not after a misdeal."""
    state = State(Rules(misdeal=True, target=100000, floor=-100000), seed=7)
    dealers = [state.dealer]
    rng = random.Random(7)
    reasons = set()
    for _ in range(80):
        _play_out_rng(state, rng)
        reasons.add(state.result.thrown_in)
        before, misdeal = state.dealer, state.result.thrown_in == "misdeal"
        # every third deal gives seats 0 and 2 hands without honours, so misdeals happen
        state.next_hand(LOW_DEAL if len(dealers) % 3 == 0 else None)
        assert state.dealer == (before if misdeal else (before + 1) % 4)
        assert state.turn == (state.dealer + 1) % 4
        dealers.append(state.dealer)
    assert len(set(dealers)) == 4 and reasons == {None, "all_pass", "misdeal"}


_LOW_HANDS, _LOW_KITTY = deal(Rules(), {0: "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C",
                                        2: "9C 10C 4D 5D 6D 7D 8D 9D 10D 4H"})
LOW_DEAL = ([mask_of(h) for h in _LOW_HANDS], mask_of(_LOW_KITTY))


def _play_out_rng(state: State, rng: random.Random) -> None:
    """Random play that passes and calls misdeals often, so hands are thrown in."""
    while not state.is_terminal:
        legal = state.legal_actions()
        if MISDEAL in legal and rng.random() < 0.5:
            state.apply(MISDEAL)
        elif PASS in legal and state.phase == Phase.AUCTION and rng.random() < 0.75:
            state.apply(PASS)
        else:
            state.apply(rng.choice(legal))


def test_new_hand_after_next_hand_is_a_fresh_deal() -> None:
    state = new_state(Rules())
    do(state, "pass", "pass", "pass", "pass")
    first = state.hands[:]
    state.next_hand()
    assert state.hands != first and state.deal_index == 2
    assert all(h.bit_count() == 10 for h in state.hands)
    assert state.calls == [] and state.tricks == [] and state.exchanges == []
