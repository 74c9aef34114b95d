"""Contracts, their ranking and the auction (docs/rules.md §2, §3) on hand-built deals.

Unless a test says otherwise the dealer is seat 3, so seat 0 calls first.
"""

from __future__ import annotations

import pytest

from fh_env.actions import str_to_action
from fh_env.engine import NO_CONTRACT, Phase
from fh_env.rules import Rules

from conftest import do, legal, new_state

ALL_BIDS = [f"{level}{strain}" for level in range(6, 11) for strain in ("S", "C", "D", "H", "NT")]
NO_HONOURS = "5S 6S 7S 8S 9S 10S 5C 6C 7C 8C"  # no ace, no J/Q/K, no joker (43-card deck)
NO_HONOURS_2 = "9C 10C 4D 5D 6D 7D 8D 9D 10D 4H"


def bids_above(name: str, min_level: int = 6) -> set[str]:
    """The ordinary bids above ``name`` at ``min_level`` or higher, by §2.1's order."""
    start = ALL_BIDS.index(name) + 1 if name else 0
    return {b for b in ALL_BIDS[start:] if int(b[:-2] if b.endswith("NT") else b[:-1]) >= min_level}


def can(state, call: str) -> bool:
    return call in legal(state)


# ------------------------------------------------------------------ §2.1, §2.5 ordinary bids
def test_ordinary_bid_order_level_then_strain() -> None:
    """§2.1/§2.5: a bid must outrank the high bid: higher level, or same level higher strain."""
    state = new_state()
    assert legal(state) == {"pass"} | set(ALL_BIDS)
    do(state, "7H")
    assert legal(state) == {"pass"} | bids_above("7H") == {"pass", "7NT"} | {
        b for b in ALL_BIDS if b[0] in "89" or b.startswith("10")}
    do(state, "7NT")
    assert not can(state, "7NT") and can(state, "8S")


@pytest.mark.parametrize("level", [7, 8])
def test_min_bid_level(level: int) -> None:
    """§2.1: bids start at min_bid_level."""
    state = new_state(Rules(min_bid_level=level))
    assert legal(state) == {"pass"} | bids_above("", level)


def test_notrump_off_removes_notrump_bids() -> None:
    """§5.4: notrump_ranking=off: ordinary notrump bids are not allowed."""
    state = new_state(Rules(notrump_ranking="off"))
    assert legal(state) == {"pass"} | {b for b in ALL_BIDS if not b.endswith("NT")}


# ------------------------------------------------------------------ §2.4 ranking of nullo bids
def test_fixed_nullo_sits_between_7nt_and_8s() -> None:
    """§2.4 fixed / §2.3 after7: nullo is legal exactly while the high bid is a 7-level bid."""
    state = new_state(Rules.preset("australian"))
    assert not can(state, "nullo")  # after7: no 7-level bid yet
    do(state, "6NT")
    assert not can(state, "nullo")
    do(state, "7S")
    assert can(state, "nullo")
    do(state, "7NT")
    assert can(state, "nullo")
    do(state, "nullo")
    assert not can(state, "7NT") and can(state, "8S")
    assert legal(state) >= {"8S", "open nullo"}
    do(state, "8S")
    assert not can(state, "nullo")


def test_australian_worked_example_open_nullo_between_10h_and_10nt() -> None:
    """§2.4 worked example: open nullo (500, ties higher) between 10H (500) and 10NT (520)."""
    state = new_state(Rules.preset("australian"))
    assert can(state, "open nullo")  # open_nullo=anytime
    do(state, "10H")
    assert can(state, "open nullo")
    do(state, "open nullo")
    assert legal(state) == {"pass", "10NT"}
    do(state, "10NT")
    assert legal(state) == {"pass"}


@pytest.mark.parametrize("ties,nullo_over_8s,eight_s_over_nullo", [
    ("higher", True, False), ("lower", False, True), ("equal", False, False)])
