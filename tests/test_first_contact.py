"""Issue "First contact": what a new user of the environments meets first.

The signature of ``fh_env.env``, PettingZoo's registry after ``import fh_env``, integer types
as actions, ``contract_name`` in the infos, reset options, the hand number of the table, the
single-seat env's human rendering and finite observation bounds, the team's illegal-action
penalty, bad input refused without changing the game, ``fh_env.observe.decode``, legal actions
by name, bots seated in the AEC loop and the ``rules`` argument everywhere.
"""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fh_env
from fh_env import actions as A
from fh_env.cards import NT_STANDARD, SUITS, card_name, cards_of
from fh_env.contracts import contract_value
from fh_env.engine import NO_CONTRACT, IllegalActionError, Phase, trick_order
from fh_env.envs import aec
from fh_env.envs.aec import AGENTS, raw_env, render_text
from fh_env.envs.single import SingleSeatEnv
from fh_env.envs.vector import VectorEnv
from fh_env.observe import OBS_SIZE, decode, encode, encode_state, observation_bounds
from fh_env.rules import Rules
from fh_env.view import seat_view

from fh_env.rules import PRESETS

from conftest import NT_DEAL, RecordingBot

ROOT = Path(__file__).resolve().parent.parent
INTEGER_TYPES = (int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                 np.uint64, np.intp)


