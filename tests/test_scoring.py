"""Scoring (docs/rules.md §6): the tables, hand points, and whole hand-built hands scored."""

from __future__ import annotations

import random

import pytest

from fh_env.actions import str_to_action
from fh_env.contracts import contract_value, hand_points
from fh_env.engine import NO_CONTRACT, Phase
from fh_env.rules import Rules

from conftest import SCORING_TABLES, STRAINS, do, new_state, start_play

@pytest.mark.parametrize("table", list(SCORING_TABLES))
def test_every_value_of_the_scoring_tables(table: str) -> None:
    """§6.1 Avondale, §6.8 original and perfect: all 25 values of each table."""
    rules = Rules(scoring=table)
    for level, row in SCORING_TABLES[table].items():
        for strain, value in zip(STRAINS, row):
            assert contract_value(rules, str_to_action(f"{level}{strain}")) == value, (
                table, level, strain)


def test_nullo_values_are_separate_options_under_every_table() -> None:
    """§2.4, §6.8: nullo-type values do not depend on the table."""
    for table in SCORING_TABLES:
        rules = Rules(scoring=table, nullo_value=230, open_nullo_value=350,
                      double_nullo_value=600)
        assert [contract_value(rules, str_to_action(n)) for n in (
            "nullo", "open nullo", "double nullo")] == [230, 350, 600]
    assert [contract_value(Rules(), str_to_action(n)) for n in (
        "nullo", "open nullo", "double nullo")] == [250, 500, 500]


def _points(rules: Rules, contract: str, ours: int, team: int = 0) -> tuple[int, int]:
    tricks = [0, 0]
    tricks[team], tricks[1 - team] = ours, 10 - ours
    return hand_points(rules, str_to_action(contract), team, (tricks[0], tricks[1]))


def test_made_and_set_ordinary_contracts() -> None:
    """§6.2: made with at least as many tricks as bid (extra tricks earn nothing); §6.5 tricks:
    defenders score 10 a trick; §6.4 subtract: set scores minus the value."""
    rules = Rules()
    assert _points(rules, "7H", 7) == (200, 30)
    assert _points(rules, "7H", 9) == (200, 10)
    assert _points(rules, "7H", 6) == (-200, 40)
    assert _points(rules, "8NT", 8, team=1) == (20, 320)
    assert _points(rules, "8NT", 0, team=1) == (100, -320)


def test_slam_bonus_or_bid_value() -> None:
    """§6.3: all 10 tricks on a contract worth less than 250 score 250 (bonus) or the value."""
    assert _points(Rules(), "7H", 10) == (250, 0)
    assert _points(Rules(), "8S", 10) == (250, 0)  # 240 < 250
    assert _points(Rules(), "8C", 10) == (260, 0)  # 260: its own value
    assert _points(Rules(slam="bid_value"), "7H", 10) == (200, 0)
    assert _points(Rules(), "7H", 9) == (200, 10)  # not a slam
    assert _points(Rules(scoring="perfect"), "8C", 10) == (250, 0)  # 240 in the perfect table


def test_when_set_to_defenders() -> None:
    """§6.4 to_defenders: the declarers score 0 and the defenders score the value."""
    rules = Rules(when_set="to_defenders")
    assert _points(rules, "7H", 6) == (0, 200 + 40)
    assert _points(rules, "7H", 7) == (200, 30)
    assert _points(rules.replace(defender_scoring="none"), "7H", 6) == (0, 200)


def test_defender_scoring() -> None:
    """§6.5: none / tricks / tricks_and_nullo."""
    assert _points(Rules(defender_scoring="none"), "7H", 7) == (200, 0)
    assert _points(Rules(defender_scoring="none"), "7H", 3) == (-200, 0)
    assert _points(Rules(defender_scoring="tricks"), "7H", 3) == (-200, 70)
    assert _points(Rules(defender_scoring="tricks_and_nullo"), "7H", 3) == (-200, 70)


@pytest.mark.parametrize("contract,value", [("nullo", 250), ("open nullo", 500),
                                            ("double nullo", 500)])
def test_nullo_type_scoring(contract: str, value: int) -> None:
    """§6.6: the value with no trick, minus the value otherwise; defenders score nothing except
    under tricks_and_nullo (10 per trick of the declaring side); §6.4 applies too."""
    rules = Rules()
    assert _points(rules, contract, 0) == (value, 0)
    assert _points(rules, contract, 1) == (-value, 0)
    assert _points(rules, contract, 4, team=1) == (0, -value)
    nullo = Rules(defender_scoring="tricks_and_nullo")
    assert _points(nullo, contract, 0) == (value, 0)
    assert _points(nullo, contract, 3) == (-value, 30)
    to_def = Rules(when_set="to_defenders")
    assert _points(to_def, contract, 2) == (0, value)
    assert _points(to_def.replace(defender_scoring="tricks_and_nullo"), contract, 2) == (
        0, value + 20)
    assert _points(Rules(defender_scoring="none"), contract, 2) == (-value, 0)


