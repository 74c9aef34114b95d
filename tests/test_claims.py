"""Claims (docs/rules.md §5.11, fh_env/claims.py): the solver against a brute-force minimax, and
one scenario per sentence of the rule."""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import do, start_play, start_table_play
from fh_env import actions as A
from fh_env.claims import ClaimError, ClaimSolver, apply_claim, claim_stands
from fh_env.engine import Phase, State, side_of, sitting_out_seats
from fh_env.cards import TABLES, cards_of
from fh_env.records import Recorder, hand_actions, replay_states
from fh_env.rules import Rules


def minimax(state: State, ours: frozenset[int], count_ours: bool,
            memo: dict | None = None) -> int:
    """The reference: a plain minimax over every legal action (no pruning, no merging of
    cards; memoised on the whole position, history included): the number of remaining tricks
    won by the seats ``ours`` when ``ours`` maximise it (``count_ours``) or minimise it (a nullo
    claim) and the others do the opposite."""
    if state.is_terminal:
        return 0
    memo = {} if memo is None else memo
    key = (tuple(state.hands), tuple(state.trick), state.leader, state.led, state.suits_led,
           tuple(state.voids), tuple(state.first_led))
    if key in memo:
        return memo[key]
    results = []
    for action in state.legal_actions():
        child = state.clone()
        done = len(child.tricks)
        child.apply(action)
        won = int(len(child.tricks) > done and child.tricks[-1][2] in ours)
        results.append(won + minimax(child, ours, count_ours, memo))
    maximise = (state.turn in ours) == count_ours
    memo[key] = max(results) if maximise else min(results)
    return memo[key]


def brute_stands(state: State, seat: int) -> bool:
    """The reference for §5.11: the claim stands when, for every way the other side's hidden
    cards could lie (each seat keeping its number of cards, none holding a suit it has shown
    void in, nor a joker after void bit 4; an exposed open nullo hand stays as it is), plain
    minimax gives the claiming side every remaining trick (or, for a nullo claim, none)."""
    players = state.rules.players
    remaining = 10 - len(state.tricks)
    out = sitting_out_seats(players, state.sitting_out)
    playing = [s for s in range(players) if s not in out]
    nullo = (state.rules.nullo_claims and seat == state.declarer
             and state.contract in (A.NULLO, A.OPEN_NULLO))
    if nullo:
        ours = frozenset({seat})
    else:
        ours = frozenset(s for s in playing if side_of(players, s) == side_of(players, seat))
    exposed = state.declarer if state.exposed and state.contract == A.OPEN_NULLO else -1
    hidden = [s for s in playing if s not in ours and s != exposed]
    pool = sum(state.hands[s] for s in hidden)
    masks = TABLES.suit_mask[state.context]
    allowed = {s: ~sum(masks[g] for g in range(5) if state.voids[s] >> g & 1) for s in hidden}
    sizes = {s: state.hands[s].bit_count() for s in hidden}

    def deals(i: int, left: list[int]):
        if i == len(hidden):
            yield {}
            return
        s = hidden[i]
        for chosen in itertools.combinations(left, sizes[s]):
            if any(not allowed[s] >> c & 1 for c in chosen):
                continue
            rest = [c for c in left if c not in chosen]
            for deal in deals(i + 1, rest):
                yield {s: sum(1 << c for c in chosen), **deal}

    for deal in deals(0, list(cards_of(pool))):
        world = state.clone()
        for s, hand in deal.items():
            world.hands[s] = hand
        world._legal = -1
        won = minimax(world, ours, not nullo)
        if won != (0 if nullo else remaining):
            return False
    return True


def random_to_play(state: State, rng: random.Random, choose=None) -> State:
    """Random calls and discards (or ``choose(state, legal)``) until the play starts, dealing
    again after a thrown-in hand."""
    while state.phase != Phase.PLAY:
        if state.is_terminal:
            state.next_hand()
            continue
        legal = state.legal_actions()
        state.apply(choose(state, legal) if choose else rng.choice(legal))
    return state


def play_to(state: State, tricks_left: int, rng: random.Random) -> State:
    while not state.is_terminal and 10 - len(state.tricks) > tricks_left:
        state.apply(rng.choice(state.legal_actions()))
    return state