def test_point_ranking_ties(ties: str, nullo_over_8s: bool, eight_s_over_nullo: bool) -> None:
    """§2.4 points: nullo worth 240 = 8S; open_nullo_ties decides who outranks the equal bid."""
    rules = Rules(nullo="anytime", nullo_ranking="points", nullo_value=240, open_nullo_ties=ties)
    state = new_state(rules)
    do(state, "7NT")  # 220 < 240: nullo outranks whatever the ties
    assert can(state, "nullo")
    do(state, "8S")
    assert can(state, "nullo") == nullo_over_8s
    assert can(state, "8C")
    state = new_state(rules)
    do(state, "nullo")
    assert can(state, "8S") == eight_s_over_nullo
    assert not can(state, "7NT") and can(state, "8C")


def test_open_nullo_ties_default_higher() -> None:
    """§2.4: open_nullo_ties defaults to higher: a nullo-type bid outranks an equal-valued bid."""
    assert Rules().open_nullo_ties == "higher"
    rules = Rules(nullo="anytime", nullo_ranking="points", nullo_value=240)
    state = new_state(rules)
    do(state, "8S")  # 240, as nullo
    assert can(state, "nullo")
    state = new_state(rules)
    do(state, "nullo")
    assert not can(state, "8S") and can(state, "8C")


def test_canadian_open_nullo_outranks_ten_hearts() -> None:
    """§8 canadian leaves open_nullo_ties at its default (higher): open nullo (500) may be bid
    over 10H (500), as under australian, and 10H not over open nullo."""
    state = new_state(Rules.preset("canadian"))
    do(state, "10H")
    assert can(state, "open nullo") and not can(state, "nullo")
    do(state, "open nullo")
    assert not can(state, "10H") and can(state, "10NT")


def test_original_table_nullo_compares_by_value_alone() -> None:
    """§6.8 original: values are not monotone in the bid order; nullo (250) compares by value."""
    rules = Rules(scoring="original", nullo="anytime", nullo_ranking="points")
    state = new_state(rules)
    do(state, "9S")  # 160
    assert can(state, "nullo")
    do(state, "nullo")
    # Over nullo only bids worth more than 250: 9S 160, 8D 240, 9C 240, 10S 200 are not; and
    # 8H/8NT, worth more than nullo, still do not outrank the earlier 9S (engine._RuleTables:
    # a bid outranks every earlier bid, so this cyclic ranking cannot loop).
    over = {b for b in legal(state) if b[0].isdigit()}
    assert over == {"9D", "9H", "9NT", "10C", "10D", "10H", "10NT"}  # 10S: 200
    state = new_state(rules)
    do(state, "nullo")
    over = {b for b in legal(state) if b[0].isdigit()}
    assert over == {"8H", "8NT", "9D", "9H", "9NT", "10C", "10D", "10H", "10NT"}
    for high, nullo_ok in (("7NT", True), ("8D", True), ("8H", False), ("9C", True),
                           ("10S", True), ("9D", False)):
        state = new_state(rules)
        do(state, high)
        assert can(state, "nullo") == nullo_ok, high


def test_open_nullo_uses_point_ranking_even_when_nullo_is_fixed() -> None:
    """§2.4: open nullo and double nullo always use point ranking."""
    rules = Rules.preset("australian").replace(open_nullo_value=200)
    state = new_state(rules)
    do(state, "7H")  # 180
    assert can(state, "open nullo")
    state = new_state(rules)
    do(state, "7NT")  # 220: fixed nullo would sit above it, a 200-point open nullo does not
    assert not can(state, "open nullo") and can(state, "nullo")


def test_nullo_type_bids_compare_by_value() -> None:
    """§2.4: nullo (250) < open nullo (500); equal-valued nullo types never outrank each other."""
    state = new_state(Rules(nullo="anytime", open_nullo="anytime", double_nullo="anytime"))
    do(state, "nullo")
    assert can(state, "open nullo") and can(state, "double nullo")
    do(state, "open nullo")
    assert not can(state, "nullo") and not can(state, "double nullo")  # 500 = 500


# ------------------------------------------------------------------ §2.3 availability
def test_nullo_off_never_legal() -> None:
    """§2.3: nullo=off (the default) and open/double nullo off: never legal."""
    state = new_state()
    for call in ("6S", "7S", "7NT"):
        assert not legal(state) & {"nullo", "open nullo", "double nullo"}
        do(state, call)


