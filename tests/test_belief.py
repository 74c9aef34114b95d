"""The belief model and its sampler (agents.belief).

The sampler's exactness is checked against the exhaustive enumeration of tests/test_sampler.py
(every deal and discard set the rules allow, replayed by the engine): with a uniform belief the
weighted worlds are the exact sampler's uniform ones; with a non-uniform belief each world's
weight is exactly the belief's product over its cards (up to one constant, over every world the
enumeration finds), and the weighted frequencies match the belief restricted to the consistent
worlds.  The uniform marginals the log-loss is measured against are checked against the
enumeration too.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict

import numpy as np
import pytest
import torch

from agents.belief import (BeliefNet, BeliefSampler, allowed_locations, collect, fit,
                           games_log_weights, load_belief, location_of_slot, log_losses,
                           save_belief, slot_of_location, true_locations, uniform_marginals)
from fh_env.compiled.sampler import CompiledSampler
from fh_env.sampler import Determinizer, replay
from fh_env.cards import NUM_CARDS, cards_of
from fh_env.compiled.games import FastGames
from fh_env.view import seat_view

from test_sampler import POSITIONS, _chi_square_z, _position, _world_key, enumerate_worlds

# four-player suit, notrump-mid-trick, nullo and double-nullo views, and two three-player ones
CASES = [0, 1, 2, 3, 5, 6, 12, 13]


def _setup(index: int):
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    assert worlds
    present = {}
    for key in worlds:
        dealt, kitty, discards = key
        s = replay(view, list(dealt), kitty, list(discards))
        present[key] = (tuple(s.hands), s.kitty)
    return state, view, worlds, present


def _random_belief(det: Determinizer, seed: int) -> np.ndarray:
    """A sharp, non-uniform belief over each card's allowed locations."""
    rng = np.random.default_rng(seed)
    allowed = allowed_locations(det)
    probs = rng.dirichlet(np.full(allowed.shape[1], 1.0), size=NUM_CARDS) * allowed
    probs[allowed.any(1)] /= probs[allowed.any(1)].sum(1, keepdims=True)
    return probs


def _log_target(view, probs, hands, kitty) -> float:
    """log prod_c probs[c, loc_c], written independently of the sampler's code."""
    n = view.rules.players
    total = 0.0
    for s in range(n + 1):
        if s == view.seat:
            continue
        held = kitty if s == n else hands[s]
        for c in cards_of(held & view.unseen):
            total += math.log(probs[c, location_of_slot(s, view.seat, n)])
    return total


def test_locations_round_trip():
    for n in (3, 4, 6):
        for me in range(n):
            slots = [s for s in range(n + 1) if s != me]
            locs = [location_of_slot(s, me, n) for s in slots]
            assert sorted(locs) == list(range(n))
            assert [slot_of_location(loc, me, n) for loc in locs] == slots


@pytest.mark.parametrize("index", CASES)
def test_uniform_marginals_match_the_enumeration(index):
    state, view, worlds, present = _setup(index)
    det = Determinizer(view)
    n = view.rules.players
    counts = np.zeros((NUM_CARDS, n))
    placements = set(present.values())  # each present placement once (uniform over them)
    for hands, kitty in placements:
        for s in range(n + 1):
            if s != view.seat:
                for c in cards_of((kitty if s == n else hands[s]) & view.unseen):
                    counts[c, location_of_slot(s, view.seat, n)] += 1
    np.testing.assert_allclose(uniform_marginals(det), counts / len(placements), atol=1e-12)
    allowed = allowed_locations(det)
    assert not (counts > 0)[~allowed].any()  # the mask never rules out a possible location
    truth = true_locations(state, view.seat, view.unseen)
    assert allowed[np.flatnonzero(truth >= 0), truth[truth >= 0]].all()


@pytest.mark.parametrize("index", CASES)
def test_with_a_uniform_belief_the_weighted_worlds_are_the_exact_samplers(index):
    _, view, worlds, _ = _setup(index)
    det = Determinizer(view)
    allowed = allowed_locations(det)
    flat = np.full(allowed.shape, 0.25)  # the same for every card and location
    sampler = BeliefSampler(view, flat, det=det)
    n = max(2000, 20 * len(worlds))
    states, w = sampler.sample(random.Random(index), n)
    np.testing.assert_allclose(w, 1.0 / n, rtol=1e-9)
    observed = Counter(_world_key(s) for s in states)
    assert set(observed) <= set(worlds)
    assert _chi_square_z(observed, list(worlds), n) < 4.5


def _weighted_marginals(view, states, w):
    n = view.rules.players
    out = np.zeros((len(states), NUM_CARDS, n))
    for i, s in enumerate(states):
        for slot in range(n + 1):
            if slot != view.seat:
                for c in cards_of((s.kitty if slot == n else s.hands[slot]) & view.unseen):
                    out[i, c, location_of_slot(slot, view.seat, n)] = 1
    est = np.einsum("i,icl->cl", w, out)
    se = np.sqrt(np.einsum("i,icl->cl", w ** 2, (out - est) ** 2))  # delta method
    return est, se