def recorded_start(rules: Rules, hands, bid: str, declarer: int) -> tuple[State, Recorder]:
    """:func:`conftest.start_play` through a :class:`Recorder`, so the record replays."""
    target = start_play(rules, hands, bid, declarer=declarer)
    rec = Recorder(State.from_deal(rules, *deal_of(target), dealer=target.dealer))
    for action in hand_actions(target):
        rec.apply(action)
    return rec.state, rec


def deal_of(state: State) -> tuple[list[list[int]], list[int]]:
    hands, kitty = state.dealt
    return [list(cards_of(h)) for h in hands], list(cards_of(kitty))


# ---------------------------------------------------------------------- hand-built endings

def test_trumps_and_bowers_with_three_tricks_left():
    # Hearts: South (2) keeps the right bower JH, North (0) the left bower JD and the ace.
    state = start_play(Rules(), {0: "JD AH 5S 6S 7S 8S 9S 10S QS KS",
                                 2: "JH KH 5C 6C 7C 8C 9C 10C QC KC",
                                 1: "QH 10H 4D 5D 6D 7D 8D 9D 10D QD",
                                 3: "9H 8H 7H 6H 5H 4H KD AD AS AC"}, "7H", declarer=0)
    assert claim_stands(state, 0) is False  # West's aces of spades and clubs take tricks
    rng = random.Random(3)
    for left in (2, 3, 4, 2, 3, 2):
        s = play_to(state.clone(), left, rng)
        if s.is_terminal:
            continue
        for seat in range(4):
            assert claim_stands(s, seat) == brute_stands(s, seat)


def test_a_joker_lead_naming_a_suit_wins_the_claim():
    rules = Rules()
    # No trumps: South (declarer) holds the joker and the top hearts; the joker lead names
    # hearts and everyone must follow.
    state, rec = recorded_start(rules, {2: "JK AH KH QH AS KS QS AC KC QC"}, "6NT", 2)
    assert claim_stands(state, 2)
    assert claim_stands(state, 0)  # the partner's claim: the side's tricks
    assert not claim_stands(state, 1)
    # The line may lead the joker naming a suit: finish the hand and check the score.
    assert apply_claim(state, 2, rec.apply)
    assert state.result.tricks[0] == 10 and state.result.made
    assert replay_states(rec.record())[-1] == state


def test_a_sitting_out_partner_in_nullo():
    rules = Rules.preset("australian").replace(nullo_claims=True, nullo="anytime")
    # West (3) plays nullo; East (1) sits out.  West holds the lowest cards.
    low = "4H 5H 6H 4D 5D 6D 5S 6S 5C 6C"
    state = start_play(rules, {3: low}, "nullo", declarer=3, dealer=2)
    assert state.sitting_out == 1
    with pytest.raises(ClaimError):
        claim_stands(state, 1)
    rng = random.Random(1)
    for _ in range(10):
        s = play_to(state.clone(), rng.randrange(2, 5), rng)
        if s.is_terminal:
            continue
        for seat in (0, 2, 3):
            assert claim_stands(s, seat) == brute_stands(s, seat), (seat, s)


@pytest.mark.parametrize("preset", ["australian-no-nullo", "australian", "american"])
def test_random_endings_against_brute_force(preset):
    rules = Rules.preset(preset).replace(nullo_claims=True)
    rng = random.Random(preset)
    checked = 0
    for seed in range(40):
        state = random_to_play(State(rules, seed=seed), rng)
        play_to(state, rng.randrange(1, 4), rng)
        if state.is_terminal:
            continue
        for seat in range(4):
            if seat == state.sitting_out:
                continue
            assert claim_stands(state, seat) == brute_stands(state, seat), (preset, seed, seat)
            checked += 1
    assert checked > 40


# ---------------------------------------------------------------------- §5.11 sentence by sentence

STRONG = {2: "JK AS KS QS AC KC QC AD KD AH", 0: "JS 10S 9S JC 10C 9C QD JD QH KH"}


def strong_state() -> State:
    """South (2) declares 10NT with the joker and every top card: any claim of N/S stands."""
    return start_play(Rules(), STRONG, "10NT", declarer=2)


