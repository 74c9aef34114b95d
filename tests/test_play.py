"""The play (docs/rules.md §5) on hand-built deals.

The dealer is seat 3 unless a test says otherwise; :func:`conftest.start_play` makes the named
seat declare and leaves the hands as dealt (each exchange discards what it picked up).
"""

from __future__ import annotations

import random

import pytest

from fh_env.engine import Phase
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import do, follow_low, legal_cards, mask, names, new_state, start_play

NT_RULES = Rules()
NULLO_RULES = Rules(nullo="anytime", open_nullo="anytime", double_nullo="anytime",
                    nullo_ranking="points")

# Hearts trumps, seat 0 declares 6H.  Seat 1's only heart is the left bower JD.
HEARTS_1 = ["AH KH QH 10H 9H AS AC AD KS KC",
            "JD 5D 6D 7D 5S 6S 7S 5C 6C 7C",
            "JK JH 4H 5H 8S 9S 8C 9C 8D 9D",
            "6H 7H 8H 10S JS QS 10C JC QC 10D"]
HEARTS_1_KITTY = "4D QD KD"
# Hearts trumps: seat 1's only diamond is JD (a heart), so it is void in diamonds.
HEARTS_2 = ["AD KD QD 10D AH KH AS KS AC KC",
            "JD 4H 5H 5S 6S 7S 8S 5C 6C 7C",
            "JK JH 6H 7H 9S 10S 8C 9C 4D 5D",
            "8H 9H 10H JS QS 10C JC QC 6D 7D"]
HEARTS_2_KITTY = "8D 9D QH"


def winner_of_last_trick(state) -> int:
    return state.tricks[-1][2]


# ------------------------------------------------------------------ §5.2 bowers and trumps
def test_left_bower_is_a_heart_and_must_follow_hearts() -> None:
    """§5.2: with hearts trumps JD is a heart: the only heart of seat 1 must be played."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY)
    do(state, "AH")
    assert legal_cards(state) == {"JD"}
    do(state, "JD")
    assert legal_cards(state) == {"JK", "JH", "4H", "5H"}  # the joker is a trump too


def test_left_bower_may_not_follow_diamonds() -> None:
    """§5.2: JD is not a diamond: with diamonds led, seat 1 must play a real diamond."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY)
    do(state, "AD")
    assert legal_cards(state) == {"5D", "6D", "7D"}


def test_only_diamond_is_the_left_bower_means_void_in_diamonds() -> None:
    """§5.2: a player whose only diamond is JD is void in diamonds (any card), and JD ruffs."""
    state = start_play(Rules(), HEARTS_2, "6H", HEARTS_2_KITTY)
    do(state, "AD")
    assert legal_cards(state) == names(mask(HEARTS_2[1]))
    do(state, "JD")
    assert legal_cards(state) == {"4D", "5D"}
    do(state, "4D", "6D")
    assert winner_of_last_trick(state) == 1
    assert state.voids[1] & 1 << 2  # shown void in diamonds


@pytest.mark.parametrize("third,winner", [("4H", 1), ("JH", 2), ("JK", 2)])
def test_trump_order_right_left_ace_and_joker_on_top(third: str, winner: int) -> None:
    """§5.2: joker > right bower JH > left bower JD > AH."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY)
    do(state, "AH", "JD", third, "6H")
    assert winner_of_last_trick(state) == winner and state.turn == winner
    assert state.tricks_won[winner] == 1


def test_left_bower_led_is_a_trump_lead() -> None:
    """§5.2: the left bower belongs to trumps for following."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY)
    do(state, "AH", "JD", "4H", "6H")  # seat 1 wins with JD and leads next
    do(state, "5D")
    do(state, "8D", "10D", "AD")
    assert winner_of_last_trick(state) == 0
    state = start_play(Rules(), HEARTS_2, "6H", HEARTS_2_KITTY, declarer=1)
    do(state, "JD")  # seat 1 leads the left bower: hearts must follow
    assert legal_cards(state) == {"JK", "JH", "6H", "7H"}
    do(state, "6H")
    assert legal_cards(state) == {"8H", "9H", "10H"}


