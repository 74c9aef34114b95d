"""The fast batched core (fh_env.compiled.games) against the reference engine, step by step.

The differential test plays the same deals with the same actions on both engines under every
preset and a sample of random rule sets, and requires the same legal actions, seat on turn and
voids at every step and the same whole state (``State.to_dict``: calls, exchanges, tricks with
their winners, result, scores) at every hand's end; a few games are compared whole at every step.
The actions are chosen by a seeded ``random.Random`` from the reference engine's legal actions,
biased towards passing, misdeals and nullo-type bids so that every kind of hand occurs; the test
counts the kinds and fails if one never happened.  The table sizes of §9 (three and six
players) are played the same way: their presets and random rule sets of each size.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.rule import random_choice, random_rules
from fh_env import actions as A
from fh_env.engine import IllegalActionError, Phase, State, check_deal, deal_cards
from fh_env.compiled.games import FastGames
from fh_env.rules import Rules

from conftest import FOUR_PLAYER_PRESETS as PRESETS
from conftest import deal, do, random_walk

RULE_SETS = [Rules.preset(name) for name in PRESETS] + [
    random_rules(random.Random(f"fastcore-rules/{k}")) for k in range(45)]
#: The other table sizes (§9): their presets and random rule sets of each size.
SIZE_PRESETS = {3: "three-handed", 6: "six-handed"}
SIZE_RULE_SETS = {n: [Rules.preset(SIZE_PRESETS[n])] + [
    random_rules(random.Random(f"fastcore-rules-{n}/{k}"), n) for k in range(20)]
    for n in (3, 6)}


def mask_int(row: np.ndarray) -> int:
    """A bool mask row (130 or 166 actions) as the engine's int bitmask."""
    return int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")


#: A random legal action, biased so that short auctions, misdeals and nullos all occur.
choose = random_choice


def hand_kind(state: State) -> list[str]:
    res = state.result
    assert res is not None
    kinds = []
    if res.thrown_in:
        kinds.append(res.thrown_in)
    elif res.contract == -1:
        kinds.append("no_contract")
    elif res.contract in A.NULLO_TYPES:
        kinds.append(A.action_to_str(res.contract).replace(" ", "_"))
    else:
        kinds.append("ordinary")
    target = state.rules.target
    if (len(res.game_points) == 3 and state.phase == Phase.GAME_OVER
            and state.rules.game_over == "points" and state.rules.on_target != "must_bid"
            and sum(p >= target for p in res.game_points) > 1 and state.winner != res.declarer):
        kinds.append("first_to_reach")  # §9.1: two defenders (or nobody declared) reached it
    if res.thrown_in is None and len(state.tricks) < 10:
        kinds.append("finish_early")
    if state.phase == Phase.GAME_OVER:
        kinds.append("game_over")
    if state.context >= 4 and any(cards[0] in (44, 45) for _, cards, _, _ in state.tricks):
        kinds.append("joker_lead")  # a joker led naming a suit
    return kinds


def play_batch(rules: Rules, seed: int, n_games: int = 48, hands_per_game: int = 4,
               full_every_step: int = 3) -> Counter:
    """Play ``n_games`` games of up to ``hands_per_game`` hands on both engines in lock step."""
    rng = random.Random(f"fastcore/{seed}")
    pass_prob = rng.choice((0.3, 0.6, 0.85))
    n = rules.players
    deals = [deal_cards(rules, seed, k) for k in range(n_games * hands_per_game)]
    dealers = [rng.randrange(n) for _ in range(n_games)]
    refs = [State(rules, seed=seed, dealer=dealers[i], deal=deals[i]) for i in range(n_games)]
    fast = FastGames(n_games, rules, seed=seed)
    fast.set_deals([d[0] for d in deals[:n_games]], [d[1] for d in deals[:n_games]], dealers)
    for i, ref in enumerate(refs):  # half the games start near the target or the floor
        if i % 2:
            ref.scores = [rng.choice((0, 400, 460, -400, 900)), rng.choice((0, 480, -450, 950))]
            if rules.sides == 3:
                ref.scores.append(rng.choice((0, 470, 490, -480)))
            ref.hands_played = rng.randrange(3)
            fast.scores[i] = ref.scores
            fast.games["hands_played"][i] = ref.hands_played
    hands_dealt = [1] * n_games
    next_deal = n_games
    kinds: Counter = Counter()
    actions = np.zeros(n_games, dtype=np.int64)
    while True:
        masks = fast.legal_masks()
        live = [i for i in range(n_games) if not refs[i].is_terminal]
        if not live:
            break
        for i in live:
            ref = refs[i]
            assert int(fast.turn[i]) == ref.turn, (i, ref)
            assert mask_int(masks[i]) == ref.legal_mask(), (i, ref, ref.legal_actions(),
                                                             np.flatnonzero(masks[i]))
            actions[i] = choose(ref, rng, pass_prob)
            ref.apply(int(actions[i]))
        fast.step(actions)
        for i in live:
            ref = refs[i]
            assert fast.voids[i].tolist() == ref.voids, (i, ref)
            assert int(fast.phase[i]) == ref.phase
            if i < full_every_step or ref.is_terminal:
                assert fast.to_state(i).to_dict() == ref.to_dict(), (i, ref)
            if ref.is_terminal:
                kinds.update(hand_kind(ref))
                assert fast.hand_points[i].tolist() == list(ref.result.hand_points)
                assert fast.scores[i].tolist() == ref.scores
                if ref.phase == Phase.HAND_OVER and hands_dealt[i] < hands_per_game:
                    hands, kitty = deals[next_deal]
                    next_deal += 1
                    hands_dealt[i] += 1
                    ref.next_hand((hands, kitty))
                    fast.next_hands([hands], [kitty], index=[i])
                    assert int(fast.games["dealer"][i]) == ref.dealer
    return kinds


