"""The OpenSpiel game ``python_five_hundred`` (fh_env.envs.openspiel) and the ``ismcts`` bot.

OpenSpiel's own checks (``random_sim_test``, with serialization), a differential test against
the reference engine on the same deals (decision by decision: the player on turn, the legal
actions, the observations, then the returns), OpenSpiel's IS-MCTS playing whole hands, and
the resampling of hidden cards against the information state.  Skipped without the optional
extra ``openspiel``.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import fh_env.envs.openspiel as fo  # noqa: E402
from fh_env.cards import parse_card  # noqa: E402
from fh_env.engine import State, side_of  # noqa: E402
from fh_env.observe import encode  # noqa: E402
from fh_env.rules import PRESETS, Rules  # noqa: E402
from fh_env.view import seat_view  # noqa: E402


ROOT = Path(__file__).resolve().parent.parent

# Rule sets that reach every corner the adapter touches: nullo and open nullo (a hand shown),
# double nullo (two exchanges, deck 45), two jokers, the joker in the kitty, misdeals, all
# passes played, a round limit, and both other table sizes.
RULE_SETS = {
    "default": Rules(),
    "australian": Rules.preset("australian"),
    "american-double-nullo": Rules.preset("american-double-nullo"),
    "canadian": Rules.preset("canadian"),
    "avondale-classic": Rules.preset("avondale-classic"),
    "odd-options": Rules.preset("australian").replace(
        highest_joker_in_kitty=True, misdeal=True, all_pass="play", bidding_rounds=2,
        open_nullo_exposed="after_first_trick", joker_lead="any", finish_early=True),
    "three-handed": Rules.preset("three-handed"),
    "six-handed": Rules.preset("six-handed"),
}


NULLO_TYPES = (26, 27, 28)  # nullo, open nullo, double nullo


def steered(legal: list[int], rng: random.Random) -> int:
    """A random action that reaches the rare corners often: in the auction it prefers nullo-type
    bids, a misdeal and passes (uniform bids end in 10NT nearly always); else uniform."""
    if max(legal) < 30:  # a call (discards and plays have higher ids)
        special = [a for a in legal if a in NULLO_TYPES or a == 29]
        if special and rng.random() < 0.6:
            return rng.choice(special)
        if 0 in legal and rng.random() < 0.6:
            return 0
    return rng.choice(legal)


def play_chance(state, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))


# ---------------------------------------------------------------------------- OpenSpiel's checks
@pytest.mark.parametrize("name", ["python_five_hundred",
                                  "python_five_hundred(rules=three-handed)",
                                  "python_five_hundred(rules=six-handed)",
                                  "python_five_hundred(rules=american-double-nullo,dealer=3)"])
def test_random_sim_test(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_game_facts():
    game = pyspiel.load_game("python_five_hundred")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 130
    assert game.max_chance_outcomes() == 46
    assert game.information_state_tensor_size() == game.observation_tensor_size() == 2509
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    six = pyspiel.load_game("python_five_hundred(rules=six-handed)")
    assert (six.num_players(), six.num_distinct_actions(), six.max_chance_outcomes()) == (6, 166, 64)
    three = pyspiel.load_game("python_five_hundred", {"players": 3})
    assert three.num_players() == 3 and three.rules == Rules(players=3)


# ---------------------------------------------------------------------------- parameters
def test_parameters_preset_and_options():
    assert fo.rules_from_params({"rules": "australian"}) == Rules.preset("australian")
    assert fo.rules_from_params({"rules": "american", "target": 1000}) == (
        Rules.preset("american").replace(target=1000))
    assert fo.rules_from_params({"deck": 45, "bidding_rounds": 3}) == Rules(
        deck="45", bidding_rounds=3)
    assert fo.rules_from_params({"deck": -44}).deck == "44-nojoker"
    assert fo.rules_from_params({"rules": "three-handed"}).players == 3
    game = pyspiel.load_game("python_five_hundred(rules=canadian,nullo=anytime,deck=46)")
    assert game.rules == Rules.preset("canadian").replace(nullo="anytime")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_params_for_round_trips_every_preset(preset):
    rules = Rules.preset(preset)
    game = fo.load_game(rules, dealer=1)
    assert game.rules == rules
    again = pyspiel.load_game(str(game))  # the game string OpenSpiel serializes
    assert again.rules == rules and again.num_players() == rules.players


@pytest.mark.parametrize("params, words", [
    ({"rules": "australain"}, "presets: australian-no-nullo"),
    ({"players": 5}, "3, 4 and 6"),
    ({"dealer": 4}, "0..3"),
    ({"players": 3, "deck": 45}, "players=3"),
])
def test_bad_parameters_are_refused(params, words):
    with pytest.raises(Exception, match=words):
        pyspiel.load_game("python_five_hundred", params)


# ---------------------------------------------------------------------------- differential
@pytest.mark.parametrize("key", sorted(RULE_SETS))
def test_same_as_the_engine_decision_by_decision(key):
    rules = RULE_SETS[key]
    n = rules.players
    for seed in range(6):
        dealer = seed % n
        game = fo.load_game(rules, dealer)
        engine = State(rules, seed=seed, dealer=dealer)
        state = game.new_initial_state()
        hands, kitty = engine.dealt
        for c in fo.deal_outcomes(rules, hands, kitty):
            assert state.is_chance_node()
            assert c in [a for a, _ in state.chance_outcomes()]
            state.apply_action(c)
        assert state.engine.dealt == engine.dealt
        rng = random.Random(seed)
        steps = 0
        while not engine.is_terminal:
            assert not state.is_terminal()
            assert state.current_player() == engine.turn
            assert state.legal_actions() == engine.legal_actions()
            if steps % 7 == 0:
                for p in range(n):
                    view = seat_view(engine, p)
                    expected = encode(view)
                    np.testing.assert_array_equal(state.observation_tensor(p), expected)
                    np.testing.assert_array_equal(state.information_state_tensor(p), expected)
            action = steered(engine.legal_actions(), rng)
            assert state.action_to_string(engine.turn, action) == engine.action_name(action)
            engine.apply(action)
            state.apply_action(action)
            steps += 1
        assert state.is_terminal()
        points = engine.result.hand_points
        assert state.returns() == [float(points[side_of(n, p)]) for p in range(n)]
        for p in range(n):
            game_min, game_max = game.min_utility(), game.max_utility()
            assert game_min <= state.returns()[p] <= game_max


def test_from_engine_rebuilds_a_hand_in_progress():
    rules = Rules.preset("american-double-nullo")
    rng = random.Random(5)
    for seed in range(10):
        engine = State(rules, seed=seed, dealer=2)
        for _ in range(rng.randrange(60)):
            if engine.is_terminal:
                break
            engine.apply(steered(engine.legal_actions(), rng))
        state = fo.from_engine(fo.load_game(rules, 2), engine)
        got, expected = state.engine.to_dict(), engine.to_dict()
        del got["seed"], expected["seed"]  # the seed only deals later hands
        assert got == expected


# ---------------------------------------------------------------------------- strings, tensors
def test_information_state_string_is_what_the_player_saw():
    game = fo.load_game(Rules(), 0)
    for seed in range(2, 50):  # the first seeded deal whose hand reaches the play
        rng = random.Random(seed)
        state = game.new_initial_state()
        play_chance(state, rng)
        while state.engine.phase.name != "PLAY" and not state.is_terminal():
            state.apply_action(steered(state.legal_actions(), rng))
        if not state.is_terminal():
            break
    assert not state.is_terminal(), "no hand of seeds 2-49 reached the play"
    declarer = state.engine.declarer
    for p in range(4):
        text = state.information_state_string(p)
        assert text == pyspiel.State.information_state_string(state, p)  # the observer's
        hand = fo._cards(state._core.g, state.engine.dealt[0][p])
        assert f"hand dealt: {hand}" in text
        assert ("picks up" in text) == (p == declarer)
        assert ("exchanges, 3 discarded" in text) == (p != declarer)
        for q in range(4):
            if q != p:
                assert fo._cards(state._core.g, state.engine.dealt[0][q]) not in text
    assert "dealt 0:" in str(state)  # the whole state for humans


def test_deal_observations():
    game = pyspiel.load_game("python_five_hundred")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 43
    for name in ("5S", "5C", "JK"):
        state.apply_action(parse_card(name))
    tensor = np.asarray(state.information_state_tensor(0))
    slices = fo.layout(4).slices
    assert tensor[slices["hand"]].sum() == 3 and tensor[slices["phase"]].sum() == 0
    assert "dealing (3 of 43 cards)" in state.information_state_string(0)
    assert np.asarray(state.observation_tensor(1))[slices["hand"]].sum() == 0


def test_serialization_round_trip():
    game = fo.load_game(Rules.preset("australian"), 1)
    rng = random.Random(9)
    state = game.new_initial_state()
    play_chance(state, rng)
    for _ in range(20):
        if state.is_terminal():
            break
        state.apply_action(steered(state.legal_actions(), rng))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert all(state2.information_state_string(p) == state.information_state_string(p)
               for p in range(4))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    clone = state.clone()
    if not state.is_terminal():
        action = state.legal_actions()[0]
        clone.apply_action(action)
        assert clone.history() == state.history() + [action]
        assert str(state2) == str(state)  # the original did not move


# ---------------------------------------------------------------------------- resampling
@pytest.mark.parametrize("key", ["default", "american-double-nullo", "odd-options",
                                 "three-handed", "six-handed"])
def test_resample_is_consistent_with_the_infostate(key):
    rules = RULE_SETS[key]
    n = rules.players
    game = fo.load_game(rules, 0)
    rng = random.Random(11)
    for hand in range(3):
        state = game.new_initial_state()
        play_chance(state, rng)
        while not state.is_terminal():
            if rng.random() < 0.15:
                for p in range(n):
                    _check_resamples(state, p, rng)
            state.apply_action(steered(state.legal_actions(), rng))


def _check_resamples(state, player: int, rng: random.Random) -> None:
    info = state.information_state_string(player)
    tensor = state.information_state_tensor(player)
    worlds = set()
    for _ in range(6):
        other = state.resample_from_infostate(player, rng)
        assert other.information_state_string(player) == info
        assert other.information_state_tensor(player) == tensor
        assert other.current_player() == state.current_player()
        assert len(other.history()) == len(state.history())
        if state.current_player() == player:
            assert other.legal_actions() == state.legal_actions()
        assert other.engine.hands[player] == state.engine.hands[player]
        worlds.add(tuple(other.engine.hands))
    hidden = state.engine.hands[:player] + state.engine.hands[player + 1:]
    if sum(h.bit_count() for h in hidden) > 4 and not state.engine.exposed:
        assert len(worlds) > 1  # the hidden cards do move


def test_resample_during_the_deal():
    game = pyspiel.load_game("python_five_hundred")
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(25):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    info = state.information_state_string(1)
    for _ in range(5):
        other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(1) == info and other.is_chance_node()


# ---------------------------------------------------------------------------- IS-MCTS
@pytest.mark.parametrize("name", ["python_five_hundred(rules=australian)",
                                  "python_five_hundred(rules=three-handed)",
                                  "python_five_hundred(rules=six-handed)"])
def test_openspiel_ismcts_plays_whole_hands(name):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name)
    np_rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), uct_c=150.0,
                           max_simulations=8, random_state=np_rng)
    rng = random.Random(4)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert len(state.returns()) == game.num_players()


def test_ismcts_bot_from_the_registry():
    from agents.random_bot import RandomBot
    from agents.registry import BOTS, make_bot

    assert "ismcts" in BOTS
    bot = make_bot("ismcts:sims=10,rollout=rule")
    assert bot.name == "ismcts:sims=10,rollout=rule"
    for rules in (Rules(), Rules.preset("three-handed")):
        decisions = []
        for _ in range(2):  # a seeded match replays exactly
            engine = State(rules, seed=3)
            rng = random.Random(7)
            while not engine.is_terminal:
                view = seat_view(engine, engine.turn)
                player = bot if engine.turn == 0 else RandomBot()
                action = player.act(view, rng)
                assert action in engine.legal_actions()
                engine.apply(action)
            decisions.append(engine.to_dict())
        assert decisions[0] == decisions[1]


def test_ismcts_is_listed_in_fh_eval_help():
    from agents.registry import bot_help

    assert "ismcts" in bot_help()


def test_fh_env_does_not_import_pyspiel():
    code = ("import sys, fh_env\n"
            "e = fh_env.env(); e.reset(seed=1)\n"
            "import agents.registry\n"
            "print('pyspiel' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("key, corner", [
    ("american-double-nullo", "two exchanges"),  # §4.3: the partner exchanges second
    ("odd-options", "shown after the first trick"),  # §5.9 open_nullo_exposed
    ("australian", "shown at the first lead"),
])
def test_resample_in_the_corners(key, corner):
    """Hands that reach a rare corner, found by steered play, resampled at every decision and
    checked against the engine all the way."""
    rules = RULE_SETS[key]
    game = fo.load_game(rules, 0)
    rng = random.Random(3)
    for _ in range(400):
        state = game.new_initial_state()
        play_chance(state, rng)
        history = []
        seen = False
        while not state.is_terminal():
            engine = state.engine
            if corner == "two exchanges":
                seen |= len(engine.exchanges) == 2
            elif engine.exposed:
                seen |= (len(engine.tricks) >= 1) == (corner == "shown after the first trick")
            history.append(state.clone())
            state.apply_action(steered(state.legal_actions(), rng))
        if seen:
            break
    else:
        pytest.fail(f"no hand reached {corner}")
    for past in history:
        for p in range(rules.players):
            _check_resamples(past, p, rng)
    replay = State(rules, dealer=0, deal=state.engine.dealt)
    for past, nxt in zip(history, history[1:] + [state]):
        assert past.legal_actions() == replay.legal_actions()
        replay.apply(nxt.history()[-1])
    assert state.returns() == [float(replay.result.hand_points[side_of(rules.players, p)])
                               for p in range(rules.players)]


def test_the_example_recipe_runs():
    out = subprocess.run([sys.executable, "examples/openspiel_ismcts.py", "--hands", "1",
                          "--sims", "5", "--seed", "2"], capture_output=True, text=True,
                         cwd=ROOT, check=True, timeout=120)
    assert "IS-MCTS" in out.stdout and "points a hand" in out.stdout


def test_resample_needs_nothing_but_the_game():
    """The exact sampler is the game's own (fh_env.sampler): a fresh interpreter that imports
    only the adapter resamples after the deal, and never loads the agents package."""
    code = ("import random, sys\n"
            "import pyspiel\n"
            "import fh_env.envs.openspiel\n"
            "game = pyspiel.load_game('python_five_hundred')\n"
            "state = game.new_initial_state()\n"
            "rng = random.Random(3)\n"
            "while state.is_chance_node():\n"
            "    state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))\n"
            "info = state.information_state_string(1)\n"
            "other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))\n"
            "assert other.information_state_string(1) == info\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'agents'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]"
