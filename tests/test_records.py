"""Game records (fh_env.records): saving, loading and replaying to the same scores."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import new_state, new_table_state
from fh_env.actions import action_table, str_to_action
from fh_env.contracts import DRAW
from fh_env.engine import Phase, State
from fh_env.records import (FORMAT, RecordMismatch, Recorder, dumps, hand_actions,
                            hand_from_state, load_record, make_record, replay, replay_states,
                            save_record, save_states)
from fh_env.rules import PRESETS, Rules


def random_action(state: State, rng: random.Random) -> int:
    """A random legal action; in the auction mostly a pass, so that games last a few hands."""
    legal = state.legal_actions()
    if state.phase == Phase.AUCTION and legal[0] == 0 and rng.random() < 0.8:
        return 0
    return rng.choice(legal)


def play_game(rules: Rules, seed: int, max_hands: int = 40) -> Recorder:
    """A whole game (or ``max_hands`` hands) of random legal actions, recorded."""
    rng = random.Random(seed)
    rec = Recorder(State(rules, seed=seed), players=["random"] * rules.players)
    for hand in range(max_hands):
        if hand:
            rec.next_hand()
        while not rec.state.is_terminal:
            rec.apply(random_action(rec.state, rng))
        if rec.state.game_over:
            break
    return rec


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_a_recorded_game_replays_to_the_same_states_and_scores(preset, seed, tmp_path_factory):
    rules = Rules.preset(preset).replace(misdeal=True, all_pass="play")
    rec = play_game(rules, seed)
    path = rec.save(tmp_path_factory.mktemp("rec") / "game.json")
    record = load_record(path)
    ends = replay_states(record)
    assert ends[-1] == rec.state  # the whole engine state, scores and winner included
    assert record["final_scores"] == rec.state.scores
    assert record["winner"] == rec.state.winner
    assert [h["result"]["game_points"] for h in record["hands"]] == \
        [list(s.result.game_points) for s in ends]


def test_the_file_is_readable_json_with_rules_deal_calls_and_plays(tmp_path):
    rec = play_game(Rules(), seed=3, max_hands=6)
    text = rec.save(tmp_path / "g.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == FORMAT and data["version"] == 1 and data["kind"] == "game"
    assert Rules.from_dict(data["rules"]) == Rules()
    hand = next(h for h in data["hands"] if h["result"]["contract"])
    assert set(hand) == {"dealer", "scores_before", "hands", "kitty", "actions", "result"}
    # One line per hand of cards and per list of actions, by name.
    first = " ".join(f'"{c}"' for c in hand["hands"][0]).replace('" "', '", "')
    assert f"[{first}]" in text
    assert any(a.startswith("play ") for a in hand["actions"])
    assert all(str_to_action(a) >= 0 for a in hand["actions"])


def test_recorder_keeps_the_order_of_discards():
    state = new_state(Rules(), {0: "JK AH KH QH JH 10H 9H 8H 7H 6H"}, kitty="4D 5D 6D")
    rec = Recorder(state)
    for name in ("7H", "pass", "pass", "pass", "discard 6D", "discard 4D", "discard 5D"):
        rec.apply(str_to_action(name))
    assert rec.record()["hands"][0]["actions"][-3:] == ["discard 6D", "discard 4D", "discard 5D"]
    # Read back from the state alone the discards come in card order, and replay the same.
    assert [state.action_name(a) for a in hand_actions(state)][-3:] == \
        ["discard 4D", "discard 5D", "discard 6D"]


def test_a_joker_lead_is_recorded_with_its_named_suit():
    # 6NT by seat 0, who leads the joker naming hearts (no trump suit, §5.5).
    state = new_state(Rules(), {0: "JK AS KS QS AC KC QC AD KD QD"}, kitty="4H 5H 6H")
    rec = Recorder(state)
    for name in ("6NT", "pass", "pass", "pass", "discard 4H", "discard 5H", "discard 6H",
                 "play JK H"):
        rec.apply(str_to_action(name))
    assert rec.record()["hands"][0]["actions"][-1] == "play JK H"
    assert state.action_name(hand_actions(state)[-1]) == "play JK H"
    # A hand in progress has no result and replays to the same state.
    record = rec.record()
    assert record["hands"][0]["result"] is None
    assert replay_states(record)[-1] == state


@settings(max_examples=20, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_a_record_read_back_from_a_state_replays_the_same(preset, seed):
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    state = State(rules, seed=seed)
    cut = rng.randrange(60)
    while not state.is_terminal and cut:
        state.apply(rng.choice(state.legal_actions()))
        cut -= 1
    record = make_record(rules, [hand_from_state(state)], seed=seed)
    assert replay_states(record)[-1] == state


def test_independent_hands_save_as_a_hands_record(tmp_path):
    ends = []
    for seed in range(4):
        rng = random.Random(seed)
        state = State(Rules.preset("american"), seed=seed, dealer=seed % 4)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        ends.append(state)
    players = [["a", "b", "a", "b"], ["b", "a", "b", "a"]] * 2
    record = load_record(save_states(ends, tmp_path / "e" / "hands.json", players=players,
                                     event="test"))
    assert record["kind"] == "hands" and record["event"] == "test"
    assert [h["players"] for h in record["hands"]] == players
    got = replay_states(record)
    assert [(s.result, s.tricks, s.exchanges, s.scores) for s in got] == \
        [(s.result, s.tricks, s.exchanges, s.scores) for s in ends]


def test_a_later_finished_hand_needs_the_score_it_started_from():
    rec = play_game(Rules(), seed=11, max_hands=2)
    assert rec.state.deal_index == 2 and rec.state.is_terminal
    with pytest.raises(ValueError, match="scores_before"):
        hand_from_state(rec.state)
    before = rec.record()["hands"][1]["scores_before"]
    assert hand_from_state(rec.state, before) == rec.record()["hands"][1]


@pytest.fixture(scope="module")
def game_record() -> dict:
    return play_game(Rules.preset("australian"), seed=7).record()


def _steps(record):
    return list(replay(record))


def test_a_changed_result_is_caught(game_record):
    bad = copy.deepcopy(game_record)
    bad["hands"][0]["result"]["hand_points"][0] += 10
    with pytest.raises(RecordMismatch, match="hand 1: recorded result"):
        _steps(bad)


def test_an_illegal_action_is_caught(game_record):
    bad = copy.deepcopy(game_record)
    hand = bad["hands"][0]
    hand["actions"][0] = "discard " + hand["hands"][0][0]  # a discard in the auction
    with pytest.raises(RecordMismatch, match="hand 1, action 'discard"):
        _steps(bad)


def test_a_changed_final_score_or_dealer_is_caught(game_record):
    assert len(game_record["hands"]) > 1
    bad = copy.deepcopy(game_record)
    bad["final_scores"][1] += 10
    with pytest.raises(RecordMismatch, match="final scores"):
        _steps(bad)
    bad = copy.deepcopy(game_record)
    bad["hands"][1]["dealer"] = (bad["hands"][1]["dealer"] + 1) % 4
    with pytest.raises(RecordMismatch, match="hand 2: recorded dealer"):
        _steps(bad)


def test_not_a_record_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(RecordMismatch, match="not a Five Hundred record"):
        load_record(path)
    path.write_text(dumps({"format": FORMAT, "version": 99}))
    with pytest.raises(RecordMismatch, match="version 99"):
        load_record(path)
    path.write_text("{")
    with pytest.raises(RecordMismatch, match="not valid JSON"):
        load_record(path)


def test_steps_name_the_seat_that_acted(game_record):
    first = game_record["hands"][0]
    steps = [s for s in replay(game_record) if s.hand == 0]
    assert steps[0].action is None and steps[0].seat == -1
    steps = steps[1:]
    assert steps[0].seat == (first["dealer"] + 1) % 4
    assert [s.state.phase for s in steps][-1] >= Phase.HAND_OVER


def test_save_record_round_trips(tmp_path, game_record):
    path = save_record(game_record, tmp_path / "a" / "b.json")
    assert load_record(path) == game_record


# ------------------------------------------------------------------ three and six players (§9)
def test_a_six_player_record_names_actions_in_the_six_player_table(tmp_path):
    """§9.2: the six-handed pack's cards are recorded and replayed by name (ids 46..63 have
    their own action ids); scores have two entries (teams)."""
    rules = Rules.preset("six-handed")
    hand0 = "11S 12S 13H 13D 2S 3S 2C AH KH QH"
    table = action_table(6)
    rec = Recorder(new_table_state(rules, {0: hand0}, kitty="3C 3D 2H"), players=["p"] * 6)
    names = ["6H"] + ["pass"] * 5 + ["discard 3C", "discard 3D", "discard 2H", "play 11S"]
    for name in names:
        rec.apply(table.from_str(name))
    got = rec.record()["hands"][0]
    assert got["actions"] == names and got["scores_before"] == [0, 0]
    assert "11S" in got["hands"][0] and "13D" in got["hands"][0]
    assert sorted(got["kitty"]) == ["2H", "3C", "3D"]
    assert replay_states(load_record(rec.save(tmp_path / "six.json")))[-1] == rec.state
    # Read back from the state alone: the same names, the same replay.
    from_state = make_record(rules, [hand_from_state(rec.state)])
    assert from_state["hands"][0]["actions"] == names
    assert replay_states(from_state)[-1] == rec.state
    assert hand_actions(rec.state)[-1] == table.from_str("play 11S") != str_to_action("play 4S")


def test_a_three_player_record_keeps_three_scores(tmp_path):
    """§9.1: hand points, game points and scores before each hand have three entries."""
    rec = play_game(Rules.preset("three-handed").replace(on_target="highest", target=300),
                    seed=4)
    record = load_record(rec.save(tmp_path / "three.json"))
    assert all(len(h["scores_before"]) == 3 for h in record["hands"])
    played = [h for h in record["hands"] if h["result"] and not h["result"]["thrown_in"]]
    assert played and all(len(h["result"]["hand_points"]) == 3 for h in played)
    assert len(record["final_scores"]) == 3 and replay_states(record)[-1] == rec.state
    assert hand_from_state(State(Rules(players=3), seed=1))["scores_before"] == [0, 0, 0]


def test_an_old_four_player_draw_is_read_as_a_draw():
    """A 4-player record written when a draw was recorded as winner 2 (before DRAW became -2)
    still replays; another wrong winner is still caught."""
    rules = Rules(game_over="hands", hands_to_play=1, all_pass="play")
    drawn = next(rec for rec in (play_game(rules, seed) for seed in range(300))
                 if rec.state.winner == DRAW)
    record = drawn.record()
    assert record["winner"] == DRAW
    old = copy.deepcopy(record)
    old["winner"] = 2
    assert replay_states(old)[-1] == drawn.state
    old["winner"] = 1
    with pytest.raises(RecordMismatch, match="recorded winner 1"):
        _steps(old)
