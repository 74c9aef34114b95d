"""Property tests: random valid rule sets and randomly played hands and games.

The trick winners, the following rules and the hand scores are recomputed here from docs/rules.md
§5 and §6 directly (card ranks, colours and the scoring tables written out below), not through
``fh_env.cards.TABLES`` or ``fh_env.contracts``, so an error there cannot hide itself.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fh_env.actions import (DOUBLE_NULLO, JOKER_LEAD_BASE, MISDEAL, NULLO, NULLO_TYPES,
                            OPEN_NULLO, PASS, PLAY_BASE)
from fh_env.cards import DECKS, mask_of
from fh_env.contracts import DRAW
from fh_env.engine import NO_CONTRACT, Phase, State
from fh_env.rules import Rules

from conftest import BOOLS, CHOICES, SCORING_TABLES

NUMBERS: dict[str, tuple[Any, ...]] = {
    "bidding_rounds": (1, 2, 3, "unlimited"),
    "nullo_value": (200, 250, 300),
    "open_nullo_value": (350, 500),
    "double_nullo_value": (500, 600),
    "target": (300, 500, 1000),
    "floor": (-300, -500, -1000),
    "hands_to_play": (1, 3, 6),
}
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                      HealthCheck.too_slow])


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Every option drawn from its allowed values; combinations Rules rejects are skipped."""
    options: dict[str, Any] = {}
    for name, values in list(CHOICES.items()) + list(NUMBERS.items()):
        options[name] = draw(st.sampled_from(values))
    for name in BOOLS:
        options[name] = draw(st.booleans())
    try:
        return Rules(**options)
    except ValueError:
        assume(False)
        raise


# ------------------------------------------------------------------ docs/rules.md, independently
JOKER_IDS = (44, 45)  # the highest joker (JK or BJ), then the red joker
RANK_ORDER = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # §1.1
COLOUR = ("black", "black", "red", "red")  # S C D H (§1.1)


def _suit(c: int) -> int:
    return c // 11


def _rank(c: int) -> str:
    return RANK_ORDER[c % 11]


def follows_as(c: int, trump: int | None) -> int | None:
    """§5.2/§5.5: the suit a card counts as (None: a joker without a trump suit)."""
    if c in JOKER_IDS:
        return trump
    if trump is not None and _rank(c) == "J" and _suit(c) != trump \
            and COLOUR[_suit(c)] == COLOUR[trump]:
        return trump  # the left bower
    return _suit(c)


def power(c: int, trump: int | None, led: int, jacks_high: bool, jokers_low: bool) -> float:
    """How a card ranks in a trick (§5.2-§5.5, §5.8, §1.2); negative cannot win."""
    black = c == JOKER_IDS[0]
    if trump is not None:
        if follows_as(c, trump) == trump:
            if c in JOKER_IDS:
                return 1000 + black
            if _rank(c) == "J":
                return 900 + (_suit(c) == trump)
            return 800 + RANK_ORDER.index(_rank(c))
    elif c in JOKER_IDS:
        return (-0.5 + 0.1 * black) if jokers_low else 1000 + black  # low: above discards only
    if _suit(c) != led:
        return -1
    if jacks_high and _rank(c) == "J":
        return 100
    return RANK_ORDER.index(_rank(c))


def value_of(rules: Rules, contract: int) -> int:
    if contract == NULLO:
        return rules.nullo_value
    if contract == OPEN_NULLO:
        return rules.open_nullo_value
    if contract == DOUBLE_NULLO:
        return rules.double_nullo_value
    level, strain = 6 + (contract - 1) // 5, (contract - 1) % 5
    return SCORING_TABLES[rules.scoring][level][strain]