def test_nullo_after7_with_points_needs_a_7_level_bid_not_just_the_value() -> None:
    """§2.3 after7 means a 7-level bid has been made, whatever the ranking."""
    rules = Rules(nullo="after7", nullo_ranking="points")
    state = new_state(rules)
    do(state, "6NT")  # 120 < 250, but no 7-level bid yet
    assert not can(state, "nullo")
    do(state, "7S")
    assert can(state, "nullo")
    do(state, "8S")  # 240 < 250, and a 7-level bid was made earlier
    assert can(state, "nullo")
    state = new_state(rules.replace(nullo="anytime"))
    assert can(state, "nullo")


@pytest.mark.parametrize("option,after7,after8", [("after7", True, True),
                                                  ("after8", False, True),
                                                  ("anytime", True, True),
                                                  ("off", False, False)])
def test_open_nullo_availability(option: str, after7: bool, after8: bool) -> None:
    """§2.3 open_nullo off / after7 / after8 / anytime."""
    state = new_state(Rules(open_nullo=option))
    assert can(state, "open nullo") == (option == "anytime")
    do(state, "7S")
    assert can(state, "open nullo") == after7
    do(state, "8S")
    assert can(state, "open nullo") == after8


def test_double_nullo_after_partner_nullo() -> None:
    """§2.3: double nullo only once the bidder's partner has bid nullo or open nullo."""
    rules = Rules.preset("american-double-nullo").replace(bidding_rounds="unlimited")
    state = new_state(rules)
    assert not can(state, "double nullo")
    do(state, "nullo")  # seat 0
    assert not can(state, "double nullo")  # seat 1: its partner (3) has not bid nullo
    do(state, "8H")  # 300 > 250
    assert can(state, "double nullo")  # seat 2: partner 0 bid nullo earlier in the auction
    do(state, "double nullo")
    assert state.high_bid == str_to_action("double nullo")
    # open nullo by the partner also qualifies
    state = new_state(rules)
    do(state, "open nullo", "pass")
    assert can(state, "double nullo")  # 500 > 350
    # anytime: legal from the start
    assert can(new_state(Rules(double_nullo="anytime")), "double nullo")


# ------------------------------------------------------------------ §3.1, §3.2 rounds
def test_first_caller_is_left_of_dealer() -> None:
    """§3.1: the player to the dealer's left bids first; clockwise."""
    for dealer in range(4):
        state = new_state(dealer=dealer)
        assert state.turn == (dealer + 1) % 4
        do(state, "pass")
        assert state.turn == (dealer + 2) % 4


def test_bidding_rounds_1_everyone_exactly_one_call() -> None:
    """§3.2 bidding_rounds=1: every player gets exactly one call; the highest bid wins."""
    state = new_state(Rules(bidding_rounds=1))
    do(state, "7S", "pass", "7H")
    assert state.turn == 3
    do(state, "pass")
    assert state.phase == Phase.EXCHANGE
    assert (state.contract, state.declarer) == (str_to_action("7H"), 2)


