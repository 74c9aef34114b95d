"""fh_env.envs.vector.VectorEnv against the engine driven directly, deal by deal.

Rows are compared with the engine's ``State(rules, seed=game_seed(...))``, so these tests take
the engine's deals (``deals="engine"``); tests/test_vector_deals.py covers the default, compiled
deals.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fh_env import Rules, State, observe, seat_view
from fh_env import actions as A
from fh_env.actions import MISDEAL, PASS
from fh_env.engine import IllegalActionError, deal_cards
from fh_env.envs.vector import VectorEnv, game_seed

from conftest import FOUR_PLAYER_PRESETS as PRESETS


def _pick(mask_row: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask_row).tolist())


def _check_rows(venv: VectorEnv, refs: list[State]) -> None:
    for i, ref in enumerate(refs):
        view = seat_view(ref, ref.turn)
        assert venv.seat[i] == ref.turn
        np.testing.assert_array_equal(venv.mask[i], observe.action_mask(view))
        np.testing.assert_array_equal(venv.obs[i], observe.encode(view))
        assert venv.states[i] == ref


@pytest.mark.parametrize("preset", ["australian-no-nullo", "australian", "american",
                                    "american-double-nullo"])
def test_matches_engine_deal_by_deal(preset: str) -> None:
    """Same deals, same actions: identical obs, masks, seats, rewards and restarts."""
    rules = Rules.preset(preset)
    n, seed = 3, 11
    venv = VectorEnv(n, rules, seed=seed, deals="engine")
    refs = [State(rules, seed=game_seed(seed, i, 0)) for i in range(n)]
    games = [1] * n
    rng = random.Random(5)
    _check_rows(venv, refs)
    ended = 0
    while ended < 12:
        actions = np.array([_pick(venv.mask[i], rng) for i in range(n)])
        _, _, rewards, _, done, infos = venv.step(actions)
        for i, ref in enumerate(refs):
            ref.apply(int(actions[i]))
            if ref.is_terminal:
                points = ref.result.hand_points
                diff = points[0] - points[1]
                assert rewards[i].tolist() == [diff, -diff, diff, -diff]
                assert done[i] and infos["hand_over"][i]
                assert infos["results"][i] == ref.result
                refs[i] = State(rules, seed=game_seed(seed, i, games[i]))
                games[i] += 1
                ended += 1
            else:
                assert not done[i] and not rewards[i].any() and infos["results"][i] is None
        _check_rows(venv, refs)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40), st.sampled_from(sorted(PRESETS)), st.integers(1, 3),
       st.integers(0, 2**31))
def test_any_seed_and_preset_matches_the_engine(seed: int, preset: str, n: int,
                                                action_seed: int) -> None:
    rules = Rules.preset(preset)
    venv = VectorEnv(n, rules, seed=seed, deals="engine")
    refs = [State(rules, seed=game_seed(seed, i, 0)) for i in range(n)]
    games = [1] * n
    rng = random.Random(action_seed)
    for _ in range(120):
        actions = np.array([_pick(venv.mask[i], rng) for i in range(n)])
        _, _, rewards, _, done, _ = venv.step(actions)
        for i, ref in enumerate(refs):
            ref.apply(int(actions[i]))
            assert done[i] == ref.is_terminal
            if ref.is_terminal:
                points = ref.result.hand_points
                assert rewards[i, 0] == points[0] - points[1] == -rewards[i, 1]
                refs[i] = State(rules, seed=game_seed(seed, i, games[i]))
                games[i] += 1
        _check_rows(venv, refs)


def test_thrown_in_hand_ends_with_zero_reward_and_restarts() -> None:
    venv = VectorEnv(2, Rules(), seed=3, deals="engine")  # all_pass=redeal by default (§3.3)
    assert [s.seed for s in venv.states] == [game_seed(3, i, 0) for i in range(2)]
    for _ in range(3):
        _, _, rewards, _, done, infos = venv.step(np.array([PASS, PASS]))
        assert not done.any()
    _, _, rewards, _, done, infos = venv.step(np.array([PASS, PASS]))
    assert done.all() and infos["hand_over"].all() and not rewards.any()
    assert [r.thrown_in for r in infos["results"]] == ["all_pass", "all_pass"]
    assert [s.seed for s in venv.states] == [game_seed(3, i, 1) for i in range(2)]
    assert all(s.phase.name == "AUCTION" and not s.calls for s in venv.states)


def test_misdeal_is_thrown_in() -> None:
    rules = Rules(misdeal=True)
    for seed in range(200):
        venv = VectorEnv(1, rules, seed=seed, deals="engine")
        if venv.mask[0, MISDEAL]:
            break
    else:
        pytest.fail("no deal with a misdeal call in 200 seeds")
    _, _, rewards, _, done, infos = venv.step(np.array([MISDEAL]))
    assert done[0] and not rewards.any() and infos["results"][0].thrown_in == "misdeal"


def test_negative_action_leaves_game_untouched() -> None:
    venv = VectorEnv(2, Rules(), seed=1, deals="engine")
    before = [s.to_dict() for s in venv.states]
    obs0 = venv.obs.copy()
    rng = random.Random(0)
    venv.step(np.array([-1, _pick(venv.mask[1], rng)]))
    assert venv.states[0].to_dict() == before[0]
    assert venv.states[1].to_dict() != before[1]
    np.testing.assert_array_equal(venv.obs[0], obs0[0])
    assert not venv.done.any() and not venv.rewards.any()


def test_deterministic_from_seed_and_reset() -> None:
    def run(venv: VectorEnv) -> list[np.ndarray]:
        rng = random.Random(2)
        out = []
        for _ in range(150):
            obs, mask, rewards, seat, done, _ = venv.step(
                np.array([_pick(m, rng) for m in venv.mask]))
            out += [obs.copy(), rewards.copy(), seat.copy(), done.copy()]
        return out

    a, b = VectorEnv(4, Rules(), seed=7, deals="engine"), VectorEnv(4, Rules(), seed=7, deals="engine")
    first = run(a)
    for x, y in zip(first, run(b)):
        np.testing.assert_array_equal(x, y)
    a.reset(7)
    for x, y in zip(first, run(a)):
        np.testing.assert_array_equal(x, y)
    other = VectorEnv(4, Rules(), seed=8, deals="engine")
    assert [s.seed for s in other.states] != [s.seed for s in VectorEnv(4, Rules(), seed=7, deals="engine").states]


def test_game_episodes_continue_until_game_over() -> None:
    rules = Rules(game_over="hands", hands_to_play=2)
    venv = VectorEnv(1, rules, seed=4, episode="game", deals="engine")
    rng = random.Random(1)
    hands = dones = 0
    while dones < 2:
        state = venv.states[0]
        _, _, rewards, _, done, infos = venv.step(np.array([_pick(venv.mask[0], rng)]))
        if infos["hand_over"][0]:
            hands += 1
            result = infos["results"][0]
            diff = result.hand_points[0] - result.hand_points[1]
            assert rewards[0].tolist() == [diff, -diff, diff, -diff]
            if done[0]:
                dones += 1
                assert state.game_over and venv.states[0] is not state
                assert venv.states[0].seed == game_seed(4, 0, dones)
            else:
                assert venv.states[0] is state and state.phase.name == "AUCTION"
        else:
            assert not done[0]
    assert hands >= 4


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="episode"):
        VectorEnv(1, episode="trick")
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
    venv = VectorEnv(2)
    with pytest.raises(ValueError, match="expected 2 actions"):
        venv.step(np.array([0]))


def _play_alongside_pettingzoo(rules: Rules, seed: int, rng: random.Random,
                               check_step: Callable[[object, bool, np.ndarray], None]) -> None:
    """Six hands of VectorEnv(2, rules, seed) in lock-step with one fh_env.env() per row, reset
    with that game's seed: the seat on turn, observation and mask must match at every step;
    ``check_step(env, done, rewards_row)`` checks each row after its env has stepped."""
    import fh_env

    n = 2
    venv = VectorEnv(n, rules, seed=seed, deals="engine")
    envs = [fh_env.env(rules=rules, episode="hand", reward="diff") for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=game_seed(seed, i, 0))
    games = [1] * n
    hands = 0
    while hands < 6:
        for i, env in enumerate(envs):
            obs, _, _, _, _ = env.last()
            assert env.agent_selection == f"player_{venv.seat[i]}"
            np.testing.assert_array_equal(obs["observation"], venv.obs[i])
            np.testing.assert_array_equal(obs["action_mask"], venv.mask[i])
        actions = np.array([_pick(venv.mask[i], rng) for i in range(n)])
        _, _, rewards, _, done, _ = venv.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            check_step(env, bool(done[i]), rewards[i])
            if done[i]:
                env.reset(seed=game_seed(seed, i, games[i]))
                games[i] += 1
                hands += 1


def test_matches_the_pettingzoo_env() -> None:
    """Each row plays exactly the episodes of fh_env.env() reset with that game's seed."""

    def check_step(env, done: bool, rewards: np.ndarray) -> None:
        if done:
            assert all(env.terminations.values())
            assert [env.rewards[f"player_{s}"] for s in range(4)] == rewards.tolist()
        else:
            assert not any(env.terminations.values())

    _play_alongside_pettingzoo(Rules.preset("australian"), 5, random.Random(9), check_step)


