"""Three and six players (docs/rules.md §9) on hand-built deals.

Every test names the sentence of §9 it pins and asserts exact tricks, points or winners, so that
a wrong rule fails it.  The dealer is the last seat unless a test says otherwise, so seat 0 calls
first; :func:`conftest.start_table_play` leaves the hands as dealt.
"""

from __future__ import annotations

import pytest

from fh_env.actions import (MISDEAL, NULLO, OPEN_NULLO, PASS, SIX_HANDED, action_table,
                            bid_action)
from fh_env.cards import card_name, cards_of, parse_card
from fh_env.contracts import DRAW, end_of_hand, hand_points
from fh_env.engine import Phase, State
from fh_env.rules import Rules

from conftest import act, legal, new_table_state, start_table_play, table_deal

THREE = Rules.preset("three-handed")
SIX = Rules.preset("six-handed")
SUITS = "SCDH"


def pack(rules: Rules) -> set[str]:
    return {card_name(c) for c in rules.cards}


# ------------------------------------------------------------------ §9.1 / §9.2 the packs
def test_three_player_pack_is_7_to_ace_and_one_joker() -> None:
    """§9.1: 33 cards (7 to A of every suit and 1 joker), 10 cards each, a 3-card kitty."""
    expected = {r + s for s in SUITS for r in ("7", "8", "9", "10", "J", "Q", "K", "A")} | {"JK"}
    rules = Rules(players=3)
    assert len(rules.cards) == 33 and pack(rules) == expected
    assert rules.kitty_size == 3 and rules.jokers == 1
    state = State(rules, seed=5)
    assert [h.bit_count() for h in state.hands] == [10, 10, 10] and state.kitty.bit_count() == 3
    dealt = 0
    for m in list(state.hands) + [state.kitty]:
        dealt |= m
    assert {card_name(c) for c in cards_of(dealt)} == expected


def test_six_player_pack_has_the_2s_3s_11s_12s_and_red_13s() -> None:
    """§9.2: 63 cards: 2 to A of every suit, an 11 and a 12 of every suit, a 13 of hearts and
    of diamonds, and 1 joker; 10 cards each and a 3-card kitty."""
    ranks = [str(n) for n in range(2, 13)] + ["J", "Q", "K", "A"]  # 2..10, 11, 12, J Q K A
    expected = {r + s for s in SUITS for r in ranks} | {"13H", "13D", "JK"}
    rules = Rules(players=6)
    assert len(expected) == 63 and len(rules.cards) == 63 and pack(rules) == expected
    assert rules.kitty_size == 3 and rules.jokers == 1
    state = State(rules, seed=9)
    assert [h.bit_count() for h in state.hands] == [10] * 6 and state.kitty.bit_count() == 3
    for name in ("13S", "13C"):  # in no pack
        with pytest.raises(ValueError, match="bad card name"):
            parse_card(name)


def test_a_deal_must_be_the_table_sizes_pack() -> None:
    """§9.1, §9.2: a deal of the wrong pack or the wrong number of hands is refused."""
    hands, kitty = table_deal(THREE, {})
    bad = [list(h) for h in hands]
    bad[0][0] = parse_card("6S")  # a 4-player card, not in the 33-card pack
    with pytest.raises(ValueError, match="3-player pack"):
        State.from_deal(THREE, bad, kitty)
    with pytest.raises(ValueError, match="needs 3 hands"):
        State.from_deal(THREE, hands + [[]], kitty)
    hands6, kitty6 = table_deal(SIX, {})
    with pytest.raises(ValueError, match="needs 6 hands"):
        State.from_deal(SIX, hands6[:4], kitty6)


def test_six_handed_card_names_are_actions_of_the_six_player_table() -> None:
    """§9.2: cards are named as elsewhere (2S, 10S, 11S, 12S, 13H, 13D), each with a discard and
    a play action; three players share the 4-player action table."""
    table = action_table(6)
    assert table is SIX_HANDED and table.num_actions == 166
    for name in ("2S", "10S", "11S", "12S", "13H", "13D", "AH", "JK"):
        for verb in ("discard", "play"):
            assert table.to_str(table.from_str(f"{verb} {name}")) == f"{verb} {name}"
    assert action_table(3).num_actions == 130


