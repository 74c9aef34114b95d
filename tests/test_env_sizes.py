"""The environments at the other table sizes (docs/rules.md §9): three players, each a side of
their own, and six players in two teams of three.

Random hands of ``three-handed`` and ``six-handed`` through ``fh_env.env()`` are checked step by
step against the engine (the agent on turn, the legal action names, the hand points and the
rewards per side); then the observation layouts of 3 and 6 seats, reset options, illegal
actions and the table.  (PettingZoo's api_test, seed_test and render_test run over every preset
in tests/test_env.py; decode over random play in tests/test_first_contact.py; the leak test in
tests/test_env_leak.py.)
"""

from __future__ import annotations

import dataclasses
import random
import warnings

import numpy as np
import pytest

import fh_env
import fh_env.observe as O
from fh_env import actions as A
from fh_env.engine import Phase, State, side_of, sitting_out_seats
from fh_env.envs.aec import raw_env
from fh_env.rules import Rules
from fh_env.view import seat_view

SIZES = {"three-handed": 3, "six-handed": 6}


def expected_rewards(reward: str, points: tuple[int, ...], winner: int | None,
                     players: int) -> list[float]:
    """The reward of each seat, from the hand points per side (docs/environment.md)."""
    sides = len(points)
    per_side = []
    for side in range(sides):
        others = [p for s, p in enumerate(points) if s != side]
        if reward == "points":
            per_side.append(points[side])
        elif reward == "diff":
            per_side.append(points[side] - sum(others) / len(others))
        else:
            per_side.append(0.0 if winner is None else 1.0 if side == winner else -1.0)
    return [float(per_side[side_of(players, seat)]) for seat in range(players)]


@pytest.mark.parametrize("preset", list(SIZES))
@pytest.mark.parametrize("reward", ["diff", "points", "win"])
def test_random_hands_follow_the_engine(preset: str, reward: str) -> None:
    """Whole games of random play: the env's agent on turn and legal names are the engine's
    at every step, and every hand ends with the engine's hand points and rewards per side."""
    players = SIZES[preset]
    rules = Rules.preset(preset)
    env = fh_env.env(preset, episode="game", reward=reward)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    assert env.action_space("player_0").n == A.action_table(players).num_actions
    rng = random.Random(f"{preset}/{reward}")
    hands = 0
    for game_seed in range(3 if reward == "win" else 2):
        env.reset(seed=game_seed)
        mirror = State(rules, seed=game_seed)  # the engine, played alongside
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            agent = env.agent_selection
            obs, reward_now, terminated, truncated, info = env.last()
            if terminated:
                env.step(None)
                continue
            assert agent == f"player_{mirror.turn}"
            names = env.unwrapped.legal_action_names()
            assert names == [mirror.action_name(a) for a in mirror.legal_actions()]
            assert np.flatnonzero(obs["action_mask"]).tolist() == mirror.legal_actions()
            action = rng.choice(mirror.legal_actions())
            env.step(action)
            mirror.apply(action)
            if mirror.is_terminal:
                hands += 1
                result = mirror.result
                for a in env.possible_agents:
                    info = env.unwrapped.infos[a]
                    assert info["hand_points"] == result.hand_points
                    assert len(info["hand_points"]) == rules.sides
                    assert info["game_points"] == result.game_points
                    assert info["tricks"] == result.tricks
                    assert info["contract_name"] == (None if result.contract is None else
                                                     result.contract_name)
                over = mirror.phase == Phase.GAME_OVER
                winner = mirror.winner if over and mirror.winner >= 0 else None
                if reward == "win" and not over:
                    want = [0.0] * players
                else:
                    want = expected_rewards(reward, result.hand_points, winner, players)
                got = [env.unwrapped.rewards[a] for a in env.possible_agents]
                assert got == pytest.approx(want)
                for a, r in zip(env.possible_agents, got):
                    totals[a] += r
                if not over:
                    mirror.next_hand()
        if reward == "win":  # one side wins a whole game
            winners = {side_of(players, s) for s, a in enumerate(env.possible_agents)
                       if totals[a] == 1.0}
            assert len(winners) <= 1
    assert hands >= 2