def test_joker_led_in_a_trump_contract_is_a_trump_and_names_nothing() -> None:
    """§5.2/§5.5: with a trump suit the joker is the highest trump; only no-trump leads name."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY, declarer=2)
    assert state.turn == 2
    assert "JK" in legal_cards(state) and not {"JK:S", "JK:H"} & legal_cards(state)
    do(state, "JK")
    assert legal_cards(state) == {"6H", "7H", "8H"}  # seat 3 must follow trumps


def test_black_joker_above_red_joker_with_deck_46() -> None:
    """§1.2/§5.2: with two jokers the black joker outranks the red one."""
    rules = Rules(deck="46")
    hands = {0: "AH KH QH 10H 9H 8H 7H 6H 5H 4H", 1: "RJ", 2: "BJ"}
    state = start_play(rules, hands, "6H")
    do(state, "AH")
    assert legal_cards(state) == {"RJ"}
    do(state, "RJ")
    assert legal_cards(state) == {"BJ"}
    do(state, "BJ")
    follow_low(state)
    assert winner_of_last_trick(state) == 2


# ------------------------------------------------------------------ §5.3 following
def test_must_follow_and_highest_of_the_led_suit_wins_without_trumps_played() -> None:
    """§5.3: follow suit; with no trump played the highest card of the suit led wins."""
    state = start_play(Rules(), HEARTS_1, "6D", HEARTS_1_KITTY)  # diamonds trumps
    do(state, "KS")
    assert legal_cards(state) == {"5S", "6S", "7S"}
    do(state, "5S", "8S", "QS")
    assert winner_of_last_trick(state) == 0  # KS beats QS
    do(state, "AC", "5C", "8C", "QC")
    do(state, "AH")  # hearts are a side suit now: JD is a trump (diamond) for seat 1
    assert legal_cards(state) == names(mask(HEARTS_1[1]) & ~mask("5S 5C"))
    do(state, "JD")  # ruffs with the right bower of diamonds
    do(state, "4H", "6H")
    assert winner_of_last_trick(state) == 1


def test_side_suit_of_the_other_colour_keeps_its_jack() -> None:
    """§5.2: with spades trumps JD is a plain diamond ranking between Q and 10."""
    state = start_play(Rules(), HEARTS_2, "6S", HEARTS_2_KITTY, declarer=3)
    assert state.turn == 3
    do(state, "6D", "10D", "JD", "4D")
    assert winner_of_last_trick(state) == 1


def test_off_suit_discard_does_not_win() -> None:
    """§5.3: a card of another, non-trump suit cannot win, however high."""
    hands = {0: "4H 5S 6S 7S 8S 5C 6C 7C 8C 9C", 1: "AS KS QS JS 10S 9S AC KC QC JC",
             2: "5H", 3: "6H"}
    state = start_play(Rules(), hands, "6D")
    do(state, "4H", "AS", "5H", "6H")
    assert winner_of_last_trick(state) == 3


# ------------------------------------------------------------------ §5.4 notrump
@pytest.mark.parametrize("ranking,winner", [("standard", 2), ("j5", 1)])
def test_notrump_ranking(ranking: str, winner: int) -> None:
    """§5.4: standard (A high) or j5 (the jack is the highest plain card)."""
    hands = {0: "10S AH KH QH JH 10H 9H 8H 7H 6H", 1: "JS", 2: "AS"}
    state = start_play(Rules(notrump_ranking=ranking), hands, "6NT")
    do(state, "10S")
    do(state, "JS", "AS")
    follow_low(state)
    assert winner_of_last_trick(state) == winner


def test_j5_never_in_nullo() -> None:
    """§5.4: j5 never applies to nullo-type contracts: the ace is high."""
    hands = {0: "10S AH KH QH JH 10H 9H 8H 7H 6H", 1: "JS", 3: "AS"}
    state = start_play(NULLO_RULES.replace(notrump_ranking="j5"), hands, "nullo")
    do(state, "10S", "JS", "AS")
    assert winner_of_last_trick(state) == 3


# ------------------------------------------------------------------ §5.5 joker leads
# Notrump by seat 0, which leads and wins the first four tricks with aces.
NT_DEAL = ["JK AS AC AD AH KS KC KD KH QS",
           "5S 6S 5C 6C 4D 5D 4H 5H 6H 7H",
           "7S 8S 7C 8C 6D 7D 8H 9H 10H JH",
           "9S 10S 9C 10C 8D 9D 10D JD QH JS"]
NT_KITTY = "JC QC QD"


def _nt(joker_lead: str):
    return start_play(Rules(joker_lead=joker_lead), NT_DEAL, "6NT", NT_KITTY)


def _joker_leads(state) -> set[str]:
    return {c for c in legal_cards(state) if c.startswith("JK")}


@pytest.mark.parametrize("rule,first,after_three", [
    ("any", {"S", "C", "D", "H"}, {"S", "C", "D", "H"}),
    ("not_led", {"S", "C", "D", "H"}, {"H"}),
    ("not_shown_void", {"S", "C", "D", "H"}, {"S", "C", "D", "H"}),
    ("last_card", set(), set())])
def test_joker_lead_naming(rule: str, first: set[str], after_three: set[str]) -> None:
    """§5.5: which suits a joker lead may name, at the first lead and after S, C, D were led."""
    state = _nt(rule)
    assert _joker_leads(state) == {f"JK:{s}" for s in first}
    assert "JK" not in legal_cards(state)  # without trumps a joker lead always names a suit
    for ace in ("AS", "AC", "AD"):
        do(state, ace)
        follow_low(state, 3)
        assert winner_of_last_trick(state) == 0
    assert _joker_leads(state) == {f"JK:{s}" for s in after_three}


def test_joker_lead_others_follow_the_named_suit_and_the_joker_wins() -> None:
    """§5.5: the named suit must be followed; a joker wins any trick."""
    state = _nt("not_led")
    do(state, "AS 5S 7S 9S", "AC 5C 7C 9C", "AD 4D 6D 8D")
    do(state, "JK:H")
    assert state.led == 3
    assert legal_cards(state) == {"4H", "5H", "6H", "7H"}
    do(state, "4H")
    assert legal_cards(state) == {"8H", "9H", "10H", "JH"}
    do(state, "JH", "QH")
    assert winner_of_last_trick(state) == 0


def test_not_led_fallback_joker_only_when_nothing_else_then_any_suit() -> None:
    """§5.5: once no suit may be named the joker may be led only as the last card, naming any."""
    state = _nt("not_led")
    do(state, "AS 5S 7S 9S", "AC 5C 7C 9C", "AD 4D 6D 8D", "AH 4H 8H QH")
    for lead in ("KS", "KC", "KD", "KH", "QS"):
        assert _joker_leads(state) == set()  # every suit has been led
        do(state, lead)
        follow_low(state, 3)
        assert winner_of_last_trick(state) == 0
    assert state.hands[0] == mask("JK")
    assert _joker_leads(state) == {"JK:S", "JK:C", "JK:D", "JK:H"}
    do(state, "JK:C")
    follow_low(state, 3)
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)


def test_last_card_joker_lead_names_any_suit() -> None:
    """§5.5 last_card: a joker may be led only when the player holds nothing but jokers."""
    state = _nt("last_card")
    do(state, "AS 5S 7S 9S", "AC 5C 7C 9C", "AD 4D 6D 8D", "AH 4H 8H QH")
    for lead in ("KS", "KC", "KD", "KH", "QS"):
        assert _joker_leads(state) == set()
        do(state, lead)
        follow_low(state, 3)
    assert _joker_leads(state) == {"JK:S", "JK:C", "JK:D", "JK:H"}


# Seat 1 leads (left of dealer 0); seat 0, the declarer, shows void in clubs, then wins a spade.
VOID_DEAL = ["JK AS KS QS AD KD 4D AH KH QH",
             "AC KC 5S 6S 5D 6D 4H 5H 6H 7H",
             "5C 6C 7S 8S 7D 8D 8H 9H 10H JH",
             "7C 8C 9C 10C 9S 10S 9D 10D JD QD"]
VOID_KITTY = "JS JC QC"


@pytest.mark.parametrize("rule,suits", [("any", "SCDH"), ("not_led", "DH"),
                                        ("not_shown_void", "SDH"), ("last_card", "")])
def test_joker_lead_after_showing_void(rule: str, suits: str) -> None:
    """§5.5: not_shown_void excludes the suit the leader failed to follow; not_led led suits."""
    rules = Rules(joker_lead=rule, first_leader="left_of_dealer")
    state = start_play(rules, VOID_DEAL, "6NT", VOID_KITTY, declarer=0, dealer=0)
    assert state.turn == 1
    do(state, "AC 5C 7C 4D")  # seat 0 cannot follow clubs
    assert winner_of_last_trick(state) == 1
    do(state, "5S 7S 9S AS")
    assert winner_of_last_trick(state) == 0
    assert _joker_leads(state) == {f"JK:{s}" for s in suits}


# ------------------------------------------------------------------ §5.6 joker follow
FOLLOW_HANDS = {0: "AS KS QS AC KC AD KD AH KH QH", 1: "JK 5S 6S 7S 4D 5D 6D 4H 5H 6H"}


@pytest.mark.parametrize("rule,first_spade,second_spade", [
    ("anytime", True, True), ("void_only", False, False), ("first_or_last", True, False)])
def test_joker_follow(rule: str, first_spade: bool, second_spade: bool) -> None:
    """§5.6: a joker may follow anytime / only when void / when void or in the suit's first
    trick."""
    state = start_play(Rules(joker_follow=rule), FOLLOW_HANDS, "6NT")
    do(state, "AS")
    assert ("JK" in legal_cards(state)) == first_spade
    assert {"5S", "6S", "7S"} <= legal_cards(state)
    do(state, "5S")
    follow_low(state, 2)
    do(state, "KS")
    assert ("JK" in legal_cards(state)) == second_spade
    do(state, "6S")
    follow_low(state, 2)
    do(state, "AC")  # seat 1 is void in clubs: the joker (or anything) may be played
    assert legal_cards(state) == names(state.hands[1])
    do(state, "JK")
    follow_low(state, 2)
    assert winner_of_last_trick(state) == 1  # the joker wins any trick it is played to (§5.5)


def test_first_or_last_counts_the_first_trick_of_the_suit_not_of_the_hand() -> None:
    """§5.6 first_or_last: the first trick in which the suit led was led, even if it is late."""
    state = start_play(Rules(joker_follow="first_or_last"), FOLLOW_HANDS, "6NT")
    do(state, "AS 5S")
    follow_low(state, 2)
    do(state, "AD")  # the first diamond trick is the second trick of the hand
    assert "JK" in legal_cards(state)


# ------------------------------------------------------------------ §5.7, §5.8 nullo jokers
NULLO_HANDS = {0: "5H 6S 7S 8S 9S 10S 5C 6C 7C 8C", 1: "JK 5D 6D 7D 8D 9D 10D 4D 5S JS",
               3: "6H 4H 7H"}


@pytest.mark.parametrize("must", [True, False])
def test_nullo_must_play_joker(must: bool) -> None:
    """§5.7: in a nullo-type contract a player who cannot follow and holds a joker must play it."""
    state = start_play(NULLO_RULES.replace(nullo_must_play_joker=must), NULLO_HANDS, "nullo")
    do(state, "5H")
    assert legal_cards(state) == ({"JK"} if must else names(state.hands[1]))


def test_nullo_must_play_joker_only_when_void_and_only_in_nullo() -> None:
    rules = NULLO_RULES.replace(nullo_must_play_joker=True)
    state = start_play(rules, NULLO_HANDS, "nullo")
    do(state, "6S")
    assert legal_cards(state) == {"5S", "JS"}  # can follow: the joker may not be played
    state = start_play(rules, NULLO_HANDS, "6NT")
    do(state, "5H")
    assert legal_cards(state) == names(state.hands[1])  # not a nullo-type contract


@pytest.mark.parametrize("low,winner", [(False, 1), (True, 3)])
def test_jokers_low_in_nullo_when_followed(low: bool, winner: int) -> None:
    """§5.8: a joker followed is the lowest card of the suit led (else it wins the trick)."""
    state = start_play(NULLO_RULES.replace(jokers_low_in_nullo=low), NULLO_HANDS, "nullo")
    do(state, "5H", "JK", "6H")
    assert winner_of_last_trick(state) == winner


@pytest.mark.parametrize("low,winner", [(False, 0), (True, 1)])
def test_jokers_low_in_nullo_when_led(low: bool, winner: int) -> None:
    """§5.8: a joker led is the lowest card of the named suit."""
    hands = {0: "JK 6S 7S 8S 9S 10S 5C 6C 7C 8C", 1: "5H 5D 6D 7D 8D 9D 10D 4D 5S JS",
             3: "6H 4H 7H"}
    state = start_play(NULLO_RULES.replace(jokers_low_in_nullo=low), hands, "nullo")
    do(state, "JK:H", "5H", "4H")
    assert winner_of_last_trick(state) == winner


@pytest.mark.parametrize("low", [True, False])
def test_jokers_low_black_joker_still_above_red(low: bool) -> None:
    """§5.8 with §1.2: both jokers are low, but the black one still ranks above the red one."""
    rules = NULLO_RULES.replace(deck="46", jokers_low_in_nullo=low)
    hands = {0: "RJ 4H 5H 6H 7H 8H 9H 10H JH QH", 1: "BJ 4D 5D 6D 7D 8D 9D 10D JD QD",
             3: "4C 5C 6C 7C 8C 9C 10C JC QC KC"}
    state = start_play(rules, hands, "nullo")
    do(state, "RJ:S", "BJ", "4C")
    assert winner_of_last_trick(state) == 1


def test_jokers_low_only_in_nullo() -> None:
    state = start_play(NULLO_RULES.replace(jokers_low_in_nullo=True), NULLO_HANDS, "6NT")
    do(state, "5H", "JK")
    follow_low(state, 2)
    assert winner_of_last_trick(state) == 1


# ------------------------------------------------------------------ §5.9 open nullo exposure
@pytest.mark.parametrize("when", ["at_first_lead", "after_first_trick"])
def test_open_nullo_exposed(when: str) -> None:
    """§5.9: the declarer's hand is visible to every other player from the first lead or after
    the first trick; never during the auction or exchange, never for plain nullo."""
    rules = NULLO_RULES.replace(open_nullo_exposed=when)
    state = start_play(rules, NULLO_HANDS, "open nullo")
    early = when == "at_first_lead"
    for seat in (1, 2, 3):
        assert seat_view(state, seat).exposed == (state.hands[0] if early else 0)
    assert seat_view(state, 0).exposed == 0
    do(state, "5H", "JK")
    assert seat_view(state, 1).exposed == (state.hands[0] if early else 0)
    do(state, "6H")
    for seat in (1, 2, 3):
        assert seat_view(state, seat).exposed == state.hands[0] == mask(NULLO_HANDS[0]) & ~mask(
            "5H")
    # plain nullo is never exposed
    state = start_play(rules, NULLO_HANDS, "nullo")
    do(state, "5H", "JK", "6H")
    assert all(seat_view(state, s).exposed == 0 for s in range(4))


def test_open_nullo_not_exposed_before_play() -> None:
    state = start_play(NULLO_RULES.replace(nullo_kitty="always"), NULLO_HANDS, "open nullo")
    assert seat_view(state, 1).exposed  # play has started
    early = new_state(NULLO_RULES, NULLO_HANDS)
    do(early, "open nullo", "pass", "pass", "pass")
    assert early.phase == Phase.EXCHANGE and seat_view(early, 1).exposed == 0


# ------------------------------------------------------------------ §5.10 finish early
def test_finish_early_stops_a_set_nullo_after_the_first_trick() -> None:
    """§5.10: once the nullo declarer takes a trick every score of the hand is fixed."""
    state = start_play(NULLO_RULES.replace(finish_early=True), NULLO_HANDS, "nullo")
    do(state, "5H", "7D", "6H")  # seat 3 takes the trick: nothing decided yet
    assert state.phase == Phase.PLAY
    state = start_play(NULLO_RULES.replace(finish_early=True), NULLO_HANDS, "nullo")
    do(state, "5H", "JK", "4H")  # the declarer's 5H loses to the joker: still in the game
    assert state.phase == Phase.PLAY
    state = start_play(NULLO_RULES.replace(finish_early=True), NULLO_HANDS, "nullo")
    do(state, "6S", "5S", "4H")  # the declarer wins a trick: set, whatever follows
    assert state.phase == Phase.HAND_OVER and len(state.tricks) == 1
    assert state.result.made is False and state.result.hand_points == (-250, 0)


def test_finish_early_not_when_later_tricks_still_score() -> None:
    """§5.10: under tricks_and_nullo every further trick of the declarer scores for defence."""
    rules = NULLO_RULES.replace(finish_early=True, defender_scoring="tricks_and_nullo")
    state = start_play(rules, NULLO_HANDS, "nullo")
    do(state, "6S", "5S", "4H")
    assert state.phase == Phase.PLAY
    state = start_play(NULLO_RULES, NULLO_HANDS, "nullo")  # finish_early off
    do(state, "6S", "5S", "4H")
    assert state.phase == Phase.PLAY


def test_finish_early_ordinary_contract_set_with_no_defender_scoring() -> None:
    """§5.10: 10H set by the first trick; with defender_scoring=none nothing else can change."""
    for scoring, stops in (("none", True), ("tricks", False)):
        rules = Rules(finish_early=True, defender_scoring=scoring)
        state = start_play(rules, HEARTS_1, "10H", HEARTS_1_KITTY)
        do(state, "AH", "JD", "4H", "6H")  # the defenders take the first trick
        assert (state.phase != Phase.PLAY) == stops
        if stops:
            assert len(state.tricks) == 1 and state.result.hand_points == (-500, 0)


def test_finish_early_stops_exactly_when_the_score_is_fixed() -> None:
    """§5.10: 6H (slam bonus possible) under defender_scoring=none is fixed once the declarers
    have 6 tricks and the defenders 1, or the defenders 5; play stops at that trick, not later."""
    rules = Rules(finish_early=True, defender_scoring="none")
    for seed in range(30):
        state = start_play(rules, HEARTS_1, "6H", HEARTS_1_KITTY)
        rng = random.Random(seed)
        while state.phase == Phase.PLAY:
            state.apply(rng.choice(state.legal_actions()))
            if not state.trick:
                ours, theirs = state.team_tricks()
                fixed = (ours >= 6 and theirs >= 1) or theirs >= 5 or ours + theirs == 10
                assert (state.phase != Phase.PLAY) == fixed, (seed, ours, theirs)
        ours, theirs = state.result.tricks
        assert state.result.hand_points == ((100 if theirs else 250) if ours >= 6 else -100, 0)


# ------------------------------------------------------------------ §5.1 leaders, sitting out
def test_first_leader_declarer_or_left_of_dealer() -> None:
    """§5.1: the declarer leads, or with left_of_dealer the dealer's left."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY, declarer=2, dealer=0)
    assert state.turn == 2
    state = start_play(Rules(first_leader="left_of_dealer"), HEARTS_1, "6H", HEARTS_1_KITTY,
                       declarer=2, dealer=0)
    assert state.turn == 1