def random_legal(obs: dict, rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


# ---------------------------------------------------------------------- 1. env(rules)
def test_env_takes_rules_first_with_the_signature_of_the_module_function() -> None:
    env = fh_env.env("australian")
    env.reset(seed=0)
    assert env.unwrapped.rules == Rules.preset("australian")
    def params(f) -> list:
        return [(p.name, p.default, p.kind) for p in inspect.signature(f).parameters.values()]

    assert params(fh_env.env) == params(aec.env)
    assert params(fh_env.env)[0] == ("rules", None, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    assert fh_env.env("canadian", episode="game").unwrapped.episode == "game"


# ---------------------------------------------------------------------- 2. PettingZoo registry
@pytest.mark.parametrize("order", ["fh_env first", "pettingzoo first"])
def test_import_fh_env_registers_with_pettingzoo(order: str) -> None:
    imports = ("import fh_env\nimport pettingzoo\n"
               if order == "fh_env first" else "import pettingzoo\nimport fh_env\n")
    code = ("import sys, warnings\nwarnings.simplefilter('error')\n" + imports +
            "env = pettingzoo.make('aec', 'five_hundred_v0', rules='australian')\n"
            "env.reset(seed=1)\n"
            "assert env.unwrapped.rules == fh_env.Rules.preset('australian')\n"
            "assert isinstance(env.unwrapped, fh_env.raw_env)\n"
            "print(pettingzoo.spec('aec', 'five_hundred_v0').entry_point)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "fh_env:env"


def test_import_fh_env_alone_imports_no_environment() -> None:
    code = ("import sys, fh_env\n"
            "print(sorted(m for m in sys.modules if m.startswith('fh_env.envs')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------- 3. integer types
@pytest.mark.parametrize("kind", INTEGER_TYPES)
def test_any_integer_type_is_an_action(kind) -> None:
    assert fh_env.action_to_str(kind(0)) == "pass"
    assert fh_env.action_to_str(np.array(kind(26))) == "nullo"
    for make in (raw_env, fh_env.env):
        env = make()
        env.reset(seed=0, options={"dealer": 3})
        env.step(kind(A.PASS))
        assert env.agent_selection == "player_1"
    single = SingleSeatEnv()
    obs, _ = single.reset(seed=0)
    _, _, _, _, info = single.step(kind(np.flatnonzero(obs["action_mask"])[0]))
    assert not info["illegal"]


@pytest.mark.parametrize("bad", [True, False, np.bool_(True), np.array(False), 1.0, "0", None])
def test_bool_and_non_integers_are_not_actions(bad) -> None:
    with pytest.raises(ValueError, match="action"):
        fh_env.action_to_str(bad)
    raw = raw_env()
    raw.reset(seed=0)
    before = raw.game.to_dict()
    with pytest.raises(IllegalActionError, match="integer action"):
        raw.step(bad)
    assert raw.game.to_dict() == before
    if bad is not None:  # None is a dead agent's step in the wrapped env
        env = fh_env.env()
        env.reset(seed=0)
        with pytest.raises(AssertionError, match="action space"):
            env.step(bad)
    single = SingleSeatEnv()
    single.reset(seed=0)
    with pytest.raises(ValueError, match="integer"):
        single.step(bad)


# ---------------------------------------------------------------------- 4. contract_name
def expected_name(contract) -> str | None:
    if contract is None:
        return None
    return "no contract" if contract == NO_CONTRACT else A.action_to_str(contract)


def test_infos_name_the_contract() -> None:
    env = fh_env.env()
    env.reset(seed=0)
    assert env.infos["player_0"]["contract_name"] is None
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else random_legal(obs, rng))
        assert info["contract_name"] == expected_name(info["contract"])
        assert info["contract_name"] is not None
    env.reset(seed=0)
    for _ in range(4):
        env.step(A.PASS)  # thrown in (all_pass=redeal)
    assert env.infos["player_0"]["contract_name"] is None
    assert env.infos["player_0"]["hands_done"] == 1
    played = fh_env.env("canadian")  # all_pass: canadian redeals too; no-contract play below
    played.reset(seed=0, options={"rules": Rules(all_pass="play")})
    for _ in range(4):
        played.step(A.PASS)
    rng = random.Random(0)
    while not any(played.terminations.values()):
        played.step(random_legal(played.observe(played.agent_selection), rng))
    assert played.infos["player_0"]["contract"] == NO_CONTRACT
    assert played.infos["player_0"]["contract_name"] == "no contract"
    env.reset(seed=9, options={"dealer": 3, "deal": NT_DEAL})
    for name in ("8NT", "pass", "pass", "pass"):
        env.step(A.str_to_action(name))
    assert env.infos["player_0"]["contract_name"] is None  # until the hand ends
    single = SingleSeatEnv()
    _, info = single.reset(seed=3)
    assert info["contract_name"] == ""
    rng = np.random.default_rng(0)
    while True:
        obs, _, terminated, _, info = single.step(
            int(rng.choice(np.flatnonzero(single.action_masks()))))
        if terminated:
            break
    aec_info = single.game_env.infos["player_0"]
    assert info["contract_name"] == (expected_name(aec_info["contract"]) or "")


# ---------------------------------------------------------------------- 5. reset options
@pytest.mark.parametrize("make", [raw_env, fh_env.env, SingleSeatEnv])
def test_unknown_reset_options_are_refused_naming_the_accepted_ones(make) -> None:
    env = make()
    for options in ({"dael": 1}, {"rules": "australian", "seat": 2}):
        with pytest.raises(ValueError, match="dealer") as err:
            env.reset(seed=0, options=options)
        assert "rules" in str(err.value) and "deal" in str(err.value)
    with pytest.raises(ValueError, match="dict"):
        env.reset(seed=0, options=["dealer", 1])
    for dealer in (4, -1, True, "1", 1.0):
        with pytest.raises(ValueError, match="dealer"):
            env.reset(seed=0, options={"dealer": dealer})
    env.reset(seed=0, options={"dealer": np.int64(2)})
    game = env.game if hasattr(env, "game") and not callable(env.game) else env.unwrapped.game
    assert game.dealer == 2


@pytest.mark.parametrize("deal, message", [
    ({"hands": NT_DEAL["hands"]}, "kitty"),
    ({"hands": NT_DEAL["hands"][:3], "kitty": NT_DEAL["kitty"]}, "4 hands"),
    ({"hands": [NT_DEAL["hands"][0][:9]] + NT_DEAL["hands"][1:],
      "kitty": NT_DEAL["kitty"] + ["6S"]}, "9 cards"),
    ({"hands": [NT_DEAL["hands"][0]] * 4, "kitty": NT_DEAL["kitty"]}, "twice"),
    ({"hands": [["XX"] + NT_DEAL["hands"][0][1:]] + NT_DEAL["hands"][1:],
      "kitty": NT_DEAL["kitty"]}, "XX"),
    ("not a deal", "hands"),
])
def test_bad_deals_are_refused_naming_what_is_wrong(deal, message) -> None:
    env = raw_env()
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options={"deal": deal})


# ---------------------------------------------------------------------- 6. hand number
def play_to_hand_end(env, rng: random.Random) -> None:
    while not any(env.terminations.values()):
        game = env.game
        if game.phase >= Phase.HAND_OVER:
            return
        env.step(random_legal(env.observe(env.agent_selection), rng))


def test_the_table_shows_the_hand_in_progress_or_just_finished() -> None:
    env = raw_env(render_mode="ansi", episode="game")
    env.reset(seed=9, options={"dealer": 3, "deal": NT_DEAL})
    assert "hand 1," in env.render()
    for name in ("8NT", "pass", "pass", "pass"):
        env.step(A.str_to_action(name))
    rng = random.Random(0)
    hands_done = env.infos["player_0"]["hands_done"]
    while env.infos["player_0"]["hands_done"] == hands_done:
        env.step(random_legal(env.observe(env.agent_selection), rng))
    # The game episode deals the next hand at once: hand 2 is in progress.
    assert "hand 2," in env.render()
    # The view at the end of hand 1 (a hand episode stops there).
    one = raw_env(render_mode="ansi")
    one.reset(seed=9, options={"dealer": 3, "deal": NT_DEAL})
    for name in ("8NT", "pass", "pass", "pass"):
        one.step(A.str_to_action(name))
    while not any(one.terminations.values()):
        one.step(random_legal(one.observe(one.agent_selection), rng))
    assert one.game.hands_played == 1
    text = one.render()
    assert "hand 1," in text and "hand 2" not in text
    # A hand thrown in is not counted: it is still hand 1.
    thrown = raw_env(render_mode="ansi")
    thrown.reset(seed=0)
    for _ in range(4):
        thrown.step(A.PASS)
    assert thrown.game.phase == Phase.HAND_OVER
    assert "hand 1," in thrown.render()
    assert "hand 1," in render_text(seat_view(thrown.game, 0))


# ---------------------------------------------------------------------- 7. single-seat env
def test_single_seat_human_render_prints_and_returns_none(capsys) -> None:
    env = SingleSeatEnv(render_mode="human")
    obs, _ = env.reset(seed=1)
    assert "Five Hundred" in capsys.readouterr().out  # rendered at reset
    assert env.render() is None
    assert "Five Hundred" in capsys.readouterr().out
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "Five Hundred" in capsys.readouterr().out
    ansi = SingleSeatEnv(render_mode="ansi")
    ansi.reset(seed=1)
    assert "Five Hundred" in ansi.render()
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_check_env_gives_no_warning_about_bounds(episode: str) -> None:
    for rules in ("australian", "american-45"):
        env = SingleSeatEnv(rules=rules, episode=episode)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env)
        texts = [str(w.message) for w in caught]
        assert not [t for t in texts if "Box" in t or "infinity" in t or "bound" in t], texts
        box = env.observation_space["observation"]
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
        assert (box.low < box.high).all()
        assert (box.low[:2492] == 0).all() and (box.high[:2492] == 1).all()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_play_never_leaves_the_bounds(preset: str) -> None:
    for episode, seeds in (("hand", range(6)), ("game", range(2))):
        env = raw_env(rules=preset, episode=episode)
        space = env.observation_space("player_0")
        rng = random.Random(preset)
        for seed in seeds:
            env.reset(seed=seed)
            for step in range(3000):
                agent = env.agent_selection
                if env.terminations[agent]:
                    break
                for a in env.possible_agents:
                    obs = env.observe(a)
                    assert space.contains(obs), (a, np.flatnonzero(
                        (obs["observation"] < space["observation"].low)
                        | (obs["observation"] > space["observation"].high)))
                assert env.state_space.contains(env.state())
                env.step(random_legal(env.observe(agent), rng))


def test_bounds_derive_from_the_rules_and_the_episode() -> None:
    low, high = observation_bounds(Rules(), "hand")
    i = fh_env.observe.LAYOUT
    assert high[i["hands_played"]][0] == np.float32(0.1)
    assert high[i["tricks_won"]].tolist() == [1.0] * 4
    # canadian: a game to 1000; a set 10NT (520) from just above the floor
    low, high = observation_bounds(Rules.preset("canadian"), "game")
    assert low[i["scores"]][0] == np.float32((-1000 - 520) / 500)
    # a custom rule set widens the range of its values
    big = Rules(nullo="after7", nullo_value=2000)
    low2, high2 = observation_bounds(big, "hand")
    assert high2[i["bid_value"]][0] == np.float32(2000 / 500)
    env = raw_env(rules=big)
    env.reset(seed=0)
    assert env.observation_space("player_0")["observation"].high[i["bid_value"]][0] == 4.0


# ---------------------------------------------------------------------- 8. illegal: the team
@pytest.mark.parametrize("offender_moves", [0, 1])
def test_illegal_action_penalises_the_team_and_terminates_only(offender_moves: int) -> None:
    env = fh_env.env(illegal_reward=-7.0)
    env.reset(seed=0, options={"dealer": 3})
    for _ in range(offender_moves):
        env.step(A.PASS)
    offender = env.agent_selection
    seat = AGENTS.index(offender)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(A.PLAY_BASE + 3)
    for agent in AGENTS:
        same_team = AGENTS.index(agent) % 2 == seat % 2
        assert env.rewards[agent] == (-7.0 if same_team else 0.0)
        assert env.terminations[agent] and not env.truncations[agent]
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        assert terminated and not truncated
        env.step(None)
    assert totals[offender] == totals[AGENTS[(seat + 2) % 4]] == -7.0
    assert totals[AGENTS[(seat + 1) % 4]] == totals[AGENTS[(seat + 3) % 4]] == 0.0


# ---------------------------------------------------------------------- 9. bad input: no change
def snapshot(env: raw_env):
    return (env.game.to_dict(), env.agent_selection, dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations),
            [(env.observe(a)["observation"].tobytes(), env.observe(a)["action_mask"].tobytes())
             for a in env.possible_agents])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 2 ** 32),
       moves=st.lists(st.tuples(st.booleans(), st.integers(-5, 200),
                                st.sampled_from(["int", "np", "bool", "float", "str"])),
                      max_size=120))
