"""The compiled rollout policy (agents.compiled.rollout_policy) and the Monte Carlo bot built on it.

The policy must pick only legal actions (checked at every step of thousands of positions under
every preset, reached by mixing its own and random actions) and play the heuristics it names
(a hand-built trick).  FastMCBot must play only legal actions whole hands long under several
presets and at three and six players, repeat itself given a seed, score a batch of copied
worlds exactly as each world loaded on its own would score, and score every candidate as mc
does on the same worlds, at every table size.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.match import play_hand
from agents.mc import MCBot, distinct_plays, rollout, team_score
from agents.mc_fast import FastMCBot
from fh_env.sampler import Determinizer
from fh_env import actions as A
from fh_env.engine import Phase, State
from fh_env.compiled.games import FastGames
from agents.compiled.rollout_policy import policy_actions, policy_rollouts
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import FOUR_PLAYER_PRESETS as PRESETS
from conftest import cards, new_state
from test_compiled import random_rules
from test_sampler import SIX, _position


def policy_action(state: State) -> int:
    games = FastGames(1, state.rules)
    games.set_state(0, state)
    out = np.empty(1, np.int64)
    policy_actions(games.games, games._rules, out)
    return int(out[0])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_policy_picks_only_legal_actions(preset: str) -> None:
    n = 150
    games = FastGames(n, Rules.preset(preset), seed=11)
    rng = np.random.default_rng(3)
    out = np.empty(n, np.int64)
    checked = 0
    for _ in range(3):
        while not games.done.all():
            masks = games.legal_masks()
            policy_actions(games.games, games._rules, out)
            live = ~games.done
            assert (out[~live] == -1).all()
            assert masks[np.flatnonzero(live), out[live]].all()
            checked += int(live.sum())
            # half the games take a random action, so the policy meets positions it would not
            # reach by itself
            random_acts = np.where(live, np.argmax(masks * rng.random(masks.shape), axis=1), -1)
            acts = np.where(rng.random(n) < 0.5, random_acts, out)
            games.step(acts, skip_negative=True)
        games.reset(int(rng.integers(1 << 30)))
    assert checked > 5000
    policy_rollouts(games.games, games._rules, np.full(n, -1, np.int64))
    assert games.done.all()


def six_spades_by_seat_0(hands: dict[int, str]) -> State:
    """The deal of ``hands``, bid 6S by seat 0 (the others pass), who puts the kitty back."""
    state = new_state(Rules(), hands)
    kitty = [c for c in range(46) if state.dealt[1] >> c & 1]
    for call in ("6S", "pass", "pass", "pass"):
        state.apply(A.str_to_action(call))
    assert state.phase == Phase.EXCHANGE and state.turn == 0
    for c in kitty:
        state.apply(A.DISCARD_BASE + c)
    return state


def test_policy_plays_the_named_heuristics() -> None:
    """6 spades by seat 0, who holds no trump: it leads its highest plain card; the second
    player (void) trumps with its highest winner; the third, unable to win, plays low; the last,
    whose partner is winning, plays its lowest card (a plain one, keeping its trumps)."""
    hands = {0: "KD 5C 6C 7C 8C 9C 10C QH JH 5D", 1: "QS 6S 4H 5H 6H 7H 8H 9H 10H AH",
             2: "4D 7D", 3: "AS KS 5S AC KC QC JC KH 7S 8S"}
    state = six_spades_by_seat_0(hands)
    assert state.phase == Phase.PLAY and state.turn == 0
    for card in ("KD", "QS", "4D", "QC"):
        assert policy_action(state) == A.PLAY_BASE + cards(card)[0]
        state.apply(A.PLAY_BASE + cards(card)[0])
    assert state.tricks[0][2] == 1


def test_policy_last_player_wins_with_the_cheapest_winner() -> None:
    hands = {0: "KD 5C 6C 7C 8C 9C 10C QH JH 6D", 1: "4D 7D 4H 5H 6H 7H 8H 9H 10H AH",
             2: "5D AD", 3: "AS KS 5S AC KC QC JC KH 7S 8S"}
    state = six_spades_by_seat_0(hands)
    for card in ("KD", "4D", "5D", "5S"):
        assert policy_action(state) == A.PLAY_BASE + cards(card)[0]
        state.apply(A.PLAY_BASE + cards(card)[0])
    assert state.tricks[0][2] == 3


def test_policy_partner_winning_plays_low() -> None:
    """Seat 0 leads its highest trump; the others cannot beat it and play their lowest."""
    hands = {0: "JK JS AS 4H 5H 6H 7H 8H 9H 10H", 1: "QS 5S", 2: "KS 6S", 3: "10S 7S"}
    state = six_spades_by_seat_0(hands)
    for card in ("JK", "5S", "6S", "7S"):  # highest trump led; nobody else can win it
        assert policy_action(state) == A.PLAY_BASE + cards(card)[0]
        state.apply(A.PLAY_BASE + cards(card)[0])


def test_batch_of_copied_worlds_scores_like_each_world_alone() -> None:
    rules = Rules.preset("australian")
    rng = random.Random(5)
    bot = FastMCBot(samples=6, rollout="policy")  # compared with policy_rollouts below
    checked = 0
    for seed in range(40):
        state = State(rules, seed=seed)
        play_hand_until_play(state, rng)
        if state.phase != Phase.PLAY:
            continue
        view = seat_view(state, state.turn)
        candidates = distinct_plays(view)
        det = Determinizer(view)
        worlds = [det.sample(rng) for _ in range(6)]
        means = bot.evaluate(view, candidates, worlds)
        team = view.seat % 2
        expected = np.zeros(len(candidates))
        for world in worlds:
            for j, action in enumerate(candidates):
                one = FastGames(1, rules)
                one.set_state(0, world)
                policy_rollouts(one.games, one._rules, np.array([action], np.int64))
                pts = one.hand_points[0]
                expected[j] += (pts[team] - pts[1 - team]) / len(worlds)
        assert np.allclose(means, expected)
        checked += 1
    assert checked >= 20


def play_hand_until_play(state: State, rng: random.Random) -> None:
    """Random actions until a few cards of the play are down (or the hand ends)."""
    played = rng.randrange(0, 20)
    while not state.is_terminal and not (state.phase == Phase.PLAY and played == 0):
        if state.phase == Phase.PLAY:
            played -= 1
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", ["australian", "american-double-nullo", "avondale-classic"])
def test_fast_mc_plays_only_legal_actions(preset: str) -> None:
    rules = Rules.preset(preset)
    bot = FastMCBot(samples=4)
    plays = 0
    for hand in range(3):
        state = State(rules, seed=100 + hand)
        rngs = [random.Random(10 * hand + s) for s in range(4)]
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            action = bot.act(view, rngs[state.turn])
            assert view.legal >> action & 1
            plays += state.phase == Phase.PLAY
            state.apply(action)
    assert plays > 0


def test_fast_mc_is_deterministic_given_seed() -> None:
    rules = Rules.preset("australian-no-nullo")

    def actions(seed: int) -> list[int]:
        state = State(rules, seed=7)
        bots = [FastMCBot(samples=5) for _ in range(4)]
        play_hand(state, bots, [random.Random(seed + s) for s in range(4)])
        return [a for _, a in state.calls] + [c for t in state.tricks for c in t[1]]

    assert actions(1) == actions(1)


def test_fast_mc_rejects_no_samples() -> None:
    with pytest.raises(ValueError):
        FastMCBot(samples=0)


def test_registry_builds_mcfast() -> None:
    from agents.registry import make_bot

    bot = make_bot("mcfast:samples=7")
    assert isinstance(bot, FastMCBot) and bot.samples == 7 and bot.name == "mcfast:samples=7"
    assert make_bot("mcfast").samples == 100
    with pytest.raises(ValueError):
        make_bot("mcfast:depth=3")


def test_policy_nullo_declarer_plays_its_highest_losing_card() -> None:
    """Seat 0 in nullo: defenders lead and follow low (5C, 9C); the declarer plays 7C, its
    highest card under 9C (not its lowest, 6C, nor a winner, 10C or KC)."""
    rules = Rules(nullo="anytime", first_leader="left_of_dealer")
    hands = {0: "6C 7C 10C KC", 1: "5C 8C 9H 10H JH QH KH AH AS KS", 3: "QC 9C"}
    state = new_state(rules, hands, dealer=0)
    kitty = [c for c in range(46) if state.dealt[1] >> c & 1]
    for call in ("pass", "pass", "pass", "nullo"):
        state.apply(A.str_to_action(call))
    for c in kitty:
        state.apply(A.DISCARD_BASE + c)
    assert state.phase == Phase.PLAY and state.turn == 1
    for card in ("5C", "9C", "7C"):
        assert policy_action(state) == A.PLAY_BASE + cards(card)[0]
        state.apply(A.PLAY_BASE + cards(card)[0])


#: Three and six players (§9): the presets, nullo-type contracts (both partners of a six-handed
#: nullo declarer sit out) and random rule sets of each size.
SIZES = {"three-handed": Rules.preset("three-handed"), "six-handed": Rules.preset("six-handed"),
         "three-nullo": Rules(players=3, nullo="anytime", open_nullo="anytime", all_pass="play"),
         "six-nullo": Rules(players=6, nullo="anytime", open_nullo="anytime", all_pass="play"),
         **{f"random-{n}-{k}": random_rules(random.Random(f"mcfast-rules-{n}/{k}"), n)
            for n in (3, 6) for k in range(2)}}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_fast_mc_plays_only_legal_actions_at_three_and_six_players(name: str) -> None:
    """Whole hands, every seat mcfast (calls, discards and cards from its own rollouts)."""
    rules = SIZES[name]
    bot = FastMCBot(samples=3)
    n = rules.players
    played = 0  # hands played out (not thrown in)
    for hand in range(10):
        state = State(rules, seed=200 + hand)
        rngs = [random.Random(10 * hand + s) for s in range(n)]
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            action = bot.act(view, rngs[state.turn])
            assert view.legal >> action & 1
            state.apply(action)
        assert len(state.result.hand_points) == rules.sides
        played += len(state.tricks) > 0
        if played == 2:
            break
    assert played == 2 and bot.rollouts > 0


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_fast_mc_is_deterministic_given_seed_at_three_and_six_players(preset: str) -> None:
    rules = Rules.preset(preset)

    def actions(seed: int) -> list[int]:
        state = State(rules, seed=7)
        bots = [FastMCBot(samples=4) for _ in range(rules.players)]
        play_hand(state, bots, [random.Random(seed + s) for s in range(rules.players)])
        return [a for _, a in state.calls] + [c for t in state.tricks for c in t[1]]

    first = actions(1)
    assert first == actions(1) and len(first) > rules.players


def test_fast_mc_policy_rollouts_refuse_three_and_six_players() -> None:
    """The compiled rollout policy is a four-player one: ``mcfast:rollout=policy`` is refused
    at the other sizes (when built for them and when asked to act); the default, the rule
    bot's rollouts, plays them."""
    from agents.registry import make_bot

    for preset in ("three-handed", "six-handed"):
        rules = Rules.preset(preset)
        with pytest.raises(ValueError, match="four players only"):
            make_bot("mcfast:rollout=policy", rules)
        bot = FastMCBot(samples=2, rollout="policy")
        with pytest.raises(ValueError, match="four players only"):
            bot.act(seat_view(State(rules, seed=0), 0), random.Random(0))
        assert isinstance(make_bot("mcfast", rules), FastMCBot)