@pytest.mark.parametrize("preset", ["australian", "american-double-nullo"])
def test_whole_games_with_waiting_rows_match_the_engine(preset: str) -> None:
    """episode="game": every observation, mask, reward and restart against engine States
    dealt on with next_hand(), while random rows wait (action -1) on random steps; also
    encode_state for random seats against observe.encode_state."""
    rules = dataclasses.replace(Rules.preset(preset), game_over="hands", hands_to_play=3)
    n, seed = 5, 21
    venv = VectorEnv(n, rules, seed=seed, episode="game", deals="engine")
    refs = [State(rules, seed=game_seed(seed, i, 0)) for i in range(n)]
    games = [1] * n
    rng = random.Random(3)
    _check_rows(venv, refs)
    hands = dones = 0
    for _ in range(700):
        actions = np.array([_pick(venv.mask[i], rng) if rng.random() < 0.8 else -1
                            for i in range(n)])
        _, _, rewards, _, done, infos = venv.step(actions)
        for i, ref in enumerate(refs):
            if actions[i] < 0:
                assert not infos["hand_over"][i] and not rewards[i].any()
                continue
            ref.apply(int(actions[i]))
            assert infos["hand_over"][i] == ref.is_terminal
            if not ref.is_terminal:
                assert not done[i] and not rewards[i].any() and infos["results"][i] is None
                continue
            hands += 1
            diff = ref.result.hand_points[0] - ref.result.hand_points[1]
            assert rewards[i].tolist() == [diff, -diff, diff, -diff]
            assert infos["results"][i] == ref.result and done[i] == ref.game_over
            if ref.game_over:
                dones += 1
                refs[i] = State(rules, seed=game_seed(seed, i, games[i]))
                games[i] += 1
            else:
                ref.next_hand()
        _check_rows(venv, refs)
        rows = np.array(rng.sample(range(n), 3))
        seats = np.array([rng.randrange(4) for _ in rows])
        full = venv.encode_state(rows, seats)
        for k, (i, s) in enumerate(zip(rows.tolist(), seats.tolist())):
            np.testing.assert_array_equal(full[k], observe.encode_state(refs[i], s))
    assert hands >= 20 and dones >= 4


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    venv = VectorEnv(3, Rules(), seed=6, deals="engine")
    before = [s.to_dict() for s in venv.states]
    obs, mask = venv.obs.copy(), venv.mask.copy()
    actions = np.array([_pick(venv.mask[i], random.Random(i)) for i in range(3)])
    actions[1] = A.PLAY_BASE  # a play in the auction
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(actions)
    assert [s.to_dict() for s in venv.states] == before
    np.testing.assert_array_equal(venv.obs, obs)
    np.testing.assert_array_equal(venv.mask, mask)


