"""The bots at three and six players (docs/rules.md §9): random, rule and mc play every table
size legally (mcfast: tests/test_mc_fast.py) and none of them, mcfast included, reads hidden
cards; the rule bot's partner logic per size; its 4-player decisions are those it always made
(a fingerprint of many positions)."""

from __future__ import annotations

import hashlib
import random

import pytest

from arena.match import BotSeats, play_hand
from agents.mc import MCBot, team_score
from agents.random_bot import RandomBot
from agents.rule import RuleBot, _suit_orders, friends_of, hand_tricks, state_discard, state_play
from fh_env.sampler import Determinizer
from fh_env import actions as A
from fh_env.actions import action_table, random_action
from fh_env.cards import TABLES, cards_of, mask_of, parse_card
from fh_env.engine import Phase, State, trick_order
from fh_env.rules import Rules
from fh_env.view import seat_view

from test_bots import VARIANTS as FOUR_PLAYER_VARIANTS
from test_bots import CheckedBot, discard_kitty_back
from test_bots import _positions

SIZES = [Rules.preset("three-handed"), Rules.preset("six-handed"),
         Rules(players=3, nullo="anytime", open_nullo="anytime", all_pass="play",
               finish_early=True, joker_lead="any"),
         Rules(players=6, nullo="anytime", open_nullo="anytime", all_pass="play",
               stick_the_dealer=True, notrump_ranking="j5", jokers_low_in_nullo=True)]
IDS = ["three-handed", "six-handed", "three-options", "six-options"]


def _play(rules: Rules, bots, hands: int, seed: int) -> None:
    n = rules.players
    for h in range(hands):
        state = State(rules, seed=seed + h)
        play_hand(state, [bots[(s + h) % len(bots)] for s in range(n)],
                  [random.Random(f"{seed}/{h}/{s}") for s in range(n)])
        assert state.is_terminal and len(state.result.hand_points) == rules.sides


@pytest.mark.parametrize("rules", SIZES, ids=IDS)
def test_random_rule_and_mc_play_every_table_size_legally(rules):
    _play(rules, [CheckedBot(RuleBot()), CheckedBot(RandomBot()), CheckedBot(RuleBot())],
          hands=40, seed=1)
    _play(rules, [CheckedBot(MCBot(samples=2, bid_samples=1, discard_candidates=2)),
                  CheckedBot(RuleBot())], hands=1, seed=2)


@pytest.mark.parametrize("rules", SIZES[:2], ids=IDS[:2])
def test_no_bot_reads_hidden_cards_at_three_and_six_players(rules):
    from agents.mc_fast import FastMCBot  # numba

    bots = [RuleBot(), MCBot(samples=2, bid_samples=1), FastMCBot(samples=3)]
    rng = random.Random(3)
    for state in _positions(rules, 10, seed=4, max_steps=70):
        seat = state.turn
        view = seat_view(state, seat)
        other = Determinizer(view).sample(rng)
        assert seat_view(other, seat) == view
        for bot in bots:
            assert bot.act(view, random.Random(5)) == bot.act(seat_view(other, seat),
                                                              random.Random(5))
        if state.phase == Phase.PLAY:
            assert state_play(state) == state_play(other) == RuleBot().act(view, rng)
        if state.phase == Phase.EXCHANGE:
            assert state_discard(state) == state_discard(other) == RuleBot().act(view, rng)


def _fingerprint(hands: int) -> str:
    """The rule bot's decisions on positions of 4-player hands (20% random moves between)."""
    digest, bot = hashlib.sha256(), RuleBot()
    for i in range(hands):
        rules = FOUR_PLAYER_VARIANTS[i % len(FOUR_PLAYER_VARIANTS)]
        rng = random.Random(i)
        state = State(rules, seed=i)
        while not state.is_terminal:
            action = bot.act(seat_view(state, state.turn), rng)
            digest.update(action.to_bytes(2, "little"))
            if state.phase == Phase.PLAY:
                assert state_play(state) == action
            state.apply(action if rng.random() < 0.8 else random_action(state.legal_mask(), rng))
    return digest.hexdigest()[:16]


def test_the_rule_bots_four_player_decisions_are_unchanged():
    """Pinned on the rule bot before three and six players came (over 7,000 decisions)."""
    assert _fingerprint(200) == "f318fd2d3049a15c"


# --------------------------------------------------------------------------- partner logic
def test_friends_per_table_size():
    assert friends_of(1, 4, A.bid_action(6, 0), 0) == 0b1010
    assert friends_of(2, 6, A.bid_action(6, 0), 1) == 0b010101
    assert friends_of(0, 3, A.bid_action(6, 0), 0) == 0b001  # the declarer plays alone
    assert friends_of(1, 3, A.bid_action(6, 0), 0) == 0b110  # the two defenders
    assert friends_of(1, 3, -1, -1) == 0b010  # no contract: everyone alone


