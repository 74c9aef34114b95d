"""VectorEnv(deals="compiled"): deals drawn by each row's generator in the compiled core.

The games must still be the rules' games (every deal a legal deal, play checked step by step
against the reference engine), reproducible from the seed, and unlike the engine's deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from fh_env import Rules, observe, seat_view
from fh_env.engine import check_deal
from fh_env.envs.vector import VectorEnv

from conftest import FOUR_PLAYER_PRESETS as PRESETS


def _random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


@pytest.mark.parametrize("preset", ["australian-no-nullo", "american-double-nullo",
                                    "three-handed", "six-handed"])
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_compiled_deals_play_the_engine_game_step_by_step(preset: str, episode: str) -> None:
    rules = Rules.preset(preset)
    venv = VectorEnv(6, rules, seed=3, episode=episode, deals="compiled")
    rng = np.random.default_rng(0)
    obs, mask, seat = venv.obs, venv.mask, venv.seat
    hands_seen = 0
    for _ in range(400):
        states = [venv.states[i] for i in range(venv.num_envs)]  # tracked from now on
        for i, state in enumerate(states):
            assert np.array_equal(obs[i], observe.encode(seat_view(state, int(seat[i]))))
            assert np.array_equal(mask[i], observe.action_mask(seat_view(state, int(seat[i]))))
            if state.phase == 0 and not state.calls:  # a fresh deal
                check_deal(rules, state.dealt[0], state.dealt[1])
        obs, mask, rewards, seat, done, infos = venv.step(_random_actions(rng, mask))
        hands_seen += int(infos["hand_over"].sum())
    assert hands_seen > 20


def test_compiled_deals_are_reproducible_and_not_the_engine_deals() -> None:
    def trace(deals: str, seed: int) -> list[np.ndarray]:
        venv = VectorEnv(4, Rules(), seed=seed, deals=deals)
        rng = np.random.default_rng(1)
        out = [venv.obs.copy()]
        for _ in range(50):
            venv.step(_random_actions(rng, venv.mask))
            out.append(venv.obs.copy())
        return out

    a, b = trace("compiled", 5), trace("compiled", 5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(trace("compiled", 6)[0], a[0])
    assert not np.array_equal(trace("engine", 5)[0], a[0])


def test_compiled_deals_are_the_default() -> None:
    assert VectorEnv(2).deals == "compiled"
    venv, rng = VectorEnv(2, seed=5), np.random.default_rng(1)
    twin = VectorEnv(2, seed=5, deals="compiled")
    for _ in range(30):
        actions = _random_actions(rng, venv.mask)
        venv.step(actions)
        twin.step(actions)
        assert np.array_equal(venv.obs, twin.obs)


def test_bad_deals_option_is_refused() -> None:
    with pytest.raises(ValueError, match="deals='python'.*engine.*compiled"):
        VectorEnv(2, deals="python")


def test_every_preset_runs_with_compiled_deals() -> None:
    rng = np.random.default_rng(2)
    for preset in PRESETS:
        venv = VectorEnv(8, preset, seed=1, deals="compiled")
        for _ in range(60):
            venv.step(_random_actions(rng, venv.mask))
        assert venv.games.min() >= 1
