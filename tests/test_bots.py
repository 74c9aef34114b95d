"""The baseline bots (agents.random_bot, agents.rule, agents.mc), the registry and match play.

* every bot plays many random hands under every preset without an illegal action or an error
  (thousands for random and rule, fewer with tiny sample counts for mc);
* bots are deterministic given their seed;
* no bot reads hidden state: changing the hidden cards consistently with the view does not
  change its choice (and the rollout policy, which is handed a whole state, agrees with the bot
  that only sees the view);
* scenario tests pin the rule bot's rules on hand-built deals.
"""

from __future__ import annotations

import random

import pytest

from agents.base import Bot
from arena.match import play_env, play_game, play_hand
from agents.mc import LEVELS, MCBot, distinct_plays, rollout
from agents.random_bot import RandomBot
from agents.registry import REGISTRY, make_bot, parse_options, register
from agents.rule import (RuleBot, choose_call, hand_tricks, nullo_danger, state_discard,
                         state_play)
from fh_env.sampler import Determinizer
from conftest import FOUR_PLAYER_PRESETS as PRESETS
from conftest import cards, do, mask, new_state
from fh_env import actions as A
from fh_env.engine import Phase, State
from fh_env.rules import Rules
from fh_env.view import seat_view

VARIANTS = [Rules.preset(name) for name in PRESETS] + [
    Rules.preset("australian").replace(all_pass="play", misdeal=True, raise_own_bid=True,
                                       reenter="after_change", stick_the_dealer=True,
                                       joker_lead="last_card", finish_early=True),
    Rules(six_nt_shows_joker=True, highest_joker_in_kitty=True, nullo="anytime",
          nullo_kitty="nullo_only", first_leader="left_of_dealer", joker_follow="anytime"),
    Rules(deck="46", nullo="anytime", open_nullo="after8", double_nullo="anytime",
          jokers_low_in_nullo=True, nullo_must_play_joker=True, notrump_ranking="j5",
          joker_lead="not_shown_void", open_nullo_exposed="after_first_trick"),
]