def test_refused_actions_never_change_the_state(preset, seed, moves) -> None:
    env = raw_env(rules=preset)
    env.reset(seed=seed)
    for legal_move, number, kind in moves:
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        legal = env.game.legal_actions()
        if legal_move:
            env.step(legal[number % len(legal)])
            continue
        action = {"int": number, "np": np.int32(number), "bool": bool(number % 2),
                  "float": float(number), "str": str(number)}[kind]
        if kind in ("int", "np") and number in legal:
            action = next((a for a in range(env.num_actions) if a not in legal), -1)
        before = snapshot(env)
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert snapshot(env) == before


# ---------------------------------------------------------------------- 10. decode
def expected_fields(view) -> dict:
    """What decode must read from the observation of ``view``, computed from the view."""
    jokers = view.rules.jokers
    n = view.rules.players
    table = A.action_table(n)

    def rel(seat: int) -> int | None:
        return None if seat < 0 else (seat - view.seat) % n

    def names(mask: int) -> list[str]:
        return [card_name(c, jokers) for c in cards_of(mask)]

    contract = view.contract
    bid = view.high_bid if contract is None else contract
    if bid is not None and bid <= 0:
        bid = NO_CONTRACT if contract == NO_CONTRACT else None
    bidder = None
    if bid is not None and bid > 0:
        bidder = rel(view.declarer if contract is not None else view.high_bidder)
    bids, passes, misdeal, high = [], [], None, A.DOUBLE_NULLO + 1
    for seat, action in view.calls:
        if action == A.PASS:
            passes.append((high, rel(seat)))
        elif action == A.MISDEAL:
            misdeal = rel(seat)
        else:
            high = action
            bids.append((action, rel(seat)))
    picked = discarded = 0
    for _, p, d in view.exchanges:
        picked, discarded = picked | p, discarded | d
    out_seat = view.sitting_out
    tricks = [(leader, cards, led, True) for leader, cards, _, led in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick, view.led, False))
    name = lambda b: table.to_str(b, jokers)  # noqa: E731
    return {
        "rules": view.rules, "phase": view.phase, "turn": rel(view.turn),
        "dealer": rel(view.dealer), "bid": bid, "bidder": bidder,
        "bid_name": None if bid is None else "no contract" if bid == NO_CONTRACT else name(bid),
        "trump": SUITS[view.context] if contract is not None and view.context < NT_STANDARD
        else None,
        "sitting_out": rel(view.sitting_out),
        "auction_bids": [(name(b), r) for b, r in sorted(bids)],
        "auction_passes": [(None if h > A.DOUBLE_NULLO else name(h), r)
                           for h, r in sorted(passes)],
        "misdeal": misdeal,
        "shows_joker": sorted(rel(s) for s in range(n) if view.shows_joker >> s & 1),
        "hand": names(view.hand), "picked_up": names(picked), "discarded": names(discarded),
        "exchanged": sorted(rel(s) for s in view.exchanging), "exposed": names(view.exposed),
        "voids": [[(SUITS + "J")[i] for i in range(5) if view.voids[(view.seat + r) % n] >> i & 1]
                  for r in range(n)],
        "tricks": [{"leader": rel(leader),
                    "plays": [(rel(s), card_name(c, jokers))
                              for s, c in zip(trick_order(leader, out_seat, n), cards)],
                    "led": SUITS[led], "complete": complete}
                   for leader, cards, led, complete in tricks],
        "bid_value": contract_value(view.rules, bid) if bid is not None and bid > 0 else 0,
        "num_calls": len(view.calls), "discards_left": view.discards_left,
        "tricks_won": [view.tricks_won[(view.seat + r) % n] for r in range(n)],
        "scores": (tuple(view.scores[(view.seat + r) % 3] for r in range(3)) if n == 3
                   else (view.scores[view.seat % 2], view.scores[1 - view.seat % 2])),
        "hands_played": view.hands_played,
    }


