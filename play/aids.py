"""Learning aids for fh-play, each computed by the bots' own functions from the person's view.

* :func:`hint`: what a chosen bot would do (its ``act``);
* :func:`action_values`: the Monte Carlo bot's evaluation of every legal action, as expected
  hand points (the player's side minus the other side, as :mod:`agents.mc` scores a hand) with a
  standard error.  :meth:`agents.mc.MCBot.evaluate` returns only the total over the worlds, so
  this is a thin wrapper over the same pieces (``MCBot.worlds``, :func:`agents.mc.rollout`,
  :func:`agents.mc.team_score`) in the same order that keeps each world's score: with the same
  generator its totals are exactly ``MCBot.evaluate``'s (``tests/test_aids.py``);
* :func:`card_count`: the cards played so far by suit (the suit a card belongs to under the
  contract, so bowers count with the trumps) and how many of each suit are still out;
* :func:`analyse_bid`: the chance to make a bid and its expected points if it became the
  contract, by simulation: the mc bot's sampled worlds, the bid made, the others passing, and the
  hand played out with the mc bot's rollout policy;
* showing every hand after the hand is a matter of display (:func:`play.render.reveal_panel`).

:class:`Helper` holds the bots and gives each decision its own seeded generator, so asking
twice at one decision gives the same numbers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

from fh_env import actions as A
from fh_env.cards import NT_STANDARD, TABLES, mask_of
from fh_env.engine import Phase, State
from fh_env.rules import Rules
from fh_env.view import SeatView

from agents.base import Bot
from agents.mc import MCBot, rollout, team_score


# ---------------------------------------------------------------------- the aids


def hint(bot: Bot, view: SeatView, rng: random.Random) -> int:
    """The action ``bot`` would choose here."""
    return bot.act(view, rng)


@dataclass(frozen=True)
class Estimate:
    """Expected hand points of one action (own side minus the other) over ``n`` worlds."""

    action: int
    mean: float
    se: float  # standard error of the mean; nan with a single world
    n: int
    total: float


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def world_scores(bot: MCBot, view: SeatView, actions: Sequence[int], rng: random.Random,
                 n: int) -> list[list[int]]:
    """Each action's team score in each of ``n`` worlds: ``MCBot.evaluate`` without the sum."""
    team = view.team
    scores: list[list[int]] = [[] for _ in actions]
    for world in bot.worlds(view, rng, n):
        for i, action in enumerate(actions):
            state = world.clone()
            state.apply(action)
            rollout(state, rng, bot.rollout_policy)
            scores[i].append(team_score(state, team))
    return scores


def samples_for(bot: MCBot, view: SeatView) -> int:
    """How many worlds the mc bot itself uses at this decision."""
    return bot.bid_samples if view.phase == Phase.AUCTION else bot.samples


def action_values(bot: MCBot, view: SeatView, rng: random.Random, n: int | None = None,
                  actions: Sequence[int] | None = None) -> list[Estimate]:
    """The mc evaluation of every legal action (or of ``actions``), best first."""
    actions = list(actions) if actions is not None else view.legal_actions()
    n = n if n is not None else samples_for(bot, view)
    out = []
    for action, values in zip(actions, world_scores(bot, view, actions, rng, n)):
        mean, se = mean_se(values)
        out.append(Estimate(action, mean, se, n, float(sum(values))))
    return sorted(out, key=lambda e: (-e.mean, e.action))


@dataclass(frozen=True)
class SuitCount:
    """One suit as the contract makes it (suit 4: the jokers, when there are no trumps)."""

    suit: int
    played: tuple[int, ...]  # cards of the suit played to tricks, in play order
    held: int  # the seat's own cards of the suit (a mask)
    out: int  # how many cards of the suit the seat cannot see (other hands, kitty)
    void: tuple[int, ...]  # the seats that have shown void in the suit


def card_count(view: SeatView) -> list[SuitCount]:
    """The card counter: for each suit, the cards played so far, one's own, and how many are out.

    Suits are taken under the contract (bowers count as trumps, jokers too with a trump suit);
    before a contract, by printed suit.
    """
    ctx = view.context if view.contract is not None else NT_STANDARD
    order: list[int] = []
    for _, cards, _, _ in view.tricks:
        order.extend(cards)
    order.extend(view.trick)
    unseen = view.unseen
    deck = mask_of(view.rules.cards)
    out = []
    for suit in range(5):
        mask = TABLES.suit_mask[ctx][suit] & deck
        if not mask:  # the jokers' own group exists only without trumps
            continue
        out.append(SuitCount(
            suit=suit,
            played=tuple(c for c in order if mask >> c & 1),
            held=view.hand & mask,
            out=(unseen & mask).bit_count(),
            void=tuple(s for s in range(view.rules.players) if s != view.seat and view.voids[s] >> suit & 1)))
    return out


