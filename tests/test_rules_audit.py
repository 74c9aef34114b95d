"""An audit of the engine against the specification (RULES.md §1-§8, which docs/rules.md
follows).

Each test pins one checkable statement of the specification that no other test pinned (or
pinned only in part), on hand-built deals where a deal matters.  The section number is in the
test's docstring.  A test marked ``xfail(strict=True, reason="ENGINE DISAGREES: ...")`` states
what the specification says where the engine does something else.

Unless a test says otherwise the dealer is seat 3, so seat 0 calls first.
"""

from __future__ import annotations

import random

import pytest

from fh_env.actions import str_to_action
from fh_env.cards import JOKER, NT_J5, NT_STANDARD, RED_JOKER, card_strength, parse_card
from fh_env.contracts import contract_value, end_of_hand, hand_points
from fh_env.engine import NO_CONTRACT, Phase
from fh_env.rules import Rules

from conftest import do, follow_low, legal, legal_cards, new_state, start_play

ALL_BIDS = [f"{level}{strain}" for level in range(6, 11) for strain in ("S", "C", "D", "H", "NT")]
ORDINARY = set(ALL_BIDS)
NULLO_RULES = Rules(nullo="anytime", open_nullo="anytime", double_nullo="anytime",
                    nullo_ranking="points")


def level(bid: str) -> int:
    return int(bid[:-2] if bid.endswith("NT") else bid[:-1])


def ordinary_legal(state) -> set[str]:
    return legal(state) & ORDINARY


def bid_up_the_ladder(rules: Rules):
    """Every ordinary bid in order, one per call, round the table: yields (state, high bid)
    before each next bid, starting with no bid."""
    state = new_state(rules)
    yield state, None
    for bid in ALL_BIDS:
        if bid not in legal(state):
            return
        do(state, bid)
        yield state, bid


# ------------------------------------------------------------------ §1 cards
def test_1_1_plain_ranks_without_trumps_low_to_high() -> None:
    """§1.1: plain ranks, low to high, 4 5 6 7 8 9 10 J Q K A (notrump, every suit)."""
    for suit_index, suit in enumerate("SCDH"):
        order = [parse_card(r + suit) for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                                  "K", "A")]
        strengths = [card_strength(c, NT_STANDARD, suit_index) for c in order]
        assert strengths == sorted(strengths) and len(set(strengths)) == 11, suit


def test_1_1_queen_beats_jack_beats_ten_in_a_notrump_trick() -> None:
    """§1.1/§5.3 on a played trick: 6NT, spades led: 10S < JS < QS, 9S lowest."""
    hands = {0: "10S AH KH QH 10H 9H 8H 7H 6H 5H", 1: "JS 4D 5D 6D 7D 8D 9D 10D JD QD",
             2: "QS 5S 5C 6C 7C 8C 9C 10C JC QC", 3: "9S"}
    state = start_play(Rules(), hands, "6NT")
    do(state, "10S", "JS", "QS", "9S")
    assert state.tricks[-1][2] == 2
    state = start_play(Rules(), hands, "6NT")
    do(state, "10S", "JS", "5S")  # seat 2 ducks with its 5S: the jack holds
    follow_low(state)  # seat 3: its lowest spade
    assert state.tricks[-1][2] == 1


# ------------------------------------------------------------------ §2 contracts and ranking
def test_2_3_fixed_after7_nullo_legal_exactly_while_the_high_bid_is_a_7_level_bid() -> None:
    """§2.3: "with nullo=after7 and nullo_ranking=fixed, nullo can be bid exactly while the
    high bid is a 7-level bid" (checked over every ordinary high bid)."""
    seen = 0
    for state, high in bid_up_the_ladder(Rules(nullo="after7", nullo_ranking="fixed")):
        assert ("nullo" in legal(state)) == (high is not None and level(high) == 7), high
        seen += 1
    assert seen == 26


def test_2_4_fixed_nullo_above_every_7_level_bid_below_every_8_level_bid() -> None:
    """§2.4 fixed: nullo (whatever its value) ranks above every 7-level bid and below every
    8-level bid; over it only 8-level and higher ordinary bids may be made."""
    rules = Rules(nullo="anytime", nullo_ranking="fixed", nullo_value=600)
    for state, high in bid_up_the_ladder(rules):
        assert ("nullo" in legal(state)) == (high is None or level(high) <= 7), high
    state = new_state(rules)
    do(state, "nullo")
    assert ordinary_legal(state) == {b for b in ALL_BIDS if level(b) >= 8}