def test_during_play_a_player_may_claim_all_the_remaining_tricks():
    state = strong_state()
    assert claim_stands(state, 2)
    do(state, "AS")  # mid-trick too
    assert claim_stands(state, 2) and claim_stands(state, 0)
    auction = State(Rules(), seed=1)
    with pytest.raises(ClaimError):
        claim_stands(auction, 0)


def test_judged_with_every_hand_in_view_and_the_claimers_choose_well():
    # Spades are trumps; South leads.  South's hearts are good only once West's trumps are
    # drawn: leading a heart first lets West ruff, so the claim stands only because the side
    # chooses its cards well (trumps first), which the solver must find.
    rules = Rules()
    state = start_play(rules, {2: "JK JS JC AS AH KH QH JH 10H 9H",
                               3: "5S 6S 4D 5D 6D 7D 8D 9D 10D QD",
                               1: "5C 6C 7C 8C 9C 10C QC KC AC 4H"}, "6S", declarer=2)
    assert claim_stands(state, 2)
    wrong = state.clone()
    do(wrong, "AH")  # a heart first: West ruffs
    assert not claim_stands(wrong, 2)
    line = ClaimSolver(state, 2).line_action(state)
    assert A.played_card(line) in {44, 7, 18, 10}  # a trump: JK, JS, JC or AS


def test_whatever_the_other_side_plays():
    # East/West's claim fails at once: North/South's joker wins any trick it is played to.
    state = strong_state()
    assert not claim_stands(state, 3)
    # West holding the right bower over a 6♠ contract: South's claim is refused.
    s = start_play(Rules(), {2: "JC AS KS QS 10S 9S AC KC QC AH", 3: "JS 4H 5H 6H 7H 8H 9H 10H JH QH"},
                   "6S", declarer=2)
    assert not claim_stands(s, 2)


def test_a_claim_that_stands_is_scored_as_though_played():
    state, rec = recorded_start(Rules(), STRONG, "10NT", 2)
    assert apply_claim(state, 2, rec.apply)
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert state.result.tricks == (10, 0) and state.result.made
    assert state.result.hand_points[0] == 520  # 10NT made (avondale), as if played
    assert replay_states(rec.record())[-1] == state  # the record replays to the same end


def test_a_claim_that_does_not_stand_is_refused_and_play_continues():
    state = start_play(Rules(), {2: "JK AS KS QS AC KC QC AD KD AH"}, "6NT", declarer=2)
    before = state.to_dict()
    assert not apply_claim(state, 1)
    assert state.to_dict() == before and state.phase == Phase.PLAY


def nullo_state(nullo_claims: bool, contract: str = "nullo", recorded: bool = False):
    rules = Rules.preset("australian").replace(nullo_claims=nullo_claims, nullo="anytime",
                                               open_nullo="anytime")
    hands = {0: "4H 5H 6H 4D 5D 6D 5S 6S 5C 6C"}
    if recorded:
        return recorded_start(rules, hands, contract, 0)
    return start_play(rules, hands, contract, declarer=0)


@pytest.mark.parametrize("contract", ["nullo", "open nullo"])
def test_nullo_claims_mean_taking_no_trick(contract):
    state, rec = nullo_state(True, contract, recorded=True)
    assert ClaimSolver(state, 0).kind == "none"
    assert claim_stands(state, 0)  # the lowest cards: the declarer can duck every trick
    assert ClaimSolver(state, 1).kind == "all"  # a defender's claim is an ordinary one
    assert apply_claim(state, 0, rec.apply)
    assert state.tricks_won[0] == 0 and state.result.made
    assert replay_states(rec.record())[-1] == state


def test_without_nullo_claims_a_nullo_declarer_claims_tricks():
    state = nullo_state(False)
    assert ClaimSolver(state, 0).kind == "all"
    assert not claim_stands(state, 0)


def test_a_nullo_claim_that_cannot_avoid_a_trick_is_refused():
    rules = Rules.preset("australian").replace(nullo_claims=True, nullo="anytime")
    state = start_play(rules, {0: "JK 5H 6H 4D 5D 6D 5S 6S 5C 6C"}, "nullo", declarer=0)
    assert not claim_stands(state, 0)  # the joker wins whatever trick it falls on