def score(rules: Rules, contract: int, team: int, tricks: tuple[int, int]) -> tuple[int, int]:
    """§6: the points of a hand from the contract and each team's tricks."""
    if contract == NO_CONTRACT:
        return (10 * tricks[0], 10 * tricks[1])
    value, taken = value_of(rules, contract), tricks[team]
    nullo = contract in NULLO_TYPES
    if nullo:
        made = taken == 0
        defence = 10 * taken if rules.defender_scoring == "tricks_and_nullo" else 0
    else:
        made = taken >= 6 + (contract - 1) // 5
        defence = 10 * tricks[1 - team] if rules.defender_scoring != "none" else 0
        if made and taken == 10 and rules.slam == "bonus" and value < 250:
            value = 250
    ours = value if made else (-value if rules.when_set == "subtract" else 0)
    if not made and rules.when_set == "to_defenders":
        defence += value
    out = [0, 0]
    out[team], out[1 - team] = ours, defence
    return (out[0], out[1])


def all_outcomes(rules: Rules, contract: int, team: int, taken: tuple[int, int],
                 remaining: int) -> set[tuple[int, int]]:
    outcomes = set()
    for extra in range(remaining + 1):
        t = [taken[0], taken[1]]
        t[max(team, 0)] += extra
        t[1 - max(team, 0)] += remaining - extra
        outcomes.add(score(rules, contract, max(team, 0), (t[0], t[1])))
    return outcomes


# ------------------------------------------------------------------ checking a played hand
def check_cards(state: State) -> None:
    """Every card in exactly one place: the hands, the kitty, played tricks, the trick."""
    places = list(state.hands) + [state.kitty, mask_of(state.trick)]
    places += [mask_of(cards) for _, cards, _, _ in state.tricks]
    seen = 0
    for m in places:
        assert not seen & m, "a card is in two places"
        seen |= m
    assert seen == mask_of(DECKS[state.rules.deck])


def check_play_step(state: State, action: int) -> None:
    """§5.3/§5.5/§5.6: the card played respects following, recomputed independently."""
    r, seat = state.rules, state.turn
    hand = [c for c in range(46) if state.hands[seat] >> c & 1]
    trump = state.context if state.context < 4 else None
    c = action - PLAY_BASE if action < JOKER_LEAD_BASE else 44 + (action - JOKER_LEAD_BASE) // 4
    assert c in hand
    assert seat != state.sitting_out
    if not state.trick:
        if trump is None and c in JOKER_IDS:
            assert action >= JOKER_LEAD_BASE  # a joker lead names a suit without trumps
        else:
            assert action < JOKER_LEAD_BASE
        return
    assert action < JOKER_LEAD_BASE
    led = state.led
    suit_cards = [x for x in hand if x not in JOKER_IDS and follows_as(x, trump) == led] + [
        x for x in hand if x in JOKER_IDS and trump == led]
    if suit_cards:
        if trump is None and c in JOKER_IDS:
            assert r.joker_follow in ("anytime", "first_or_last")
        else:
            assert c in suit_cards
    elif (trump is None and r.nullo_must_play_joker and state.contract in NULLO_TYPES
          and any(x in JOKER_IDS for x in hand)):
        assert c in JOKER_IDS