# ------------------------------------------------------------------ seats and the auction (§9.3)
def test_seats_call_clockwise_from_the_dealers_left() -> None:
    """§9.1/§9.2, §3.1: seats 0..n-1 clockwise; the dealer's left calls first."""
    for rules, dealer in ((THREE, 1), (SIX, 3)):
        state = new_table_state(rules, dealer=dealer)
        n = rules.players
        seen = []
        while state.phase == Phase.AUCTION and len(seen) < n:
            seen.append(state.turn)
            act(state, "6S" if not seen[:-1] else "pass")
        assert seen == [(dealer + 1 + i) % n for i in range(n)]


@pytest.mark.parametrize("rules", [THREE, SIX], ids=["three", "six"])
def test_the_auction_ends_when_all_the_others_have_passed(rules: Rules) -> None:
    """§9.3, §3.2: the auction ends once all the other players have passed after a bid."""
    n = rules.players
    state = new_table_state(rules)
    act(state, "7S", *["pass"] * (n - 2))
    assert state.phase == Phase.AUCTION and state.turn == n - 1  # one other still to call
    act(state, "pass")
    assert state.phase == Phase.EXCHANGE and state.declarer == 0
    assert state.contract == bid_action(7, 0)


def test_three_players_bid_round_the_table_until_the_others_pass() -> None:
    """§9.3, §3.2: 0 and 1 outbid each other, 2 passed once and is skipped (reenter=never)."""
    state = new_table_state(Rules(players=3))
    act(state, "6S", "6C", "pass", "6D")
    assert state.turn == 1  # seat 2 passed: skipped
    act(state, "7C")
    assert state.turn == 0
    act(state, "pass")
    assert state.phase == Phase.EXCHANGE and state.declarer == 1
    assert state.action_name(state.contract) == "7C"


@pytest.mark.parametrize("players", [3, 6])
def test_one_bidding_round_gives_each_player_exactly_one_call(players: int) -> None:
    """§9.3, §3.2 bidding_rounds=1: n calls, the highest bid wins though nobody passed."""
    rules = Rules(players=players, bidding_rounds=1)
    bids = ["6S", "6C", "6D", "6H", "6NT", "7S"][:players]
    state = new_table_state(rules)
    act(state, *bids[:-1])
    assert state.phase == Phase.AUCTION
    act(state, bids[-1])
    assert state.phase == Phase.EXCHANGE and state.declarer == players - 1
    assert len(state.calls) == players


@pytest.mark.parametrize("players", [3, 6])
def test_stick_the_dealer_when_all_the_others_have_passed(players: int) -> None:
    """§9.3, §3.7: the dealer may not pass once all the other players have passed."""
    rules = Rules(players=players, stick_the_dealer=True)
    state = new_table_state(rules)
    act(state, *["pass"] * (players - 2))
    assert state.turn == players - 2 and "pass" in legal(state)  # not the dealer
    act(state, "pass")
    assert state.turn == players - 1 == state.dealer
    assert "pass" not in legal(state) and "6S" in legal(state)
    plain = new_table_state(Rules(players=players), dealer=players - 1)
    act(plain, *["pass"] * (players - 1))
    assert "pass" in legal(plain)  # without the option the dealer may pass


@pytest.mark.parametrize("players", [3, 6])
def test_all_pass_redeals_with_the_deal_passing_left(players: int) -> None:
    """§9.3, §3.3 redeal: all n players pass: no score, the deal passes to the left."""
    state = new_table_state(Rules(players=players), dealer=players - 1)
    act(state, *["pass"] * players)
    assert state.result.thrown_in == "all_pass" and state.result.hand_points == (0,) * (
        3 if players == 3 else 2)
    state.next_hand()
    assert state.dealer == 0 and state.turn == 1