@pytest.mark.parametrize("preset", list(PRESETS))
def test_decode_inverts_the_encoding_over_random_play(preset: str) -> None:
    env = raw_env(rules=preset, episode="game")
    rng = random.Random(preset)
    checked = 0
    for seed in range(3):
        env.reset(seed=seed)
        for step in range(400):
            agent = env.agent_selection
            if env.terminations[agent]:
                break
            if step % 3 == 0:
                for seat, name in enumerate(env.possible_agents):
                    view = seat_view(env.game, seat)
                    obs = env.observe(name)
                    got = decode(obs)
                    want = expected_fields(view)
                    assert {k: got[k] for k in want} == want
                    assert got["legal"] == [env.game.action_name(a)
                                            for a in view.legal_actions()]
                    assert decode(obs["observation"]).keys() == got.keys() - {"legal"}
                    checked += 1
            env.step(random_legal(env.observe(agent), rng))
    assert checked > 100


def test_decode_reads_a_state_vector_and_refuses_other_shapes() -> None:
    env = raw_env(rules="american-double-nullo")
    env.reset(seed=4)
    game = env.game
    got = decode(encode_state(game, 1))
    jokers = game.rules.jokers
    for r in (1, 2, 3):
        assert got["hidden"]["hands"][r] == [card_name(c, jokers)
                                             for c in cards_of(game.hands[(1 + r) % 4])]
    assert got["hidden"]["kitty"] == [card_name(c, jokers) for c in cards_of(game.kitty)]
    assert got["hand"] == [card_name(c, jokers) for c in cards_of(game.hands[1])]
    with pytest.raises(ValueError, match=str(OBS_SIZE)):
        decode(np.zeros(10, np.float32))
    assert decode(encode(seat_view(game, 0)))["rules"] == Rules.preset("american-double-nullo")