def test_no_contract_scores_ten_a_trick() -> None:
    """§6.7."""
    assert hand_points(Rules(), NO_CONTRACT, 0, (3, 7)) == (30, 70)
    assert hand_points(Rules(defender_scoring="none"), NO_CONTRACT, 1, (6, 4)) == (60, 40)


# ------------------------------------------------------------------ whole hands
# Seat 0 holds the ten highest hearts: with hearts trumps it takes every trick.
TOP_TRUMPS = "JK JH JD AH KH QH 10H 9H 8H 7H"


@pytest.mark.parametrize("contract,slam,expected", [
    ("7H", "bonus", 250), ("7H", "bid_value", 200), ("10H", "bonus", 500),
    ("10H", "bid_value", 500), ("6H", "bonus", 250)])
def test_whole_hand_slam(contract: str, slam: str, expected: int) -> None:
    """§6.2/§6.3 on a played hand: the declarers take all 10 tricks."""
    state = start_play(Rules(slam=slam), {0: TOP_TRUMPS}, contract)
    rng = random.Random(1)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    result = state.result
    assert result.tricks == (10, 0) and result.made is True
    assert result.hand_points == (expected, 0)
    assert result.contract == str_to_action(contract) and result.declarer == 0
    assert state.scores == [expected, 0]


@pytest.mark.parametrize("when_set,defence,expected", [
    ("subtract", "tricks", (-100, 100)), ("to_defenders", "tricks", (0, 200)),
    ("subtract", "none", (-100, 0)), ("to_defenders", "none", (0, 100))])
def test_whole_hand_set(when_set: str, defence: str, expected: tuple[int, int]) -> None:
    """§6.4/§6.5 on a played hand: seat 1 holds the ten top trumps, seat 0 declares 6H."""
    rules = Rules(when_set=when_set, defender_scoring=defence)
    state = start_play(rules, {1: TOP_TRUMPS}, "6H")
    rng = random.Random(2)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    assert state.result.tricks == (0, 10) and state.result.made is False
    assert state.result.hand_points == expected


# Seat 0's cards are the lowest of each red suit and spades/clubs seat 1 lacks; seat 1 holds
# only high diamonds and hearts and wins every trick after the first lead.
NULLO_SAFE = {0: "4D 5D 6D 4H 5H 6H 5S 6S 5C 6C", 1: "AD KD QD JD 10D AH KH QH JH 10H",
              3: "AS KS QS JS 10S AC KC QC JC 10C"}


@pytest.mark.parametrize("contract,value", [("nullo", 250), ("open nullo", 350)])
def test_whole_hand_nullo_made(contract: str, value: int) -> None:
    """§6.6 on a played hand: the declarer can take no trick."""
    rules = Rules(nullo="anytime", open_nullo="anytime", nullo_ranking="points",
                  open_nullo_value=350)
    for seed in range(5):
        state = start_play(rules, NULLO_SAFE, contract)
        rng = random.Random(seed)
        while state.phase == Phase.PLAY:
            state.apply(rng.choice(state.legal_actions()))
        assert state.result.tricks == (0, 10) and state.result.made is True
        assert state.result.hand_points == (value, 0)


def test_whole_hand_nullo_set_tricks_and_nullo() -> None:
    """§6.5/§6.6: the nullo declarer leads AD and takes at least that trick."""
    rules = Rules(nullo="anytime", nullo_ranking="points", defender_scoring="tricks_and_nullo")
    hands = {0: NULLO_SAFE[1], 1: NULLO_SAFE[0], 3: NULLO_SAFE[3]}
    state = start_play(rules, hands, "nullo")
    do(state, "AD")
    rng = random.Random(3)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    taken = state.result.tricks[0]
    assert taken >= 1 and state.result.made is False
    assert state.result.hand_points == (-250, 10 * taken)


def test_whole_hand_no_contract() -> None:
    """§3.3 play / §6.7: each team scores 10 per trick it takes."""
    state = new_state(Rules(all_pass="play"), {0: TOP_TRUMPS})
    do(state, "pass", "pass", "pass", "pass")
    rng = random.Random(4)
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    t0, t1 = state.result.tricks
    assert t0 + t1 == 10 and state.result.hand_points == (10 * t0, 10 * t1)
    assert state.result.contract == NO_CONTRACT and state.result.made is None
    assert state.result.declarer is None and state.result.contract_name == "no contract"