@pytest.mark.parametrize("rules,weak", [
    (THREE.replace(misdeal=True), "7S 8S 9S 10S 7C 8C 9C 10C 7D 8D"),
    (SIX.replace(misdeal=True), "2S 3S 4S 5S 2C 3C 4C 2D 3D 11D"),
], ids=["three", "six"])
def test_misdeal_only_in_the_first_round_of_n_calls(rules: Rules, weak: str) -> None:
    """§9.3, §3.9: 'the first round' is each player's first call: the dealer (the n-th caller)
    may call a misdeal; in the second round nobody may; the same dealer deals again."""
    n = rules.players
    dealer = n - 1
    state = new_table_state(rules, {dealer: weak}, dealer=dealer)
    act(state, *["pass"] * (n - 2))
    assert state.turn == dealer - 1 and "misdeal" not in legal(state)  # it holds honours
    act(state, "6S")
    assert state.turn == dealer and "misdeal" in legal(state)
    act(state, "6C")  # the dealer bids instead
    act(state, "6D")  # back to seat n-2 (the others passed and may not re-enter)
    assert state.turn == dealer and "misdeal" not in legal(state)  # the second round
    again = new_table_state(rules, {dealer: weak}, dealer=dealer)
    act(again, *["pass"] * (n - 1), "misdeal")
    assert again.result.thrown_in == "misdeal" and again.phase == Phase.HAND_OVER
    again.next_hand()
    assert again.dealer == dealer


@pytest.mark.parametrize("players", [3, 6])
def test_reenter_always_gives_a_passed_player_calls_again(players: int) -> None:
    """§9.3, §3.6 reenter=always: seat 0 passed, then outbids; the auction ends once all the
    others have passed since that bid."""
    n = players
    state = new_table_state(Rules(players=n, reenter="always"))
    act(state, "pass", "6S", *["pass"] * (n - 2))
    assert state.turn == 0 and "6C" in legal(state)
    act(state, "6C", *["pass"] * (n - 2))
    assert state.phase == Phase.AUCTION and state.turn == n - 1
    act(state, "pass")
    assert state.phase == Phase.EXCHANGE and state.declarer == 0
    never = new_table_state(Rules(players=n))
    act(never, "pass", "6S", *["pass"] * (n - 2))
    assert never.phase == Phase.EXCHANGE and never.declarer == 1  # seat 0 may not re-enter


# ------------------------------------------------------------------ §9.1 three players
# Hearts trumps; seat 0 declares.  Scripted: seat 0 takes tricks 1-7 with trumps, seat 2 takes
# trick 8 with AD, seat 1 tricks 9 and 10 with KC and AC.
HANDS_3 = {0: "JK JH JD AH KH QH 10H 7S 7C 7D",
           1: "AS KS QS JS AC KC QC JC 9H 8H",
           2: "AD KD QD 10D 9D 8D 10S 9S 10C 9C"}
KITTY_3 = "8S 8C 7H"
PLAY_3 = ("JK 8H 9C", "JH 9H 9S", "JD JS 10S", "AH KS 8D", "KH QS 9D", "QH JC 10D",
          "10H QC QD", "7D AS AD", "10C 7C KC", "AC KD 7S")


def play_three(rules: Rules, bid: str, scores: list[int] | None = None) -> State:
    state = start_table_play(rules, HANDS_3, [bid, "pass", "pass"], KITTY_3)
    if scores is not None:
        state.scores = scores
    return act(state, *PLAY_3)


def test_three_players_every_trick_has_three_cards_and_each_plays_alone() -> None:
    """§9.1: seats 0..2 clockwise; two defenders against the declarer; tricks and hand points
    per player: each defender scores 10 per trick they take personally."""
    state = play_three(THREE, "7H")
    assert [(t[0], len(t[1]), t[2]) for t in state.tricks] == (
        [(0, 3, 0)] * 7 + [(0, 3, 2), (2, 3, 1), (1, 3, 1)])
    r = state.result
    assert r.tricks == (7, 2, 1)  # not (8, 2): seats 0 and 2 are not partners
    assert r.hand_points == (200, 20, 10) and r.made is True
    assert r.game_points == (200, 20, 10) and state.scores == [200, 20, 10]


def test_three_players_a_set_contract_and_when_set() -> None:
    """§9.1, §6.4: 8H set; subtract: -300 for the declarer, each defender its own tricks;
    to_defenders (a decision): each defender scores the value in full plus its tricks."""
    state = play_three(THREE, "8H")
    assert state.result.hand_points == (-300, 20, 10) and state.result.made is False
    state = play_three(THREE.replace(when_set="to_defenders"), "8H")
    assert state.result.hand_points == (0, 320, 310)
    state = play_three(THREE.replace(defender_scoring="none"), "7H")
    assert state.result.hand_points == (200, 0, 0)