def test_left_of_dealer_skips_the_sitting_out_partner() -> None:
    """§5.1: if the dealer's left sits out (nullo partner), the next seat leads."""
    rules = NULLO_RULES.replace(first_leader="left_of_dealer")
    state = start_play(rules, HEARTS_1, "nullo", HEARTS_1_KITTY, declarer=2, dealer=3)
    assert state.sitting_out == 0 and state.turn == 1


def test_nullo_partner_plays_no_card_and_tricks_have_three_cards() -> None:
    """§2.2/§5.1: the nullo declarer's partner sits out; play skips it; tricks have 3 cards."""
    rules = NULLO_RULES
    for contract in ("nullo", "open nullo"):
        state = start_play(rules, HEARTS_1, contract, HEARTS_1_KITTY, declarer=1)
        assert state.sitting_out == 3
        rng = random.Random(5)
        while state.phase == Phase.PLAY:
            assert state.turn != 3
            state.apply(rng.choice(state.legal_actions()))
        assert len(state.tricks) == 10 or rules.finish_early
        assert all(len(cards) == 3 for _, cards, _, _ in state.tricks)
        assert state.hands[3] == mask(HEARTS_1[3])  # still holds its 10 cards
        assert state.tricks_won[3] == 0


def test_double_nullo_both_partners_play() -> None:
    """§2.2: double nullo is a partnership contract: four cards a trick."""
    state = start_play(NULLO_RULES, HEARTS_1, "double nullo", HEARTS_1_KITTY, declarer=1)
    assert state.sitting_out == -1
    rng = random.Random(2)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    assert all(len(cards) == 4 for _, cards, _, _ in state.tricks)


def test_trick_winner_leads_next_and_play_goes_clockwise() -> None:
    """§5.1: the winner of each trick leads the next; play goes clockwise."""
    state = start_play(Rules(), HEARTS_1, "6H", HEARTS_1_KITTY)
    order = []
    for card in ("AH", "JD", "4H", "6H"):
        order.append(state.turn)
        do(state, card)
    assert order == [0, 1, 2, 3] and state.turn == 1 and state.leader == 1
    order = []
    for _ in range(4):
        order.append(state.turn)
        follow_low(state)
    assert order == [1, 2, 3, 0]