def test_bidding_rounds_unlimited_until_others_pass() -> None:
    """§3.2 unlimited: bidding goes on until every other player has passed after the last bid."""
    state = new_state()
    do(state, "6S", "6C", "pass", "pass", "6D")
    assert state.turn == 1
    do(state, "7S")
    assert state.turn == 0  # seats 2 and 3 passed and may not re-enter (§2.5)
    do(state, "7H", "8S", "8H", "9S", "9H", "10S")
    assert state.phase == Phase.AUCTION and state.turn == 0
    do(state, "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("10S"), 1)


def test_bidding_rounds_3_ends_after_three_rounds() -> None:
    """§3.2: with n=3 the auction ends after 3 full rounds at the latest."""
    state = new_state(Rules(bidding_rounds=3))
    calls = ["6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "8S"]
    do(state, *calls)
    assert state.phase == Phase.AUCTION and state.turn == 3
    do(state, "8C")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("8C"), 3)


def test_bidding_rounds_2_passed_seats_are_skipped() -> None:
    """§3.2: a passed seat gets no more calls; the round limit still ends the auction."""
    state = new_state(Rules(bidding_rounds=2))
    do(state, "6S", "pass", "6D", "pass", "6H")
    assert state.turn == 2
    do(state, "7S")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7S"), 2)


def test_high_bidder_may_not_raise_own_bid_by_default() -> None:
    """§2.5: the high bidder does not get another call when the others pass."""
    state = new_state()
    do(state, "7S", "pass", "pass", "pass")
    assert (state.phase, state.declarer, state.contract) == (
        Phase.EXCHANGE, 0, str_to_action("7S"))


# ------------------------------------------------------------------ §3.3 all pass
def test_all_pass_redeal() -> None:
    """§3.3 redeal: no play, no score, the deal passes on (§1.4)."""
    state = new_state(dealer=1)
    do(state, "pass", "pass", "pass", "pass")
    assert state.phase == Phase.HAND_OVER
    assert state.result.thrown_in == "all_pass" and state.result.contract is None
    assert state.scores == [0, 0] and state.hands_played == 0
    state.next_hand()
    assert state.dealer == 2 and state.turn == 3 and state.phase == Phase.AUCTION


def test_all_pass_play_left_of_dealer_leads_no_exchange_no_trumps() -> None:
    """§3.3 play: no trumps, no contract, dealer's left leads, no kitty exchange."""
    rules = Rules(all_pass="play")
    state = new_state(rules, {2: "JH JD AH 4H 5H 6H 7H 8H 9H 10H", 3: "AS AC AD KH QH"},
                      dealer=1)
    kitty = state.kitty
    do(state, "pass", "pass", "pass", "pass")
    assert state.phase == Phase.PLAY and state.turn == 2
    assert state.contract == NO_CONTRACT and state.declarer == -1
    assert state.kitty == kitty and state.exchanges == []
    do(state, "JD")  # no trumps: the jack of diamonds leads diamonds, it is no bower
    assert state.led == 2
    assert "play AD" in legal(state) and all(n.endswith("D") for n in legal(state))


# ------------------------------------------------------------------ §3.4 inkle
def test_inkle_only_first_two_callers_may_bid_six() -> None:
    """§3.4: with min_bid_level 7 only the first two callers may bid at level 6."""
    rules = Rules.preset("american")
    state = new_state(rules)
    assert {"6S", "6NT", "7S"} <= legal(state)
    do(state, "pass")
    assert {"6S", "6NT"} <= legal(state)  # the second caller
    do(state, "6H")
    assert not legal(state) & {"6S", "6C", "6D", "6H", "6NT"}  # third caller
    assert "7S" in legal(state)
    do(state, "pass")
    assert not legal(state) & {"6NT"}


def test_inkle_outranks_like_an_ordinary_bid() -> None:
    """§3.4: an inkle is an ordinary bid for outranking purposes."""
    state = new_state(Rules.preset("american"))
    do(state, "6H")
    assert "6S" not in legal(state) and "6H" not in legal(state) and "6NT" in legal(state)


def test_inkle_only_auction_is_thrown_in() -> None:
    """§3.4: an auction that ends with an inkle as the high bid is thrown in (as redeal)."""
    state = new_state(Rules.preset("american"), dealer=0)
    do(state, "6S", "pass", "pass", "pass")
    assert state.phase == Phase.HAND_OVER and state.result.thrown_in == "inkle"
    assert state.scores == [0, 0]
    state.next_hand()
    assert state.dealer == 1


def test_inkle_overcalled_by_a_real_bid() -> None:
    state = new_state(Rules.preset("american"))
    do(state, "6NT", "7S", "pass", "pass")
    assert (state.contract, state.declarer) == (str_to_action("7S"), 1)


def test_inkle_does_not_count_as_a_7_level_bid_for_nullo_after7() -> None:
    """§2.3/§3.4: afterN needs an ordinary bid of level N or higher; an inkle is level 6."""
    state = new_state(Rules.preset("american"))
    do(state, "6NT")
    assert "nullo" not in legal(state)


# ------------------------------------------------------------------ §3.5, §3.6 raise and reenter
def test_raise_own_bid_with_reenter_never() -> None:
    """§3.5: one more call for the high bidder; with reenter=never the auction then ends."""
    rules = Rules(raise_own_bid=True)
    state = new_state(rules)
    do(state, "7S", "pass", "pass", "pass")
    assert state.phase == Phase.AUCTION and state.turn == 0
    assert legal(state) == {"pass"} | bids_above("7S")
    do(state, "7H")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("7H"), 0)
    state = new_state(rules)
    do(state, "7S", "pass", "pass", "pass", "pass")
    assert (state.phase, state.contract) == (Phase.EXCHANGE, str_to_action("7S"))