@pytest.mark.parametrize("index", CASES)
def test_with_a_non_uniform_belief_the_weights_give_it_restricted_to_consistent_worlds(index):
    _, view, worlds, present = _setup(index)
    det = Determinizer(view)
    probs = _random_belief(det, index)
    sampler = BeliefSampler(view, probs, det=det)
    # 1. exact: every consistent world's weight is the belief's product, one constant for all
    diffs = [sampler.log_weight(list(h), k) - _log_target(view, probs, h, k)
             for h, k in present.values()]
    assert max(diffs) - min(diffs) < 1e-9
    # 2. statistical: the weighted marginals are the target's (the enumeration's, weighted)
    n = view.rules.players
    logt = np.array([_log_target(view, probs, h, k) for h, k in present.values()])
    pt = np.exp(logt - logt.max())
    pt /= pt.sum()
    target = np.zeros((NUM_CARDS, n))
    for p, (h, k) in zip(pt, present.values()):
        for slot in range(n + 1):
            if slot != view.seat:
                for c in cards_of((k if slot == n else h[slot]) & view.unseen):
                    target[c, location_of_slot(slot, view.seat, n)] += p
    states, w = sampler.sample(random.Random(100 + index), 6000)
    assert {_world_key(s) for s in states} <= set(worlds)
    est, se = _weighted_marginals(view, states, w)
    cells = (target > 0.01) & (target < 0.99)
    assert cells.any()
    z = np.abs(est - target)[cells] / np.maximum(se[cells], 1e-12)
    assert z.max() < 5.0, f"max z {z.max():.2f}"
    # the check has power: the unweighted (uniform) worlds miss the target
    flat = np.full(len(states), 1.0 / len(states))
    est0, se0 = _weighted_marginals(view, states, flat)
    if np.abs(target - uniform_marginals(det))[cells].max() > 0.1:
        assert (np.abs(est0 - target)[cells] / np.maximum(se0[cells], 1e-12)).max() > 5.0
    # 3. resampling gives unweighted worlds of the same distribution (consistent ones only)
    again = sampler.resample(random.Random(7), 50, 500)
    assert {_world_key(s) for s in again} <= set(worlds)


def test_compiled_worlds_are_weighted_as_the_python_ones():
    _, view, _, _ = _setup(0)
    det = Determinizer(view)
    probs = _random_belief(det, 3)
    sampler = BeliefSampler(view, probs, det=det)
    loader = FastGames(1, view.rules)
    games = CompiledSampler(view).sample_games(30, 5, 1, loader)
    got = games_log_weights(view, probs, games)
    want = [sampler.log_weight([int(h) for h in g["hands"]], int(g["kitty"])) for g in games]
    np.testing.assert_allclose(got, want, rtol=1e-9)


def test_net_masks_starts_at_the_prior_and_round_trips(tmp_path):
    torch.manual_seed(0)
    net = BeliefNet(30, 4, hidden=8)
    allowed = torch.zeros(2, NUM_CARDS, 4, dtype=torch.bool)
    allowed[:, :5, 1:3] = True
    prior = torch.zeros(2, NUM_CARDS, 4)
    prior[:, :5, 1], prior[:, :5, 2] = 0.3, 0.7
    logp = net(torch.rand(2, 30), allowed, prior)
    probs = logp.exp() * allowed
    np.testing.assert_allclose(probs[:, :5].sum(-1).detach().numpy(), 1.0, rtol=1e-5)
    assert float(probs[:, 5:].detach().sum()) == 0.0
    # untrained, the model is the uniform sampler's marginals
    np.testing.assert_allclose(probs.detach().numpy(), prior.numpy(), atol=1e-6)
    with torch.no_grad():
        net.body[-1].bias.normal_()
    path = tmp_path / "b.pt"
    save_belief(net, path, {"seed": 1})
    again = load_belief(path)
    x = torch.ones(1, 30)
    assert torch.equal(again(x, allowed[:1], prior[:1]), net(x, allowed[:1], prior[:1]))
    assert [p.name for p in tmp_path.iterdir()] == ["b.pt"]


def test_collect_and_fit_are_seeded_and_learn():
    a = collect(6, seed=4)
    b = collect(6, seed=4)
    for key in a:
        assert np.array_equal(a[key], b[key])
    hidden = a["target"] >= 0
    assert (hidden == a["allowed"].any(-1)).all()
    rows, cards = np.nonzero(hidden)
    assert a["allowed"][rows, cards, a["target"][rows, cards]].all()
    net = fit(a, seed=0, epochs=30, hidden=32)
    res = log_losses(net, a)
    assert res["model"] < res["uniform"]  # on its training data, at least


def test_nmc_with_belief_resamples_consistent_worlds_and_plays_a_legal_card():
    from agents.registry import make_bot
    from agents.rule import RuleBot
    from fh_env.engine import Phase, State
    from fh_env.rules import Rules

    bot = make_bot("nmc:best,samples=8,belief=1", Rules())
    rng = random.Random(1)
    state = State(Rules(), seed=3)
    rule = RuleBot()
    while state.phase != Phase.PLAY or len(state.tricks) < 2:
        state.apply(rule.act(seat_view(state, state.turn), rng))
    view = seat_view(state, state.turn)
    games = bot.belief_worlds(view, 2, rng)
    assert len(games) == 16 and (games["hands"][0::2] == games["hands"][1::2]).all()
    loader = FastGames(1, Rules())
    for g in games[::2]:  # every world shows the seat exactly its view
        loader.games[0] = g
        assert seat_view(loader.to_state(0), view.seat) == view
    assert bot.act(view, rng) in view.legal_actions()
