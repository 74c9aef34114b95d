"""The single-seat Gymnasium env fh_env/FiveHundred-v0 (fh_env.envs.single)."""

from __future__ import annotations

import pickle
import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import fh_env
from agents.registry import make_bot
from agents.rule import RuleBot
from fh_env import actions as A
from fh_env.envs.aec import AGENTS
from fh_env.observe import OBS_SIZE
from fh_env.rules import Rules
from fh_env.envs.single import ENV_ID, NO_HAND, SingleSeatEnv, numeric_info
from fh_env.view import seat_view

from conftest import RecordingBot, deal


def random_action(env: SingleSeatEnv, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(env.action_masks())))


def play_out(env: SingleSeatEnv, seed: int, rng: np.random.Generator):
    """One episode with random legal learner actions: (learner actions, rewards, last info)."""
    obs, info = env.reset(seed=seed)
    actions, rewards = [], []
    while True:
        assert info["seat"] in env.seats
        assert obs["action_mask"].any()
        action = random_action(env, rng)
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        assert not truncated
        if terminated:
            return actions, rewards, info


def test_registered_and_passes_gymnasium_check_env():
    env = gym.make(ENV_ID, seats=(0, 2), opponents="rule", bot_factory=make_bot)
    assert isinstance(env.unwrapped, SingleSeatEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the infinite bounds of the scalar features
        check_env(env.unwrapped)
    space = env.observation_space
    assert space["observation"].shape == (OBS_SIZE,)
    assert space["action_mask"].dtype == np.int8
    assert env.action_space == gym.spaces.Discrete(A.NUM_ACTIONS)


@pytest.mark.parametrize("rules, seats", [(None, (0,)), (None, (1,)), (None, (3,)),
                                         (None, (0, 2)), (None, (1, 3)),
                                         ("three-handed", (0,)), ("three-handed", (2,)),
                                         ("six-handed", (5,)), ("six-handed", (0, 2, 4)),
                                         ("six-handed", (1, 3, 5))])
def test_learner_acts_only_on_its_seats_and_bots_on_the_others(rules, seats):
    bot = RecordingBot()
    env = SingleSeatEnv(rules, seats=seats, opponents=bot)
    players = env.game_env.players
    rng = np.random.default_rng(1)
    seen = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        while info["seat"] >= 0:
            seat = info["seat"]
            seen.add(seat)
            # The observation is the acting learner seat's own, mask included.
            expected = fh_env.observe.observation(seat_view(env.game, seat))
            np.testing.assert_array_equal(obs["observation"], expected["observation"])
            np.testing.assert_array_equal(env.action_masks(), expected["action_mask"] == 1)
            assert env.action_masks().dtype == bool
            obs, _, _, _, info = env.step(random_action(env, rng))
    assert seen == set(seats)
    assert bot.seats == set(range(players)) - set(seats)


def test_partner_bot_plays_only_the_partner_seat():
    partner, opponents = RecordingBot(), RecordingBot()
    env = SingleSeatEnv(seats=(1,), opponents=opponents, partner=partner)
    rng = np.random.default_rng(2)
    for seed in range(4):
        play_out(env, seed, rng)
    assert partner.seats == {3}
    assert opponents.seats == {0, 2}
    # six players: the learner's two partners, the three opponents (§9.2)
    partner, opponents = RecordingBot(), RecordingBot()
    env = SingleSeatEnv("six-handed", seats=(1,), opponents=opponents, partner=partner)
    for seed in range(4):
        play_out(env, seed, rng)
    assert partner.seats == {3, 5}
    assert opponents.seats == {0, 2, 4}
    # three players: everyone else is an opponent; a partner bot plays nobody
    partner, opponents = RecordingBot(), RecordingBot()
    env = SingleSeatEnv("three-handed", seats=(1,), opponents=opponents, partner=partner)
    for seed in range(4):
        play_out(env, seed, rng)
    assert partner.seats == set() and opponents.seats == {0, 2}


def test_bad_seats_and_bots_are_refused():
    for seats in [(0, 1), (4,), (), (0, 2, 1)]:
        with pytest.raises(ValueError, match="seats="):
            SingleSeatEnv(seats=seats)
    for seats in [(3,), (0, 2), (0, 1, 2)]:  # three players play alone
        with pytest.raises(ValueError, match="seats="):
            SingleSeatEnv("three-handed", seats=seats)
    for seats in [(6,), (0, 2), (0, 3), (1, 3, 4)]:  # six: one seat or a team of three
        with pytest.raises(ValueError, match="seats="):
            SingleSeatEnv("six-handed", seats=seats)
    with pytest.raises(ValueError, match="unknown bot"):
        SingleSeatEnv(opponents="no-such-bot", bot_factory=make_bot)
    with pytest.raises(ValueError, match="unknown bot 'no-such-bot'; known bots: .*rule"):
        SingleSeatEnv(opponents="no-such-bot")  # without bot_factory: agents.registry's refusal
    with pytest.raises(TypeError, match="bot name such as 'rule'"):
        SingleSeatEnv(opponents=42)


def test_gym_make_takes_bot_names_without_a_factory():
    """``gym.make(ENV_ID, opponents="rule", partner="mc")``: names go to agents.registry."""
    from agents.mc import MCBot

    env = gym.make(ENV_ID, opponents="rule", partner="mc:samples=2")
    bots = env.unwrapped.bots
    assert bots[0] is None and isinstance(bots[1], RuleBot) and bots[1] is bots[3]
    assert isinstance(bots[2], MCBot) and bots[2].samples == 2
    _, _, info = play_out(env.unwrapped, 3, np.random.default_rng(0))
    assert info["hands_done"] == 1
    built = []  # bot_factory stays an option, and wins over the registry
    SingleSeatEnv(opponents="anything", bot_factory=lambda name: built.append(name) or RuleBot())
    assert built == ["anything"]


def test_bot_names_check_the_envs_rules():
    """A name is built with the env's rules: a neural bot refuses rules it was not trained for."""
    with pytest.raises(ValueError, match="strict_rules=0"):
        SingleSeatEnv("american", opponents="neural:ppo-selfplay")
    SingleSeatEnv("american", opponents="neural:ppo-selfplay,strict_rules=0")


def test_import_fh_env_leaves_agents_alone_until_a_name_is_given():
    import subprocess
    import sys

    code = ("import sys, gymnasium as gym, fh_env\n"
            "gone = lambda: not any(m.split('.')[0] == 'agents' for m in sys.modules)\n"
            "assert gone()\n"
            "gym.make('fh_env/FiveHundred-v0', opponents=None); assert gone()\n"
            "gym.make('fh_env/FiveHundred-v0', opponents='rule', partner='mc')\n"
            "assert 'agents.registry' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 31), seats=st.sampled_from([(0,), (2,), (1, 3)]),
       episode=st.sampled_from(["hand", "game"]))
def test_rewards_equal_the_aec_envs_for_the_same_actions(seed, seats, episode):
    """Replaying the learner's and the bots' actions in the AEC env gives the same rewards."""
    rules = Rules.preset("australian")
    env = SingleSeatEnv(rules=rules, seats=seats, opponents="rule", episode=episode,
                        bot_factory=make_bot)
    rng = np.random.default_rng(seed)
    actions, rewards, info = play_out(env, seed, rng)
    aec = fh_env.env(rules=rules, episode=episode)
    aec.reset(seed=seed)
    bot, bot_rngs = RuleBot(), [random.Random(f"{seed}/bot/{s}") for s in range(4)]
    learner_actions = iter(actions)
    team_total = 0.0
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, aec_info = aec.last()
        if agent == AGENTS[seats[0]]:
            team_total += reward  # its rewards since its last move
        if terminated or truncated:
            aec.step(None)
            continue
        seat = AGENTS.index(agent)
        if seat in seats:
            aec.step(next(learner_actions))
        else:
            aec.step(bot.act(seat_view(aec.unwrapped.game, seat), bot_rngs[seat]))
    assert next(learner_actions, None) is None
    assert sum(rewards) == pytest.approx(team_total)
    assert info["hand_points"] == aec_info["hand_points"]
    if episode == "hand":
        points = info["hand_points"]
        team = seats[0] % 2
        assert sum(rewards) == points[team] - points[1 - team]


def test_same_seed_same_episode_and_seeded_resets_are_reproducible():
    def run(seed):
        env = SingleSeatEnv(seats=(0,), opponents="random", bot_factory=make_bot)
        out = []
        env.reset(seed=seed)
        for _ in range(3):
            out.append(play_out(env, None, np.random.default_rng(7)) if out else
                       play_out(env, seed, np.random.default_rng(7)))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_illegal_action_ends_the_episode_with_the_illegal_reward():
    env = SingleSeatEnv(seats=(0,), opponents="random", reward_scale=0.01,
                        bot_factory=make_bot)
    obs, _ = env.reset(seed=3)
    before = env.game.to_dict()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-10.0, True, False, True)
    assert env.game.to_dict() == before  # the game did not move
    assert obs2 is not obs and not np.shares_memory(obs2["observation"], obs["observation"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = SingleSeatEnv(reward="win", episode="game")
    env.reset(seed=0)
    assert env.step(A.NUM_ACTIONS + 5)[1:4] == (-1.0, True, False)


def test_hand_thrown_in_before_the_learner_moves_is_dealt_again():
    """Seat 1 calls a misdeal (§3.9) before the learner (seat 2) has moved: a new deal follows."""
    rules = Rules(misdeal=True)
    hands, kitty = deal(rules, {1: "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C"})

    class MisdealBot:
        name = "misdeal"

        def act(self, view, rng):
            legal = view.legal_actions()
            return A.MISDEAL if A.MISDEAL in legal else legal[0]

    env = SingleSeatEnv(rules=rules, seats=(2,), opponents=MisdealBot(), partner="random",
                        bot_factory=make_bot)
    options = {"dealer": 0, "deal": {"hands": hands, "kitty": kitty}}
    obs, info = env.reset(seed=11, options=options)
    assert info["seat"] == 2
    # Not the fixed deal any more: seat 2's hand differs from the one given.
    assert env.game.hands[2] != fh_env.cards.mask_of(hands[2])


def test_game_episodes_reward_every_hand_and_end_with_the_game():
    env = SingleSeatEnv(seats=(0, 2), opponents="random", episode="game",
                        bot_factory=make_bot)
    rng = np.random.default_rng(4)
    actions, rewards, info = play_out(env, 9, rng)
    assert env.game.game_over
    assert info["hands_done"] >= 1
    assert sum(1 for r in rewards if r != 0) <= info["hands_done"]
    with pytest.raises(RuntimeError):
        env.step(0)


def test_render_and_pickle():
    env = SingleSeatEnv(seats=(0,), opponents="rule", render_mode="ansi",
                        bot_factory=make_bot)
    env.reset(seed=1)
    text = env.render()
    assert "player_0" in text and "to act" in text
    clone = pickle.loads(pickle.dumps(env))
    obs_a = env.step(int(np.flatnonzero(env.action_masks())[0]))[0]
    obs_b = clone.step(int(np.flatnonzero(clone.action_masks())[0]))[0]
    np.testing.assert_array_equal(obs_a["observation"], obs_b["observation"])


def test_infos_are_numbers_from_reset_on():
    """Libraries that stack infos into arrays (Tianshou, TorchRL) cannot take None."""
    env = SingleSeatEnv(seats=(0,), opponents="rule", bot_factory=make_bot)
    _, info = env.reset(seed=2)
    assert (info["contract"], info["declarer"], info["seat"]) == (NO_HAND, -1, 0)
    keys = set(info)
    _, _, info = play_out(env, 2, np.random.default_rng(0))
    assert set(info) == keys and info["seat"] == -1
    for key, value in info.items():
        if key == "contract_name":  # the one string: never None ("" where the AEC env has None)
            assert isinstance(value, str), info
            continue
        assert np.asarray(value).dtype.kind in "biuf", info
    assert numeric_info({"contract": 5, "declarer": 2}) == {"contract": 5, "declarer": 2}
    assert numeric_info({"contract": None, "declarer": None}) == {"contract": NO_HAND,
                                                                  "declarer": -1}


def test_a_checkpoint_plays_the_other_seats(tmp_path):
    """``opponents="neural:PATH"``: the bots come from agents.registry, checkpoints included."""
    import torch

    from agents import neural

    rules = Rules()
    net = neural.PolicyNet(OBS_SIZE, [8])
    path = tmp_path / "tiny.pt"
    torch.save({"format": neural.FORMAT, "obs_version": fh_env.observe.OBS_VERSION,
                "obs_size": OBS_SIZE, "num_actions": A.NUM_ACTIONS, "rules": rules.to_dict(),
                "policy": {"hidden_sizes": [8], "state_dict": net.state_dict()}}, path)
    env = SingleSeatEnv(rules=rules, seats=(0,), opponents=f"neural:{path}", partner="rule",
                        bot_factory=make_bot)
    assert isinstance(env.bots[1], neural.NeuralBot) and env.bots[1] is env.bots[3]
    assert type(env.bots[2]).__name__ == "RuleBot"
    _, _, info = play_out(env, 4, np.random.default_rng(0))
    assert info["hands_done"] == 1