def test_three_players_score_per_player_from_the_start() -> None:
    """§9.1: game scores have three entries."""
    state = State(THREE, seed=1)
    assert state.scores == [0, 0, 0] and len(state.hands) == 3


def test_three_players_hand_points_per_player() -> None:
    """§9.1, §6.5-§6.7 (decisions): each defender scores in full what the defence earns."""
    r = THREE
    seven_h = bid_action(7, 3)
    assert hand_points(r, seven_h, 1, (2, 7, 1)) == (20, 200, 10)
    assert hand_points(r.replace(defender_scoring="tricks_and_nullo"), NULLO, 1, (4, 2, 4)) \
        == (20, -250, 20)
    assert hand_points(r.replace(defender_scoring="tricks_and_nullo", when_set="to_defenders"),
                       NULLO, 1, (4, 2, 4)) == (270, 0, 270)
    assert hand_points(r, NULLO, 2, (5, 5, 0)) == (0, 0, 250)
    assert hand_points(r, -1, 0, (3, 3, 4)) == (30, 30, 40)  # no-contract play (§6.7)


def test_three_players_nullo_is_solo_with_nobody_sitting_out() -> None:
    """§9.1: nullo is solo as usual, but no partner sits out: every trick has three cards."""
    low = "7S 8S 7C 8C 7D 8D 7H 8H 9S 9C"  # below every card of the same suit in the pack
    state = start_table_play(THREE, {1: low}, ["7S", "nullo", "pass", "pass"])
    assert state.contract == NULLO and state.declarer == 1 and state.sitting_out == -1
    assert state.active_seats() == 3 and state.turn == 1  # the declarer leads
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert all(len(t[1]) == 3 for t in state.tricks) and len(state.tricks) == 10
    assert state.hands == [0, 0, 0]
    assert state.tricks_won[1] == 0 and state.result.tricks == tuple(state.tricks_won)
    assert state.result.hand_points == (0, 250, 0) and state.result.made is True


def test_three_players_the_declarer_wins_when_two_reach_the_target() -> None:
    """§9.1: two players reach the target on the same hand: the declarer wins, though lower."""
    state = play_three(THREE.replace(on_target="highest"), "7H", scores=[300, 490, 0])
    assert state.scores == [500, 510, 10] and state.game_over and state.winner == 0


def test_three_players_two_defenders_the_first_trick_to_target_wins() -> None:
    """§9.1: neither of the two declared: the one whose trick first took them to target wins.
    Seat 2 reaches 500 with trick 8, seat 1 with trick 9 or 10."""
    rules = THREE.replace(on_target="highest")
    state = play_three(rules, "8H", scores=[0, 480, 490])
    assert state.scores == [-300, 500, 500] and state.winner == 2  # not a draw
    state = play_three(rules, "8H", scores=[0, 490, 490])
    assert state.scores == [-300, 510, 500] and state.winner == 2  # though lower: trick 8
    state = play_three(rules, "8H", scores=[0, 490, 480])
    assert state.scores == [-300, 510, 490] and state.winner == 1  # only seat 1 reached


def test_three_players_only_scoring_tricks_count_for_the_first_to_target() -> None:
    """§9.1 (a decision): under defender_scoring=none the tricks earn nothing, so when the set
    value takes both defenders to the target the higher score wins, not seat 2's trick 8."""
    rules = THREE.replace(on_target="highest", defender_scoring="none", when_set="to_defenders")
    state = play_three(rules, "8H", scores=[0, 495, 490])
    assert state.scores == [0, 795, 790] and state.winner == 1
    state = play_three(rules, "8H", scores=[0, 490, 490])
    assert state.winner == DRAW