@dataclass(frozen=True)
class BidAnalysis:
    """A bid played as the contract in ``n`` simulated worlds."""

    bid: int
    n: int
    made: int  # worlds in which the contract was made
    p_make: float
    se_p: float
    points: float  # the mean hand points of the bidder's side
    se: float
    net: float  # the mean of the side's points minus the other side's (the mc measure)


def analyse_bid(bot: MCBot, view: SeatView, bid: int, rng: random.Random,
                n: int | None = None) -> BidAnalysis:
    """The chance to make ``bid`` and its expected points if it became the contract.

    In each of the mc bot's sampled worlds the seat makes the bid and everybody else passes (so
    the bid is the contract), then the hand is played out with the mc bot's rollout policy.
    """
    if not view.legal >> bid & 1:
        raise ValueError(f"{A.action_to_str(bid)} is not a legal call now")
    if A.is_ordinary_bid(bid) and A.bid_level(bid) < view.rules.min_bid_level:
        raise ValueError("an inkle never becomes the contract")
    if not (A.is_ordinary_bid(bid) or bid in A.NULLO_TYPES):
        raise ValueError(f"{A.action_to_str(bid)} is not a bid")
    n = n if n is not None else samples_for(bot, view)
    team = view.team
    made, points, nets = 0, [], []
    for world in bot.worlds(view, rng, n):
        state = contract_world(world, bid)
        rollout(state, rng, bot.rollout_policy)
        result = state.result
        made += bool(result.made)
        points.append(result.hand_points[team])
        nets.append(team_score(state, team))
    p = made / n
    mean, se = mean_se(points)
    return BidAnalysis(bid, n, made, p, math.sqrt(p * (1 - p) / n), mean, se,
                       sum(nets) / n)


def contract_world(world: State, bid: int) -> State:
    """``world`` after the seat on turn bids ``bid`` and every later call is a pass."""
    state = world.clone()
    seat = state.turn
    state.apply(bid)
    while state.phase == Phase.AUCTION:
        state.apply(A.PASS)
    assert state.contract == bid and state.declarer == seat, "the bid did not become the contract"
    return state


# ---------------------------------------------------------------------- for the game


class AidUnavailable(Exception):
    """An aid whose bot does not play these rules (a table size it refuses): one line."""


class _Unavailable:
    """Stands in for a bot that refused the rules; every use raises :class:`AidUnavailable`."""

    def __init__(self, name: str, reason: str) -> None:
        self.name, self.reason = name, reason

    def __getattr__(self, attr: str):
        raise AidUnavailable(self.reason)


class Helper:
    """The bots behind the aids of one game, and a generator per decision.

    ``hint_bot`` is any registry name; the estimates and analyses use the ``mc`` bot, with
    ``samples`` worlds per decision when given (else the bot's own numbers).  A bot that
    refuses the rules when it is built (``make_bot(spec, rules)``: ``mcfast:rollout=policy`` at
    three or six players) makes its aids raise :class:`AidUnavailable` with the reason instead of stopping
    the game.
    """

    def __init__(self, rules: Rules, hint_bot: str = "mc", samples: int | None = None,
                 seed: int = 0) -> None:
        from agents.registry import make_bot

        self.rules = rules

        def build(spec: str):
            try:
                return make_bot(spec, rules)
            except ValueError as err:
                if "unknown bot" in str(err):
                    raise
                return _Unavailable(spec, f"{spec} does not play these rules "
                                          f"({rules.players} players): {err}")

        self.hint_bot = build(hint_bot)
        self.mc = build(f"mc:samples={samples}" if samples else "mc")
        if not isinstance(self.mc, (MCBot, _Unavailable)):
            raise TypeError("the mc registry entry is not an MCBot")
        self.seed = seed

    def rng(self, aid: str, state: State) -> random.Random:
        """The generator of one aid at one decision (the same when asked again)."""
        key = (state.deal_index, len(state.calls), state.discards_left, len(state.tricks),
               len(state.trick))
        return random.Random(f"{self.seed}/aid/{aid}/{key}")

    def hint(self, state: State, view: SeatView) -> int:
        return hint(self.hint_bot, view, self.rng("hint", state))

    def estimates(self, state: State, view: SeatView) -> list[Estimate]:
        return action_values(self.mc, view, self.rng("estimate", state))

    def analyse(self, state: State, view: SeatView, bid: int) -> BidAnalysis:
        return analyse_bid(self.mc, view, bid, self.rng(f"analyse/{bid}", state))
