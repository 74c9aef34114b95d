"""The AEC env stepped in the compiled core (fh_env.compiled.table) against the reference engine.

With numba's cache warm, ``raw_env`` plays each episode in one record of the compiled core and
rebuilds the reference ``State`` only when read.  Here two envs, one on each path, play the
same random games of every preset (3, 4 and 6 players, hand and game episodes) and are
compared at every step: agent on turn, every agent's observation and mask, rewards,
terminations, infos and the game itself.  Also: illegal actions, pickling mid-episode, reading
``game`` (which moves the episode onto the engine, so the State held stays live) and a cold
cache (the engine throughout).
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from fh_env.actions import PASS
from fh_env.cards import card_name, cards_of
from fh_env.compiled import table as compiled_table
from fh_env.engine import IllegalActionError, State
from fh_env.envs.aec import raw_env
from fh_env.rules import PRESETS, Rules


@pytest.fixture(scope="module", autouse=True)
def _warm_table() -> None:
    """Compile the table's kernels for every table size if the cache is cold (seconds)."""
    for name in ("australian-no-nullo", "three-handed", "six-handed"):
        rules = Rules.preset(name)
        table = compiled_table.CompiledTable(rules)
        table.load(State(rules, seed=0))
        table.observe(0)
        assert table.apply(table.legal_actions()[0])
    assert all(compiled_table.ready(n) for n in (3, 4, 6))


def pair(rules: str, episode: str = "hand") -> tuple[raw_env, raw_env]:
    fast, slow = raw_env(rules, episode=episode), raw_env(rules, episode=episode)
    slow.compiled_core = False
    return fast, slow


def assert_same(fast: raw_env, slow: raw_env, where: str) -> None:
    assert fast._table is not None and slow._table is None, where
    assert fast.agent_selection == slow.agent_selection, where
    for attr in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations",
                 "infos"):
        assert getattr(fast, attr) == getattr(slow, attr), (where, attr)
    for agent in fast.agents:
        a, b = fast.observe(agent), slow.observe(agent)
        for key in ("observation", "action_mask"):
            assert a[key].dtype == b[key].dtype and a[key].tobytes() == b[key].tobytes(), (
                where, agent, key)
    assert fast.legal_actions() == slow.legal_actions(), where
    assert fast._game.to_dict() == slow._game.to_dict(), where


def play_both(fast: raw_env, slow: raw_env, seed: int, where: str) -> int:
    """Random legal play in both envs until the episode ends; returns the steps taken."""
    rng = random.Random(seed)
    steps = 0
    while fast.agents:
        agent = fast.agent_selection
        if fast.terminations[agent] or fast.truncations[agent]:
            action = None
        else:  # random, passing often so that contracts stay low and games last some hands
            legal = slow.legal_actions()
            action = PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal)
        fast.step(action)
        slow.step(action)
        steps += 1
        if fast.agents:
            assert_same(fast, slow, f"{where} step {steps}")
    return steps


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hands_of_every_preset_match_the_engine(preset: str) -> None:
    fast, slow = pair(preset)
    for seed in range(6):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        assert_same(fast, slow, f"{preset} seed {seed} reset")
        play_both(fast, slow, seed, f"{preset} seed {seed}")


@pytest.mark.parametrize("preset", ["australian-no-nullo", "american", "three-handed",
                                    "six-handed"])
def test_game_episodes_match_the_engine(preset: str) -> None:
    fast, slow = pair(preset, episode="game")
    steps = 0
    for seed in range(7, 11):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        steps += play_both(fast, slow, seed, f"{preset} seed {seed}")
    assert steps > 300  # more than one hand a game: later hands dealt by the next_hand path


def test_reset_options_match_the_engine() -> None:
    fast, slow = pair("australian")
    dealt = State(fast.rules, seed=99).dealt  # another seed's deal, by card names
    hands = [[card_name(c) for c in cards_of(hand)] for hand in dealt[0]]
    kitty = [card_name(c) for c in cards_of(dealt[1])]
    for options in ({"dealer": 2}, {"deal": {"hands": hands, "kitty": kitty}, "dealer": 1},
                    {"rules": "canadian"}):
        fast.reset(seed=3, options=options)
        slow.reset(seed=3, options=options)
        assert_same(fast, slow, str(options))
        play_both(fast, slow, 3, str(options))


def test_an_illegal_action_is_refused_as_by_the_engine_and_changes_nothing() -> None:
    fast, slow = pair("australian-no-nullo")
    fast.reset(seed=1)
    slow.reset(seed=1)
    illegal = next(a for a in range(fast.num_actions) if a not in slow.legal_actions())
    messages = []
    for env in (fast, slow):
        with pytest.raises(IllegalActionError) as err:
            env.step(illegal)
        messages.append(str(err.value))
    assert messages[0] == messages[1] and "legal actions:" in messages[0]
    for env in (fast, slow):  # beyond the action table, and far beyond an int64
        for bad in (fast.num_actions, 2**70):
            with pytest.raises(IllegalActionError):
                env.step(bad)
    assert_same(fast, slow, "after the illegal actions")
    play_both(fast, slow, 1, "after the illegal actions")


def test_a_pickled_env_goes_on_with_the_same_game() -> None:
    fast, slow = pair("american", episode="game")
    fast.reset(seed=11)
    slow.reset(seed=11)
    rng = random.Random(0)
    for _ in range(30):
        action = rng.choice(slow.legal_actions())
        fast.step(action)
        slow.step(action)
    copy = pickle.loads(pickle.dumps(fast))
    assert copy._table is not None
    assert_same(copy, slow, "unpickled")
    play_both(copy, slow, 5, "unpickled")


def test_reading_game_moves_the_episode_onto_the_engine_and_the_state_stays_live() -> None:
    env = raw_env()
    env.reset(seed=2)
    assert env._table is not None
    game = env.game
    assert env._table is None
    rng = random.Random(2)
    before = len(game.calls)
    env.step(rng.choice(env.legal_actions()))
    assert len(game.calls) == before + 1  # the very State the caller holds moved on
    env.reset(seed=3)
    assert env._table is not None  # the next episode is compiled again


def test_a_cold_cache_keeps_the_env_on_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_table, "ready", lambda players: False)
    env = raw_env()
    env.reset(seed=4)
    assert env._table is None
    obs = env.observe(env.agent_selection)
    assert np.flatnonzero(obs["action_mask"]).tolist() == env.legal_actions()