# ---------------------------------------------------------------------- 10. legal action names
def test_legal_action_names_of_the_agent_on_turn() -> None:
    for make in (raw_env, fh_env.env):
        env = make("canadian")  # the 46-card deck: two jokers, BJ and RJ
        env.reset(seed=5)
        rng = random.Random(1)
        while not any(env.terminations.values()):
            game = env.unwrapped.game
            names = env.legal_action_names()
            assert game.rules.jokers == 2
            assert names == [A.action_to_str(a, 2) for a in game.legal_actions()]
            assert [A.str_to_action(n) for n in names] == game.legal_actions()
            env.step(random_legal(env.observe(env.agent_selection), rng))
        assert env.legal_action_names() == []
    env = fh_env.env()
    env.reset(seed=0, options={"dealer": 3})
    assert env.legal_action_names()[:2] == ["pass", "6S"]
    single = SingleSeatEnv(rules="canadian")
    obs, _ = single.reset(seed=2)
    assert single.legal_action_names() == [
        A.action_to_str(int(a), 2) for a in np.flatnonzero(obs["action_mask"])]


# ---------------------------------------------------------------------- 10. bots in the AEC loop
def test_bot_seats_play_their_agents_in_the_aec_loop() -> None:
    from arena.match import BotSeats
    from agents.rule import RuleBot

    recording = RecordingBot()
    bots = BotSeats({"player_1": "rule", 3: recording})
    assert bots.agents == ["player_1", "player_3"]
    assert "player_1" in bots and "player_0" not in bots and "nobody" not in bots
    assert isinstance(bots.bots[1], RuleBot)
    env = fh_env.env("australian")
    learner_moves = 0
    for seed in range(4):
        env.reset(seed=seed)
        bots.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif agent in bots:
                action = bots.act(env)
            else:
                assert agent in ("player_0", "player_2")
                action = int(np.flatnonzero(obs["action_mask"])[0])
                learner_moves += 1
            env.step(action)
    assert recording.seats == {3} and learner_moves > 0
    # play(): the bots move until a learner seat is on turn, or the episode ends
    env.reset(seed=1)
    bots.reset(seed=1)
    while bots.play(env):
        assert env.agent_selection in ("player_0", "player_2")
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.terminations.values())
    with pytest.raises(ValueError, match="player_0"):
        env.reset(seed=1, options={"dealer": 3})
        bots.act(env)
    with pytest.raises(ValueError):
        BotSeats({"player_9": "rule"})
    with pytest.raises(TypeError):
        BotSeats({"player_1": object()})