def test_every_rule_set_matches_the_engine_step_by_step() -> None:
    kinds: Counter = Counter()
    for k, rules in enumerate(RULE_SETS):
        kinds += play_batch(rules, seed=1000 + k)
    # Every kind of hand must have been played, so that the comparison covered it.
    for kind in ("ordinary", "nullo", "open_nullo", "double_nullo", "no_contract", "all_pass",
                 "inkle", "misdeal", "finish_early", "game_over", "joker_lead"):
        assert kinds[kind] > 0, (kind, kinds)
    assert sum(kinds[k] for k in ("ordinary", "nullo", "open_nullo", "double_nullo",
                                  "no_contract", "all_pass", "inkle", "misdeal")) >= 5000


def test_misdeal_redeals_with_the_same_dealer() -> None:
    """§3.9 on a hand-built deal: seat 0 holds no honour and calls a misdeal."""
    rules = Rules(misdeal=True)
    hands, kitty = deal(rules, {0: "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C"})
    ref = State.from_deal(rules, hands, kitty, dealer=3)
    fast = FastGames(1, rules)
    fast.set_deals([[sum(1 << c for c in h) for h in hands]], [sum(1 << c for c in kitty)], 3)
    assert A.MISDEAL in fast.legal_actions(0)
    fast.step([A.MISDEAL])
    do(ref, "misdeal")
    assert fast.to_state(0).to_dict() == ref.to_dict()
    assert fast.to_state(0).result.thrown_in == "misdeal"
    fast.next_hands()
    assert int(fast.games["dealer"][0]) == 3 and int(fast.turn[0]) == 0


def test_random_playout_hands_replay_on_the_engine() -> None:
    """The core's own deals and random playouts are legal games: replaying the calls,
    discards and plays it recorded on the reference engine gives the same final state."""
    for name in ("australian", "american-double-nullo", "canadian"):
        rules = Rules.preset(name)
        fast = FastGames(150, rules, seed=5)
        assert fast.random_playout() > 150
        assert fast.done.all()
        for i in range(fast.num_games):
            end = fast.to_state(i)
            hands, kitty = end.dealt
            check_deal(rules, hands, kitty)
            ref = State(rules, seed=5, dealer=end.dealer, deal=(list(hands), kitty))
            for _, action in end.calls:
                ref.apply(action)
            for _, _, discards in end.exchanges:
                for c in [c for c in range(46) if discards >> c & 1]:
                    ref.apply(A.DISCARD_BASE + c)
            for _, cards, _, led in end.tricks:
                for k, c in enumerate(cards):
                    lead_named = k == 0 and c >= 44 and end.context >= 4
                    ref.apply(A.joker_lead_action(c, led) if lead_named else A.PLAY_BASE + c)
            ref.deal_index, ref.hands_played = end.deal_index, end.hands_played
            assert end.to_dict() == ref.to_dict()


def test_random_hands_are_deterministic_and_count_hands() -> None:
    rules = Rules.preset("american")
    a, b, c = (FastGames(64, rules, seed=s) for s in (3, 3, 4))
    assert a.random_hands(5) == 64 * 5
    b.random_hands(5)
    c.random_hands(5)
    assert np.array_equal(a.games, b.games)
    assert not np.array_equal(a.scores, c.scores)
    assert a.games["deal_index"].min() >= 1 and (a.games["hands_played"] <= 5).all()


def test_step_rejects_an_illegal_action_and_changes_nothing() -> None:
    fast = FastGames(4, Rules(), seed=2)
    before = fast.games.copy()
    actions = [A.PASS] * 4
    actions[2] = A.PLAY_BASE  # a play in the auction
    with pytest.raises(IllegalActionError, match="game 2"):
        fast.step(actions)
    assert np.array_equal(fast.games, before)
    with pytest.raises(ValueError):
        fast.step([A.PASS] * 3)