def test_three_players_end_of_game_decisions() -> None:
    """§9.1, §7.2 with three players (decisions): first to target by trick, else the higher
    score; the floor ends the game for the highest; must_bid: the others' highest wins."""
    r = THREE.replace(on_target="highest")
    # Seats 0 and 1 defend against seat 2's 7S (set): seat 0 took tricks 1 and 2.
    takers = (0, 0, 1, 1, 1, 1, 1, 1, 2, 2)
    assert end_of_hand(r, (480, 470, 0), (20, 60, -140), 2, False, 1, takers) == \
        ((500, 530, -140), 0)
    takers = (1, 1, 1, 0, 1, 1, 1, 0, 2, 2)  # seat 1 reached 500 with trick 3
    assert end_of_hand(r, (480, 470, 0), (20, 60, -140), 2, False, 1, takers) == \
        ((500, 530, -140), 1)
    assert end_of_hand(r, (480, 470, 0), (20, 60, -140), 2, False, 1, ()) == \
        ((500, 530, -140), 1)  # no trick took them there: the higher score
    # The floor: the highest wins; a tie for it is a draw.
    assert end_of_hand(r, (-400, 100, 50), (-140, 40, 60), 0, False, 1) == \
        ((-540, 140, 110), 1)
    assert end_of_hand(r, (-400, 100, 80), (-140, 40, 60), 0, False, 1) == \
        ((-540, 140, 140), DRAW)
    # must_bid (the three-handed preset): defending points never end the game; the declarer
    # reaching the target on a made contract wins; a player at the floor loses and the highest
    # of the others wins.
    assert end_of_hand(THREE, (0, 480, 490), (-300, 20, 10), 0, False, 1) == \
        ((-300, 500, 500), None)
    assert end_of_hand(THREE, (300, 490, 0), (200, 20, 10), 0, True, 1) == \
        ((500, 510, 10), 0)
    assert end_of_hand(THREE, (-400, 100, 200), (-140, 40, 60), 0, False, 1) == \
        ((-540, 140, 260), 2)


def test_three_players_defenders_stop_caps_each_defender() -> None:
    """§9.1, §7.2 defenders_stop_10: each defender's points are capped at target - 10."""
    r = THREE.replace(on_target="defenders_stop_10")
    assert end_of_hand(r, (0, 480, 470), (-300, 20, 30), 0, False, 1) == \
        ((-300, 490, 490), None)


def test_three_player_game_records_per_player_results() -> None:
    """§9.1: the hand result of a thrown-in hand has three entries too."""
    state = new_table_state(THREE)
    act(state, "pass", "pass", "pass")
    assert state.result.tricks == (0, 0, 0) and state.result.game_points == (0, 0, 0)


# ------------------------------------------------------------------ §9.2 six players
# Notrump, seat 0 declares 6NT; the first three tricks show the plain order.
HANDS_6_NT = {0: "11S 2H 9D", 1: "12S 13H 2D", 2: "10S JH 10D", 3: "2S 10H 13D",
              4: "3S 12H 12D", 5: "9S 11H 11D"}


def six_calls(bid: str, declarer: int = 0) -> list[str]:
    return ["pass"] * declarer + [bid] + ["pass"] * (5 - declarer) + ["pass"] * declarer


def test_six_players_plain_order_puts_11_12_13_between_10_and_jack() -> None:
    """§9.2: plain ranks 2 3 4 … 10 11 12 13 J Q K A."""
    state = start_table_play(SIX, HANDS_6_NT, six_calls("6NT"), dealer=5)
    act(state, "11S 12S 10S 2S 3S 9S")  # led by seat 0: 12 beats 11, 10, 9, 3, 2
    assert state.tricks[-1][2] == 1
    act(state, "13H JH 10H 12H 11H 2H")  # led by seat 1: J beats 13
    assert state.tricks[-1][2] == 2
    act(state, "10D 13D 12D 11D 9D 2D")  # led by seat 2: 13 beats 12, 11, 10
    assert state.tricks[-1][2] == 3


def test_six_players_bowers_in_the_trump_suit() -> None:
    """§9.2: in a trump suit the jacks are bowers as usual (the right and left bower above the
    ace, 12 and 11 between 10 and Q); in a side suit J still beats 13."""
    hands = {0: "10S 4S 11D", 1: "11S 5S 2D", 2: "12S QS 3D", 3: "2S JC 13D",
             4: "3S AS JD", 5: "9S KS 12D"}
    state = start_table_play(SIX, hands, six_calls("6S"), dealer=5)
    act(state, "10S 11S 12S 2S 3S 9S")
    assert state.tricks[-1][2] == 2  # 12S
    act(state, "QS JC AS KS 4S 5S")
    assert state.tricks[-1][2] == 3  # the left bower JC over AS
    act(state, "13D JD 12D 11D 2D 3D")
    assert state.tricks[-1][2] == 4  # JD, a plain diamond with spades trumps, over 13D


