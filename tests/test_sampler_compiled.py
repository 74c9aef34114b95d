"""The compiled exact sampler (fh_env.compiled.sampler): the same distribution as
fh_env.sampler, drawn into fast-core records.

The exhaustive small positions of tests/test_sampler.py apply unchanged, at every table size
(and a few more three- and six-player ones here): every drawn world is one the brute-force
enumeration finds, and the drawn frequencies pass the same chi-square check of uniformity (which
a sampler that ignores the completion counts fails, shown below), placing the cards one slot at a
time or by groups of interchangeable slots (``merge``, the default with three and six players).
Six-handed nullo, whose two sitting-out partners hold 20 unseen cards (too many worlds to
enumerate), is held to the Python sampler instead.  Every drawn record, read back as a State,
shows the seat exactly its view and is the replay of its own deal, under every variant of
tests/test_sampler.py.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.mc import distinct_plays
from agents.mc_fast import FastMCBot
from agents.compiled.rollout_policy import policy_rollouts
from fh_env.sampler import Determinizer, InconsistentView, replay
from fh_env.compiled.sampler import CompiledSampler
from bench.mc_fast import PythonSamplerMCBot
from fh_env import actions as A
from fh_env.cards import cards_of
from fh_env.compiled.engine import GAME_DTYPES
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State, check_deal
from fh_env.rules import Rules
from fh_env.view import seat_view

from test_sampler import (POSITIONS, SIX, SIZES, THREE, VARIANTS, _chi_square_z, _position, drive,
                          enumerate_worlds)

POSITIONS = POSITIONS + [
    # (rules, seed, forced calls, tricks, extra plays, seat): the declarer's views, whose few
    # unseen cards the enumeration places quickly
    (THREE, 31, {0: A.bid_action(6, 1)}, 6, 0, 0),  # two hidden hands of four, with voids
    (THREE, 33, {0: A.NULLO}, 7, 1, 0),  # nullo: the two defenders interchangeable
    (SIX, 35, {0: A.bid_action(6, 3)}, 9, 2, 0),  # two of the hidden hands interchangeable
]
THREE_SIX = [i for i, p in enumerate(POSITIONS) if p[0].players != 4]


def drawn_states(sampler: CompiledSampler, n: int, seed: int) -> list[State]:
    """``n`` drawn worlds, as records read back into reference states."""
    games = sampler.sample_games(n, seed)
    batch = FastGames(1, sampler.view.rules)
    batch.games, batch.num_games = games, len(games)
    return batch.to_states()


def check_world(view, state: State) -> None:
    """As tests/test_sampler.check_sample: the world shows the seat its view, its deal is a
    deal of the rules and the public history replayed on it gives the same state."""
    assert seat_view(state, view.seat) == view
    check_deal(view.rules, list(state.dealt[0]), state.dealt[1])
    again = replay(view, list(state.dealt[0]), state.dealt[1], [e[2] for e in state.exchanges])
    mine, theirs = again.to_dict(), state.to_dict()
    mine.pop("seed"), theirs.pop("seed")  # the batch's seed, not the replayed state's
    assert mine == theirs


# ------------------------------------------------------------------------- consistency
def _check_view(view, seed: int, merge: bool | None) -> None:
    """The sampler counts the placements as the Python sampler does and draws consistent
    worlds."""
    sampler = CompiledSampler(view, merge=merge)
    exact = Determinizer(view).n_locations  # float64 counts: exact below 2**53
    assert sampler.n_locations == exact if exact < 2**53 else \
        math.isclose(sampler.n_locations, exact, rel_tol=1e-12)
    for world in drawn_states(sampler, 3, seed):
        check_world(view, world)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 70), seat=st.integers(0, 3), merge=st.sampled_from([None, True]))
def test_every_world_is_consistent_with_the_view(variant, seed, steps, seat, merge):
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    state = drive(State(rules, seed=seed), rng, steps)
    if state.is_terminal:
        state = State(rules, seed=seed + 1)
    _check_view(seat_view(state, seat), seed, merge)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(SIZES)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80), seat=st.integers(0, 5), merge=st.sampled_from([None, False]))
def test_every_world_is_consistent_with_the_view_at_three_and_six_players(variant, seed, steps,
                                                                            seat, merge):
    """Two or five hidden hands, the 33- or 63-card pack, the partners who sit out a
    six-handed nullo; by slot groups (the default) or one slot at a time."""
    rules = SIZES[variant]
    rng = random.Random(seed)
    state = drive(State(rules, seed=seed), rng, steps, randomness=0.5)
    if state.is_terminal:
        state = State(rules, seed=seed + 1)
    _check_view(seat_view(state, seat % rules.players), seed, merge)


# ------------------------------------------------------------------------- exactness
def _frequencies(sampler: CompiledSampler, n: int, seed: int) -> Counter:
    worlds = sampler.draw(n, seed)
    return Counter(worlds.key(w) for w in range(n))


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_frequencies_match_exhaustive_enumeration(index):
    """Both ways of placing the cards: one slot at a time (the default with four players) and
    by groups of interchangeable slots (the default with three and six)."""
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    assert worlds and max(worlds.values()) == 1
    present = set()
    if not rules.six_nt_shows_joker and not rules.highest_joker_in_kitty:
        for dealt, kitty, discards in worlds:
            replayed = replay(view, list(dealt), kitty, list(discards))
            present.add((tuple(replayed.hands), replayed.kitty))
    for merge in (False, True):
        sampler = CompiledSampler(view, merge=merge)
        n = max(4000, 40 * len(worlds))
        observed = _frequencies(sampler, n, seed=index)
        assert set(observed) <= set(worlds), "the sampler drew a world the enumeration rejects"
        z = _chi_square_z(observed, list(worlds), n)
        assert z < 4.5, f"merge={merge}: {len(worlds)} worlds, {len(observed)} seen, z = {z:.2f}"
        if present:
            assert sampler.n_locations == len(present)
        for world in drawn_states(sampler, 5, seed=index):
            check_world(view, world)


def test_the_three_and_six_player_positions_split_slot_groups():
    """The positions above exercise the split of a group's cards among its slots: in some, a
    group of two or more slots shares the cards (so a biased split would fail the check)."""
    shared = 0
    for index in THREE_SIX:
        rules, seed, calls, tricks, extra, seat = POSITIONS[index]
        sampler = CompiledSampler(seat_view(_position(rules, seed, calls, tricks, extra, seat),
                                            seat))
        shared += any(len(group) > 1 for group in sampler.groups) and sampler.n_locations > 1
    assert shared >= 5


@pytest.mark.parametrize("index", [0, 7] + [THREE_SIX[i] for i in (2, 5, 6, 8)])
def test_the_check_fails_a_sampler_that_ignores_the_completion_counts(index):
    """The same check, on a sampler that places each card in any slot where the rest can still
    be placed, each with equal chance (the count table replaced by its support): its worlds are
    all consistent, but not equally likely, and the chi-square check says so."""
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    sampler = CompiledSampler(view)  # merged slots with three and six players
    sampler._f[:] = sampler._f > 0  # the deliberate bias
    n = max(4000, 40 * len(worlds))
    observed = _frequencies(sampler, n, seed=index)
    assert set(observed) <= set(worlds)
    assert _chi_square_z(observed, list(worlds), n) > 4.5


TABLES = {4: Rules(), 3: Rules.preset("three-handed"), 6: Rules.preset("six-handed")}


@pytest.mark.parametrize("players", sorted(TABLES))
def test_a_draw_is_reproducible_from_its_seed(players):
    state = drive(State(TABLES[players], seed=4), random.Random(4), 30)
    sampler = CompiledSampler(seat_view(state, state.turn))
    a, b, c = sampler.draw(20, 7), sampler.draw(20, 7), sampler.draw(20, 8)
    assert (a.hands == b.hands).all() and (a.kitty == b.kitty).all()
    assert (a.dealt_hands == b.dealt_hands).all() and (a.exch_picked == b.exch_picked).all()
    assert not (a.hands == c.hands).all()
    again = CompiledSampler(seat_view(state, state.turn)).draw(20, 7)
    assert (again.hands == a.hands).all()


@pytest.mark.parametrize("players", sorted(TABLES))
def test_records_repeat_each_world_and_keep_the_public_history(players):
    state = drive(State(TABLES[players], seed=9), random.Random(9), 25 + 2 * players)
    assert state.phase == Phase.PLAY
    view = seat_view(state, state.turn)
    sampler = CompiledSampler(view)
    worlds = sampler.draw(6, 1)
    assert worlds.hands.shape == (6, players)
    games = sampler.games(worlds, repeat=3)
    assert games.dtype == GAME_DTYPES[players] and len(games) == 18
    assert (games["hands"] == np.repeat(worlds.hands, 3, axis=0)).all()
    assert (games["kitty"] == np.repeat(worlds.kitty, 3)).all()
    assert (games["dealt_hands"] == np.repeat(worlds.dealt_hands, 3, axis=0)).all()
    assert (games["ntricks"] == len(view.tricks)).all() and (games["turn"] == view.turn).all()
    assert (games["hands"][:, view.seat] == view.hand).all()
    batch = FastGames(1, view.rules)
    batch.games, batch.num_games = games, len(games)
    for i in range(0, 18, 5):
        check_world(view, batch.to_state(i))


def test_an_inconsistent_view_is_refused():
    view = seat_view(State(Rules(), seed=5), 0)
    bad = view.__class__(**{**view.__dict__, "voids": (0, 0b11111, 0, 0)})
    with pytest.raises(InconsistentView):
        CompiledSampler(bad)
    bad = view.__class__(**{**view.__dict__, "hand_sizes": (10, 10, 10, 9)})
    with pytest.raises(InconsistentView):
        CompiledSampler(bad)
    view = seat_view(State(TABLES[6], seed=5), 0)
    bad = view.__class__(**{**view.__dict__, "hand_sizes": (10, 10, 10, 10, 10, 9)})
    with pytest.raises(InconsistentView):
        CompiledSampler(bad)


# ------------------------------------------------------------------------- six-handed nullo
def _slot_of_each_card(hands: np.ndarray, cards: list[int]) -> np.ndarray:
    """``[worlds, cards]``: the hand holding each card, or ``players`` for the kitty."""
    players = hands.shape[1]
    out = np.full((len(hands), len(cards)), players)
    for i, c in enumerate(cards):
        held = (hands >> np.uint64(c)) & np.uint64(1)
        for s in range(players):
            out[held[:, s] == 1, i] = s
    return out


def _largest_two_sample_z(a: np.ndarray, b: np.ndarray, slots: int) -> float:
    """The largest, over the cards, chi-square z of the hypothesis that the card lies in each
    slot as often in the worlds ``a`` as in ``b`` (two-sample test of each card's location)."""
    zs = []
    for i in range(a.shape[1]):
        ca, cb = np.bincount(a[:, i], minlength=slots), np.bincount(b[:, i], minlength=slots)
        total = ca + cb
        keep = total > 0
        if keep.sum() < 2:
            continue
        ea, eb = total[keep] * len(a) / (len(a) + len(b)), total[keep] * len(b) / (len(a) + len(b))
        chi2 = ((ca[keep] - ea) ** 2 / ea).sum() + ((cb[keep] - eb) ** 2 / eb).sum()
        df = keep.sum() - 1
        zs.append(((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df)))
    return max(zs)


@pytest.mark.parametrize("seed, tricks, extra, seat", [(41, 4, 1, 1), (42, 6, 0, 4)])
def test_six_handed_nullo_draws_as_the_python_sampler(seed, tricks, extra, seat):
    """The two partners of a six-handed nullo declarer sit out (§9.2) and keep their ten cards
    unseen: each unseen card lies in each hand and the kitty as often as under the Python
    sampler (which tests/test_sampler.py holds to the enumeration), and a draw that ignores the
    completion counts fails the same check."""
    state = _position(SIX, seed, {0: A.NULLO}, tricks, extra, seat)
    view = seat_view(state, seat)
    partners = [s for s in range(6) if s != view.declarer and (s - view.declarer) % 2 == 0]
    assert len(view.tricks[0][1]) == 4 and all(view.hand_sizes[s] == 10 for s in partners)
    sampler = CompiledSampler(view)
    hidden = {s for s in partners if s != seat}
    assert any(hidden <= set(group) for group in sampler.groups)  # interchangeable
    assert sampler.n_locations == Determinizer(view).n_locations
    for world in drawn_states(sampler, 5, seed):
        check_world(view, world)
    cards, n = list(cards_of(view.unseen)), 1500
    det, rng = Determinizer(view), random.Random(seed)
    python = _slot_of_each_card(np.array([det._world(rng)[0] for _ in range(n)], np.uint64),
                                cards)
    compiled = _slot_of_each_card(sampler.draw(n, seed).hands, cards)
    assert _largest_two_sample_z(compiled, python, 7) < 4.5
    sampler._f[:] = sampler._f > 0  # the deliberate bias
    biased = _slot_of_each_card(sampler.draw(n, seed).hands, cards)
    assert _largest_two_sample_z(biased, python, 7) > 4.5


def _rollout_scores(bot: FastMCBot, view, candidates: list[int], games: np.ndarray) -> np.ndarray:
    """The team score of each (world, candidate) rollout, ``[worlds, candidates]``."""
    first = np.tile(np.asarray(candidates, np.int64), len(games) // len(candidates))
    policy_rollouts(games, bot._loader(view.rules)._rules, first)
    team = view.seat % 2
    points = games["hand_points"]
    return (points[:, team] - points[:, 1 - team]).reshape(-1, len(candidates))


def test_mcfast_estimates_agree_with_the_python_sampler():
    """mcfast's candidate scores over compiled-sampler worlds and over Python-sampler worlds
    (``bench.mc_fast.PythonSamplerMCBot``, what mcfast drew before) estimate the same means:
    every difference stays within 5 standard errors."""
    rules = Rules.preset("australian")
    n = 300
    bot, before = FastMCBot(samples=n), PythonSamplerMCBot(samples=n)
    compared = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = drive(State(rules, seed=seed), rng, rng.randrange(12, 40))
        if state.phase != Phase.PLAY:
            continue
        view = seat_view(state, state.turn)
        candidates = distinct_plays(view)
        if len(candidates) < 2:
            continue
        new = _rollout_scores(bot, view, candidates,
                              bot.draw_worlds(view, len(candidates), rng))
        old = _rollout_scores(bot, view, candidates,
                              before.draw_worlds(view, len(candidates), rng))
        error = np.sqrt(new.var(axis=0) / n + old.var(axis=0) / n) + 1e-9
        assert (np.abs(new.mean(axis=0) - old.mean(axis=0)) < 5 * error).all()
        compared += 1
        if compared == 6:
            break
    assert compared == 6
