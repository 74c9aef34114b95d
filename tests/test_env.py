"""The PettingZoo environment (issue 3): API conformance, turns, rewards and infos (docs/rules.md §6),
reset options, illegal actions, reproducibility, pickling and rendering."""

from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test as pz_api_test
from pettingzoo.test import render_test as pz_render_test
from pettingzoo.test import seed_test as pz_seed_test

import fh_env
from conftest import NT_DEAL, SPADE_RUN
from conftest import deal as conftest_deal
from fh_env import actions as A
from fh_env.engine import IllegalActionError, Phase, State
from fh_env.envs.aec import AGENTS, ENV_NAME, raw_env
from fh_env.rules import PRESETS, resolve_rules
from fh_env.cards import card_name
from fh_env.engine import deal_cards
from fh_env.observe import LAYOUT, OBS_SIZE, STATE_SIZE
from fh_env.rules import Rules

EPISODES = ("hand", "game")


def lowest_legal(obs: dict) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def play(env, policy, rng: random.Random | None = None, max_steps: int = 100_000) -> list:
    """Step through the episode with ``policy(obs, rng)``; the list of (agent, action, reward,
    terminated, info) of every call to last()."""
    trace = []
    for agent in env.agent_iter(max_steps):
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs, rng)
        trace.append((agent, action, reward, terminated, dict(info)))
        env.step(action)
    return trace


