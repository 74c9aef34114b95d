"""The unseen-card sampler (fh_env.sampler): every sample is consistent with the seat's view,
and on small positions the samples' frequencies match an exhaustive enumeration of the worlds
consistent with the view.

The enumeration is independent of the sampler's reasoning: it tries every deal and every set
of discards that the rules allow (a card can only enter a hand from the deal or a kitty), replays
the public history on each with the engine (an illegal replay, for example a card held in a suit
its holder failed to follow, drops the world) and keeps the worlds whose view for the seat is
exactly the observed view.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.rule import RuleBot
from fh_env.sampler import Determinizer, InconsistentView, history_actions, replay
from fh_env import actions as A
from fh_env.cards import JOKER, cards_of, mask_of, parse_card
from fh_env.engine import IllegalActionError, Phase, State, check_deal, trick_order
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import FOUR_PLAYER_PRESETS as PRESETS

RULE = RuleBot()

VARIANTS = {
    **{name: Rules.preset(name) for name in PRESETS},
    "misc-options": Rules.preset("australian").replace(
        all_pass="play", misdeal=True, raise_own_bid=True, reenter="always",
        joker_follow="anytime", joker_lead="not_shown_void", stick_the_dealer=True),
    "shows-joker": Rules(six_nt_shows_joker=True, highest_joker_in_kitty=False),
    "joker-in-kitty": Rules(highest_joker_in_kitty=True, nullo="anytime", nullo_kitty="always"),
    "jokers-low": Rules.preset("american-double-nullo").replace(
        jokers_low_in_nullo=True, nullo_must_play_joker=True, double_nullo="anytime",
        joker_follow="first_or_last", open_nullo_exposed="after_first_trick"),
    "two-jokers": Rules(deck="46", six_nt_shows_joker=True, nullo="anytime",
                        open_nullo="anytime", notrump_ranking="j5"),
}


def drive(state: State, rng: random.Random, steps: int, randomness: float = 0.3,
          calls: dict[int, int] | None = None) -> State:
    """Advance ``steps`` actions: mostly the rule bot, sometimes a random legal action.

    ``calls`` forces the call made at a given auction position (index into the calls).
    """
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.phase == Phase.AUCTION and calls and len(state.calls) in calls \
                and state.is_legal(calls[len(state.calls)]):
            action = calls[len(state.calls)]
        elif rng.random() < randomness:
            action = rng.choice(state.legal_actions())
        else:
            action = RULE.act(seat_view(state, state.turn), rng)
        state.apply(action)
    return state


def check_sample(view, sample: State) -> None:
    """The sample shows the seat exactly its view and is a legal continuation of its deal."""
    assert seat_view(sample, view.seat) == view
    check_deal(view.rules, list(sample.dealt[0]), sample.dealt[1])
    again = replay(view, list(sample.dealt[0]), sample.dealt[1], [e[2] for e in sample.exchanges])
    assert again == sample
    assert sample.hands[view.seat] == view.hand


# ------------------------------------------------------------------------- consistency
@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 70), seat=st.integers(0, 3))
def test_every_sample_is_consistent_with_the_view(variant, seed, steps, seat):
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    state = drive(State(rules, seed=seed), rng, steps)
    if state.is_terminal:
        state = State(rules, seed=seed + 1)
    view = seat_view(state, seat)
    det = Determinizer(view)
    for _ in range(4):
        check_sample(view, det.sample(rng))
    # the true state is one of the worlds the sampler can produce
    assert det.n_locations >= 1


SIZES = {"three-handed": Rules.preset("three-handed"), "six-handed": Rules.preset("six-handed"),
         "six-anytime-nullo": Rules(players=6, nullo="anytime", open_nullo="anytime",
                                    all_pass="play")}


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(sorted(SIZES)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80), seat=st.integers(0, 5))
def test_every_sample_is_consistent_with_the_view_at_three_and_six_players(variant, seed, steps,
                                                                             seat):
    rules = SIZES[variant]
    rng = random.Random(seed)
    state = drive(State(rules, seed=seed), rng, steps, randomness=0.5)
    if state.is_terminal:
        state = State(rules, seed=seed + 1)
    view = seat_view(state, seat % rules.players)
    det = Determinizer(view)
    for _ in range(3):
        check_sample(view, det.sample(rng))


def test_voids_left_bower_and_joker_shown_are_respected():
    """A seat that failed to follow trumps (hearts) holds neither bower nor the joker."""
    rules = Rules()
    # seat 0 declares 6H; seat 1 is void in hearts (its hearts are none, and no JD/JK)
    hands = ["JK JH JD AH KH QH 10H 9H 8H 7H", "5S 6S 7S 8S 9S 10S JS QS KS AS",
             "6H 5H 4H 4D 5D 6D 7D 8D 9D 10D", "5C 6C 7C 8C 9C 10C JC QC KC AC"]
    state = State.from_deal(rules, [h.split() for h in hands], "QD KD AD".split(), dealer=3)
    state.apply(A.str_to_action("6H"))
    for _ in range(3):
        state.apply(A.PASS)
    for name in ("QD", "KD", "AD"):
        state.apply(A.str_to_action("discard " + name))
    state.apply(A.str_to_action("play 7H"))  # seat 0 leads a trump
    state.apply(A.str_to_action("play 5S"))  # seat 1 shows void in trumps
    view = seat_view(state, 2)
    assert view.voids[1] & 0b1000
    det = Determinizer(view)
    rng = random.Random(1)
    trumps = mask_of(parse_card(c) for c in "JK JH JD AH KH QH 10H 9H 8H".split())
    seen_in_3 = 0
    for _ in range(300):
        sample = det.sample(rng)
        check_sample(view, sample)
        assert not sample.hands[1] & trumps  # the left bower (JD) and joker included
        seen_in_3 |= sample.hands[3] & trumps
    assert seen_in_3 & (1 << parse_card("JD")) and seen_in_3 >> JOKER & 1


def test_a_six_notrump_bid_under_six_nt_shows_joker_puts_the_joker_in_that_hand():
    rules = Rules(six_nt_shows_joker=True)
    rng = random.Random(3)
    for seed in range(200):
        state = State(rules, seed=seed, dealer=3)
        if not state.hands[1] >> JOKER & 1:
            continue
        state.apply(A.PASS)
        state.apply(A.bid_action(6, A.NT))  # seat 1 shows the joker
        view = seat_view(state, 2)
        det = Determinizer(view)
        for _ in range(50):
            sample = det.sample(rng)
            check_sample(view, sample)
            assert sample.hands[1] >> JOKER & 1
        return
    pytest.fail("no deal gave seat 1 the joker")


def test_an_inconsistent_view_is_rejected():
    state = State(Rules(), seed=5)
    view = seat_view(state, 0)
    # seat 1 "shown void" in every suit and of jokers, yet holding ten cards
    bad = view.__class__(**{**view.__dict__, "voids": (0, 0b11111, 0, 0)})
    with pytest.raises(InconsistentView):
        Determinizer(bad)
    bad = view.__class__(**{**view.__dict__, "hand_sizes": (10, 10, 10, 9)})
    with pytest.raises(InconsistentView):
        Determinizer(bad)


# ------------------------------------------------------------------------- exactness
def enumerate_worlds(view, true_state: State) -> Counter:
    """Every (deal, discards) consistent with ``view``, found by brute force and replay."""
    rules = view.rules
    me = view.seat
    n = rules.players
    deck = list(rules.cards)
    k = rules.kitty_size
    exchangers = list(view.exchanging)
    partner_of_declarer = exchangers[1] if len(exchangers) == 2 else -1
    played_by = [0] * n
    for leader, cards, _, _ in view.tricks + ((view.leader, view.trick, 0, 0),):
        if not cards:
            continue
        for seat, c in zip(trick_order(leader, view.sitting_out, n), cards):
            played_by[seat] |= 1 << c
    mine = true_state.dealt[0][me]  # a seat knows the hand it was dealt
    others = [s for s in range(n) if s != me]
    slots = others + [n]
    candidates = {}
    for c in deck:
        if mine >> c & 1:
            continue
        owner = next((s for s in range(n) if played_by[s] >> c & 1), None)
        if owner is None:
            candidates[c] = slots
        else:  # a played card was dealt to its player, or came to it from a kitty
            allowed = {owner}
            if owner in exchangers:
                allowed.add(n)
            if owner == partner_of_declarer:
                allowed.add(exchangers[0])
            candidates[c] = [s for s in slots if s in allowed]
    free = sorted(candidates, key=lambda c: len(candidates[c]))
    worlds: Counter = Counter()
    hands = [0] * (n + 1)
    hands[me] = mine
    sizes = [10] * n + [k]

    def place(i: int) -> None:
        if i == len(free):
            try_deal(list(hands[:n]), hands[n])
            return
        c = free[i]
        for s in candidates[c]:
            if hands[s].bit_count() < sizes[s]:
                hands[s] |= 1 << c
                place(i + 1)
                hands[s] &= ~(1 << c)

    def try_deal(dealt: list[int], kitty: int) -> None:
        try:
            check_deal(rules, dealt, kitty)  # e.g. highest_joker_in_kitty (§1.3)
        except ValueError:
            return
        # every discard set each exchanger could have made (not a card it played later)
        def walk(j: int, held: list[int], pot: int, discards: list[int]) -> None:
            if j == len(exchangers):
                run(dealt, kitty, discards)
                return
            x = exchangers[j]
            after = held[x] | pot
            options = after & ~played_by[x]
            if exchangers[j] == me and j < len(view.exchanges):
                pass  # the view check below keeps only this seat's real discards
            for combo in itertools.combinations(list(cards_of(options)), k):
                d = mask_of(combo)
                if j == len(exchangers) - 1 and view.phase == Phase.EXCHANGE:
                    # the last exchange is in progress: its discards so far
                    done = k - view.discards_left
                    for part in itertools.combinations(combo, done):
                        run(dealt, kitty, discards + [mask_of(part)])
                    continue
                new_held = held[:]
                new_held[x] = after & ~d
                walk(j + 1, new_held, d, discards + [d])

        walk(0, list(dealt), kitty, [])

    def run(dealt: list[int], kitty: int, discards: list[int]) -> None:
        try:
            state = replay(view, dealt, kitty, discards)
        except IllegalActionError:
            return
        if seat_view(state, me) == view:
            worlds[(tuple(dealt), kitty, tuple(discards))] += 1

    place(0)
    return worlds


def _chi_square_z(observed: Counter, expected_keys, n: int) -> float:
    """Wilson-Hilferty z-score of the chi-square statistic against a uniform distribution."""
    cells = len(expected_keys)
    e = n / cells
    chi2 = sum((observed.get(key, 0) - e) ** 2 / e for key in expected_keys)
    df = cells - 1
    if df == 0:
        return 0.0
    return ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


def _world_key(sample: State):
    return (tuple(sample.dealt[0]), sample.dealt[1], tuple(e[2] for e in sample.exchanges))


SMALL = Rules(deck="41", nullo="anytime", open_nullo="anytime", double_nullo="anytime")
THREE = Rules(players=3, nullo="anytime", open_nullo="anytime")
SIX = Rules(players=6, nullo="anytime", open_nullo="anytime")
POSITIONS = [
    # (rules, seed, forced calls {position: action}, tricks to play, extra plays, seat)
    (SMALL, 11, {0: A.bid_action(6, 3)}, 9, 0, 1),  # a defender's view of a suit contract
    (SMALL, 12, {0: A.bid_action(6, 0)}, 8, 1, 2),  # the declarer's partner, mid-trick
    (SMALL, 13, {0: A.bid_action(6, 4)}, 8, 1, 0),  # the declarer in notrump
    # nullo: the view of the partner sitting out (a defender's has 10 more unseen cards)
    (SMALL, 14, {0: A.NULLO}, 8, 0, 2),
    (SMALL, 15, {0: A.OPEN_NULLO}, 8, 1, 2),  # open nullo: the declarer's hand is exposed
    (SMALL, 16, {0: A.DOUBLE_NULLO}, 9, 0, 1),  # a defender against double nullo
    (SMALL, 17, {0: A.DOUBLE_NULLO}, 9, 1, 0),  # the double-nullo declarer
    (SMALL, 18, {0: A.DOUBLE_NULLO}, 9, 0, 2),  # the double-nullo partner
    (SMALL.replace(six_nt_shows_joker=True), 19, {}, 9, 0, 3),  # 6NT showed a joker
    (SMALL.replace(highest_joker_in_kitty=True), 20, {0: A.bid_action(6, 2)}, 9, 1, 2),
    # three players (§9.1): seat 0 declares; two hidden hands and the kitty
    (THREE, 21, {0: A.bid_action(6, 3)}, 9, 2, 1),  # a defender against a suit contract
    (THREE, 22, {0: A.bid_action(6, 4)}, 9, 1, 2),  # a defender in notrump, mid-trick
    (THREE, 23, {0: A.NULLO}, 9, 1, 1),  # a defender against nullo (nobody sits out)
    (THREE, 24, {0: A.OPEN_NULLO}, 9, 1, 2),  # open nullo: the declarer's hand is exposed
    (THREE, 25, {0: A.bid_action(6, 0)}, 9, 0, 0),  # the declarer (it knows the kitty)
    # six players (§9.2): five hidden hands and the kitty
    (SIX, 26, {0: A.bid_action(6, 2)}, 9, 0, 0),  # the declarer
    (SIX, 27, {0: A.bid_action(6, 4)}, 9, 4, 3),  # a defender, mid-trick
    (SIX, 28, {0: A.bid_action(6, 1)}, 9, 4, 2),  # the declarer's partner, mid-trick
]


def _position(rules, seed, calls, tricks, extra, seat):
    rng = random.Random(seed)
    n = rules.players
    for attempt in range(200):
        state = State(rules, seed=seed * 1000 + attempt, dealer=n - 1)
        if rules.six_nt_shows_joker:
            holder = next((s for s in range(n) if state.hands[s] >> JOKER & 1), None)
            if holder is None:
                continue
            calls = {i: (A.bid_action(6, A.NT) if (i + 0) % n == holder else A.PASS)
                     for i in range(n)}
        while state.phase == Phase.AUCTION:
            drive(state, rng, 1, randomness=0.0, calls={**{i: A.PASS for i in range(1, 8)},
                                                         **calls})
        if state.is_terminal:
            continue
        while not state.is_terminal and len(state.tricks) < tricks:
            drive(state, rng, 1, randomness=0.2)
        for _ in range(extra):
            drive(state, rng, 1, randomness=0.2)
        if not state.is_terminal and len(state.tricks) == tricks:
            return state
    raise AssertionError("no position")


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_sample_frequencies_match_exhaustive_enumeration(index):
    rules, seed, calls, tricks, extra, seat = POSITIONS[index]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = enumerate_worlds(view, state)
    assert worlds, "the true world must be found"
    assert (tuple(state.dealt[0]), state.dealt[1], tuple(e[2] for e in state.exchanges)) in worlds
    assert max(worlds.values()) == 1
    det = Determinizer(view)
    n = max(2000, 20 * len(worlds))
    rng = random.Random(index)
    observed: Counter = Counter()
    for _ in range(n):
        key = _world_key(det.sample(rng))
        assert key in worlds, "the sampler produced a world the enumeration rejects"
        observed[key] += 1
    z = _chi_square_z(observed, list(worlds), n)
    assert z < 4.5, f"{len(worlds)} worlds, {len(observed)} seen, z = {z:.2f}"
    if not rules.six_nt_shows_joker and not rules.highest_joker_in_kitty:
        present = set()
        for dealt, kitty, discards in worlds:
            replayed = replay(view, list(dealt), kitty, list(discards))
            present.add((tuple(replayed.hands), replayed.kitty))
        assert det.n_locations == len(present)


def test_the_chi_square_check_detects_a_biased_sampler():
    """The same check fails for a sampler that deals the unseen cards ignoring voids' weights."""
    rules, seed, calls, tricks, extra, seat = POSITIONS[0]
    state = _position(rules, seed, calls, tricks, extra, seat)
    view = seat_view(state, seat)
    worlds = list(enumerate_worlds(view, state))
    rng = random.Random(0)
    # biased: the true world three times as often as the others
    true_key = (tuple(state.dealt[0]), state.dealt[1], tuple(e[2] for e in state.exchanges))
    n = max(3000, 40 * len(worlds))
    weights = [3 if w == true_key else 1 for w in worlds]
    observed = Counter(rng.choices(worlds, weights, k=n))
    assert len(worlds) > 3
    assert _chi_square_z(observed, worlds, n) > 4.5


def test_history_actions_replays_joker_leads_with_their_named_suit():
    rules = Rules()
    hands = ["JK AS KS QS JS 10S 9S 8S 7S 6S", "AH KH QH JH 10H 9H 8H 7H 6H 5H",
             "AD KD QD JD 10D 9D 8D 7D 6D 5D", "AC KC QC JC 10C 9C 8C 7C 6C 5C"]
    state = State.from_deal(rules, [h.split() for h in hands], "4H 4D 5S".split(), dealer=3)
    state.apply(A.bid_action(6, A.NT))
    for _ in range(3):
        state.apply(A.PASS)
    for name in ("4H", "4D", "5S"):
        state.apply(A.str_to_action("discard " + name))
    state.apply(A.str_to_action("play JK H"))
    view = seat_view(state, 1)
    assert history_actions(view, [mask_of(parse_card(c) for c in ("4H", "4D", "5S"))])[-1] \
        == A.joker_lead_action(JOKER, 3)
    det = Determinizer(view)
    rng = random.Random(2)
    for _ in range(20):
        check_sample(view, det.sample(rng))