def test_raise_own_bid_with_reenter_always() -> None:
    """§3.5/§3.6 always: after the raise the passed players call again."""
    state = new_state(Rules(raise_own_bid=True, reenter="always"))
    do(state, "7S", "pass", "pass", "pass", "8S")
    assert state.phase == Phase.AUCTION and state.turn == 1
    do(state, "8H", "pass", "pass", "pass")
    assert state.turn == 1  # seat 1's own extra call
    do(state, "pass")
    assert (state.contract, state.declarer) == (str_to_action("8H"), 1)


def test_reenter_always_without_raise() -> None:
    """§3.6 always: a passed player keeps getting calls while the auction lasts."""
    state = new_state(Rules(reenter="always"))
    do(state, "7S", "pass", "7H", "pass", "pass")
    assert state.turn == 1
    do(state, "8S", "pass", "pass", "pass")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("8S"), 1)
    state = new_state(Rules(reenter="never"))
    do(state, "7S", "pass", "7H", "pass", "pass")
    assert (state.phase, state.declarer) == (Phase.EXCHANGE, 2)


def test_reenter_after_change_a_level_raise_does_not_reopen() -> None:
    """§3.6 after_change: 7S -> 8S is a raise of the level alone; the auction ends."""
    state = new_state(Rules(raise_own_bid=True, reenter="after_change"))
    do(state, "7S", "pass", "pass", "pass", "8S")
    assert (state.phase, state.contract, state.declarer) == (
        Phase.EXCHANGE, str_to_action("8S"), 0)


@pytest.mark.parametrize("first,change", [("7S", "7H"), ("7H", "7NT"), ("7NT", "8S")])
def test_reenter_after_change_a_strain_change_reopens(first: str, change: str) -> None:
    """§3.6 after_change: a change of strain (or suit <-> notrump) reopens the auction."""
    state = new_state(Rules(raise_own_bid=True, reenter="after_change"))
    do(state, first, "pass", "pass", "pass", change)
    assert state.phase == Phase.AUCTION and state.turn == 1
    do(state, "pass", "pass", "pass")
    # §3.5: one more extra call each time the others have all passed
    assert state.phase == Phase.AUCTION and state.turn == 0
    do(state, "pass")
    assert (state.contract, state.declarer) == (str_to_action(change), 0)


def test_after_change_reopened_player_can_outbid() -> None:
    state = new_state(Rules(raise_own_bid=True, reenter="after_change"))
    do(state, "7S", "pass", "pass", "pass", "7H", "8S", "pass", "pass", "pass")
    assert state.turn == 1  # seat 1 now holds the high bid and gets its extra call
    do(state, "pass")
    assert (state.contract, state.declarer) == (str_to_action("8S"), 1)


def test_after_change_without_raise_never_reopens() -> None:
    """§3.6: without raise_own_bid there is no change, so passed players stay out."""
    state = new_state(Rules(reenter="after_change"))
    do(state, "7S", "pass", "7H", "pass", "pass")
    assert (state.phase, state.declarer) == (Phase.EXCHANGE, 2)


# ------------------------------------------------------------------ §3.7 stick the dealer
def test_stick_the_dealer() -> None:
    """§3.7: if the first three players pass, the dealer may not pass."""
    state = new_state(Rules(stick_the_dealer=True))
    do(state, "pass", "pass", "pass")
    assert state.turn == 3 and "pass" not in legal(state) and "6S" in legal(state)
    do(state, "6S")
    assert (state.contract, state.declarer) == (str_to_action("6S"), 3)
    state = new_state(Rules(stick_the_dealer=True))
    do(state, "pass", "6S", "pass")
    assert "pass" in legal(state)
    state = new_state(Rules())
    do(state, "pass", "pass", "pass")
    assert "pass" in legal(state)