def test_2_4_points_nullo_compares_by_contract_value() -> None:
    """§2.4 points: nullo (250) sits between 8S (240) and 8C (260); open nullo (500, ties
    higher) may be bid over every bid worth at most 500."""
    rules = NULLO_RULES.replace(double_nullo="off")
    for state, high in bid_up_the_ladder(rules):
        value = 0 if high is None else contract_value(rules, str_to_action(high))
        assert ("nullo" in legal(state)) == (value < 250), high
        assert ("open nullo" in legal(state)) == (value <= 500), high
    state = new_state(rules)
    do(state, "nullo")
    assert ordinary_legal(state) == {
        b for b in ALL_BIDS if contract_value(rules, str_to_action(b)) > 250}


def test_2_4_double_nullo_uses_point_ranking_under_fixed() -> None:
    """§2.4: "Open nullo and double nullo always use point ranking": double nullo (500, ties
    higher) may be bid over 10H and is outranked by 10NT only, even with nullo_ranking=fixed."""
    rules = Rules(nullo="after7", nullo_ranking="fixed", double_nullo="anytime")
    state = new_state(rules)
    do(state, "10H")
    assert "double nullo" in legal(state)
    do(state, "double nullo")
    assert ordinary_legal(state) == {"10NT"}
    state = new_state(rules)
    do(state, "10NT")
    assert "double nullo" not in legal(state)


def test_2_3_after_n_counts_only_ordinary_bids() -> None:
    """§2.3: afterN means "an ordinary bid of level N or higher has been made": a nullo worth
    more than 8S does not open open_nullo=after8; an 8-level bid does."""
    rules = Rules(nullo="anytime", nullo_ranking="points", open_nullo="after8")
    state = new_state(rules)
    do(state, "7S", "nullo")
    assert "open nullo" not in legal(state)
    do(state, "8C")
    assert "open nullo" in legal(state)


def test_2_3_double_nullo_needs_the_partners_nullo_not_ones_own() -> None:
    """§2.3 after_partner_nullo: only once the bidder's *partner* has bid nullo or open nullo."""
    rules = Rules.preset("american-double-nullo").replace(bidding_rounds="unlimited")
    state = new_state(rules)
    do(state, "nullo", "8S", "pass", "pass")  # seat 0's own nullo, outbid by seat 1
    assert state.turn == 0
    assert "double nullo" not in legal(state)
    assert "8C" in legal(state)


def test_2_5_high_bidder_gets_no_call_even_when_passed_players_may_reenter() -> None:
    """§2.5: the current high bidder may not raise or change their own bid (raise_own_bid off),
    also under reenter=always."""
    state = new_state(Rules(reenter="always"))
    do(state, "7S", "pass", "pass", "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7S"), 0)
    state = new_state(Rules(reenter="always"))
    do(state, "7S", "7H", "pass", "pass")
    assert state.turn == 0  # seat 0 is no longer the high bidder
    do(state, "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7H"), 1)


# ------------------------------------------------------------------ §3 the auction
def test_3_2_one_round_means_exactly_one_call_even_with_raise_and_reenter() -> None:
    """§3.2 bidding_rounds=1: every player gets exactly one call; the highest bid wins."""
    rules = Rules(bidding_rounds=1, raise_own_bid=True, reenter="always")
    state = new_state(rules)
    do(state, "7S", "pass", "pass", "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7S"), 0)
    state = new_state(rules)
    do(state, "7S", "7H", "pass", "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7H"), 1)
    assert len(state.calls) == 4


def test_3_4_inkle_high_bid_is_thrown_in_even_under_all_pass_play() -> None:
    """§3.4: an auction ending with an inkle as the high bid is thrown in "as in §3.3 redeal"
    (not played), whatever all_pass says; the deal passes on, nothing is scored."""
    rules = Rules.preset("american").replace(all_pass="play")
    state = new_state(rules, dealer=3)
    do(state, "pass", "6NT", "pass", "pass")
    assert state.phase == Phase.HAND_OVER and state.result.thrown_in == "inkle"
    assert state.result.contract is None and state.scores == [0, 0]
    assert state.tricks == [] and state.exchanges == [] and state.hands_played == 0
    state.next_hand()
    assert state.dealer == 0