class CheckedBot:
    """Wraps a bot and asserts that every action it returns is legal for the view."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def act(self, view, rng):
        action = self.bot.act(view, rng)
        assert view.legal >> action & 1, (self.name, action, view.legal_actions())
        self.decisions += 1
        return action


def _play_many(bots: list[Bot], hands: int, seed: int) -> int:
    checked = [CheckedBot(b) for b in bots]
    for i, rules in enumerate(VARIANTS):
        for h in range(hands):
            state = State(rules, seed=seed + 1000 * i + h)
            rngs = [random.Random(f"{seed}/{i}/{h}/{s}") for s in range(4)]
            order = [checked[(s + h) % len(checked)] for s in range(4)]
            play_hand(state, order, rngs)
            assert state.is_terminal and state.result is not None
    return sum(c.decisions for c in checked)


def test_random_and_rule_play_thousands_of_hands_under_every_preset():
    decisions = _play_many([RuleBot(), RandomBot(), RuleBot(), RuleBot(), RandomBot()],
                           hands=220, seed=1)
    assert decisions > 10 * 220 * len(VARIANTS)


def test_mc_plays_hands_under_every_preset():
    bots = [MCBot(samples=2, bid_samples=1, discard_candidates=2),
            MCBot(samples=2, bid_samples=2, infer=True, max_draws=3), RuleBot(), RandomBot()]
    _play_many(bots, hands=3, seed=2)


def test_whole_games_end():
    rules = Rules.preset("australian")
    state = play_game(State(rules, seed=3), [RuleBot()] * 4,
                      [random.Random(s) for s in range(4)])
    assert state.game_over and state.winner is not None


def _trace(bot_factory, rules: Rules, seed: int) -> list[int]:
    state = State(rules, seed=seed)
    bots = [bot_factory() for _ in range(4)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(4)]
    actions = []
    while not state.is_terminal:
        a = bots[state.turn].act(seat_view(state, state.turn), rngs[state.turn])
        actions.append(a)
        state.apply(a)
    return actions


@pytest.mark.parametrize("factory", [RandomBot, RuleBot, lambda: MCBot(samples=3, bid_samples=2),
                                     lambda: MCBot(samples=2, infer=True, max_draws=3)],
                         ids=["random", "rule", "mc", "mc-infer"])
def test_bots_are_deterministic_given_their_seed(factory):
    rules = Rules.preset("australian")
    for seed in (4, 5):
        first = _trace(factory, rules, seed)
        random.seed(999)  # the global generators must not matter
        assert _trace(factory, rules, seed) == first


def _positions(rules: Rules, count: int, seed: int, max_steps: int = 60):
    """States at random points of rule-bot hands (under ``max_steps`` actions in), with the seat
    on turn."""
    rng = random.Random(seed)
    bot = RuleBot()
    out = []
    while len(out) < count:
        state = State(rules, seed=rng.randrange(10**6))
        stop = rng.randrange(max_steps)
        for _ in range(stop):
            if state.is_terminal:
                break
            state.apply(bot.act(seat_view(state, state.turn), rng))
        if not state.is_terminal:
            out.append(state)
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("australian"),
                                   Rules.preset("american-double-nullo"), VARIANTS[-1]],
                         ids=["default", "australian", "double-nullo", "two-jokers"])
def test_no_bot_reads_hidden_cards(rules):
    bots = [RandomBot(), RuleBot(), MCBot(samples=3, bid_samples=2),
            MCBot(samples=2, infer=True, max_draws=2)]
    rng = random.Random(6)
    for state in _positions(rules, 25, seed=7):
        seat = state.turn
        view = seat_view(state, seat)
        other = Determinizer(view).sample(rng)  # the hidden cards dealt differently
        other_view = seat_view(other, seat)
        assert other_view == view
        for bot in bots:
            assert bot.act(view, random.Random(8)) == bot.act(other_view, random.Random(8))
        if state.phase == Phase.PLAY:
            # the rollout policy reads a whole state: only what the seat may know counts
            assert state_play(state) == state_play(other) == RuleBot().act(view, rng)
        if state.phase == Phase.EXCHANGE:
            assert state_discard(state) == state_discard(other) == RuleBot().act(view, rng)


# --------------------------------------------------------------------------- rule scenarios
def in_play(hands: dict[int, str], contract: str, declarer: int, plays: str = "",
            rules: Rules | None = None) -> State:
    """A hand-built deal: ``declarer`` bids ``contract`` first, all pass, it discards the kitty
    it picked up (so hands stay as given), then ``plays`` (card names in order)."""
    rules = rules or Rules(nullo="anytime", open_nullo="anytime")
    state = new_state(rules, hands, dealer=(declarer - 1) % 4)
    do(state, contract, "pass", "pass", "pass")
    assert state.declarer == declarer
    discard_kitty_back(state)
    if plays:
        do(state, plays)
    return state


def discard_kitty_back(state: State) -> None:
    """Each exchanger discards the cards it picked up, so the hands stay as dealt."""
    while state.phase == Phase.EXCHANGE:
        left = state.exchanges[-1][1] & state.hands[state.turn]
        state.apply(A.DISCARD_BASE + (left & -left).bit_length() - 1)


def rule_choice(state: State) -> str:
    action = RuleBot().act(seat_view(state, state.turn), random.Random(0))
    return state.action_name(action)


def test_fourth_hand_wins_as_cheaply_as_possible_when_an_opponent_is_winning():
    state = in_play({0: "QS 5H", 1: "6S", 2: "7S", 3: "AS KS 8S"}, "6H", 0, "QS 6S 7S")
    assert rule_choice(state) == "play KS"


def test_fourth_hand_plays_low_when_the_partner_has_it_won():
    state = in_play({0: "5S", 1: "AS", 2: "6S", 3: "KS 8S 7S"}, "6H", 0, "5S AS 6S")
    assert rule_choice(state) == "play 7S"


def test_third_hand_does_not_trump_the_partners_winning_card():
    state = in_play({0: "AS 5H", 1: "7S", 2: "8H 9H 10H 5C 6C 7C 4D 5D 6D 7D"}, "6H", 0,
                    "AS 7S")
    assert rule_choice(state) == "play 4D"


def test_second_hand_plays_low_while_a_higher_card_is_out():
    state = in_play({0: "6S", 1: "KS 5S", 3: "AS"}, "6H", 0, "6S")
    assert rule_choice(state) == "play 5S"


def test_the_declarer_draws_trumps_with_the_top_trump():
    state = in_play({0: "JK 10H 9H 8H AS KS QS AC KC QC"}, "6H", 0)
    assert rule_choice(state) == "play JK"


def test_the_joker_is_led_in_notrump_naming_the_longest_suit():
    state = in_play({0: "JK 5D 6D 7D 8D 9D 10D 5S 6S 7C"}, "6NT", 0)
    assert rule_choice(state) == "play JK D"


def test_the_declarer_discards_to_make_voids_and_keeps_trumps_and_aces():
    hand = mask("JK JH JD AH KH 9H 8H AS KS QS 5C 6D 7D")
    from agents.rule import choose_discard
    thrown = []
    for left in (3, 2, 1):
        a = choose_discard(hand, A.str_to_action("6H"), 3, left)
        thrown.append(a - A.DISCARD_BASE)
        hand &= ~(1 << thrown[-1])
    assert sorted(thrown) == sorted(cards("5C 6D 7D"))


def test_a_nullo_declarer_ducks_as_high_as_possible():
    # nullo by seat 0 (seat 2 sits out); seat 1 wins the first trick and leads 10H
    state = in_play({0: "5S 4H 8H JH", 1: "AS 10H", 3: "6S 9H"}, "nullo", 0,
                    "5S AS 6S 10H 9H")
    assert state.turn == 0
    assert rule_choice(state) == "play 8H"


def test_a_defender_plays_under_the_nullo_declarer_keeping_low_cards():
    state = in_play({0: "9S", 1: "5S 8S KS"}, "nullo", 0, "9S")
    assert rule_choice(state) == "play 8S"


def test_a_defender_leads_where_the_exposed_declarer_must_win():
    # open nullo by seat 1 (seat 3 sits out); seat 2 leads under first_leader=left_of_dealer
    rules = Rules(open_nullo="anytime", first_leader="left_of_dealer")
    state = new_state(rules, {1: "5S 7S 8S 9S 9H 10H JH QH KH AH",
                              2: "6S 6H 4D 5D 6D 7D 8D 9D 10D JD"}, dealer=1)
    do(state, "pass", "pass", "pass", "open nullo")
    assert state.declarer == 1 and state.turn == 1
    discard_kitty_back(state)
    assert state.turn == 2 and state.exposed
    # 4D is the lowest card, but the declarer has no diamonds; below its 9H, 6H forces a win
    assert rule_choice(state) == "play 6H"


def test_bidding_counts_tricks():
    strong = new_state(Rules(), {0: "JK JH JD AH KH QH 10H 9H AS AC"})
    call = choose_call(seat_view(strong, 0))
    assert A.is_ordinary_bid(call) and A.bid_strain(call) == 3
    weak = new_state(Rules(), {0: "5S 6S 7C 8C 5D 6D 7D 9C 6H 7H"})
    assert choose_call(seat_view(weak, 0)) == A.PASS
    assert hand_tricks(mask("JK JH JD AH KH QH 10H 9H AS AC"), 3, Rules()) > \
        hand_tricks(mask("JK JH JD AH KH QH 10H 9H AS AC"), 0, Rules())


def test_nullo_is_bid_on_a_hand_of_low_cards_only_when_the_rules_allow_it():
    low = "5S 6S 4D 5D 6D 5C 6C 7C 4H 5H"
    rules = Rules.preset("australian")  # nullo only over a 7-level bid (fixed ranking)
    state = new_state(rules, {1: low})
    do(state, "7S")
    assert choose_call(seat_view(state, 1)) in (A.NULLO, A.OPEN_NULLO)
    state = new_state(rules, {1: low})
    do(state, "6S")
    assert choose_call(seat_view(state, 1)) == A.PASS  # nullo not legal yet; no tricks
    assert nullo_danger(mask(low), rules, True) < nullo_danger(
        mask("AS KS 4D 5D 6D 5C 6C 7C AH KH"), rules, True)


# --------------------------------------------------------------------------- mc
def test_mc_tries_one_card_of_each_run_of_equivalent_cards():
    state = in_play({0: "9S 10S QS AH KH 5H 4H 6D 7D 8D", 1: "JS"}, "6H", 0)
    plays = {state.action_name(a) for a in distinct_plays(seat_view(state, 0))}
    # 9S-10S touch (no unseen card between); JS unseen splits 10S from QS; AH-KH touch
    assert plays == {"play 9S", "play QS", "play KH", "play 4H", "play 6D"}


def test_mc_levels_and_rollouts():
    assert LEVELS == {4: 20, 5: 50, 6: 100}
    state = State(Rules.preset("australian"), seed=8)
    end = rollout(state.clone())
    assert end.is_terminal
    replayed = play_hand(state.clone(), [RuleBot()] * 4, [random.Random(0)] * 4)
    assert end.result == replayed.result  # the rollout policy is the rule bot


# --------------------------------------------------------------------------- registry, env
def test_registry_builds_bots_by_name_with_options():
    assert make_bot("random").name == "random"
    assert make_bot("rule").name == "rule"
    assert make_bot("mc").samples == 20
    assert make_bot("mc5").samples == 50
    assert make_bot("mc6").samples == 100
    assert make_bot("mc:level=6").samples == 100
    bot = make_bot("mc:samples=7,infer=1,bid_samples=3")
    assert (bot.samples, bot.infer, bot.bid_samples) == (7, True, 3)
    assert make_bot("mc-infer").infer
    assert parse_options("a=1,b=0.5,c=x,d=true") == {"a": 1, "b": 0.5, "c": "x", "d": True}
    with pytest.raises(ValueError, match="known bots"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="samples"):
        make_bot("mc:samples")
    with pytest.raises(ValueError, match="fast"):
        make_bot("rule:fast=1")
    assert make_bot("rule:nt_risk=0.25").params.nt_risk == 0.25
    assert "neural" in REGISTRY


def test_a_new_bot_can_be_registered():
    register("always-first", lambda arg: _First())
    try:
        assert make_bot("always-first").name == "first"
    finally:
        del REGISTRY["always-first"]


class _First:
    name = "first"

    def act(self, view, rng):
        return view.legal_actions()[0]


def test_bots_play_through_the_pettingzoo_env_as_on_the_engine():
    bots = [RuleBot(), RandomBot(), RuleBot(), RandomBot()]
    for seed in range(5):
        rewards, game = play_env(bots, [random.Random(s) for s in range(4)], seed=seed,
                                 rules="australian")
        direct = play_hand(State(Rules.preset("australian"), seed=seed), bots,
                           [random.Random(s) for s in range(4)])
        assert game == direct
        points = direct.result.hand_points
        assert rewards["player_0"] == points[0] - points[1] == -rewards["player_1"]