def test_bot_seats_replay_the_same_episode_from_the_same_seeds() -> None:
    from arena.match import BotSeats

    def episode() -> list:
        env = fh_env.env()
        bots = BotSeats({s: "random" for s in range(4)})
        env.reset(seed=7)
        bots.reset(seed=7)
        assert not bots.play(env)  # every seat a bot: to the end of the episode
        return env.unwrapped.game.to_dict()

    assert episode() == episode()


# ---------------------------------------------------------------------- 10. the rules argument
def test_rules_argument_is_read_alike_everywhere(tmp_path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('preset = "canadian"\ntarget = 700\n')
    mine = Rules.preset("canadian").replace(target=700)
    for spec, want in (("american", Rules.preset("american")), (path, mine),
                       (str(path), mine), (mine, mine)):
        assert fh_env.env(spec).unwrapped.rules == want
        assert fh_env.env(rules=spec).unwrapped.rules == want
        assert raw_env(spec).rules == want
        assert SingleSeatEnv(rules=spec).game_env.rules == want
        assert VectorEnv(1, spec).rules == want
        for env in (fh_env.env(), raw_env()):
            env.reset(seed=0, options={"rules": spec})
            assert env.unwrapped.game.rules == want
        single = SingleSeatEnv()
        single.reset(seed=0, options={"rules": spec})
        assert single.game.rules == want
    for make in (fh_env.env, raw_env, SingleSeatEnv, lambda r: VectorEnv(1, r)):
        with pytest.raises(ValueError, match="preset"):
            make("no-such-preset")