def test_3_7_stuck_dealer_may_not_inkle() -> None:
    """§3.7 with §3.4: the stuck dealer must bid, and as the fourth caller may not bid at
    level 6 (only the first two callers may)."""
    rules = Rules.preset("american").replace(stick_the_dealer=True)
    state = new_state(rules)
    do(state, "pass", "pass", "pass")
    assert state.turn == 3
    calls = legal(state)
    assert "pass" not in calls
    assert ordinary_legal(state) == {b for b in ALL_BIDS if level(b) >= 7}


@pytest.mark.parametrize("deck,card,allowed", [
    ("43", "10S", True), ("43", "AS", False), ("43", "KS", False), ("43", "QS", False),
    ("43", "JS", False), ("43", "JK", False), ("46", "RJ", False), ("46", "BJ", False)])
def test_3_9_misdeal_needs_no_ace_no_jqk_no_joker(deck: str, card: str, allowed: bool) -> None:
    """§3.9: a hand with no ace, no J/Q/K and no joker may call a misdeal; any one of them
    (either joker of the 46-card deck) forbids it."""
    hand = ("5S 6S 7S 8S 9S 5C 6C 7C 8C " + card) if card != "10S" else (
        "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C")
    state = new_state(Rules(deck=deck, misdeal=True), {0: hand})
    assert ("misdeal" in legal(state)) == allowed