SCORED = {name: Rules.preset(name) for name in ("australian-no-nullo", "american-double-nullo")}
SCORED.update(SIZES)


@pytest.mark.parametrize("name", sorted(SCORED))
def test_rule_rollouts_score_every_candidate_as_mc_does(name: str) -> None:
    """On the same worlds, mcfast's compiled rule-bot rollouts give every candidate (calls,
    discards, cards) exactly the mean that mc's Python rollouts give (so mcfast decides as mc
    would at equal worlds), at every table size: with three players the score is the seat's
    points minus the mean of the two others'."""
    rules = SCORED[name]
    bot = FastMCBot(samples=8)
    checked = 0
    for seed in range(18):
        rng = random.Random(seed)
        state = State(rules, seed=seed)
        phase = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)[seed % 3]
        while not state.is_terminal and (state.phase != phase or (
                phase == Phase.PLAY and len(state.tricks) < seed % 6)):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        view = seat_view(state, state.turn)
        candidates = MCBot(samples=8).candidates(view)
        if len(candidates) < 2:
            continue
        det = Determinizer(view)
        worlds = [det.sample(rng) for _ in range(8)]
        expected = []
        for action in candidates:
            total = 0.0
            for world in worlds:
                w = world.clone()
                w.apply(action)
                total += team_score(rollout(w), view.team)
            expected.append(total / len(worlds))
        assert np.allclose(bot.evaluate(view, candidates, worlds), expected), (name, seed)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_compiled_worlds_score_as_mc_does_at_three_and_six_players(preset: str) -> None:
    """The worlds mcfast draws itself (the compiled sampler's records), read back as states and
    played out by mc's rollouts, give the means mcfast gives them."""
    rules = Rules.preset(preset)
    bot = FastMCBot(samples=6)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = State(rules, seed=seed)
        while not state.is_terminal and not (state.phase == Phase.PLAY
                                             and len(state.tricks) >= seed % 7):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        view = seat_view(state, state.turn)
        candidates = distinct_plays(view)
        if len(candidates) < 2:
            continue
        games = bot.draw_worlds(view, 1, rng)
        batch = FastGames(1, rules)
        batch.games, batch.num_games = games.copy(), len(games)
        worlds = batch.to_states()
        assert all(seat_view(w, view.seat) == view for w in worlds)
        expected = [np.mean([team_score(rollout(_after(w, a)), view.team) for w in worlds])
                    for a in candidates]
        repeated = np.repeat(games, len(candidates))
        assert np.allclose(bot.score(view, candidates, repeated), expected), (preset, seed)
        checked += 1
    assert checked >= 4


def _after(state: State, action: int) -> State:
    out = state.clone()
    out.apply(action)
    return out


@pytest.mark.parametrize("contract", [A.NULLO, A.OPEN_NULLO])
def test_rule_rollouts_score_as_mc_does_when_partners_sit_out(contract: int) -> None:
    """Six-handed nullo and open nullo (§9.2: both partners of the declarer sit out, a trick
    has four cards): mcfast's worlds and rollouts score every card as mc's do."""
    bot = FastMCBot(samples=6)
    checked = 0
    for k in range(8):
        state = _position(SIX, 50 + k, {0: contract}, k % 5, k % 3, 0)
        view = seat_view(state, state.turn)
        assert view.sitting_out >= 0
        candidates = distinct_plays(view)
        if len(candidates) < 2:
            continue
        rng = random.Random(k)
        worlds = [Determinizer(view).sample(rng) for _ in range(6)]
        expected = [np.mean([team_score(rollout(_after(w, a)), view.team) for w in worlds])
                    for a in candidates]
        assert np.allclose(bot.evaluate(view, candidates, worlds), expected), k
        games = bot.draw_worlds(view, len(candidates), rng)
        assert (games["sitting_out"] == view.sitting_out).all()
        checked += 1
    assert checked >= 4