# Hearts trumps, seat 0 declares 7H: seven trump tricks for seat 0, then seat 2 (the partner)
# takes two with AS and AC, and seat 3 (a defender) the last with AD.
HANDS_6 = {0: "JK JH JD AH KH QH 13H 2S 2C 2D",
           1: "12H 11H 10H 4S 5S 6S 7S 8S 9S 10S",
           2: "9H 8H AS AC 3D JS QS KS 4C 5C",
           3: "7H 6H 5H AD 6C 7C 8C 9C 10C JC",
           4: "4H 3H QC KC 4D 5D 6D 7D 8D 9D",
           5: "2H 10D QD KD 3S 11S 12S 3C 11C 12C"}
KITTY_6 = "11D 12D 13D"
PLAY_6 = ("JK 10H 8H 5H 4H 2H", "JH 11H 9H 6H 3H 10D", "JD 12H JS 7H QC QD",
          "AH 4S QS 6C KC KD", "KH 5S KS 7C 4D 3S", "QH 6S 4C 8C 5D 11S",
          "13H 7S 5C 9C 6D 12S", "2S 8S AS 10C 7D 3C", "AC JC 8D 11C 2C 9S",
          "3D AD 9D 12C 2D 10S")


def test_six_players_score_as_two_teams_of_alternate_seats() -> None:
    """§9.2: teams 0, 2, 4 against 1, 3, 5, scoring as teams."""
    state = start_table_play(SIX, HANDS_6, six_calls("7H"), KITTY_6, dealer=5)
    act(state, *PLAY_6)
    assert state.tricks_won == [7, 0, 2, 1, 0, 0]
    assert [t[2] for t in state.tricks] == [0] * 7 + [2, 2, 3]
    r = state.result
    assert r.tricks == (9, 1) and r.hand_points == (200, 10) and r.made is True
    assert state.scores == [200, 10]


def test_six_players_defenders_score_for_the_team() -> None:
    """§9.2: the defending team scores every trick its three players take (seat 3's AD)."""
    state = start_table_play(SIX, HANDS_6, six_calls("10H"), KITTY_6, dealer=5)
    act(state, *PLAY_6)
    assert state.result.tricks == (9, 1) and state.result.hand_points == (-500, 10)


def play_out_tracking(state: State) -> list[list[int]]:
    """Play the lowest legal action to the end, returning the seats of each trick in order."""
    orders: list[list[int]] = []
    while not state.is_terminal:
        if not state.trick or not orders:
            orders.append([])
        orders[-1].append(state.turn)
        state.apply(state.legal_actions()[0])
    return orders


LOW_6 = "2S 3S 2C 3C 2D 3D 2H 3H 4S 4C"  # the lowest cards of every suit


def test_six_players_nullo_both_partners_sit_out() -> None:
    """§9.2: in nullo the declarer plays alone and both partners sit out: four-card tricks,
    play skipping the two partners."""
    state = start_table_play(SIX, {1: LOW_6}, ["7S", "nullo"] + ["pass"] * 5, dealer=5)
    assert state.contract == NULLO and state.declarer == 1
    assert state.active_seats() == 4 and state.turn == 1
    orders = play_out_tracking(state)
    assert len(orders) == 10
    for order in orders:
        assert len(order) == 4 and set(order) == {0, 1, 2, 4}
        lead = order[0]
        assert order == [s for s in ((lead + i) % 6 for i in range(6)) if s not in (3, 5)]
    assert all(len(t[1]) == 4 for t in state.tricks)
    assert state.hands[3].bit_count() == 10 and state.hands[5].bit_count() == 10
    assert state.tricks_won[3] == state.tricks_won[5] == state.tricks_won[1] == 0
    assert state.result.tricks == (10, 0) and state.result.hand_points == (0, 250)