def test_not_for_double_nullo():
    rules = Rules.preset("american-double-nullo").replace(nullo_claims=True,
                                                          double_nullo="anytime")
    state = start_play(rules, {0: "4H 5H 6H 4D 5D 6D 5S 6S 5C 6C"}, "double nullo",
                       declarer=0)
    assert ClaimSolver(state, 0).kind == "all"


# ---------------------------------------------------------------------- speed

def test_the_solver_answers_at_once_from_the_first_lead():
    """The search from the first lead stays small: counted in positions searched, not timed,
    so that a busy machine cannot fail it (about 23,000 at most here, well under a second)."""
    rules = Rules()
    rng = random.Random(7)
    worst = 0
    for seed in range(12):
        state = State(rules, seed=seed)
        while state.phase != Phase.PLAY:
            if state.is_terminal:
                state.next_hand()
                continue
            legal = state.legal_actions()
            state.apply(legal[1] if state.phase == Phase.AUCTION and state.high_bid < 0
                        else (A.PASS if state.phase == Phase.AUCTION else rng.choice(legal)))
        for seat in range(4):
            solver = ClaimSolver(state, seat)
            solver.stands(state)
            worst = max(worst, solver.nodes)
    assert 0 < worst < 50_000


# ------------------------------------------------------------------ whatever the other side holds

def table_start(rules: Rules, hands, calls, dealer: int) -> tuple[State, Recorder]:
    """:func:`conftest.start_table_play` through a :class:`Recorder` (any table size)."""
    target = start_table_play(rules, hands, calls, dealer=dealer)
    rec = Recorder(State.from_deal(rules, *deal_of(target), dealer=target.dealer))
    for action in hand_actions(target):
        rec.apply(action)
    return rec.state, rec


SIX = Rules.preset("six-handed")
# Seat 0 declares 6S at six players holding the joker, both bowers and seven more trumps; the
# ace of spades is out, with the 2S (seat 1), and the other side holds 5S, 7S and 4S as well.
SIX_ACE_OUT = {0: "12S JS 9S 8S JC 11S QS KS JK 10S", 1: "2H 10C KD 2C QD 2S 2D AS 11C 6H",
               2: "AH 6C AD QC QH 3D 12H 9H 12D 11H", 3: "KC JH 12C 4C AC 5S 8H 4H 3C 6D",
               4: "9D 3H 7D 13D 8C 10H 7H 5C 3S 7C", 5: "4D 11D 13H 7S 8D 5D KH 10D 5H 4S"}


def test_at_six_players_the_ace_must_fall_whoever_holds_the_other_trumps():
    # As dealt, three rounds of the top trumps drop the ace (seat 1 holds AS 2S); but had one
    # seat of the other side held the ace with three small trumps it would take a trick, so
    # the claim is refused (§5.11: whatever the other side holds).
    state = start_table_play(SIX, SIX_ACE_OUT, ["6S"] + ["pass"] * 5, dealer=5)
    solver = ClaimSolver(state, 0)
    assert solver.others == (1, 3, 5) and solver.ours == frozenset({0, 2, 4})
    assert solver.wins_as_dealt(state)
    assert not solver.stands(state) and not claim_stands(state, 4)


def test_a_claim_at_six_players_is_played_out_as_though_played():
    hands = {0: "JK JS JC AS KS QS 12S 11S 10S 9S"}
    state, rec = table_start(SIX, hands, ["6S"] + ["pass"] * 5, dealer=5)
    assert apply_claim(state, 4, rec.apply)  # a partner's claim: the team's tricks
    assert state.result.tricks == (10, 0) and state.result.made
    assert replay_states(rec.record())[-1] == state