def check_hand(state: State, plays: list[tuple[int, int]], before: tuple[int, int]) -> None:
    """Trick winners and the score of a finished hand, recomputed from the recorded plays."""
    result, r = state.result, state.rules
    if result.thrown_in:
        assert result.hand_points == (0, 0) and state.scores == list(before)
        return
    contract = state.contract
    nullo = contract in NULLO_TYPES
    trump = None if contract == NO_CONTRACT or nullo or (contract - 1) % 5 == 4 \
        else (contract - 1) % 5
    jacks_high = r.notrump_ranking == "j5" and trump is None and not nullo
    jokers_low = r.jokers_low_in_nullo and nullo
    out = (state.declarer + 2) % 4 if contract in (NULLO, OPEN_NULLO) else -1
    per_trick = 3 if out >= 0 else 4
    declarer = state.declarer
    if contract == NO_CONTRACT:
        leader = (state.dealer + 1) % 4
    else:
        leader = declarer if r.first_leader == "declarer" else (state.dealer + 1) % 4
        leader = (leader + 1) % 4 if leader == out else leader
    team_tricks = [0, 0]
    assert len(plays) % per_trick == 0 and len(plays) // per_trick == len(state.tricks)
    for k in range(len(state.tricks)):
        trick = plays[k * per_trick:(k + 1) * per_trick]
        seat = leader
        for s, _ in trick:
            assert s == seat and s != out
            seat = (seat + 1) % 4
            seat = (seat + 1) % 4 if seat == out else seat
        first = trick[0][1]
        first_card = first - PLAY_BASE if first < JOKER_LEAD_BASE else None
        led = (first - JOKER_LEAD_BASE) % 4 if first_card is None else follows_as(first_card, trump)
        cards = [a - PLAY_BASE if a < JOKER_LEAD_BASE else 44 + (a - JOKER_LEAD_BASE) // 4
                 for _, a in trick]
        powers = [power(c, trump, led, jacks_high, jokers_low) for c in cards]
        winner = trick[powers.index(max(powers))][0]
        assert state.tricks[k] == (leader, tuple(cards), winner, led)
        team_tricks[winner % 2] += 1
        leader = winner
        if k < len(state.tricks) - 1 and r.finish_early:
            remaining = 10 - (k + 1)
            assert len(all_outcomes(r, contract, declarer % 2 if declarer >= 0 else -1,
                                    (team_tricks[0], team_tricks[1]), remaining)) > 1
    assert result.tricks == tuple(team_tricks)
    team = declarer % 2 if declarer >= 0 else -1
    remaining = 10 - len(state.tricks)
    outcomes = all_outcomes(r, contract, team, result.tricks, remaining)
    assert len(state.tricks) == 10 or r.finish_early
    assert outcomes == {result.hand_points}
    assert result.made == (None if team < 0 else (
        result.tricks[team] == 0 if nullo else result.tricks[team] >= 6 + (contract - 1) // 5))
    # §7: the points reach the game score, capped only for defenders under defenders_stop_*
    for t in (0, 1):
        delta = state.scores[t] - before[t]
        if r.game_over == "points" and r.on_target.startswith("defenders_stop") and t != team:
            assert delta <= result.hand_points[t]
            if delta < result.hand_points[t]:
                assert state.scores[t] <= max(before[t], r.target - int(r.on_target[-2:]))
        else:
            assert delta == result.hand_points[t]


def check_auction_result(state: State) -> None:
    """§3.10: the declarer made the last bid, and it is the contract."""
    bids = [(s, a) for s, a in state.calls if a not in (PASS, MISDEAL)]
    if state.contract not in (None, NO_CONTRACT):
        assert bids and bids[-1] == (state.declarer, state.contract)
    elif state.contract == NO_CONTRACT:
        assert not bids


def choose(state: State, rng: random.Random, pass_bias: float) -> int:
    """A random legal action; in the auction pass with probability ``pass_bias`` and favour
    nullo-type bids and misdeals, so that low contracts, nullos and thrown-in hands occur."""
    legal = state.legal_actions()
    if state.phase == Phase.AUCTION:
        if MISDEAL in legal and rng.random() < 0.5:
            return MISDEAL
        if PASS in legal and rng.random() < pass_bias:
            return PASS
        nullos = [a for a in legal if a in NULLO_TYPES]
        if nullos and rng.random() < 0.3:
            return rng.choice(nullos)
    return rng.choice(legal)


PASS_BIAS = st.sampled_from((0.0, 0.5, 0.8, 0.95))


def play_hand(state: State, rng: random.Random, pass_bias: float) -> None:
    """Play one hand with random legal actions, checking every step."""
    before = (state.scores[0], state.scores[1])
    plays: list[tuple[int, int]] = []
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase.name}"
        assert state.turn in (0, 1, 2, 3)
        action = choose(state, rng, pass_bias)
        if state.phase == Phase.PLAY:
            check_play_step(state, action)
            plays.append((state.turn, action))
        state.apply(action)
        check_cards(state)
        if state.phase == Phase.PLAY and not plays:
            check_auction_result(state)
    assert state.legal_actions() == [] and state.turn == -1
    check_auction_result(state)
    check_hand(state, plays, before)


# ------------------------------------------------------------------ the properties
@settings(max_examples=1500, **SETTINGS)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), hands=st.integers(1, 8), bias=PASS_BIAS)
def test_random_hands_keep_every_invariant(rules: Rules, seed: int, hands: int,
                                           bias: float) -> None:
    """Cards in exactly one place, legal sets never empty, trick winners and scores per §5/§6,
    and following per §5.3, over random rules and random play."""
    state = State(rules, seed=seed)
    rng = random.Random(seed)
    check_cards(state)
    for _ in range(hands):
        play_hand(state, rng, bias)
        if state.game_over:
            break
        state.next_hand()