def test_six_players_first_leader_skips_a_sitting_out_partner() -> None:
    """§9.2, §5.1: first_leader=left_of_dealer: the dealer's left is the declarer's partner, who
    sits out, so the next seat that plays leads."""
    rules = SIX.replace(first_leader="left_of_dealer")
    # Dealer 2: calls from seat 3; seat 1 declares nullo, partners 3 and 5 sit out.
    state = start_table_play(rules, {1: LOW_6}, ["7S", "pass", "pass", "pass", "nullo",
                                                 "pass", "pass"], dealer=2)
    assert state.declarer == 1 and state.turn == 4 and state.leader == 4
    act(state, "play " + state.card_name(state.legal_actions()[0] - SIX_HANDED.play_base))
    assert state.turn == 0
    orders = play_out_tracking(state)
    assert all(3 not in o and 5 not in o for o in orders)


def test_six_players_open_nullo_is_exposed_with_both_partners_out() -> None:
    """§9.2, §5.9: open nullo with both partners sitting out; the preset exposes the hand after
    the first trick, at_first_lead from the start."""
    calls = ["open nullo"] + ["pass"] * 5
    state = start_table_play(SIX, {0: LOW_6}, calls, dealer=5)
    assert state.contract == OPEN_NULLO and state.declarer == 0 and state.active_seats() == 4
    assert state.exposed is False
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.exposed is False and state.turn == 5  # 0, 1, 3, 5: seats 2 and 4 are out
    state.apply(state.legal_actions()[0])
    assert len(state.tricks) == 1 and state.exposed is True
    orders = play_out_tracking(state)
    assert all(set(o) == {0, 1, 3, 5} for o in orders)
    assert state.result.tricks == (0, 10) and state.result.hand_points == (500, 0)
    early = start_table_play(SIX.replace(open_nullo_exposed="at_first_lead"), {0: LOW_6}, calls,
                             dealer=5)
    assert early.exposed is True


def test_six_players_nullo_set_scores_for_the_team() -> None:
    """§9.2, §6.6: a declarer who takes a trick sets the nullo for the team: minus the value."""
    high = "JK AS KS QS AC KC QC AD KD QD"
    state = start_table_play(SIX.replace(nullo_must_play_joker=False), {1: high},
                             ["7S", "nullo"] + ["pass"] * 5, dealer=5)
    act(state, "play JK S")  # the joker led wins the trick
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.tricks[0][2] == 1
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.result.made is False and state.result.hand_points == (0, -250)


# ------------------------------------------------------------------ §9.3 validation, §9.4
@pytest.mark.parametrize("players", [3, 6])
def test_double_nullo_and_other_decks_are_refused(players: int) -> None:
    """§9.3: double nullo and a non-default deck are refused with an error naming the options."""
    with pytest.raises(ValueError, match=rf"players={players}.*double_nullo"):
        Rules(players=players, double_nullo="after_partner_nullo")
    with pytest.raises(ValueError, match=rf"players={players}.*deck='45'"):
        Rules(players=players, deck="45")
    with pytest.raises(ValueError, match=r"deck='46' and double_nullo='anytime'"):
        Rules(players=players, deck="46", double_nullo="anytime")
    with pytest.raises(ValueError, match="double_nullo"):
        Rules.preset("american-double-nullo").replace(players=players, deck="43")
    assert Rules(players=players, deck="43").players == players  # the default deck is fine


def test_other_table_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        Rules(players=5)


def test_presets_are_avondale_classic_at_three_and_six() -> None:
    """§9.4: three-handed and six-handed are avondale-classic with players=3 and players=6."""
    classic = Rules.preset("avondale-classic")
    assert Rules.preset("three-handed") == classic.replace(players=3)
    assert Rules.preset("six-handed") == classic.replace(players=6)
    assert Rules.preset("three-handed").on_target == "must_bid"


def test_nullo_types_without_double_nullo_in_the_auction() -> None:
    """§9.3: with 3 or 6 players double nullo is never a legal call."""
    for rules in (THREE, SIX):
        state = new_table_state(rules.replace(nullo="anytime"))
        assert {"nullo", "open nullo"} <= legal(state) and "double nullo" not in legal(state)
        assert MISDEAL not in state.legal_actions() and PASS in state.legal_actions()
