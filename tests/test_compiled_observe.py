"""fh_env.compiled.observe against fh_env.observe: the same positions must give the same bytes.

The differential test plays the same deals with the same actions on the fast core and on the
reference engine (as tests/test_compiled.py does) under every preset and a sample of random
rule sets, several hands per game, and at every step compares, for every seat of every game,
``fastobs.encode`` with ``observe.encode(seat_view(state, seat))``, ``fastobs.action_masks`` with
``observe.action_mask`` and ``fastobs.encode_state`` with ``observe.encode_state``, byte for byte.
It counts the kinds of position it saw (an exposed open-nullo hand, a double-nullo exchange, a
joker shown by 6NT, …) and fails if one never occurred.  The table sizes of §9 are compared
the same way in their own layouts (``observe.layout(3)``, ``observe.layout(6)``).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fh_env import observe
from fh_env.compiled import observe as fastobs
from fh_env.engine import Phase, State, deal_cards
from fh_env.compiled.games import FastGames
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import FOUR_PLAYER_PRESETS as PRESETS
from conftest import deal, do, random_walk
from test_compiled import SIZE_RULE_SETS, choose, random_rules

RULE_SETS = [Rules.preset(name) for name in PRESETS] + [
    random_rules(random.Random(f"fastobs-rules/{k}")) for k in range(16)]


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def kinds_of(state: State) -> list[str]:
    """The kinds of position a state shows, so the test can require that each occurred."""
    kinds = [state.phase.name]
    if state.exposed:
        kinds.append("exposed")
    if len(state.exchanges) == 2:
        kinds.append("second_exchange")
    if state.sitting_out >= 0:
        kinds.append("sitting_out")
    if any(c >= 46 for _, cards, _, _ in state.tricks for c in cards):
        kinds.append("six_handed_card")  # a card of the six-handed pack (ids 46..63) played
    if state.contract == -1:
        kinds.append("no_contract")
    if state.shows_joker:
        kinds.append("shows_joker")
    if any(v & 16 for v in state.voids):
        kinds.append("no_joker_shown")
    if state.trick and state.trick[0] >= 44 and state.context >= 4:
        kinds.append("joker_led")
    if state.deal_index > 1:
        kinds.append("dealt_on")  # a later hand of the game (next_hands)
    return kinds


def compare(fast: FastGames, refs: list[State], live: list[int]) -> int:
    """Every seat of the games ``live``: observations, masks and full states alike."""
    for seat in range(fast.players):
        obs = fastobs.encode(fast, seats=seat, index=live)
        full = fastobs.encode_state(fast, seats=seat, index=live)
        masks = fastobs.action_masks(fast, seats=seat)
        for k, i in enumerate(live):
            view = seat_view(refs[i], seat)
            assert same_bytes(obs[k], observe.encode(view)), (i, seat, refs[i])
            assert same_bytes(masks[i], observe.action_mask(view)), (i, seat, refs[i])
            assert same_bytes(full[k], observe.encode_state(refs[i], seat)), (i, seat, refs[i])
    return 4 * len(live)


def play_batch(rules: Rules, seed: int, n_games: int = 10, hands_per_game: int = 3
               ) -> tuple[Counter, int]:
    """Play ``n_games`` games on both engines in lock step, comparing at every step; returns
    the kinds of position seen and the number of (game, seat) positions compared."""
    rng = random.Random(f"fastobs/{seed}")
    pass_prob = rng.choice((0.3, 0.6, 0.85))
    deals = [deal_cards(rules, seed, k) for k in range(n_games * hands_per_game)]
    dealers = [rng.randrange(rules.players) for _ in range(n_games)]
    refs = [State.from_deal(rules, [cards_of(h) for h in deals[i][0]], cards_of(deals[i][1]),
                            dealer=dealers[i]) for i in range(n_games)]
    fast = FastGames(n_games, rules, seed=seed)
    fast.set_deals([d[0] for d in deals[:n_games]], [d[1] for d in deals[:n_games]], dealers)
    for i, ref in enumerate(refs):  # some games start with scores and hands played
        if i % 2:
            ref.scores = [rng.choice((0, 120, -230, 460)), rng.choice((0, 480, -90))]
            if rules.sides == 3:
                ref.scores.append(rng.choice((0, 470, -20)))
            ref.hands_played = rng.randrange(1, 4)
            fast.scores[i] = ref.scores
            fast.games["hands_played"][i] = ref.hands_played
    dealt, next_deal = [1] * n_games, n_games
    kinds: Counter = Counter()
    positions = 0
    active = list(range(n_games))
    while active:
        positions += compare(fast, refs, active)
        on_turn = [i for i in active if not refs[i].is_terminal]
        for k, obs in zip(on_turn, fastobs.encode(fast, index=on_turn)):  # default seats
            assert same_bytes(obs, observe.encode(seat_view(refs[k], refs[k].turn)))
        actions = np.full(n_games, -1, dtype=np.int64)
        for i in list(active):
            ref = refs[i]
            kinds.update(kinds_of(ref))
            if not ref.is_terminal:
                actions[i] = choose(ref, rng, pass_prob)
                ref.apply(int(actions[i]))
            elif ref.phase == Phase.HAND_OVER and dealt[i] < hands_per_game:
                hands, kitty = deals[next_deal]  # deal on; its first position is compared
                next_deal += 1                   # next, while the game waits (action -1)
                dealt[i] += 1
                ref.next_hand((hands, kitty))
                fast.next_hands([hands], [kitty], index=[i])
            else:
                active.remove(i)
        fast.step(actions, skip_negative=True)
    return kinds, positions


def cards_of(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def test_every_seat_matches_observe_at_every_step() -> None:
    kinds: Counter = Counter()
    positions = 0
    for k, rules in enumerate(RULE_SETS):
        seen, count = play_batch(rules, seed=500 + k)
        kinds += seen
        positions += count
    for kind in ("AUCTION", "EXCHANGE", "PLAY", "HAND_OVER", "GAME_OVER", "exposed",
                 "second_exchange", "sitting_out", "no_contract", "shows_joker",
                 "no_joker_shown", "joker_led", "dealt_on"):
        assert kinds[kind] > 0, (kind, kinds)
    assert positions >= 20_000, positions


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 70))
def test_a_loaded_engine_state_encodes_alike(preset: str, seed: int, steps: int) -> None:
    """Any reachable state, loaded with FastGames.set_state, encodes as observe does."""
    rules = Rules.preset(preset)
    ref, _ = random_walk(rules, seed, steps)
    fast = FastGames(3, rules, seed=seed)
    for i in range(3):
        fast.set_state(i, ref)
    compare(fast, [ref] * 3, [2, 0])


def test_rows_seats_and_output_arrays() -> None:
    rules = Rules.preset("american")
    fast = FastGames(5, rules, seed=3)
    refs = fast.to_states()
    obs = fastobs.encode(fast, seats=[3, 1], index=[4, 0])
    assert obs.shape == (2, observe.OBS_SIZE) and obs.dtype == np.float32
    assert same_bytes(obs[0], observe.encode(seat_view(refs[4], 3)))
    assert same_bytes(obs[1], observe.encode(seat_view(refs[0], 1)))
    out = np.full((5, observe.STATE_SIZE), 7.0, dtype=np.float32)
    assert fastobs.encode_state(fast, seats=2, out=out) is out
    for i in range(5):
        assert same_bytes(out[i], observe.encode_state(refs[i], 2))
    masks = fastobs.action_masks(fast)
    assert masks.dtype == np.int8 and masks.sum(axis=1).min() > 0
    for i in range(5):
        assert same_bytes(masks[i], observe.action_mask(seat_view(refs[i], refs[i].turn)))
    with pytest.raises(ValueError, match="seats must be 0..3"):
        fastobs.encode(fast, seats=4)
    with pytest.raises(IndexError):
        fastobs.encode(fast, index=[5])
    with pytest.raises(ValueError, match="out must be float32"):
        fastobs.encode(fast, out=np.zeros((5, observe.OBS_SIZE), dtype=np.float64))
    fast.random_playout()  # every hand over: nobody is on turn
    with pytest.raises(ValueError, match="no seat on turn"):
        fastobs.encode(fast)
    assert not fastobs.action_masks(fast).any()
    ended = fast.to_states()
    for i, obs in enumerate(fastobs.encode(fast, seats=0)):
        assert same_bytes(obs, observe.encode(seat_view(ended[i], 0)))


def test_observe_turn_writes_only_the_rows_given() -> None:
    rules = Rules.preset("australian")
    fast = FastGames(4, rules, seed=8)
    obs = np.full((4, observe.OBS_SIZE), -1.0, dtype=np.float32)
    seat = np.full(4, -1, dtype=np.int64)
    fastobs.observe_turn(fast, np.array([1, 3]), obs, seat)
    assert (obs[[0, 2]] == -1).all() and seat[[0, 2]].tolist() == [-1, -1]
    for i in (1, 3):
        ref = fast.to_state(i)
        assert seat[i] == ref.turn
        assert same_bytes(obs[i], observe.encode(seat_view(ref, ref.turn)))


def test_a_misdeal_and_the_redeal_encode_alike() -> None:
    """§3.9 on a hand-built deal (too rare in random deals): seat 0 holds no honour, bids
    nothing and calls a misdeal; every seat sees it, then the redeal, as observe does."""
    rules = Rules(misdeal=True)
    hands, kitty = deal(rules, {0: "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C"})
    ref = State.from_deal(rules, hands, kitty, dealer=3)
    fast = FastGames(1, rules)
    fast.set_deals([[sum(1 << c for c in h) for h in hands]], [sum(1 << c for c in kitty)], 3)
    compare(fast, [ref], [0])
    do(ref, "misdeal")
    fast.step([ref.calls[-1][1]])
    assert ref.result.thrown_in == "misdeal"
    compare(fast, [ref], [0])
    redeal = deal_cards(rules, 1, 1)
    ref.next_hand(redeal)
    fast.next_hands([redeal[0]], [redeal[1]])
    compare(fast, [ref], [0])


@pytest.mark.parametrize("players", [3, 6])
def test_every_table_size_matches_observe_at_every_step(players: int) -> None:
    """§9: the size's preset and random rule sets of that size, every seat at every step, in
    the size's layout (encode, action_masks, encode_state byte for byte)."""
    kinds: Counter = Counter()
    positions = 0
    lay = observe.layout(players)
    for k, rules in enumerate(SIZE_RULE_SETS[players]):
        seen, count = play_batch(rules, seed=700 + 10 * players + k, n_games=4)
        kinds += seen
        positions += count
    expected = ["AUCTION", "EXCHANGE", "PLAY", "HAND_OVER", "GAME_OVER", "no_contract",
                "no_joker_shown", "joker_led", "dealt_on", "exposed"]
    if players == 6:  # (a 6NT that shows the joker: below)
        expected += ["sitting_out", "six_handed_card"]
    for kind in expected:
        assert kinds[kind] > 0, (players, kind, kinds)
    assert positions >= 3000, positions
    fast = FastGames(4, SIZE_RULE_SETS[players][0], seed=1)
    assert fastobs.encode(fast).shape == (4, lay.size)
    assert fastobs.encode_state(fast, seats=0).shape == (4, lay.state_size)
    assert fastobs.action_masks(fast).shape == (4, lay.num_actions)
    with pytest.raises(ValueError, match=f"seats must be 0..{players - 1}"):
        fastobs.encode(fast, seats=players)


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([3, 6]), which=st.integers(0, 20), seed=st.integers(0, 10**6),
       steps=st.integers(0, 90))
def test_a_loaded_state_of_every_table_size_encodes_alike(players: int, which: int, seed: int,
                                                          steps: int) -> None:
    rules = SIZE_RULE_SETS[players][which]
    ref, _ = random_walk(rules, seed, steps)
    fast = FastGames(2, rules, seed=seed)
    fast.set_state(1, ref)
    compare(fast, [ref, ref], [1])


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_a_six_nt_that_shows_the_joker_encodes_alike(preset: str) -> None:
    """§3.8 at three and six players (too rare in random auctions): the joker's holder bids
    6NT, then the hand is played out, every seat compared at every step."""
    rules = Rules.preset(preset).replace(six_nt_shows_joker=True)
    seed = next(k for k in range(100) if State(rules, seed=k).hands[State(rules, seed=k).turn]
                >> 44 & 1)
    ref = State(rules, seed=seed)
    fast = FastGames(1, rules)
    fast.set_state(0, ref)
    do(ref, "6NT")
    fast.step([ref.calls[-1][1]])
    assert ref.shows_joker
    compare(fast, [ref], [0])
    while not ref.is_terminal:
        action = ref.legal_actions()[0]
        ref.apply(action)
        fast.step([action])
        compare(fast, [ref], [0])