def test_finished_games_are_left_alone_or_auto_reset() -> None:
    rules = Rules.preset("australian")
    for auto in (False, True):
        fast = FastGames(8, rules, seed=9, auto_reset=auto)
        fast.random_playout()
        before = fast.games.copy()
        fast.step(np.zeros(8, dtype=np.int64))
        if not auto:
            assert np.array_equal(fast.games, before)
            assert not fast.legal_masks().any()
        else:
            assert not fast.done.any()
            over = before["phase"] == Phase.GAME_OVER
            assert (fast.games["hands_played"][over] == 0).all()
            assert (fast.games["deal_index"][~over] == before["deal_index"][~over] + 1).all()
            assert fast.legal_masks().any(axis=1).all()


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80))
def test_set_state_then_to_state_round_trips_and_plays_on_alike(preset: str, seed: int,
                                                                steps: int) -> None:
    rules = Rules.preset(preset)
    ref, rng = random_walk(rules, seed, steps)
    fast = FastGames(1, rules, seed=seed)
    fast.set_state(0, ref)
    assert fast.to_state(0).to_dict() == ref.to_dict()
    while not ref.is_terminal:  # both play on alike
        assert fast.legal_actions(0) == ref.legal_actions()
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        fast.step([action])
    assert fast.to_state(0).to_dict() == ref.to_dict()


def test_a_cyclic_ranking_cannot_make_the_auction_endless() -> None:
    """Point-ranked nullo under scoring=original makes outranking cyclic (8H < 9S < nullo < 8H,
    §6.8); a bid must outrank every earlier bid, so 8H cannot come back after nullo, and both
    engines agree on that."""
    rules = Rules(scoring="original", nullo="anytime", nullo_ranking="points")
    ref = State(rules, seed=1, dealer=3)
    hands, kitty = ref.dealt
    fast = FastGames(1, rules, seed=1)
    fast.set_deals([hands], [kitty], 3)
    for name in ["9S", "nullo"]:
        assert A.str_to_action(name) in ref.legal_actions()
        do(ref, name)
        fast.step([A.str_to_action(name)])
        assert mask_int(fast.legal_masks()[0]) == ref.legal_mask()
    assert A.str_to_action("8H") not in ref.legal_actions()  # it outranks nullo, not 9S
    assert A.str_to_action("9D") in ref.legal_actions()
    assert fast.to_state(0).to_dict() == ref.to_dict()


@pytest.mark.parametrize("players", [3, 6])
def test_every_table_size_matches_the_engine_step_by_step(players: int) -> None:
    """§9 on the compiled core: the size's preset and random rule sets of that size, the same
    lock-step comparison as for four players (whole states at every hand's end)."""
    kinds: Counter = Counter()
    for k, rules in enumerate(SIZE_RULE_SETS[players]):
        kinds += play_batch(rules, seed=3000 + 100 * players + k, n_games=32)
    expected = ["ordinary", "nullo", "open_nullo", "no_contract", "all_pass", "misdeal",
                "finish_early", "game_over", "joker_lead"]
    for kind in expected:
        assert kinds[kind] > 0, (players, kind, kinds)
    assert kinds["double_nullo"] == 0  # off at these sizes (§9.3)
    if players == 3:
        assert kinds["first_to_reach"] > 0, kinds


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 6]), which=st.integers(0, 20), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80))
def test_set_state_round_trips_at_every_table_size(players: int, which: int, seed: int,
                                                   steps: int) -> None:
    rules = SIZE_RULE_SETS[players][which]
    ref, rng = random_walk(rules, seed, steps)
    fast = FastGames(2, rules, seed=seed)
    fast.set_state(1, ref)
    assert fast.to_state(1).to_dict() == ref.to_dict()
    while not ref.is_terminal:
        assert fast.legal_actions(1) == ref.legal_actions()
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        fast.step([-1, action], skip_negative=True)
    assert fast.to_state(1).to_dict() == ref.to_dict()


@pytest.mark.parametrize("players", [3, 6])
def test_random_playouts_at_every_table_size_replay_on_the_engine(players: int) -> None:
    """The core's own deals of the size's pack and random playouts replay on the engine."""
    rules = Rules.preset(SIZE_PRESETS[players])
    fast = FastGames(100, rules, seed=7)
    assert fast.games["hands"].shape == (100, players)
    fast.random_hands(3)
    fast.random_playout()
    table = A.action_table(players)
    for i in range(fast.num_games):
        end = fast.to_state(i)
        hands, kitty = end.dealt
        check_deal(rules, hands, kitty)
        ref = State(rules, seed=7, dealer=end.dealer, deal=(list(hands), kitty))
        ref.scores = [s - p for s, p in zip(end.result.game_points, end.result.hand_points)]
        for _, action in end.calls:
            ref.apply(action)
        for _, _, discards in end.exchanges:
            for c in [c for c in range(64) if discards >> c & 1]:
                ref.apply(A.DISCARD_BASE + c)
        for _, cards, _, led in end.tricks:
            for k, c in enumerate(cards):
                lead_named = k == 0 and c in (44, 45) and end.context >= 4
                ref.apply(table.joker_lead_action(c, led) if lead_named
                          else table.play_base + c)
        ref.deal_index, ref.hands_played = end.deal_index, end.hands_played
        if ref.scores != end.scores:  # a cap (defenders_stop_*) applied: compare the rest
            ref.scores = end.scores
        assert end.hands == ref.hands and end.tricks == ref.tricks
        assert end.result.tricks == ref.result.tricks
        assert end.result.hand_points == ref.result.hand_points
    masks = fast.legal_masks()
    assert masks.shape == (100, table.num_actions) and not masks.any()
