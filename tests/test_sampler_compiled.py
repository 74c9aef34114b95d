"""The compiled exact sampler (agents.sampler_compiled): the same distribution as
agents.sampler, drawn into fast-core records.

The exhaustive small positions of tests/test_sampler.py apply unchanged: every drawn world is
one the brute-force enumeration finds, and the drawn frequencies pass the same chi-square check
of uniformity (which a sampler that ignores the completion counts fails, shown below).  Every
drawn record, read back as a State, shows the seat exactly its view and is the replay of its own
deal, under every variant of tests/test_sampler.py.
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
from agents.rollout_policy import policy_rollouts
from agents.sampler import Determinizer, InconsistentView, replay
from agents.sampler_compiled import CompiledSampler
from bench.mc_fast import PythonSamplerMCBot
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State, check_deal
from fh_env.rules import Rules
from fh_env.view import seat_view

from test_sampler import POSITIONS, VARIANTS, _chi_square_z, _position, drive, enumerate_worlds

# the fast core deals four hands: the four-player positions and variants of test_sampler.py
POSITIONS = [p for p in POSITIONS if p[0].players == 4]
VARIANTS = {name: rules for name, rules in VARIANTS.items() if rules.players == 4}


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
@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 70), seat=st.integers(0, 3))
def test_every_world_is_consistent_with_the_view(variant, seed, steps, seat):
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    state = drive(State(rules, seed=seed), rng, steps)
    if state.is_terminal:
        state = State(rules, seed=seed + 1)
    view = seat_view(state, seat)
    sampler = CompiledSampler(view)
    exact = Determinizer(view).n_locations  # float64 counts: exact below 2**53
    assert sampler.n_locations == exact if exact < 2**53 else \
        math.isclose(sampler.n_locations, exact, rel_tol=1e-12)
    for world in drawn_states(sampler, 3, seed):
        check_world(view, world)


# ------------------------------------------------------------------------- exactness
def _frequencies(sampler: CompiledSampler, n: int, seed: int) -> Counter:
    worlds = sampler.draw(n, seed)
    return Counter(worlds.key(w) for w in range(n))


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_frequencies_match_exhaustive_enumeration(index):
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    assert worlds and max(worlds.values()) == 1
    sampler = CompiledSampler(view)
    n = max(4000, 40 * len(worlds))
    observed = _frequencies(sampler, n, seed=index)
    assert set(observed) <= set(worlds), "the sampler drew a world the enumeration rejects"
    z = _chi_square_z(observed, list(worlds), n)
    assert z < 4.5, f"{len(worlds)} worlds, {len(observed)} seen, z = {z:.2f}"
    if not rules.six_nt_shows_joker and not rules.highest_joker_in_kitty:
        present = set()
        for dealt, kitty, discards in worlds:
            replayed = replay(view, list(dealt), kitty, list(discards))
            present.add((tuple(replayed.hands), replayed.kitty))
        assert sampler.n_locations == len(present)
    for world in drawn_states(sampler, 5, seed=index):
        check_world(view, world)


@pytest.mark.parametrize("index", [0, 7])
def test_the_check_fails_a_sampler_that_ignores_the_completion_counts(index):
    """The same check, on a sampler that places each card in any slot where the rest can still
    be placed, each with equal chance (the count table replaced by its support): its worlds are
    all consistent, but not equally likely, and the chi-square check says so."""
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    sampler = CompiledSampler(view)
    sampler._f[:] = sampler._f > 0  # the deliberate bias
    n = max(4000, 40 * len(worlds))
    observed = _frequencies(sampler, n, seed=index)
    assert set(observed) <= set(worlds)
    assert _chi_square_z(observed, list(worlds), n) > 4.5


def test_a_draw_is_reproducible_from_its_seed():
    state = drive(State(Rules(), seed=4), random.Random(4), 30)
    sampler = CompiledSampler(seat_view(state, state.turn))
    a, b, c = sampler.draw(20, 7), sampler.draw(20, 7), sampler.draw(20, 8)
    assert (a.hands == b.hands).all() and (a.kitty == b.kitty).all()
    assert not (a.hands == c.hands).all()


def test_records_repeat_each_world_and_keep_the_public_history():
    state = drive(State(Rules(), seed=9), random.Random(9), 25)
    view = seat_view(state, state.turn)
    sampler = CompiledSampler(view)
    worlds = sampler.draw(6, 1)
    games = sampler.games(worlds, repeat=3)
    assert len(games) == 18
    assert (games["hands"] == np.repeat(worlds.hands, 3, axis=0)).all()
    assert (games["kitty"] == np.repeat(worlds.kitty, 3)).all()
    assert (games["ntricks"] == len(view.tricks)).all() and (games["turn"] == view.turn).all()
    assert (games["hands"][:, view.seat] == view.hand).all()


def test_an_inconsistent_view_or_another_table_size_is_refused():
    view = seat_view(State(Rules(), seed=5), 0)
    bad = view.__class__(**{**view.__dict__, "voids": (0, 0b11111, 0, 0)})
    with pytest.raises(InconsistentView):
        CompiledSampler(bad)
    bad = view.__class__(**{**view.__dict__, "hand_sizes": (10, 10, 10, 9)})
    with pytest.raises(InconsistentView):
        CompiledSampler(bad)
    with pytest.raises(ValueError):
        CompiledSampler(seat_view(State(Rules.preset("three-handed"), seed=1), 0))


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