THREE = Rules.preset("three-handed")
THREE_DEAL = ["AS KS QS 10S 9S 8S 7S 7H AC KC".split(),
              "KH QH 10H 9H 7D 8D 9D 10D JD QD".split(),
              "AH 8H JH KD AD 7C 8C 9C 10C JC".split()]


def test_a_three_handed_defender_does_not_overtake_the_other_defender_after_the_declarer():
    state = State.from_deal(THREE, THREE_DEAL, "JS QC JK".split(), dealer=2)
    for name in ("6S", "pass", "pass"):
        state.apply_str(name)
    assert state.declarer == 0
    discard_kitty_back(state)
    state.apply_str("play 7H")  # the declarer leads
    state.apply_str("play KH")  # the first defender wins it so far
    action = RuleBot().act(seat_view(state, 2), random.Random(0))
    assert state.action_name(action) == "play 8H"  # not the ace over the other defender's king


def _property_positions(rules: Rules, count: int, seed: int):
    """Play positions where the seat on turn follows suit to a trick in progress."""
    out = []
    for state in _positions(rules, count * 6, seed, max_steps=70):
        if state.phase == Phase.PLAY and state.trick and state.contract not in A.NULLO_TYPES \
                and state.hands[state.turn] & TABLES.suit_mask[state.context][state.led]:
            out.append(state)
    return out[:count]


@pytest.mark.parametrize("rules", SIZES[:2], ids=IDS[:2])
def test_a_partner_winning_the_trick_gets_the_lowest_card_of_the_suit(rules):
    """Six players: a teammate's winning card (either partner) is never overtaken; three
    players: the other defender's winning card is not overtaken once the declarer played."""
    n, checked = rules.players, 0
    table = action_table(n)
    for state in _property_positions(rules, 30, seed=9):
        seat, ctx, led = state.turn, state.context, state.led
        order = trick_order(state.leader, state.sitting_out, n)
        strength = TABLES.strength[ctx][led]
        winner = order[max(range(len(state.trick)), key=lambda i: (strength[state.trick[i]], -i))]
        friends = friends_of(seat, n, state.contract, state.declarer)
        if not friends >> winner & 1 or winner == seat:
            continue
        if n == 3 and state.declarer in order[len(state.trick):]:
            continue  # the declarer is still to play: the other defender is a rival
        action = RuleBot().act(seat_view(state, seat), random.Random(0))
        follow = state.hands[seat] & TABLES.suit_mask[ctx][led]
        played = table.played_card(action)
        assert follow >> played & 1
        assert all(strength[played] <= strength[c] for c in cards_of(follow))
        checked += 1
    assert checked >= 3


def test_bidding_counts_tricks_in_the_packs_of_three_and_six():
    six = Rules.preset("six-handed")
    spades = _suit_orders("players=6", 0)[0]  # trumps S: the joker, both bowers, 13 others
    assert len(spades) == 17 and [c for c in spades[:3]] == [parse_card(x) for x in
                                                             ("JK", "JS", "JC")]
    assert len(_suit_orders("players=3", 4)[0]) == 8  # 7 to A of spades
    strong = mask_of(parse_card(c) for c in "JK JS JC AS KS QS 12S AH AD AC".split())
    weak = mask_of(parse_card(c) for c in "2S 3S 2H 3H 2D 3D 2C 3C 4C 4D".split())
    assert hand_tricks(strong, 0, six) >= 8 > 1 > hand_tricks(weak, 0, six)
    three_strong = mask_of(parse_card(c) for c in "JK JS JC AS KS QS AH KH AD AC".split())
    assert hand_tricks(three_strong, 0, THREE) >= 8


def test_mc_scores_its_own_points_against_the_mean_of_the_others_with_three_players():
    state = State.from_deal(THREE, THREE_DEAL, "JS QC JK".split(), dealer=2)
    for name in ("pass", "pass", "pass"):
        state.apply_str(name)
    assert team_score(state, 1) == 0  # thrown in
    rules = Rules.preset("six-handed")
    state = State(rules, seed=3)
    play_hand(state, [RuleBot()] * 6, [random.Random(s) for s in range(6)])
    points = state.result.hand_points if state.result.contract is not None else (0, 0)
    assert team_score(state, 1) == points[1] - points[0]


def test_bot_seats_take_the_seats_of_the_table_size():
    bots = BotSeats({5: "rule", "player_4": "random"}, rules="six-handed", seed=0)
    assert bots.agents == ["player_4", "player_5"]
    with pytest.raises(ValueError, match="player_0 .. player_2"):
        BotSeats({"player_3": "rule"}, rules="three-handed")