def test_many_hands_of_each_size_through_the_env() -> None:
    """Hand episodes of both sizes: the turn and legal names at every step, the hand points at
    the end, over a few hundred random hands."""
    for preset, players in SIZES.items():
        env = fh_env.env(preset)
        rng = random.Random(preset)
        for seed in range(120):
            env.reset(seed=seed)
            mirror = State(Rules.preset(preset), seed=seed)
            for agent in env.agent_iter():
                _, _, terminated, _, info = env.last()
                if terminated:
                    assert info["hand_points"] == mirror.result.hand_points
                    env.step(None)
                    continue
                assert agent == f"player_{mirror.turn}"
                legal = mirror.legal_actions()
                assert env.unwrapped.legal_action_names() == [mirror.action_name(a)
                                                              for a in legal]
                action = rng.choice(legal)
                env.step(action)
                mirror.apply(action)


# ---------------------------------------------------------------------- the layouts
def test_the_four_player_layout_is_unchanged() -> None:
    assert (O.OBS_SIZE, O.BINARY_SIZE, O.STATE_SIZE) == (2509, 2492, 2923)
    assert O.layout(4).slices is O.LAYOUT and O.layout(4).size == O.OBS_SIZE
    assert O.layout(4).table() == O.layout_table()


@pytest.mark.parametrize("players", [3, 4, 6])
def test_each_layout_tiles_its_vector_and_names_every_observed_option(players: int) -> None:
    lay = O.layout(players)
    pos = 0
    for name, s in lay.slices.items():
        assert s.start == pos, name
        pos = s.stop
    assert pos == lay.size
    assert lay.state_size == lay.size + (2 * players + 1) * lay.num_cards
    assert lay.num_cards == A.action_table(players).num_cards
    assert lay.slices["turn"].stop - lay.slices["turn"].start == players
    assert lay.slices["scores"].stop - lay.slices["scores"].start == (3 if players == 3 else 2)
    assert ("sitting_out" in lay.slices) == (players != 3)
    table = lay.table()
    for f in dataclasses.fields(Rules):
        assert (f"  {f.name} " in table) == (f.name not in lay.not_observed), f.name
    rules = Rules.preset({3: "three-handed", 4: "avondale-classic", 6: "six-handed"}[players])
    assert O.rules_features(rules).size == lay.rules_size


def test_layout_sizes_are_distinct_so_decode_knows_the_table_size() -> None:
    sizes = [s for n in (3, 4, 6) for s in (O.layout(n).size, O.layout(n).state_size)]
    assert len(set(sizes)) == len(sizes)
    with pytest.raises(ValueError, match="players"):
        O.layout(5)