def test_at_three_players_both_others_are_the_other_side():
    # §9.1: the declarer's claim must stand however seats 1 and 2 share their cards; a claim by
    # seat 1 is its own, not made good by seat 2's cards.
    three = Rules.preset("three-handed")
    state = start_table_play(three, {0: "JK JS JC AS KS QS 10S 9S 8S 7S"}, ["6S", "pass", "pass"],
                             dealer=2)
    solver = ClaimSolver(state, 0)
    assert solver.ours == frozenset({0}) and solver.others == (1, 2)
    assert solver.stands(state)
    assert ClaimSolver(state, 1).ours == frozenset({1}) and not claim_stands(state, 1)


@pytest.mark.parametrize("preset,left", [("three-handed", 3), ("six-handed", 2)])
def test_random_endings_against_brute_force_at_other_table_sizes(preset, left):
    rules = Rules.preset(preset).replace(nullo_claims=True, nullo="anytime",
                                         open_nullo="anytime")
    rng = random.Random(preset)
    checked = 0
    for seed in range(25):
        def nullo_often(state: State, legal: list[int]) -> int:
            nullos = [a for a in legal if a in (A.NULLO, A.OPEN_NULLO)]
            return rng.choice(nullos if nullos and rng.random() < 0.3 else legal)

        state = random_to_play(State(rules, seed=seed), rng, nullo_often)
        play_to(state, rng.randrange(1, left + 1), rng)
        if state.is_terminal:
            continue
        for seat in range(rules.players):
            if seat in sitting_out_seats(rules.players, state.sitting_out):
                continue
            assert claim_stands(state, seat) == brute_stands(state, seat), (preset, seed, seat)
            checked += 1
    assert checked > 40


def test_the_holdings_check_finds_claims_that_only_the_actual_cards_make_good():
    # Over random endings some claims stand with the cards as dealt but not for every holding:
    # those are refused, and every refusal is confirmed by the brute force above.
    rules = Rules()
    rng = random.Random(11)
    found = 0
    for seed in range(60):
        state = random_to_play(State(rules, seed=seed), rng)
        play_to(state, 3, rng)
        if state.is_terminal:
            continue
        for seat in range(4):
            solver = ClaimSolver(state, seat)
            if solver.wins_as_dealt(state) and not solver.stands(state):
                assert not brute_stands(state, seat)
                found += 1
    assert found > 0


# The first lead, ten cards each: judged in a reasonable time (no timing asserted).
FIRST_LEAD = [
    # 6NT by North (0): eleven top tricks between the two hands, whoever holds the KC.
    (Rules(), {0: "AS QC QS KS QD AC AH JK QH AD", 1: "7H KC 9D 7D 6S 8D 8H 7C 5D JH",
               2: "10D 8C KH 8S JC KD 9S 4D 6H 7S", 3: "9C 6D 6C 5S JD JS 10H 5H 10C 4H"},
     "6NT", True),
    # The finesse ending's cards at the first lead (see tests/test_rules_audit.py): refused.
    (Rules(), {0: "AS QS 4H 5H 6H 5C 6C 7C 8C 9C", 1: "4D 5D 6D 7D 8D 9D 10D JD QD KD",
               2: "AH KH QH JH 10H 9H 8H 7H 6S 7S", 3: "KS 8S AD 10C JC QC KC AC JS 5S"},
     "6NT", False),
    (SIX, {0: "7S QS 10S 8S 12S KS JC 9S 6S 11S", 1: "2S 4C 4D 11H 8C 7D 13H 12D 10D AD",
           2: "JS 3S JK JD 12H QH 6D 6C 9C 4S", 3: "2C AH 8H 11C 5D 3H 9D 5C 8D 3C",
           4: "KD 9H 6H 7H KH 4H 3D 13D QC 12C", 5: "10H KC 10C JH QD 5H 2D 7C 5S AS"},
     "6S", True),
    (SIX, SIX_ACE_OUT, "6S", False),
]


@pytest.mark.parametrize("rules,hands,bid,stands", FIRST_LEAD)
def test_a_claim_at_the_first_lead_is_judged(rules, hands, bid, stands):
    players = rules.players
    state = start_table_play(rules, hands, [bid] + ["pass"] * (players - 1), dealer=players - 1)
    assert len(state.tricks) == 0 and all(h.bit_count() == 10 for h in state.hands)
    assert claim_stands(state, 0) is stands
    if stands:
        assert claim_stands(state, 1) is False