# ------------------------------------------------------------------ §5 the play
@pytest.mark.parametrize("suit_index,suit", list(enumerate("SCDH")))
def test_5_4_j5_order_jack_then_a_k_q_10(suit_index: int, suit: str) -> None:
    """§5.4 j5: the jack is the highest plain card of every suit, then A K Q 10 … 4."""
    order = [parse_card(r + suit) for r in ("J", "A", "K", "Q", "10", "9", "8", "7", "6", "5",
                                            "4")]
    strengths = [card_strength(c, NT_J5, suit_index) for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 11
    assert card_strength(JOKER, NT_J5, suit_index) > strengths[0]


def test_5_5_black_joker_beats_red_joker_in_a_notrump_trick() -> None:
    """§5.5: without trumps a joker wins any trick it is played to; the black beats the red."""
    hands = {0: "AS KS QS AC KC QC AD KD QD AH", 1: "RJ 4D 5D 6D 7D 8D 9D 10D 4H 5H",
             2: "BJ 4C 5C 6C 7C 8C 9C 10C 6H 7H"}
    for second in ("RJ", "4D"):
        state = start_play(Rules(deck="46", joker_follow="anytime"), hands, "6NT")
        do(state, "AS", second, "BJ")
        follow_low(state)
        assert state.tricks[-1][2] == 2
    state = start_play(Rules(deck="46"), hands, "6NT")
    do(state, "AS", "RJ", "4C")
    follow_low(state)
    assert state.tricks[-1][2] == 1  # the red joker beats the ace of the suit led


@pytest.mark.parametrize("follow,nameable", [("void_only", "SDH"), ("anytime", "SCDH"),
                                             ("first_or_last", "SCDH")])
def test_5_5_not_shown_void_a_joker_shows_void_only_when_it_had_to(follow: str,
                                                                   nameable: str) -> None:
    """§5.5 not_shown_void with §5.6: a player who follows clubs with a joker has shown void in
    clubs only where a joker may follow only when void (void_only, or first_or_last after the
    first club trick); its next joker lead may not name clubs then."""
    rules = Rules(deck="46", joker_lead="not_shown_void", joker_follow=follow)
    hands = {0: "AC KC QC JC 10C AS KS QS JS 10S", 1: "BJ RJ 4S 5S 4D 5D 6D 4H 5H 6H"}
    state = start_play(rules, hands, "6NT")
    do(state, "AC", "RJ")
    follow_low(state, 2)
    assert state.tricks[-1][2] == 1 and state.turn == 1
    leads = {c for c in legal_cards(state) if c.startswith("BJ:")}
    assert leads == {f"BJ:{s}" for s in nameable}


@pytest.mark.parametrize("contract", ["nullo", "open nullo", "double nullo"])
def test_5_7_must_play_a_joker_either_of_two(contract: str) -> None:
    """§5.7: in every nullo-type contract a player who cannot follow and holds jokers must play
    one of them (either, with the 46-card deck)."""
    rules = NULLO_RULES.replace(deck="46", nullo_must_play_joker=True)
    hands = {0: "5H 6S 7S 8S 9S 10S 5C 6C 7C 8C", 1: "BJ RJ 5D 6D 7D 8D 9D 10D 4D 5S",
             3: "6H 4H 7H"}
    state = start_play(rules, hands, contract)
    do(state, "5H")
    assert state.turn == 1 and legal_cards(state) == {"BJ", "RJ"}


def test_5_8_low_joker_led_wins_when_nobody_follows_the_named_suit() -> None:
    """§5.8: a low joker led is the lowest card of the named suit, so it still wins a trick
    in which nobody else plays that suit (cards of other suits cannot win, §5.3)."""
    rules = NULLO_RULES.replace(jokers_low_in_nullo=True)
    hands = {0: "JK 4H 6S 7S 8S 9S 10S 5C 6C 7C", 1: "5D 6D 7D 8D 9D 10D 4D 5S JS QS",
             3: "AD KD QD JD AS KS AC KC QC JC"}
    state = start_play(rules, hands, "nullo")
    do(state, "JK:H")
    assert state.led == 3
    do(state, "5D", "AS")  # both void in hearts
    assert state.tricks[-1][2] == 0 and state.tricks_won[0] == 1


# ------------------------------------------------------------------ §6 scoring
def test_6_3_slam_bonus_under_the_original_table() -> None:
    """§6.3 with §6.8: 10S is worth 200 in the original table (< 250), so a slam scores 250;
    10C (300) scores its value."""
    rules = Rules(scoring="original")
    assert hand_points(rules, str_to_action("10S"), 0, (10, 0)) == (250, 0)
    assert hand_points(rules, str_to_action("10C"), 0, (10, 0)) == (300, 0)
    assert hand_points(rules.replace(slam="bid_value"), str_to_action("10S"), 0, (10, 0)) == (
        200, 0)


def test_6_4_to_defenders_nullo_set_defenders_score_the_value_on_a_played_hand() -> None:
    """§6.4 to_defenders, nullo-type contracts included, on a played hand: the nullo declarer
    leads the ace of diamonds and is set; it scores 0 and the defenders score 250."""
    rules = NULLO_RULES.replace(when_set="to_defenders")
    hands = {0: "AD KD QD JD 10D AH KH QH JH 10H", 1: "4D 5D 6D 4H 5H 6H 5S 6S 5C 6C",
             3: "AS KS QS JS 10S AC KC QC JC 10C"}
    state = start_play(rules, hands, "nullo")
    do(state, "AD")
    rng = random.Random(8)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    assert state.result.made is False and state.result.tricks[0] >= 1
    assert state.result.hand_points == (0, 250)


# ------------------------------------------------------------------ §7 end of the game
def test_7_2_must_bid_no_contract_points_never_win() -> None:
    """§7.2 must_bid: a team at or above target wins only on a hand in which it declared and
    made its contract; no-contract play (§3.3) has no declarer."""
    rules = Rules(on_target="must_bid", all_pass="play")
    assert end_of_hand(rules, (480, 0), (60, 40), -1, False, 1) == ((540, 40), None)


def test_7_2_highest_no_contract_points_end_the_game() -> None:
    """§7.2 highest: the game ends as soon as a team is at or above target, no-contract play
    included."""
    rules = Rules(on_target="highest", all_pass="play")
    assert end_of_hand(rules, (450, 0), (60, 40), -1, False, 1) == ((510, 40), 0)


def test_7_2_defenders_stop_does_not_cap_no_contract_points() -> None:
    """§7.2 defenders_stop_10 (default): only points earned as defenders are capped at
    target - 10; in no-contract play nobody defends, so a team reaching 500 wins (as highest).
    Team 0 (450) leads the joker and four aces from the first trick and takes at least 5."""
    rules = Rules(all_pass="play")
    assert rules.on_target == "defenders_stop_10"
    state = new_state(rules, {0: "JK AS AC AD AH KS KC KD KH QH"}, dealer=3)
    state.scores = [450, 0]
    do(state, "pass", "pass", "pass", "pass")
    assert state.contract == NO_CONTRACT and state.turn == 0
    do(state, "JK:S")
    follow_low(state, 3)
    for ace in ("AS", "AC", "AD", "AH"):
        do(state, ace)
        follow_low(state, 3)
    assert state.tricks_won[0] == 5
    rng = random.Random(3)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    t0, t1 = state.result.tricks
    assert state.result.hand_points == (10 * t0, 10 * t1)
    assert state.scores == [450 + 10 * t0, 10 * t1]
    assert state.phase == Phase.GAME_OVER and state.winner == 0


def test_7_2_defenders_stop_caps_the_defenders_not_the_declarers_on_a_played_hand() -> None:
    """§7.2 defenders_stop_40: team 1 (at 450) defends a set 6H and is held at 460; the
    declarers' own points are never capped."""
    rules = Rules(on_target="defenders_stop_40")
    state = start_play(rules, {1: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "6H")
    state.scores = [0, 450]
    rng = random.Random(1)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    assert state.result.hand_points == (-100, 100)
    assert state.scores == [-100, 460] and state.phase == Phase.HAND_OVER


# ------------------------------------------------------------------ §8 presets
def test_8_american_one_round_inkle_and_fixed_nullo_together() -> None:
    """§8 american: one round (no one calls twice), min level 7 with inkles for the first two
    callers, nullo after a 7-level bid between 7NT and 8S, open nullo anytime."""
    state = new_state(Rules.preset("american"))
    assert "6S" in legal(state) and "open nullo" in legal(state) and "nullo" not in legal(state)
    do(state, "6H", "7D")
    assert "nullo" in legal(state) and not ordinary_legal(state) & {"6NT", "7C", "7D"}
    do(state, "nullo")
    assert ordinary_legal(state) == {b for b in ALL_BIDS if level(b) >= 8}
    do(state, "pass")
    assert (state.phase, state.contract, state.declarer, state.sitting_out) == (
        Phase.EXCHANGE, str_to_action("nullo"), 2, 0)


def test_8_canadian_two_jokers_kitty_six_and_no_defender_tricks() -> None:
    """§8 canadian: 46 cards (kitty 6), defenders score nothing for tricks, a made contract
    scores its value, target 1000."""
    rules = Rules.preset("canadian")
    assert rules.kitty_size == 6 and rules.jokers == 2
    assert hand_points(rules, str_to_action("7H"), 0, (7, 3)) == (200, 0)
    assert end_of_hand(rules, (900, 0), (80, 0), 0, True, 1) == ((980, 0), None)


# ------------------------------------------------------------------ §5.11 claims
def _finesse_ending(king_with: int):
    """6NT by seat 2 (dealer 1), seat 2 cashes eight hearts; two tricks are left with seat 2
    to lead 6S 7S, seat 0 holding AS QS, and KS 8S with ``king_with`` (1 or 3; the other
    defender keeps two diamonds)."""
    s0 = "AS QS 4H 5H 6H 5C 6C 7C 8C 9C"
    s2 = "AH KH QH JH 10H 9H 8H 7H 6S 7S"
    spades, diamonds = "KS 8S", "4D 5D"
    s1 = (spades if king_with == 1 else diamonds) + " 6D 7D 8D 9D 10D JD QD KD"
    s3 = (spades if king_with == 3 else diamonds) + " AD 10C JC QC KC AC JS 5S"
    state = start_play(Rules(), {0: s0, 1: s1, 2: s2, 3: s3}, "6NT", kitty="JK 9S 10S",
                       declarer=2, dealer=1)
    throw3 = "AD 10C JC QC KC AC JS 5S".split()
    throw0 = "4H 5H 6H 5C 6C 7C 8C 9C".split()
    throw1 = "6D 7D 8D 9D 10D JD QD KD".split()
    for i, heart in enumerate("AH KH QH JH 10H 9H 8H 7H".split()):
        do(state, heart, throw3[i], throw0[i], throw1[i])
    assert len(state.tricks) == 8 and state.turn == 2
    return state


def test_5_11_a_claim_that_loses_a_trick_is_refused() -> None:
    """§5.11: with the king of spades behind the ace-queen (seat 1 plays after seat 0), the
    defence takes a trick whatever North-South play: the claim is refused, play goes on."""
    from fh_env.claims import claim_stands
    state = _finesse_ending(king_with=1)
    assert not claim_stands(state, 2) and not claim_stands(state, 0)
    assert state.phase == Phase.PLAY


def test_5_11_a_claim_must_stand_whatever_the_other_side_holds() -> None:
    """§5.11: a claim "stands if the claiming side can take every remaining trick whatever the
    other side holds and plays".  Here the king of spades sits in front of the ace-queen
    (seat 3), so the actual cards give North-South both tricks; but had the defenders' cards
    been dealt the other way (the previous test) a trick would be lost, so by the literal
    wording the claim does not stand."""
    from fh_env.claims import claim_stands
    state = _finesse_ending(king_with=3)
    assert not claim_stands(state, 2)