def _random_states(preset: str, count: int, seed: int):
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    for _ in range(count):
        state = State(rules, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(80)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_six_players_seats_are_relative_and_both_partners_sit_out() -> None:
    lay = O.layout(6)
    sat_out = 0
    for state in _random_states("six-handed", 300, 1):
        for seat in range(6):
            obs = O.encode(seat_view(state, seat))
            if state.turn >= 0:
                turn = np.flatnonzero(obs[lay.slices["turn"]]).tolist()
                assert turn == [(state.turn - seat) % 6]
            won = obs[lay.slices["tricks_won"]] * 10
            assert won.tolist() == [state.tricks_won[(seat + r) % 6] for r in range(6)]
            team = seat % 2
            assert (obs[lay.slices["scores"]] * 500).tolist() == [state.scores[team],
                                                                  state.scores[1 - team]]
            out = np.flatnonzero(obs[lay.slices["sitting_out"]]).tolist()
            assert out == sorted((s - seat) % 6
                                 for s in sitting_out_seats(6, state.sitting_out))
            if state.sitting_out >= 0:
                sat_out += 1
                assert len(out) == 2
                assert O.decode(obs)["sitting_out"] == (state.sitting_out - seat) % 6
    assert sat_out > 0


def test_three_players_scores_are_per_player_from_the_observer() -> None:
    rules = Rules.preset("three-handed").replace(game_over="hands", hands_to_play=4)
    env = fh_env.env(rules, episode="game", reward="points")
    env.reset(seed=5)
    rng = random.Random(5)
    lay = O.layout(3)
    seen_scores = False
    for agent in env.agent_iter(3000):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        scores = env.unwrapped.game.scores
        seat = int(agent[-1])
        got = obs["observation"][lay.slices["scores"]] * 500
        assert got.tolist() == pytest.approx([scores[(seat + r) % 3] for r in range(3)])
        seen_scores |= any(scores)
        env.step(rng.choice(env.unwrapped.legal_actions()))
    assert seen_scores


def test_bounds_per_table_size() -> None:
    for preset, players in SIZES.items():
        low, high = O.observation_bounds(Rules.preset(preset), "hand")
        assert low.shape == (O.layout(players).size,)
        assert (O.observation_bounds((), "hand", players=players)[1] == high).all()
        low, high = O.state_bounds(Rules.preset(preset))
        assert low.shape == (O.layout(players).state_size,)
    with pytest.raises(ValueError, match="players"):
        O.observation_bounds([Rules.preset("three-handed"), Rules()])


# ---------------------------------------------------------------------- rewards and options
def test_three_player_rewards_per_player() -> None:
    from fh_env.envs.rewards import side_rewards, team_rewards

    assert side_rewards("points", (-520, 30, 20)) == (-520, 30, 20)
    assert side_rewards("diff", (-520, 30, 20)) == (-545.0, 280.0, 265.0)
    assert side_rewards("win", (0, 0, 0), winner=1, scale=2.0) == (-2.0, 2.0, -2.0)
    assert side_rewards("win", (0, 0, 0), winner=None) == (0.0, 0.0, 0.0)
    assert team_rewards("diff", (-520, 30, 20)) == side_rewards("diff", (-520, 30, 20))
    assert team_rewards("diff", (40, -10)) == side_rewards("diff", (40, -10)) == (50, -50)


@pytest.mark.parametrize("preset", list(SIZES))
def test_illegal_action_penalises_the_offending_side(preset: str) -> None:
    players = SIZES[preset]
    env = fh_env.env(preset, illegal_reward=-7.0)
    env.reset(seed=0)
    offender = int(env.agent_selection[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(A.action_table(players).play_base)  # playing in the auction
    for seat, agent in enumerate(env.possible_agents):
        same = side_of(players, seat) == side_of(players, offender)
        assert env.rewards[agent] == (-7.0 if same else 0.0)
        assert env.terminations[agent]
    out_of_range = fh_env.env(preset)
    out_of_range.reset(seed=0)
    with pytest.raises(AssertionError, match=f"Discrete\\({env.action_space('player_0').n}\\)"):
        out_of_range.step(env.action_space("player_0").n)


@pytest.mark.parametrize("preset", list(SIZES))
def test_reset_with_a_deal_and_a_dealer(preset: str) -> None:
    players = SIZES[preset]
    rules = Rules.preset(preset)
    cards = list(rules.cards)
    random.Random(1).shuffle(cards)
    hands = [[fh_env.card_name(c) for c in cards[10 * s:10 * s + 10]] for s in range(players)]
    kitty = [fh_env.card_name(c) for c in cards[10 * players:]]
    env = fh_env.env(preset)
    env.reset(seed=3, options={"dealer": players - 1, "deal": {"hands": hands, "kitty": kitty}})
    game = env.unwrapped.game
    assert game.dealer == players - 1 and env.agent_selection == "player_0"
    for s in range(players):
        assert {game.card_name(c) for c in range(64) if game.hands[s] >> c & 1} == set(hands[s])
    with pytest.raises(ValueError, match=f"0..{players - 1}"):
        env.reset(options={"dealer": players})
    with pytest.raises(ValueError, match=f"needs {players} hands"):
        env.reset(options={"deal": {"hands": hands[:-1], "kitty": kitty}})
    with pytest.raises(ValueError, match="table size"):
        env.reset(options={"rules": "australian"})


def test_the_table_shows_every_seat() -> None:
    for preset, players in SIZES.items():
        env = raw_env(preset, render_mode="ansi", render_seat=1)
        env.reset(seed=2)
        text = env.render()
        for s in range(players):
            assert f"player_{s}" in text
        assert "player_6" not in text
        with pytest.raises(ValueError, match="render_seat"):
            raw_env(preset, render_seat=players)