def test_states_are_the_same_objects_while_their_game_goes_on() -> None:
    venv = VectorEnv(2, Rules(), seed=2, deals="engine")
    held = venv.states[0]
    assert len(venv.states) == 2 and venv.states[-1] is venv.states[1]
    assert venv.states[:1] == [held]
    rng = random.Random(4)
    while True:
        _, _, _, _, done, _ = venv.step(np.array([_pick(m, rng) for m in venv.mask]))
        if done[0]:
            break
        assert venv.states[0] is held and held.calls  # brought up to date when read
    assert held.is_terminal  # it shows how its game ended, as the engine's object would
    assert venv.states[0] is not held and not venv.states[0].calls
    with pytest.raises(IndexError):
        venv.states[2]


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_every_table_size_matches_the_engine_deal_by_deal(preset: str, episode: str) -> None:
    """§9: obs in the size's layout, masks of its action count, seats 0..players - 1, one
    reward per seat (its side's, rewards.team_rewards "diff"), restarts, as the engine."""
    from fh_env.envs.rewards import team_rewards

    rules = Rules.preset(preset)
    players = rules.players
    n, seed = 3, 13
    venv = VectorEnv(n, rules, seed=seed, episode=episode, deals="engine")
    layout = observe.layout(players)
    assert venv.obs.shape == (n, layout.size) and venv.mask.shape == (n, layout.num_actions)
    assert venv.rewards.shape == (n, players)
    refs = [State(rules, seed=game_seed(seed, i, 0)) for i in range(n)]
    games = [1] * n
    rng = random.Random(6)
    _check_rows(venv, refs)
    ended = 0
    while ended < 10:
        actions = np.array([_pick(venv.mask[i], rng) for i in range(n)])
        _, _, rewards, _, done, infos = venv.step(actions)
        for i, ref in enumerate(refs):
            ref.apply(int(actions[i]))
            if ref.is_terminal:
                sides = team_rewards("diff", ref.result.hand_points)
                want = [np.float32(sides[s if players == 3 else s % 2]) for s in range(players)]
                assert rewards[i].tolist() == want
                assert infos["hand_over"][i] and infos["results"][i] == ref.result
                if episode == "hand" or ref.game_over:
                    assert done[i]
                    refs[i] = State(rules, seed=game_seed(seed, i, games[i]))
                    games[i] += 1
                    ended += 1
                else:
                    assert not done[i]
                    ref.next_hand(deal_cards(rules, ref.seed, ref.deal_index))
            else:
                assert not done[i] and not rewards[i].any()
        _check_rows(venv, refs)
    rows, seats = np.array([0, 2]), np.array([players - 1, 1])
    full = venv.encode_state(rows, seats)
    for k in range(2):
        assert np.array_equal(full[k], observe.encode_state(refs[rows[k]], int(seats[k])))


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_every_table_size_matches_the_pettingzoo_env(preset: str) -> None:
    """Each row plays the episodes of fh_env.env(preset), rewards included."""
    rules = Rules.preset(preset)

    def check_step(env, done: bool, rewards: np.ndarray) -> None:
        if done:
            assert [env.rewards[f"player_{s}"] for s in range(rules.players)] == \
                pytest.approx(rewards.tolist())

    _play_alongside_pettingzoo(rules, 8, random.Random(4), check_step)
