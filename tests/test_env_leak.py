"""No leak: an observation must not change when the cards its observer cannot see are dealt
differently (OpenSpiel's resample test; PettingZoo issue 233 was such a leak).

For random positions of every preset and phase, and for every observer, the hidden cards
(``view.unseen``) are permuted among the other hands and the kitty, keeping each holder's number
of cards, every void shown (bit 4: shown to hold no joker), the jokers in place when a 6NT bid
showed one, and everything the observer saw (its hand, the kitty and discards of its exchange,
an exposed hand, the played cards).  The permutation is applied to the whole history of the
state (dealt hands, other seats' exchanges) so the new world is a consistent deal.  Then
``observe(agent)`` (through the env) and ``encode``/``action_mask`` must be unchanged.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fh_env
from fh_env.cards import JOKER_BITS, TABLES, cards_of
from fh_env.engine import Phase, State
from fh_env.observe import action_mask, encode, encode_state
from fh_env.rules import PRESETS, Rules
from fh_env.view import seat_view

VARIANTS = [Rules.preset(p) for p in PRESETS] + [
    Rules.preset("avondale-classic").replace(open_nullo_exposed="at_first_lead",
                                             joker_lead="not_shown_void"),
    Rules.preset("australian").replace(six_nt_shows_joker=True, misdeal=True, all_pass="play",
                                       nullo_kitty="nullo_only"),
    # the other table sizes (§9), with the options that show most
    Rules.preset("six-handed").replace(open_nullo_exposed="at_first_lead", nullo="anytime",
                                       joker_lead="not_shown_void"),
    Rules.preset("three-handed").replace(six_nt_shows_joker=True, misdeal=True,
                                         all_pass="play", nullo="anytime"),
]


def _forbidden(state: State, seat: int) -> int:
    """The cards ``seat`` cannot hold given what it showed: suits shown void, jokers if shown
    to hold none."""
    voids = state.voids[seat]
    masks = TABLES.suit_mask[state.context]
    out = 0
    for suit in range(4):
        if voids >> suit & 1:
            out |= masks[suit]
    if voids >> 4 & 1:
        out |= JOKER_BITS
    return out


def resample(state: State, observer: int, rng: random.Random, tries: int = 200) -> State | None:
    """A copy of ``state`` with the cards hidden from ``observer`` dealt anew (see module doc),
    or None when the rejection sampler found no other consistent deal."""
    view = seat_view(state, observer)
    unseen = view.unseen
    if state.shows_joker:
        unseen &= ~JOKER_BITS  # a joker shown by 6NT stays with its holder
    for s, _, discards in view.exchanges:
        if s == observer:
            # Double nullo (§4.3): the partner picked up the observer's discards, so they can
            # only be in the partner's hand or the kitty; keep them where they are.
            unseen &= ~discards
    holders = [s for s in range(state.rules.players) if s != observer]
    parts = {s: state.hands[s] & unseen for s in holders}
    parts["kitty"] = state.kitty & unseen
    placed = 0
    for part in parts.values():
        assert not placed & part
        placed |= part
    assert placed == unseen, "a hidden card is neither in another hand nor in the kitty"
    cards = list(cards_of(unseen))
    forbidden = {s: _forbidden(state, s) for s in holders}
    for _ in range(tries):
        rng.shuffle(cards)
        new, pos = {}, 0
        for key, part in parts.items():
            n = part.bit_count()
            new[key] = sorted(cards[pos:pos + n])
            pos += n
        if any(forbidden[s] >> c & 1 for s in holders for c in new[s]):
            continue
        # the permutation: each holder's old hidden cards, in order, become its new ones
        perm = {}
        for key, part in parts.items():
            perm.update(zip(cards_of(part), new[key]))
        return _apply(state, perm)
    return None


def _map(mask: int, perm: dict[int, int]) -> int:
    out = 0
    for c in cards_of(mask):
        out |= 1 << perm.get(c, c)
    return out


def _apply(state: State, perm: dict[int, int]) -> State:
    new = state.clone()
    new.hands = [_map(h, perm) for h in state.hands]
    new.kitty = _map(state.kitty, perm)
    new.dealt = (tuple(_map(h, perm) for h in state.dealt[0]), _map(state.dealt[1], perm))
    new.exchanges = [[s, _map(p, perm), _map(d, perm)] for s, p, d in state.exchanges]
    new._legal = -1  # recomputed from the new hands
    return new


def positions(rng: random.Random, count: int):
    """Random (state, env) pairs: random play under random rules, stopped in every phase."""
    for i in range(count):
        rules = VARIANTS[i % len(VARIANTS)]
        env = fh_env.raw_env(rules=rules, episode="game")
        env.reset(seed=rng.randrange(10**9))
        stop = rng.randrange(60)
        for _ in range(stop):
            if env.game.phase >= Phase.HAND_OVER:
                break
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        yield env


def test_observation_is_unchanged_when_hidden_cards_are_redealt() -> None:
    rng = random.Random(2024)
    checked = moved = 0
    phases = set()
    for env in positions(rng, 400):
        state = env.game
        for seat, agent in enumerate(env.possible_agents):
            other = resample(state, seat, rng)
            if other is None:
                continue
            checked += 1
            phases.add(state.phase)
            if other.hands != state.hands or other.kitty != state.kitty:
                moved += 1
            before = env.observe(agent)
            env._game = other
            try:
                after = env.observe(agent)
            finally:
                env._game = state
            assert np.array_equal(before["observation"], after["observation"]), (agent, state)
            assert np.array_equal(before["action_mask"], after["action_mask"]), (agent, state)
            view, other_view = seat_view(state, seat), seat_view(other, seat)
            assert np.array_equal(encode(view), encode(other_view))
            assert np.array_equal(action_mask(view), action_mask(other_view))
    assert checked >= 1200 and moved >= checked // 2, (checked, moved)
    assert phases >= {Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY}


def test_resampled_worlds_really_differ() -> None:
    """The test above could not fail if the resampler never changed anything the critic sees:
    the full state (hidden cards included) must change for most resampled worlds."""
    rng = random.Random(7)
    changed = total = 0
    for env in positions(rng, 60):
        state = env.game
        for seat in range(state.rules.players):
            other = resample(state, seat, rng)
            if other is None:
                continue
            total += 1
            changed += not np.array_equal(encode_state(state, seat), encode_state(other, seat))
            assert other.legal_mask() == state.legal_mask() or state.turn != seat
    assert total and changed >= total // 2


@pytest.mark.parametrize("seat", range(4))
def test_resampler_keeps_voids_and_hand_sizes(seat: int) -> None:
    rng = random.Random(seat)
    for env in positions(rng, 80):
        state = env.game
        me = seat % state.rules.players
        other = resample(state, me, rng)
        if other is None:
            continue
        for s in range(state.rules.players):
            assert other.hands[s].bit_count() == state.hands[s].bit_count()
            if s != me:
                assert not other.hands[s] & _forbidden(state, s)
        assert other.hands[me] == state.hands[me]
        assert other.kitty.bit_count() == state.kitty.bit_count()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2**32),
       steps=st.integers(0, 70), sampler_seed=st.integers(0, 2**16))
def test_no_leak_property(variant: int, seed: int, steps: int, sampler_seed: int) -> None:
    """The same check as above, driven by hypothesis (which shrinks a failing position)."""
    rng = random.Random(sampler_seed)
    state = State(VARIANTS[variant], seed=seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(state.rules.players):
        other = resample(state, seat, rng)
        if other is not None:
            view, other_view = seat_view(state, seat), seat_view(other, seat)
            assert np.array_equal(encode(view), encode(other_view))
            assert np.array_equal(action_mask(view), action_mask(other_view))