@settings(max_examples=300, **SETTINGS)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), bias=st.sampled_from((0.5, 0.8, 0.95)))
def test_every_game_ends(rules: Rules, seed: int, bias: float) -> None:
    """§7: played to the end with next_hand, every game reaches GAME_OVER.

    The players pass often enough to make contracts now and then: under ``must_bid`` or
    ``defenders_stop_*`` with ``when_set=to_defenders`` only a made contract can end a game,
    and players who always outbid each other to 10NT never make one.
    """
    state = State(rules, seed=seed)
    rng = random.Random(seed)
    cap = 1000
    for _ in range(cap):
        while not state.is_terminal:
            state.apply(choose(state, rng, bias))
        if state.game_over:
            break
        state.next_hand()
    assert state.game_over, f"no winner after {cap} hands: scores {state.scores}"
    assert state.winner in (0, 1, DRAW)
    s, r = state.scores, state.rules
    if r.game_over == "hands":
        assert state.hands_played == r.hands_to_play
    else:
        assert max(s) >= r.target or min(s) <= r.floor
        if r.on_target in ("highest", "defenders_stop_10", "defenders_stop_40"):
            assert state.winner == (2 if s[0] == s[1] else int(s[1] > s[0]))


def _replay(state: State, actions: list[Any]) -> State:
    for a in actions:
        if a == "next":
            state.next_hand()
        else:
            assert a in state.legal_actions()
            state.apply(a)
    return state


@settings(max_examples=500, **SETTINGS)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), cut=st.floats(0, 1), bias=PASS_BIAS)
def test_clone_and_serialisation_replay_to_the_same_result(rules: Rules, seed: int,
                                                           cut: float, bias: float) -> None:
    """clone(), to_dict()/from_dict() (also through JSON) at a random point replay the same
    remaining actions, across next_hand(), to the same state."""
    rng = random.Random(seed)
    original = State(rules, seed=seed)
    history: list[Any] = []
    for _ in range(3):
        while not original.is_terminal:
            a = choose(original, rng, bias)
            original.apply(a)
            history.append(a)
        if original.game_over:
            break
        original.next_hand()
        history.append("next")
    k = int(cut * len(history))
    replica = _replay(State(rules, seed=seed), history[:k])
    copies = [replica.clone(), State.from_dict(replica.to_dict()),
              State.from_dict(json.loads(json.dumps(replica.to_dict())))]
    assert all(c == replica for c in copies)
    assert all(c.legal_actions() == replica.legal_actions() for c in copies)
    _replay(replica, history[k:])
    final = original.to_dict()
    assert replica.to_dict() == final
    for c in copies:
        assert _replay(c, history[k:]).to_dict() == final
        assert c.result == original.result


@settings(max_examples=100, **SETTINGS)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_same_seed_same_deals(rules: Rules, seed: int) -> None:
    """§1.4: the first dealer and every deal are functions of the seed."""
    a, b = State(rules, seed=seed), State(rules, seed=seed)
    rng_a, rng_b = random.Random(1), random.Random(2)  # different play, same deals
    for _ in range(3):
        assert (a.dealer, a.dealt, a.hands, a.kitty) == (b.dealer, b.dealt, b.hands, b.kitty)
        for s, rng in ((a, rng_a), (b, rng_b)):
            while not s.is_terminal:
                s.apply(rng.choice(s.legal_actions()))
        if a.game_over or b.game_over:
            break
        a.next_hand()
        b.next_hand()
        if a.dealer != b.dealer:  # a misdeal in one game only keeps its dealer
            break
    c = State(rules, seed=seed + 1)
    d = State(rules, seed=seed)
    assert c.dealt != d.dealt or c.dealer != d.dealer
