"""The learning aids (play.aids) give the numbers of the evaluation functions they call."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from conftest import deal
from fh_env import actions as A
from fh_env.cards import DECKS, TABLES, mask_of, parse_card
from fh_env.engine import Phase, State
from fh_env.rules import Rules
from fh_env.view import seat_view
from play.aids import (Helper, action_values, analyse_bid, card_count, contract_world, hint,
                       mean_se)
from agents.mc import MCBot, rollout
from play.game import Game
from play.render import _pm, action_label
from play.terminal import Terminal, scripted
from agents.registry import make_bot


def _mid_play(seed: int) -> State:
    """A hand of rule bots stopped in the play with several legal cards for the seat on turn."""
    rng = random.Random(seed)
    rule = make_bot("rule")
    state = State(Rules(all_pass="play"), seed=seed)
    while not (state.phase == Phase.PLAY and len(state.tricks) >= 2
               and len(state.legal_actions()) > 2):
        assert not state.is_terminal
        state.apply(rule.act(seat_view(state, state.turn), rng))
    return state


@pytest.mark.parametrize("seed", [1, 2])
def test_action_values_are_mc_evaluate_per_world(seed):
    state = _mid_play(seed)
    view = seat_view(state, state.turn)
    bot = MCBot(samples=12)
    actions = view.legal_actions()
    estimates = action_values(bot, view, random.Random(7), actions=actions)
    totals = bot.evaluate(view, actions, random.Random(7), 12)
    by_action = {e.action: e for e in estimates}
    assert [by_action[a].total for a in actions] == totals
    for a, total in zip(actions, totals):
        assert by_action[a].mean == pytest.approx(total / 12)
        assert by_action[a].n == 12
    assert [e.mean for e in estimates] == sorted((e.mean for e in estimates), reverse=True)


def test_action_values_in_the_auction_use_the_bid_samples_and_every_legal_call():
    state = State(Rules.preset("australian"), seed=4)
    view = seat_view(state, state.turn)
    bot = MCBot(samples=8)
    estimates = action_values(bot, view, random.Random(3))
    assert sorted(e.action for e in estimates) == view.legal_actions()
    assert {e.n for e in estimates} == {bot.bid_samples}
    totals = bot.evaluate(view, view.legal_actions(), random.Random(3), bot.bid_samples)
    assert sorted(e.total for e in estimates) == sorted(totals)


def test_mean_and_standard_error():
    mean, se = mean_se([10, 20, 30, 40])
    assert mean == 25
    assert se == pytest.approx((500 / 3 / 4) ** 0.5)  # sample variance 166.7 over n = 4
    assert mean_se([5])[1] != mean_se([5])[1]  # nan for a single value


def test_hint_is_the_bots_choice():
    state = _mid_play(3)
    view = seat_view(state, state.turn)
    bot = make_bot("mc")
    assert hint(bot, view, random.Random(5)) == make_bot("mc").act(view, random.Random(5))


def _auction(hands, kitty, rules=None, dealer=3) -> State:
    rules = rules or Rules()
    h, k = deal(rules, hands, kitty)
    return State.from_deal(rules, h, k, dealer=dealer)


def test_analyse_a_sure_bid_and_a_hopeless_one():
    # Seat 0 holds the joker, both bowers and five more hearts, and two side aces.
    state = _auction({0: "JK JH JD AH KH QH 10H 9H AS AC"}, "4D 5D 6D")
    view = seat_view(state, 0)
    bot = MCBot(samples=8)
    sure = analyse_bid(bot, view, A.str_to_action("7H"), random.Random(1))
    assert sure.n == bot.bid_samples and sure.made == sure.n and sure.p_make == 1.0
    assert sure.points >= 140  # 7H is worth 140, 250 with all ten tricks (§6.3)
    hopeless = analyse_bid(bot, view, A.str_to_action("10S"), random.Random(1))
    # 10S (440) is rarely made from this hand; each world scores +440 made or -440 set (§6.2, no
    # slam bonus at 440 >= 250), so the mean follows from the count made.
    assert hopeless.p_make <= 0.25 and hopeless.points < 0
    assert hopeless.points == (880 * hopeless.made - 440 * hopeless.n) / hopeless.n


def test_analyse_bid_plays_the_bid_as_the_contract_in_the_mc_worlds():
    state = State(Rules.preset("australian"), seed=9)
    view = seat_view(state, state.turn)
    bot = MCBot(samples=10)
    bid = A.str_to_action("7S")
    got = analyse_bid(bot, view, bid, random.Random(2), n=6)
    rng = random.Random(2)
    made, points = 0, []
    for world in bot.worlds(view, rng, 6):
        s = contract_world(world, bid)
        assert s.contract == bid and s.declarer == view.seat
        rollout(s, rng, bot.rollout_policy)
        made += s.result.made
        points.append(s.result.hand_points[view.seat % 2])
    assert got.made == made and got.points == pytest.approx(sum(points) / 6)
    with pytest.raises(ValueError, match="not a legal call"):
        analyse_bid(bot, view, A.PLAY_BASE, random.Random(2))


def test_card_count_counts_by_the_suit_the_contract_makes():
    # Seat 0 declares 6H and leads the left bower JD: it is counted as a heart.
    state = _auction({0: "JD AH KH QH 10H 9H AS AC KS KC", 1: "5D 6D 7D 8D 5S 6S 7S 5C 6C 7C"},
                     "4D QD KD")
    for name in ("6H", "pass", "pass", "pass", "discard 4D", "discard QD", "discard KD",
                 "play JD", "play 5D"):
        state.apply(A.str_to_action(name))
    view = seat_view(state, 2)  # the declarer's partner
    rows = {r.suit: r for r in card_count(view)}
    assert set(rows) == {0, 1, 2, 3}  # with a trump suit the joker is a heart
    assert rows[3].played == (parse_card("JD"),)
    assert rows[2].played == (parse_card("5D"),)
    assert rows[1].void == ()
    assert rows[3].void == (1,)  # seat 1 did not follow the bower: void in hearts
    # Out: the hearts (joker and bowers included) this seat can neither see in its hand nor
    # has seen played.
    hearts = TABLES.suit_mask[3][3] & mask_of(DECKS["43"])
    assert rows[3].held == view.hand & hearts
    assert rows[3].out == hearts.bit_count() - (view.hand & hearts).bit_count() - 1


def test_the_aids_shown_in_the_game_are_the_helpers_numbers():
    rules = Rules()
    h, k = deal(rules, {2: "JK JH JD AH KH QH 10H 9H AS AC"}, "4D 5D 6D")
    state = State.from_deal(rules, h, k, dealer=1)  # the person (seat 2) calls first
    helper = Helper(rules, hint_bot="rule", samples=6, seed=5)
    view = seat_view(state, 2)
    expected_hint = helper.hint(state, view)
    estimates = helper.estimates(state, view)
    analysis = helper.analyse(state, view, A.str_to_action("8H"))
    console = Console(width=110, color_system=None, highlight=False, record=True,
                      file=open("/dev/null", "w"))
    term = Terminal(console, scripted(console, ["a 8H", "q"]))
    bots = {s: make_bot("rule") for s in (0, 1, 3)}
    Game(rules, 2, bots, term, seed=5, aids=["hint", "estimate", "analyse"], helper=helper,
         state=state).run()
    out = console.export_text()
    assert f"Hint (rule): {action_label(expected_hint)}" in out
    for e in estimates:
        assert f"{action_label(e.action)} {_pm(e.mean, e.se)}" in out
    assert (f"made {analysis.made} times ({analysis.p_make:.0%}" in out
            and f"expected points for N/S {_pm(analysis.points, analysis.se)}" in out)


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_the_aids_at_three_and_six_players(preset):
    """The counter covers the table size's pack and every seat; the mc aids score the
    person's side (three players: their own points minus the mean of the others')."""
    rules = Rules.preset(preset)
    rng = random.Random(3)
    rule = make_bot("rule")
    state = State(rules, seed=4)
    while not (state.phase == Phase.PLAY and len(state.tricks) >= 2):
        if state.is_terminal:
            state.next_hand()
        state.apply(rule.act(seat_view(state, state.turn), rng))
    view = seat_view(state, state.turn)
    rows = card_count(view)
    assert sum(len(r.played) for r in rows) == len(view.tricks) * len(view.tricks[0][1]) \
        + len(view.trick)
    assert sum(r.out for r in rows) + sum(len(r.played) for r in rows) \
        + view.hand.bit_count() == len(rules.cards) - (3 if view.exchanges else 0)
    helper = Helper(rules, hint_bot="rule", samples=2, seed=1)
    estimates = helper.estimates(state, view)
    assert sorted(e.action for e in estimates) == view.legal_actions()
    assert helper.hint(state, view) in view.legal_actions()
    if rules.players == 3:
        assert view.team == view.seat
