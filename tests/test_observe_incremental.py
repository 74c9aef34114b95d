"""Incremental observations (fh_env.observe_incremental) against a full encode.

The AEC env keeps each seat's observation up to date from the game's events instead of
encoding it again; here every observation it gives, of any agent at any time, is compared byte
for byte with ``fh_env.observe.observation(seat_view(game, seat))``: random games of every
preset (3, 4 and 6 players), hand and game episodes, resets with options (rules, dealer, deal),
illegal actions, a pickled env, the single-seat env, and the observer on bare states.
"""

from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest

import fh_env
from fh_env import actions as A
from fh_env.cards import cards_of
from fh_env.engine import IllegalActionError, State, deal_cards
from fh_env.envs.aec import raw_env
from fh_env.envs.single import SingleSeatEnv
from fh_env.observe import encode, layout, observation
from fh_env.observe_incremental import IncrementalObserver
from fh_env.rules import PRESETS, Rules
from fh_env.view import seat_view

PRESET_NAMES = list(PRESETS)


@pytest.fixture(autouse=True)
def _reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The env on the reference engine, whose observations the observer keeps (a warm numba
    cache would otherwise step it in the compiled core: tests/test_env_compiled.py)."""
    monkeypatch.setattr(raw_env, "compiled_core", False)


def reference(game: State, seat: int) -> dict[str, np.ndarray]:
    return observation(seat_view(game, seat))


def assert_same(got: dict[str, np.ndarray], want: dict[str, np.ndarray], where: str) -> None:
    for key in ("observation", "action_mask"):
        assert got[key].dtype == want[key].dtype, (where, key)
        assert got[key].shape == want[key].shape, (where, key)
        if got[key].tobytes() != want[key].tobytes():
            diff = np.flatnonzero(got[key] != want[key])
            raise AssertionError(f"{where}: {key} differs at {diff[:10].tolist()}: "
                                 f"{got[key][diff[:5]]} != {want[key][diff[:5]]}")


def check_agents(env, rng: random.Random, where: str) -> None:
    """Observe a random choice of agents (sometimes every one, sometimes none) in random order."""
    game = env.unwrapped.game
    agents = list(env.possible_agents)
    roll = rng.random()
    chosen = agents if roll < 0.3 else [] if roll < 0.4 else rng.sample(agents, rng.randint(1, 2))
    rng.shuffle(chosen)
    for agent in chosen:
        seat = int(agent.split("_")[1])
        assert_same(env.observe(agent), reference(game, seat), f"{where} {agent}")


@pytest.mark.parametrize("episode", ["hand", "game"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_observation_is_a_full_encode(preset: str, episode: str) -> None:
    """Random play through env(): last() and observe() of random agents at random times, with
    illegal actions tried (raw_env: refused, nothing changes) and resets between episodes."""
    rules = Rules.preset(preset)
    env = raw_env(rules, episode=episode)
    rng = random.Random(f"{preset}/{episode}")
    steps, budget = 0, 500 if episode == "game" else 250
    episode_index = 0
    while steps < budget:
        env.reset(seed=rng.randrange(10**6))
        episode_index += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            where = f"{preset} {episode} episode {episode_index} step {steps}"
            assert_same(obs, reference(env.game, int(agent.split("_")[1])), where)
            check_agents(env, rng, where)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if rng.random() < 0.05:  # an illegal action changes nothing
                bad = next(a for a in range(env.num_actions) if not obs["action_mask"][a])
                with pytest.raises(IllegalActionError):
                    env.step(bad)
                check_agents(env, rng, where + " after an illegal action")
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if steps >= budget * 2:
                break
        for agent in env.possible_agents:  # every agent once the episode is over
            assert_same(env.observe(agent), reference(env.game, int(agent.split("_")[1])),
                        f"{preset} {episode} end of episode {episode_index}")


@pytest.mark.parametrize("preset", ["australian", "three-handed", "six-handed"])
def test_reset_options_and_illegal_actions_through_env(preset: str) -> None:
    """env(): resets with rules, dealer and a deal, mid-episode resets, an illegal action that
    ends the episode (the wrapper's penalty; the game is unchanged) and pickling mid-episode."""
    rules = Rules.preset(preset)
    players = rules.players
    other = Rules.preset("australian-no-nullo" if players == 4 else preset)
    env = fh_env.env(rules, episode="game")
    rng = random.Random(preset)
    hand_masks, kitty_mask = deal_cards(other, 99, 3)
    hands, kitty = [list(cards_of(h)) for h in hand_masks], list(cards_of(kitty_mask))
    option_sets = [None, {"dealer": 1}, {"rules": other},
                   {"deal": {"hands": hands, "kitty": kitty}, "dealer": players - 1}]
    for round_ in range(8):
        options = option_sets[round_ % len(option_sets)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.reset(seed=round_, options=options)
        stop = rng.randrange(5, 60)
        for i, agent in enumerate(env.agent_iter()):
            obs, _, terminated, truncated, _ = env.last()
            seat = int(agent.split("_")[1])
            where = f"{preset} round {round_} step {i}"
            assert_same(obs, reference(env.unwrapped.game, seat), where)
            check_agents(env, rng, where)
            if terminated or truncated:
                env.step(None)
                continue
            if i == stop:
                if round_ % 2:  # an illegal action: the episode ends, the game stays as it is
                    before = env.unwrapped.game.to_dict()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        env.step(next(a for a in range(env.unwrapped.num_actions)
                                      if not obs["action_mask"][a]))
                    assert env.unwrapped.game.to_dict() == before
                    check_agents(env, rng, where + " after an illegal action")
                    continue
                copy = pickle.loads(pickle.dumps(env.unwrapped))  # restored mid-episode
                for a in copy.possible_agents:
                    assert_same(copy.observe(a), reference(copy.game, int(a.split("_")[1])),
                                where + " unpickled")
                break  # a reset mid-episode
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("seats, preset", [((0,), "australian"), ((1, 3), "american"),
                                           ((2,), "three-handed"), ((0, 2, 4), "six-handed")])
def test_single_seat_env_observations(seats: tuple[int, ...], preset: str) -> None:
    env = SingleSeatEnv(preset, seats=seats, episode="game")
    rng = random.Random(str(seats))
    obs, info = env.reset(seed=3)
    for _ in range(150):
        seat = info["seat"] if info["seat"] >= 0 else seats[0]
        assert_same(obs, reference(env.game, seat), f"{preset} {seats}")
        if info["seat"] < 0:
            obs, info = env.reset(seed=rng.randrange(1000))
            continue
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, _, info = env.step(int(legal[rng.randrange(len(legal))]))


def test_observer_on_states() -> None:
    """The observer alone: encode() and observation() of any seat of any state, new arrays
    each time; another state, or another hand of the same state, starts the buffer again."""
    rules = Rules.preset("avondale-classic")
    obs = IncrementalObserver(4)
    rng = random.Random(7)
    states = [State(rules, seed=s) for s in range(3)]
    for step in range(600):
        state = rng.choice(states)
        seat = rng.randrange(4)
        got = obs.observation(state, seat)
        assert_same(got, reference(state, seat), f"step {step}")
        assert obs.encode(state, seat).tobytes() == encode(seat_view(state, seat)).tobytes()
        got["observation"][:] = 7  # the caller's copy: the buffer inside is untouched
        assert_same(obs.observation(state, seat), reference(state, seat), f"step {step}")
        if state.is_terminal:
            if state.game_over:
                states[states.index(state)] = State(rules, seed=step)
            else:
                state.next_hand()
        else:
            state.apply(rng.choice(state.legal_actions()))
    obs.clear()
    assert_same(obs.observation(states[0], 2), reference(states[0], 2), "after clear()")


def test_observer_refuses_another_table_size() -> None:
    with pytest.raises(ValueError, match="players"):
        IncrementalObserver(4).observation(State(Rules.preset("six-handed")), 0)


def test_positions_come_from_the_layout() -> None:
    """One source of truth: the observer reads its block starts from the layout's slices."""
    for players in (3, 4, 6):
        obs = IncrementalObserver(players)
        lay = layout(players)
        assert obs.layout is lay
        assert obs._tricks == lay.slices["tricks"].start
        assert obs._width == lay.trick_width and obs._led_shift == lay.led_shift
        assert (obs._sitting >= 0) == ("sitting_out" in lay.slices)


def test_full_re_encoding_flag_gives_the_same_observations() -> None:
    """raw_env.incremental_observations = False (the benchmark's "before") is the reference
    path; both give the same observations."""
    a, b = raw_env("american-double-nullo"), raw_env("american-double-nullo")
    b.incremental_observations = False
    rng = random.Random(0)
    a.reset(seed=5)
    b.reset(seed=5)
    for agent in a.agent_iter():
        oa, *_ = a.last()
        ob, *_ = b.last()
        assert_same(oa, ob, agent)
        if a.terminations[agent]:
            a.step(None)
            b.step(None)
            continue
        action = A.action_id(rng.choice(list(np.flatnonzero(oa["action_mask"]))))
        a.step(action)
        b.step(action)


VARIANTS = [
    dict(misdeal=True, six_nt_shows_joker=True, all_pass="play", reenter="always"),
    dict(nullo="anytime", open_nullo="anytime", double_nullo="anytime", nullo_kitty="nullo_only",
         open_nullo_exposed="after_first_trick", nullo_must_play_joker=True,
         jokers_low_in_nullo=True, first_leader="left_of_dealer"),
    dict(joker_lead="any", joker_follow="anytime", notrump_ranking="j5", raise_own_bid=True,
         reenter="after_change", highest_joker_in_kitty=True, finish_early=True),
    dict(joker_lead="last_card", joker_follow="first_or_last", inkle=True, min_bid_level=7,
         stick_the_dealer=True, bidding_rounds=2, game_over="hands", hands_to_play=3),
    dict(joker_lead="not_shown_void", misdeal=True, all_pass="play", open_nullo="after8",
         nullo="after7", six_nt_shows_joker=True),
]


def _rare_first(legal: list[int], rng: random.Random) -> int:
    """A random legal action, with the rare ones (misdeal, nullo-type bids, 6NT, joker leads
    naming a suit) taken more often than at random."""
    if A.MISDEAL in legal and rng.random() < 0.7:
        return A.MISDEAL
    rare = [a for a in legal if a in (*A.NULLO_TYPES, A.bid_action(6, A.NT))
            or a >= A.JOKER_LEAD_BASE]
    if rare and rng.random() < 0.3:
        return rng.choice(rare)
    return rng.choice(legal)


def _no_honours_deal(rules: Rules, seat: int, rng: random.Random) -> dict:
    """A deal where ``seat`` holds no honour (so it may call a misdeal, §3.9)."""
    from fh_env.cards import HONOURS

    cards = list(rules.cards)
    rng.shuffle(cards)
    plain = [c for c in cards if not HONOURS >> c & 1]
    rest = [c for c in cards if c not in plain[:10]]
    hands = [[] for _ in range(rules.players)]
    hands[seat] = plain[:10]
    others = [s for s in range(rules.players) if s != seat]
    for i, s in enumerate(others):
        hands[s] = rest[10 * i:10 * i + 10]
    return {"hands": hands, "kitty": rest[10 * len(others):], "dealer": (seat - 1) % rules.players}


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_rule_variants_and_rare_events(players: int, variant: int) -> None:
    """Rule options no preset has (misdeal, 6NT showing a joker, no-contract play, double
    nullo, joker leads, finishing early, …), with the rare actions favoured, in hand and game
    episodes."""
    options = dict(VARIANTS[variant])
    if players != 4:
        options.pop("double_nullo", None)
        options["players"] = players
    rules = Rules(**options)
    envs = [raw_env(rules, episode="hand"), raw_env(rules, episode="game")]
    rng = random.Random(f"{players}/{variant}")
    for episode in range(6):
        env = envs[episode // 2 % 2]  # a misdeal is seen at the end of a hand episode only
        reset = (_no_honours_deal(rules, rng.randrange(players), rng)
                 if episode % 2 and not rules.highest_joker_in_kitty else {})
        if reset:
            reset = {"deal": {"hands": reset["hands"], "kitty": reset["kitty"]},
                     "dealer": reset["dealer"]}
        env.reset(seed=episode, options=reset or None)
        for i, agent in enumerate(env.agent_iter(max_iter=300)):
            obs, _, terminated, truncated, _ = env.last()
            where = f"{options} episode {episode} step {i}"
            assert_same(obs, reference(env.game, int(agent.split("_")[1])), where)
            check_agents(env, rng, where)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(_rare_first(list(np.flatnonzero(obs["action_mask"])), rng))


def test_observer_refuses_a_seat_off_the_table() -> None:
    for seat in (-1, 4):
        with pytest.raises(ValueError, match="seat"):
            IncrementalObserver(4).observation(State(), seat)
        with pytest.raises(ValueError, match="seat"):
            IncrementalObserver(4).encode(State(), seat)