def random_policy(obs: dict, rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


# ---------------------------------------------------------------------- PettingZoo's own tests
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("episode", EPISODES)
def test_pettingzoo_api_seed_and_render_tests(preset: str, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test always warns about Dict observations
        pz_api_test(fh_env.env(rules=preset, episode=episode), num_cycles=300)
        pz_seed_test(lambda **kw: fh_env.env(rules=preset, episode=episode, **kw), num_cycles=300)
        pz_render_test(lambda **kw: fh_env.env(rules=preset, episode=episode, **kw))


def test_metadata_agents_and_registry() -> None:
    env = fh_env.env()
    assert env.metadata["name"] == ENV_NAME == "five_hundred_v0"
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert set(env.metadata["render_modes"]) == {"human", "ansi"}
    import pettingzoo

    made = pettingzoo.make("aec", ENV_NAME, rules="australian")
    made.reset(seed=3)
    assert made.unwrapped.rules == Rules.preset("australian")
    # the package function and the module both make the wrapped env
    assert isinstance(fh_env.env().unwrapped, fh_env.raw_env)


def test_spaces_are_the_same_objects_on_every_call() -> None:
    for env in (fh_env.env(), raw_env()):
        for agent in AGENTS:
            assert env.observation_space(agent) is env.observation_space(agent)
            assert env.action_space(agent) is env.action_space(agent)
            assert env.action_space(agent).n == A.NUM_ACTIONS == 130
            space = env.observation_space(agent)
            assert space["observation"].shape == (OBS_SIZE,)
            assert space["action_mask"].dtype == np.int8
        env.reset(seed=0)
        assert env.unwrapped.state_space.shape == (STATE_SIZE,)
        assert env.unwrapped.state_space.contains(env.state())


def test_rules_argument_accepts_rules_preset_and_toml(tmp_path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('preset = "canadian"\ntarget = 700\n')
    assert resolve_rules(None) == Rules()
    assert resolve_rules("american") == Rules.preset("american")
    assert resolve_rules(Rules(deck="45")) == Rules(deck="45")
    assert resolve_rules(str(path)) == Rules.preset("canadian").replace(target=700)
    assert resolve_rules(path) == Rules.preset("canadian").replace(target=700)
    assert raw_env(rules=path).rules.target == 700
    with pytest.raises(ValueError, match="preset"):
        resolve_rules("no-such-preset")
    with pytest.raises(ValueError):
        raw_env(episode="match")
    with pytest.raises(ValueError):
        raw_env(reward="score")
    with pytest.raises(ValueError, match="game"):
        raw_env(reward="win")  # a hand alone has no winner


# ---------------------------------------------------------------------- turns and masks
def test_mask_only_for_agent_on_turn_and_observe_any_agent_any_time() -> None:
    rng = random.Random(1)
    for preset in PRESETS:
        env = fh_env.env(rules=preset, episode="game")
        env.reset(seed=rng.randrange(10**6))
        for _ in range(300):
            if not env.agents:
                break
            on_turn = env.agent_selection
            for agent in env.possible_agents:
                obs = env.observe(agent)
                assert obs["observation"].dtype == np.float32
                assert obs["action_mask"].dtype == np.int8
                if agent != on_turn or env.terminations[agent]:
                    assert not obs["action_mask"].any(), (agent, on_turn)
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            env.step(random_policy(obs, rng))


def _drive(env, calls: list[tuple[int, str]]) -> None:
    """Apply named actions, checking that each is taken by the agent the test expects."""
    for who, name in calls:
        assert env.agent_selection == AGENTS[who], (name, env.agent_selection)
        env.step(A.str_to_action(name))


def test_exchange_turns_are_single_discards_by_the_same_agent() -> None:
    env = fh_env.env()
    env.reset(seed=5, options={"dealer": 3})
    _drive(env, [(0, "7H"), (1, "pass"), (2, "pass"), (3, "pass")])
    game = env.unwrapped.game
    assert game.phase == Phase.EXCHANGE
    for _ in range(3):
        assert env.agent_selection == "player_0"
        obs = env.observe("player_0")
        legal = set(np.flatnonzero(obs["action_mask"]))
        assert legal == {A.DISCARD_BASE + c for c in range(46) if game.hands[0] >> c & 1}
        env.step(min(legal))
    assert game.phase == Phase.PLAY and env.agent_selection == "player_0"  # declarer leads


DOUBLE_NULLO_DEAL = {
    "hands": ["9S 10S 9C 10C 9D 10D JD 9H 10H JH".split(),
              "4S 5S 6S 7S 8S 4C 5C 6C 7C 8C".split(),
              "JS QS JC QC QD KD AD QH KH AH".split(),
              "4D 5D 6D 7D 8D 4H 5H 6H 7H 8H".split()],
    "kitty": "KS AS KC AC JK".split(),
}


def test_double_nullo_exchanges_are_turns_of_declarer_then_partner() -> None:
    env = fh_env.env(rules="american-double-nullo")
    env.reset(seed=0, options={"dealer": 3, "deal": DOUBLE_NULLO_DEAL})
    _drive(env, [(0, "pass"), (1, "nullo"), (2, "pass"), (3, "double nullo")])
    kitty = [A.DISCARD_BASE + fh_env.parse_card(c) for c in DOUBLE_NULLO_DEAL["kitty"]]
    for agent in ("player_3", "player_1"):  # §4.3: the declarer, then the partner
        for action in kitty:
            assert env.agent_selection == agent
            env.step(action)
    assert env.unwrapped.game.phase == Phase.PLAY


def test_joker_lead_naming_a_suit_is_one_turn() -> None:
    rules = Rules()  # notrump joker lead, joker_lead = not_led
    env = fh_env.env(rules=rules)
    deal = {"hands": ["JK AS KS QS JS 10S 9S 8S 7S 6S".split(),
                      "5S 5C 6C 7C 8C 9C 10C JC QC KC".split(),
                      "AC 4D 5D 6D 7D 8D 9D 10D JD QD".split(),
                      "KD AD 4H 5H 6H 7H 8H 9H 10H JH".split()],
            "kitty": "QH KH AH".split()}
    env.reset(seed=0, options={"dealer": 3, "deal": deal})
    _drive(env, [(0, "8NT"), (1, "pass"), (2, "pass"), (3, "pass")])
    for c in deal["kitty"]:
        env.step(A.str_to_action(f"discard {c}"))
    obs = env.observe("player_0")
    legal = set(np.flatnonzero(obs["action_mask"]))
    assert {A.joker_lead_action(44, s) for s in range(4)} <= legal  # nothing led yet
    env.step(A.str_to_action("play JK H"))
    game = env.unwrapped.game
    assert game.trick == [44] and game.led == 3 and env.agent_selection == "player_1"


# ---------------------------------------------------------------------- rewards (docs/rules.md §6)
def run_fixed(rules, deal, calls, discards, reward="diff", dealer=3):
    """Play a fixed deal: the named calls and discards, then every agent plays its lowest legal
    action; returns (final rewards by agent, infos of player_0, the env)."""
    env = fh_env.env(rules=rules, reward=reward)
    env.reset(seed=0, options={"dealer": dealer, "deal": deal})
    for name in calls:
        env.step(A.str_to_action(name))
    for name in discards:
        env.step(A.str_to_action(f"discard {name}"))
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated:
            final_info = dict(info)
            env.step(None)
        else:
            env.step(lowest_legal(obs))
    return totals, final_info, env


def team_rewards(totals: dict) -> tuple[float, float]:
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    return totals["player_0"], totals["player_1"]


def top_hearts_deal(rules: Rules) -> dict:
    """North holds the ten highest hearts trumps; the others get the rest of the deck in id
    order (E all spades, S all clubs, W diamonds) and the kitty 4H 5H 6H."""
    hands, kitty = conftest_deal(rules, {0: "JK JH JD AH KH QH 10H 9H 8H 7H"})
    return {"hands": hands, "kitty": kitty}


def test_suit_contract_slam_bonus() -> None:
    """§6.2-6.3: 6H (100) making all ten tricks scores 250; defenders took none."""
    rules = Rules()
    deal = top_hearts_deal(rules)
    kitty = [card_name(c) for c in deal["kitty"]]
    assert kitty == ["4H", "5H", "6H"]
    totals, info, _ = run_fixed(rules, deal, ["6H", "pass", "pass", "pass"], kitty)
    assert info["contract"] == A.str_to_action("6H") and info["declarer"] == 0
    assert info["tricks"] == (10, 0)
    assert info["hand_points"] == (250, 0) == info["game_points"]
    assert team_rewards(totals) == (250.0, -250.0)


def test_suit_contract_points_reward_and_scale() -> None:
    rules = Rules()
    deal = top_hearts_deal(rules)
    kitty = [card_name(c) for c in deal["kitty"]]
    calls = ["8H", "pass", "pass", "pass"]  # 8H = 300, no slam bonus at 250 or more (§6.3)
    totals, info, _ = run_fixed(rules, deal, calls, kitty, reward="points")
    assert info["hand_points"] == (300, 0)
    assert team_rewards(totals) == (300.0, 0.0)
    env = fh_env.env(rules=rules, reward_scale=0.01)
    env.reset(seed=0, options={"dealer": 3, "deal": deal})
    for name in calls + [f"discard {c}" for c in kitty]:
        env.step(A.str_to_action(name))
    trace = play(env, lambda obs, rng: lowest_legal(obs))
    final = {agent: reward for agent, _, reward, terminated, _ in trace if terminated}
    assert final == {"player_0": 3.0, "player_1": -3.0, "player_2": 3.0, "player_3": -3.0}


def test_notrump_contract() -> None:
    """§6.1-6.2, §5.5: 8NT (320) made by the joker and a spade run."""
    totals, info, _ = run_fixed(Rules(), NT_DEAL, ["8NT", "pass", "pass", "pass"],
                                NT_DEAL["kitty"])
    assert info["contract"] == A.str_to_action("8NT") and info["tricks"] == (10, 0)
    assert info["hand_points"] == (320, 0)
    assert team_rewards(totals) == (320.0, -320.0)


def test_no_contract_play_scores_ten_a_trick() -> None:
    """§3.3 all_pass=play, §6.7: no trumps, left of dealer leads, 10 a trick to each team."""
    rules = Rules(all_pass="play")
    totals, info, env = run_fixed(rules, NT_DEAL, ["pass"] * 4, [])
    assert info["contract"] == -1 and info["declarer"] is None
    assert info["tricks"] == (10, 0) and info["hand_points"] == (100, 0)
    assert team_rewards(totals) == (100.0, -100.0)


NULLO_DEAL = {"hands": ["8S 9S 10S JS 8C 9C 10C 6D 7D 6H".split(),
                        "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H".split(),
                        "QS KS AS JC QC KC 8D 9D 7H 8H".split(),
                        "JK AC 10D JD QD KD AD 9H 10H JH".split()],
              "kitty": "QH KH AH".split()}


def test_nullo_made() -> None:
    """§2.2-2.3, §6.6: nullo (250 in the australian preset) after a 7 bid, no trick taken."""
    calls = ["7S", "nullo", "pass", "pass", "pass"]
    totals, info, env = run_fixed("australian", NULLO_DEAL, calls, NULLO_DEAL["kitty"])
    assert info["contract"] == A.NULLO and info["declarer"] == 1
    assert info["tricks"] == (10, 0) and info["hand_points"] == (0, 250)
    assert team_rewards(totals) == (-250.0, 250.0)
    assert env.unwrapped.game.sitting_out == 3


def test_open_nullo_set() -> None:
    """§6.4, §6.6: open nullo (500) whose declarer must win the trick of its joker: -500."""
    hands = [list(h) for h in NULLO_DEAL["hands"]]
    hands[1][-1], hands[3][0] = "JK", "5H"  # the declarer now holds the joker
    deal = {"hands": hands, "kitty": NULLO_DEAL["kitty"]}
    totals, info, _ = run_fixed("australian", deal, ["pass", "open nullo", "pass", "pass"],
                                deal["kitty"])
    assert info["contract"] == A.OPEN_NULLO and info["declarer"] == 1
    assert info["tricks"][1] >= 1 and info["hand_points"] == (0, -500)
    assert team_rewards(totals) == (500.0, -500.0)


def test_double_nullo_made() -> None:
    """§2.2, §4.3, §6.6: double nullo (500), both exchanges, the partnership takes no trick."""
    kitty = DOUBLE_NULLO_DEAL["kitty"]
    totals, info, _ = run_fixed("american-double-nullo", DOUBLE_NULLO_DEAL,
                                ["pass", "nullo", "pass", "double nullo"], kitty + kitty)
    assert info["contract"] == A.DOUBLE_NULLO and info["declarer"] == 3
    assert info["tricks"] == (10, 0) and info["hand_points"] == (0, 500)
    assert team_rewards(totals) == (-500.0, 500.0)


def test_thrown_in_hand_ends_a_hand_episode_with_zero_rewards() -> None:
    env = fh_env.env()
    env.reset(seed=11, options={"dealer": 0})
    assert env.infos["player_0"]["contract"] is None  # neutral values from reset on
    keys = set(env.infos["player_0"])
    for _ in range(4):
        env.step(A.PASS)
    assert all(env.terminations.values())
    assert env.rewards == dict.fromkeys(AGENTS, 0.0)
    for agent in AGENTS:
        info = env.infos[agent]
        assert set(info) == keys
        assert info["contract"] is None and info["declarer"] is None
        assert info["hand_points"] == (0, 0) and info["hands_done"] == 1


def test_thrown_in_hand_in_a_game_episode_deals_again() -> None:
    env = fh_env.env(episode="game")
    env.reset(seed=11, options={"dealer": 0})
    for _ in range(4):
        env.step(A.PASS)
    game = env.unwrapped.game
    assert not any(env.terminations.values())
    assert game.phase == Phase.AUCTION and game.dealer == 1 and game.calls == []
    assert env.agent_selection == "player_2"
    assert env.infos["player_3"]["contract"] is None and env.infos["player_3"]["hands_done"] == 1


def test_game_episode_rewards_every_hand_and_win_reward_at_the_end() -> None:
    rng = random.Random(7)
    for reward in ("diff", "win"):
        env = fh_env.env(episode="game", reward=reward)
        env.reset(seed=21)
        totals = dict.fromkeys(AGENTS, 0.0)
        hand_diffs = 0
        last_done = 0
        for agent in env.agent_iter():
            obs, r, terminated, truncated, info = env.last()
            totals[agent] += r
            if info["hands_done"] != last_done:
                last_done = info["hands_done"]
                hand_diffs += info["hand_points"][0] - info["hand_points"][1]
            env.step(None if terminated else random_policy(obs, rng))
        game = env.unwrapped.game
        assert game.phase == Phase.GAME_OVER and game.hands_played >= 1
        if reward == "diff":
            assert team_rewards(totals) == (hand_diffs, -hand_diffs)
        else:
            expected = {0: (1.0, -1.0), 1: (-1.0, 1.0), 2: (0.0, 0.0)}[game.winner]
            assert team_rewards(totals) == expected


# ---------------------------------------------------------------------- reset options
def test_reset_options_deal_dealer_and_rules() -> None:
    env = fh_env.env()
    env.reset(seed=1, options={"rules": "canadian", "dealer": 2, "deal": None})
    game = env.unwrapped.game
    assert game.rules == Rules.preset("canadian") and game.dealer == 2
    assert env.agent_selection == "player_3"
    env.reset(seed=1)  # options hold for one episode only
    assert env.unwrapped.game.rules == Rules()
    env.reset(seed=9, options={"dealer": 3, "deal": NT_DEAL})
    game = env.unwrapped.game
    assert game.hands[0] == fh_env.cards.mask_of(fh_env.parse_card(c) for c in SPADE_RUN)
    assert game.kitty == fh_env.cards.mask_of(fh_env.parse_card(c) for c in NT_DEAL["kitty"])
    bad = {"hands": NT_DEAL["hands"][:3] + [NT_DEAL["hands"][0]], "kitty": NT_DEAL["kitty"]}
    with pytest.raises(ValueError, match="twice"):
        env.reset(options={"deal": bad})
    with pytest.raises(ValueError):
        env.reset(options={"dealer": 4})


def test_game_episode_after_fixed_deal_continues_from_the_seed() -> None:
    env = fh_env.env(episode="game")
    env.reset(seed=4, options={"dealer": 3, "deal": NT_DEAL})
    for _ in range(4):
        env.step(A.PASS)
    hands, kitty = deal_cards(Rules(), 4, 1)  # the second deal of seed 4
    assert env.unwrapped.game.dealt == (tuple(hands), kitty)
    assert env.unwrapped.game.dealer == 0


# ---------------------------------------------------------------------- illegal actions
def test_raw_env_raises_naming_action_phase_and_legal_actions() -> None:
    env = raw_env()
    env.reset(seed=0, options={"dealer": 3})
    with pytest.raises(IllegalActionError) as err:
        env.step(A.PLAY_BASE + 3)
    message = str(err.value)
    assert "player_0" in message and "play 7S" in message and "AUCTION" in message
    assert "pass" in message and "6S" in message
    with pytest.raises(IllegalActionError, match="not an integer"):
        env.step(1.5)
    env.step(np.int64(A.PASS))  # numpy integers are actions too
    assert env.agent_selection == "player_1"


def test_wrapped_env_ends_the_episode_with_a_penalty() -> None:
    for reward, expected in (("diff", -1000.0), ("win", -1.0)):
        env = fh_env.env(episode="game", reward=reward)
        env.reset(seed=0, options={"dealer": 3})
        env.step(A.PASS)
        env.step(A.PLAY_BASE + 3)  # player_1 plays a card in the auction
        assert all(env.terminations.values())
        assert not any(env.truncations.values())
        # the penalty is the team's: the offender and its partner, 0 to the other team
        assert env.rewards["player_1"] == env.rewards["player_3"] == expected
        assert [env.rewards[a] for a in ("player_0", "player_2")] == [0, 0]
        _, reward_last, terminated, truncated, _ = env.last()
        assert terminated and not truncated
    env = fh_env.env(illegal_reward=-5.0)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(A.PLAY_BASE + 3)
    assert env.rewards[offender] == -5.0
    env = fh_env.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        env.step(A.NUM_ACTIONS)  # out of the action space


# ---------------------------------------------------------------------- reproducibility
def trajectory(make, seed: int, disturb: bool = False, steps: int = 400):
    """Observations, rewards and infos of random play (actions from a seeded rng)."""
    env = make()
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = []
    for agent in env.agent_iter(steps):
        if disturb:  # other code drawing from (and reseeding) the global generators
            random.random(), np.random.random(), random.seed(), np.random.seed(None)
        obs, reward, terminated, truncated, info = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    terminated, repr(info)))
        env.step(None if terminated or truncated else random_policy(obs, rng))
    return out


@pytest.mark.parametrize("episode", EPISODES)
def test_same_seed_same_episode_despite_global_random_use(episode: str) -> None:
    make = lambda: fh_env.env(rules="australian", episode=episode)  # noqa: E731
    first = trajectory(make, 123)
    assert trajectory(make, 123) == first
    assert trajectory(make, 123, disturb=True) == first
    assert trajectory(make, 124) != first


def test_unseeded_resets_follow_the_last_seed() -> None:
    def deals(env) -> list:
        env.reset(seed=77)
        out = []
        for _ in range(3):
            env.reset()
            out.append(env.unwrapped.game.dealt)
        return out

    assert deals(fh_env.env()) == deals(fh_env.env())
    env = raw_env()
    env.reset(seed=5)
    assert env.game.dealt == State(Rules(), seed=5).dealt  # the env's deal is the engine's


# ---------------------------------------------------------------------- pickling
def test_pickle_round_trip_fresh_and_mid_episode() -> None:
    env = fh_env.env(rules="australian", episode="game", reward="points")
    clone = pickle.loads(pickle.dumps(env))
    assert clone.unwrapped.rules == Rules.preset("australian")
    assert clone.unwrapped.episode == "game" and clone.unwrapped.reward_mode == "points"

    raw = raw_env(rules="american", episode="game")
    raw.reset(seed=3)
    rng = random.Random(0)
    for _ in range(37):
        obs, *_ = raw.last()
        raw.step(random_policy(obs, rng))
    copy = pickle.loads(pickle.dumps(raw))
    for _ in range(300):
        a, b = raw.last(), copy.last()
        assert a[0]["observation"].tobytes() == b[0]["observation"].tobytes()
        assert a[1:] == b[1:] and raw.agent_selection == copy.agent_selection
        action = None if a[2] else random_policy(a[0], rng)
        raw.step(action)
        copy.step(action)
        if not raw.agents:
            break
    assert pickle.loads(pickle.dumps(raw)).game == raw.game


# ---------------------------------------------------------------------- rendering and state
def test_render_ansi_shows_only_what_the_viewer_may_see() -> None:
    env = fh_env.env(render_mode="ansi")
    env.reset(seed=0, options={"dealer": 3, "deal": NT_DEAL})
    text = env.render()
    assert "JK AS KS QS JS 10S 9S 8S 7S 6S" in text  # player_0 is on turn: its own hand
    assert "KC" not in text and "AH" not in text  # player_1's hand, the kitty: hidden
    assert text.count("10 cards") == 3 and "Auction: -" in text
    for name in ["8NT", "pass", "pass", "pass"]:
        env.step(A.str_to_action(name))
    text = env.render()
    assert "N:8NT  E:pass  S:pass  W:pass" in text and "Contract: 8NT by N (player_0)" in text
    assert "Kitty picked up: AH KH QH" in text
    seat1 = fh_env.env(render_mode="ansi", render_seat=1)
    seat1.reset(seed=0, options={"dealer": 3, "deal": NT_DEAL})
    text = seat1.render()
    assert "5S KC QC JC 10C 9C 8C 7C 6C 5C" in text and "JK" not in text


def test_render_human_prints(capsys) -> None:
    env = fh_env.env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    env.step(A.PASS)  # human mode renders after every step
    out = capsys.readouterr().out
    assert out.count("Five Hundred") == 2


def test_state_is_the_full_deal() -> None:
    env = fh_env.env()
    env.reset(seed=8)
    state = env.state()
    assert state.shape == (STATE_SIZE,) and state.dtype == np.float32
    own = state[LAYOUT["hand"]].sum()
    others = state[OBS_SIZE:OBS_SIZE + 3 * 46].sum()
    kitty = state[OBS_SIZE + 3 * 46:OBS_SIZE + 4 * 46].sum()
    assert (own, others, kitty) == (10, 30, 3)  # the whole 43-card deck


def test_env_factory_pickles_and_stays_callable() -> None:
    """``fh_env.env`` keeps making envs (and pickles, for process pools) once the module
    ``fh_env.envs.aec`` is imported."""
    import fh_env.envs.aec  # noqa: F401
    import functools

    make = pickle.loads(pickle.dumps(functools.partial(fh_env.env, rules="canadian")))
    made = make()
    made.reset(seed=1)
    assert made.unwrapped.rules == Rules.preset("canadian")
    assert pickle.loads(pickle.dumps(fh_env.env)) is fh_env.env
