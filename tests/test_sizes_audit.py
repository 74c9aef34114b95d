"""An audit of RULES.md §9 (three and six players; docs/rules.md follows it) against the engine.

Each test pins a sentence of §9, or of another section read at three or six players (§9.3:
"every other option keeps its meaning where it makes sense"), that tests/test_table_sizes.py
and the other size tests do not already pin.  Deals are hand-built (conftest.table_deal fills
the unnamed cards in id order); the dealer is the last seat unless a test says otherwise.
A test marked ``xfail(strict=True)`` shows a place where the engine disagrees with RULES.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fh_env.actions import bid_action
from fh_env.cards import JOKER, card_name, cards_of
from fh_env.contracts import DRAW, end_of_hand
from fh_env.engine import NO_CONTRACT, Phase, State
from fh_env.rules import Rules, resolve_rules

from conftest import act, legal, new_table_state, start_table_play

THREE = Rules.preset("three-handed")
SIX = Rules.preset("six-handed")
ROOT = Path(__file__).resolve().parent.parent


def six_calls(bid: str) -> list[str]:
    """Seat 0 bids, the five others pass (dealer 5)."""
    return [bid] + ["pass"] * 5


# Hearts trumps, seat 0 declares: seat 0 takes tricks 1-7, seat 2 trick 8, seat 1 tricks 9-10.
from test_table_sizes import HANDS_3, KITTY_3, PLAY_3  # noqa: E402  (the same deal)


# ------------------------------------------------------------------ §1.3, §1.4 at 3 and 6
@pytest.mark.parametrize("rules", [THREE, SIX], ids=["three", "six"])
def test_highest_joker_in_kitty_at_three_and_six(rules: Rules) -> None:
    """§1.3 with §9.3: highest_joker_in_kitty makes sense with the single joker of the 33- and
    63-card packs: the joker is always in the 3-card kitty, every hand still has 10 cards."""
    rules = rules.replace(highest_joker_in_kitty=True)
    for seed in range(8):
        state = State(rules, seed=seed)
        assert state.kitty >> JOKER & 1 and state.kitty.bit_count() == 3
        assert [h.bit_count() for h in state.hands] == [10] * rules.players
        assert not any(h >> JOKER & 1 for h in state.hands)


@pytest.mark.parametrize("players", [3, 6])
def test_first_dealer_is_any_seat_of_the_table(players: int) -> None:
    """§1.4 with §9.1/§9.2: the first dealer is chosen at random from the seed, among all the
    seats 0..n-1 (not only 0..3 with six players)."""
    dealers = {State(Rules(players=players), seed=s).dealer for s in range(120)}
    assert dealers == set(range(players))


@pytest.mark.parametrize("rules,dealer", [(THREE, 1), (SIX, 3)], ids=["three", "six"])
def test_deal_passes_left_after_a_played_hand(rules: Rules, dealer: int) -> None:
    """§1.4: after a hand that was played the deal passes to the left, (dealer + 1) % n."""
    n = rules.players
    state = new_table_state(rules, dealer=dealer)
    first = (dealer + 1) % n
    act(state, *[("7S" if seat == first else "pass") for seat in
                 ((first + i) % n for i in range(n))])
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.phase == Phase.HAND_OVER and state.result.contract is not None
    state.next_hand()
    assert state.dealer == (dealer + 1) % n and state.turn == (dealer + 2) % n


# ------------------------------------------------------------------ §3 auction options at 3 and 6
@pytest.mark.parametrize("players", [3, 6])
def test_inkle_only_the_first_two_callers_at_three_and_six(players: int) -> None:
    """§3.4 with §9.3: only the first two callers may bid at level 6; an inkle left as the high
    bid throws the hand in."""
    rules = Rules(players=players, min_bid_level=7, inkle=True)
    state = new_table_state(rules)
    assert "6S" in legal(state)
    act(state, "6S")
    assert "6C" in legal(state)
    act(state, "6C")
    assert "6D" not in legal(state) and "6NT" not in legal(state) and "7S" in legal(state)
    thrown = new_table_state(rules)
    act(thrown, "pass", "6S", *["pass"] * (players - 2))
    assert thrown.phase == Phase.HAND_OVER and thrown.result.thrown_in == "inkle"


@pytest.mark.parametrize("players", [3, 6])
def test_raise_own_bid_once_all_the_others_have_passed(players: int) -> None:
    """§3.5 with §9.3: when all the others have passed after the high bid, the high bidder gets
    one more call (a bid above its own); with reenter=never the auction then ends at once."""
    rules = Rules(players=players, raise_own_bid=True)
    state = new_table_state(rules)
    act(state, "7S", *["pass"] * (players - 2))
    assert state.phase == Phase.AUCTION and state.turn == players - 1  # one other still to call
    act(state, "pass")
    assert state.phase == Phase.AUCTION and state.turn == 0
    assert "pass" in legal(state) and "7C" in legal(state) and "6NT" not in legal(state)
    act(state, "8H")
    assert state.phase == Phase.EXCHANGE and state.declarer == 0
    assert state.contract == bid_action(8, 3)
    plain = new_table_state(Rules(players=players))
    act(plain, "7S", *["pass"] * (players - 1))
    assert plain.phase == Phase.EXCHANGE  # without the option: no extra call


@pytest.mark.parametrize("players", [3, 6])
def test_bidding_rounds_n_means_n_full_rounds_of_the_table(players: int) -> None:
    """§3.2 with §9.3: bidding_rounds=2 ends the auction after two full rounds of n calls."""
    bids = ["6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "8S", "8C"]
    state = new_table_state(Rules(players=players, bidding_rounds=2))
    act(state, *bids[:2 * players - 1])
    assert state.phase == Phase.AUCTION and state.turn == players - 1
    act(state, bids[2 * players - 1])
    assert state.phase == Phase.EXCHANGE and state.declarer == players - 1
    assert state.action_name(state.contract) == bids[2 * players - 1]


@pytest.mark.parametrize("rules", [THREE, SIX], ids=["three", "six"])
def test_six_nt_shows_joker_at_three_and_six(rules: Rules) -> None:
    """§3.8 with §9.3: 6NT is legal only for the player holding the (single) joker."""
    state = new_table_state(rules.replace(six_nt_shows_joker=True), {1: "JK"})
    assert "6NT" not in legal(state) and "6H" in legal(state)  # seat 0 has no joker
    act(state, "6S")
    assert "6NT" in legal(state)  # seat 1 holds it
    act(state, "pass")
    assert "6NT" not in legal(state) and "7NT" in legal(state)


def test_six_players_misdeal_13s_11s_12s_are_not_honours() -> None:
    """§3.9 with §9.2: the honours are aces, J/Q/K and the joker; a hand of 13H 13D and 11s and
    12s (which rank between 10 and J) has none, so it may call a misdeal; one king stops it."""
    rules = SIX.replace(misdeal=True)
    weak = "13H 13D 12S 12C 12D 12H 11S 11C 11D 11H"
    state = new_table_state(rules, {0: weak})
    assert "misdeal" in legal(state)
    strong = new_table_state(rules, {0: "13H 13D 12S 12C 12D 12H 11S 11C 11D KH"})
    assert "misdeal" not in legal(strong)


# ------------------------------------------------------------------ §3.3 all_pass=play
# A 3-player no-contract hand, dealer 2: seat 0 (the dealer's left) leads.  Seats 0 and 2 (same
# parity) take 2 and 6 tricks, seat 1 takes 2.
HANDS_3_NC = {0: "AS KS QS JS 7H 8H 7D 8D 7C 8C",
              1: "AH KH QH JH 10H 9H 9S 10S 9C 10C",
              2: "AD KD QD JD 10D 9D 8S 7S JC QC"}
KITTY_3_NC = "JK KC AC"
PLAY_3_NC = ("AS 9S 7S", "KS 10S 8S", "7H AH 9D", "KH 10D 8H", "9C JC 7C", "AD 7D QH",
             "KD 8D JH", "QD QS 10H", "JD JS 9H", "QC 8C 10C")


def play_three_no_contract(rules: Rules, scores: list[int] | None = None) -> State:
    state = new_table_state(rules, HANDS_3_NC, KITTY_3_NC, dealer=2)
    act(state, "pass", "pass", "pass")
    assert state.phase == Phase.PLAY and state.contract == NO_CONTRACT
    assert state.turn == 0 and state.leader == 0  # the dealer's left leads
    assert state.exchanges == [] and sorted(card_name(c) for c in cards_of(state.kitty)) == \
        sorted(KITTY_3_NC.split())  # no kitty exchange
    if scores is not None:
        state.scores = scores
    return act(state, *PLAY_3_NC)


def test_three_players_no_contract_play_scores_per_player() -> None:
    """§3.3 play, §6.7 with §9.1: no trumps, the dealer's left leads, no exchange, and each
    player (not team) scores 10 per trick they take."""
    state = play_three_no_contract(Rules(players=3, all_pass="play"))
    assert [t[2] for t in state.tricks] == [0, 0, 1, 1, 2, 2, 2, 2, 2, 2]
    assert all(len(t[1]) == 3 for t in state.tricks)
    assert state.result.tricks == (2, 2, 6) and state.result.hand_points == (20, 20, 60)
    assert state.result.declarer is None and state.scores == [20, 20, 60]


def test_three_players_no_contract_first_trick_to_target_wins() -> None:
    """§9.1: two players reach the target and neither declared (no-contract play): the one whose
    trick first took them there wins: seat 1 (500 with trick 4), though seat 2 ends higher (510,
    reached with trick 9)."""
    rules = Rules(players=3, all_pass="play", on_target="highest")
    state = play_three_no_contract(rules, scores=[0, 480, 450])
    assert state.scores == [20, 500, 510] and state.game_over and state.winner == 1


def test_six_players_no_contract_play_scores_per_team() -> None:
    """§3.3 play, §6.7 with §9.2: the dealer's left leads six-card tricks; each team of three
    (alternate seats) scores 10 per trick its players take."""
    state = new_table_state(Rules(players=6, all_pass="play"), dealer=2)
    act(state, *["pass"] * 6)
    assert state.phase == Phase.PLAY and state.turn == 3 and state.exchanges == []
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    won = state.tricks_won
    teams = (won[0] + won[2] + won[4], won[1] + won[3] + won[5])
    assert all(len(t[1]) == 6 for t in state.tricks) and sum(teams) == 10
    assert state.result.tricks == teams
    assert state.result.hand_points == (10 * teams[0], 10 * teams[1])


# ------------------------------------------------------------------ §5 play at 3 and 6
def test_three_players_first_leader_left_of_dealer() -> None:
    """§5.1 with §9.1: first_leader=left_of_dealer: the seat to the dealer's left ((d + 1) % 3)
    leads though another seat declared."""
    rules = THREE.replace(first_leader="left_of_dealer")
    state = start_table_play(rules, {}, ["pass", "7S", "pass"], dealer=0)
    assert state.declarer == 2 and state.turn == 1 and state.leader == 1


def test_three_players_open_nullo_is_solo_with_three_card_tricks() -> None:
    """§9.1: open nullo too is solo with nobody sitting out."""
    low = "7S 8S 7C 8C 7D 8D 7H 8H 9S 9C"
    state = start_table_play(THREE, {0: low}, ["open nullo", "pass", "pass"])
    assert state.sitting_out == -1 and state.active_seats() == 3 and state.turn == 0
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert all(len(t[1]) == 3 for t in state.tricks) and len(state.tricks) == 10
    assert state.result.tricks[0] == 0 and state.result.hand_points == (500, 0, 0)


def test_six_players_trump_order_with_11_12_13() -> None:
    """§9.2, §5.2: in the trump suit: right bower, left bower, A K Q 13 12 11 10 …"""
    hands = {0: "11H 4H 7H", 1: "12H 5H 8H", 2: "10H 6H 13D", 3: "13H QH 12D",
             4: "9H KH AH", 5: "2H 3H JD"}
    state = start_table_play(SIX, hands, six_calls("6H"), dealer=5)
    act(state, "11H 12H 10H 13H 9H 2H")
    assert state.tricks[-1][2] == 3  # 13H over 12H, 11H, 10H
    act(state, "QH KH 3H 4H 5H 6H")
    assert state.tricks[-1][2] == 4  # KH over QH
    act(state, "AH JD 7H 8H 13D 12D")
    assert state.tricks[-1][2] == 5  # the left bower JD over AH


def test_three_players_finish_early_needs_every_players_score_fixed() -> None:
    """§5.10 with §9.1: play stops once every score of the hand is fixed.  Under
    defender_scoring=tricks each remaining trick still changes some player's score, so all ten
    are played; under none it stops once the declarer has made 7H and lost a trick (trick 8:
    no slam bonus is possible any more)."""
    base = THREE.replace(finish_early=True)
    state = start_table_play(base, HANDS_3, ["7H", "pass", "pass"], KITTY_3)
    act(state, *PLAY_3)
    assert len(state.tricks) == 10 and state.result.hand_points == (200, 20, 10)
    quiet = start_table_play(base.replace(defender_scoring="none"), HANDS_3,
                             ["7H", "pass", "pass"], KITTY_3)
    act(quiet, *PLAY_3[:7])
    assert not quiet.is_terminal  # 10 tricks would still score the slam bonus (§6.3)
    act(quiet, PLAY_3[7])
    assert quiet.is_terminal and len(quiet.tricks) == 8
    assert quiet.result.hand_points == (200, 0, 0)


# ------------------------------------------------------------------ §7 end of game at 3 players
def test_three_players_must_bid_declarer_reaching_target_wins_on_the_table() -> None:
    """§9.1 with the preset's on_target=must_bid (§7.2): a declarer and a defender both reach the
    target on one hand: the declarer, who made the contract, wins though lower."""
    state = start_table_play(THREE, HANDS_3, ["7H", "pass", "pass"], KITTY_3)
    state.scores = [300, 490, 0]
    act(state, *PLAY_3)
    assert state.scores == [500, 510, 10] and state.game_over and state.winner == 0


def test_three_players_game_over_hands_highest_wins_a_tie_for_top_is_a_draw() -> None:
    """§7.1 with §9.1: after hands_to_play hands the highest of the three scores wins; a tie for
    the highest is a draw, a tie between the two lower ones is not."""
    r = Rules(players=3, game_over="hands", hands_to_play=2)
    assert end_of_hand(r, (0, 0, 0), (200, 20, 10), 0, True, 1) == ((200, 20, 10), None)
    assert end_of_hand(r, (0, 0, 0), (200, 20, 10), 0, True, 2)[1] == 0
    assert end_of_hand(r, (0, 180, 0), (-100, 20, 100), 0, False, 2) == ((-100, 200, 100), 1)
    assert end_of_hand(r, (100, 80, 0), (-100, 20, 100), 0, False, 2)[1] == DRAW
    assert end_of_hand(r, (300, 0, 0), (-100, 20, 20), 0, False, 2) == ((200, 20, 20), 0)


# ------------------------------------------------------------------ §9.4 presets
@pytest.mark.parametrize("name,players", [("three-handed", 3), ("six-handed", 6)])
def test_preset_files_and_names_resolve_to_the_table_size(name: str, players: int) -> None:
    """§9.4: the presets by name and their files in configs/rules/ are avondale-classic at the
    table size."""
    expected = Rules.preset("avondale-classic").replace(players=players)
    assert resolve_rules(name) == expected
    assert Rules.from_toml(ROOT / "configs" / "rules" / f"{name}.toml") == expected


# ------------------------------------------------------------------ §5.11 claims at 3 and 6
# §5.11 (claims, for human players) with §9.3 ("every other option keeps its meaning where it
# makes sense"): the play table offers claims at every table size, but fh_env/claims.py only
# knows four seats.
CLAIM_3 = {0: "JK JS JC AS KS QS 10S 9S 8S 7S"}  # every trump of the 33-card pack


def test_three_players_a_declarer_holding_every_trump_may_claim() -> None:
    """§5.11, §9.1: seat 0 declares 6S holding all ten trumps and leads: its claim stands."""
    from fh_env.claims import claim_stands
    state = start_table_play(THREE, CLAIM_3, ["6S", "pass", "pass"])
    assert claim_stands(state, 0) is True


def test_three_players_a_declarers_claim_is_not_made_good_by_a_defender() -> None:
    """§5.11, §9.1: everyone plays alone, so the declarer's side is the declarer: seat 0's claim
    fails when seat 2 (same parity, but a defender) holds every trump."""
    from fh_env.claims import claim_stands
    hands = {0: "7C 8C 9C 10C 7D 8D 9D 10D 7H 8H", 2: "JK JS JC AS KS QS 10S 9S 8S 7S"}
    state = start_table_play(THREE, hands, ["6S", "pass", "pass"])
    assert claim_stands(state, 0) is False


def test_six_players_a_declarer_holding_the_top_ten_trumps_may_claim() -> None:
    """§5.11, §9.2: seat 0 declares 6S holding the ten highest trumps and leads: the claim
    stands; a claim by seat 4 (a partner, seat 0's team) is judged too, not refused."""
    from fh_env.claims import claim_stands
    hands = {0: "JK JS JC AS KS QS 12S 11S 10S 9S"}
    state = start_table_play(SIX, hands, six_calls("6S"), dealer=5)
    assert claim_stands(state, 0) is True
    assert claim_stands(state, 4) is True