# ------------------------------------------------------------------ §3.8 six NT shows the joker
def test_six_nt_shows_joker() -> None:
    """§3.8: 6NT is legal only for a player holding a joker."""
    rules = Rules(six_nt_shows_joker=True)
    state = new_state(rules, {1: "JK"})
    assert "6NT" not in legal(state) and "7NT" in legal(state)
    do(state, "pass")
    assert "6NT" in legal(state)
    do(state, "6NT")
    assert state.shows_joker == 0b0010
    # without the option anybody may bid 6NT
    assert "6NT" in legal(new_state(Rules(), {1: "JK"}))


def test_six_nt_shows_either_joker_with_two() -> None:
    """§3.8 with deck 46: the red joker counts as a joker."""
    state = new_state(Rules(deck="46", six_nt_shows_joker=True), {0: "RJ", 1: "BJ"})
    assert "6NT" in legal(state)
    do(state, "pass")
    assert "6NT" in legal(state)
    do(state, "pass")
    assert "6NT" not in legal(state)


# ------------------------------------------------------------------ §3.9 misdeal
def test_misdeal_only_without_honours_in_the_first_round() -> None:
    """§3.9: a hand with no ace, no J/Q/K and no joker may call a misdeal in round one."""
    rules = Rules(misdeal=True)
    state = new_state(rules, {0: NO_HONOURS, 1: NO_HONOURS_2, 2: "JK", 3: "JS"})
    assert "misdeal" in legal(state)
    do(state, "6S")
    assert "misdeal" in legal(state)  # seat 1, still the first round
    do(state, "pass")
    assert "misdeal" not in legal(state)  # seat 2 holds the joker
    do(state, "pass")
    assert "misdeal" not in legal(state)  # seat 3 holds a jack
    do(state, "6C")
    assert state.turn == 0 and "misdeal" not in legal(state)  # second round
    assert "misdeal" not in legal(new_state(Rules(), {0: NO_HONOURS}))  # option off


def test_misdeal_same_dealer_deals_again_and_scores_nothing() -> None:
    """§3.9/§1.4: after a misdeal the same dealer deals again; nothing is scored."""
    state = new_state(Rules(misdeal=True), {2: NO_HONOURS}, dealer=0)
    do(state, "pass", "misdeal")
    assert state.phase == Phase.HAND_OVER and state.result.thrown_in == "misdeal"
    assert state.scores == [0, 0] and state.hands_played == 0
    state.next_hand()
    assert state.dealer == 0 and state.turn == 1 and state.phase == Phase.AUCTION


def test_dealer_rotation_after_thrown_in_and_played_hands() -> None:
    """§1.4: the deal passes left after each hand, thrown in or played."""
    state = new_state(Rules(), dealer=2)
    do(state, "pass", "pass", "pass", "pass")
    state.next_hand()
    assert state.dealer == 3
    state.apply(str_to_action("6S"))
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    state.next_hand()
    assert state.dealer == 0 and state.turn == 1
    with pytest.raises(ValueError, match="AUCTION"):
        state.next_hand()


# ------------------------------------------------------------------ §3.10
def test_winner_of_the_auction_declares_the_winning_bid() -> None:
    """§3.10."""
    state = new_state(Rules(nullo="anytime"))
    do(state, "7D", "nullo", "pass", "pass", "pass")
    assert (state.declarer, state.contract, state.sitting_out) == (1, str_to_action("nullo"), 3)


def test_random_auctions_end_under_a_cyclic_ranking() -> None:
    """§2.4/§6.8: with scoring=original, point-ranked nullo makes the bid ranking cyclic; since a
    bid must outrank every bid made before it in the auction, no bid repeats and every auction
    ends within 28 bids."""
    import random

    from fh_env import Rules, State
    from fh_env import actions as A

    rules = Rules(scoring="original", nullo="anytime", nullo_ranking="points",
                  open_nullo="anytime", reenter="always", raise_own_bid=True)
    rng = random.Random(5)
    for seed in range(300):
        state = State(rules, seed=seed)
        bids = []
        while state.phase == 0:  # AUCTION
            legal = state.legal_actions()
            bidding = [a for a in legal if A.BID_BASE <= a <= A.DOUBLE_NULLO]
            action = rng.choice(bidding) if bidding and rng.random() < 0.9 else legal[0]
            if action != A.PASS and A.BID_BASE <= action <= A.DOUBLE_NULLO:
                bids.append(action)
            state.apply(action)
        assert len(bids) == len(set(bids)) <= 28
