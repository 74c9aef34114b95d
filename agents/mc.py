"""``mc``: Monte Carlo play, discarding and bidding (perfect-information Monte Carlo).

For each decision the bot draws ``samples`` worlds of the cards it cannot see
(:mod:`fh_env.sampler`, exact and uniform), plays every candidate action out to the end of the
hand in each world with a fast rollout policy (the rule bot's own rules, run straight on the
determinized state), and chooses the action with the best average hand score for its team
(its points minus the other team's; a hand thrown in scores 0).  The same worlds are used for
every candidate, so the comparison is paired.  Every table size plays (§9): with six players
the worlds deal the five hidden hands and the kitty and the score is the team's; with three,
the two hidden hands and the kitty, and the score is the seat's own hand points minus the mean
of the two others'.

* Play: every legal card, except that cards of one suit with no unseen card between them are
  the same card for the outcome and are tried once.
* Exchange: the rule bot's ``discard_candidates`` best discards.
* Auction: a few candidate calls (pass, the rule bot's call, the cheapest bids of the strongest
  strains up to one level above the rule bot's trick estimate, nullo-type bids on low hands);
  the rest of the auction, the kitty exchange and the play are simulated with the rule bot;
  ``bid_samples`` worlds (``samples`` by default).
* ``infer=True`` ("reads the auction"): worlds are kept with probability ``infer_eps ** d``,
  where ``d`` counts the other players' calls that the rule bot would not have made with that
  world's cards (a bid of the right strain at another level counts one half), drawing up to
  ``max_draws`` worlds per world kept; if too few are kept the closest of the rest fill in.

Levels, like the commercial app's 4 to 6: ``mc4`` = 20 worlds, ``mc5`` = 50, ``mc6`` = 100
(``mc`` is ``mc4``).
"""

from __future__ import annotations

import random

from fh_env import actions as A
from fh_env.engine import Phase, State
from fh_env.cards import cards_of
from fh_env.view import SeatView, seat_view

from .rule import (NULLO_TYPES, POWER, SUIT_MASK, RuleBot, choose_call, choose_discard, kit,
                   nullo_danger, state_discard, state_play, strain_estimates, _exchanges_in)
from fh_env.sampler import Determinizer

LEVELS = {4: 20, 5: 50, 6: 100}
"""Worlds sampled per decision at each level."""


def rollout(state: State, rng: random.Random | None = None, policy: str = "rule") -> State:
    """Play ``state`` to the end of the hand: the rule bot at every seat (or uniform random)."""
    if policy == "random":
        assert rng is not None
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        return state
    while not state.is_terminal:
        phase = state.phase
        if phase == Phase.PLAY:
            state.apply(state_play(state))
        elif phase == Phase.EXCHANGE:
            state.apply(state_discard(state))
        else:
            state.apply(choose_call(seat_view(state, state.turn)))
    return state


def team_score(state: State, team: int) -> float:
    """A finished hand's points for side ``team`` minus the other side's (0 when thrown in);
    with three players (three sides) minus the mean of the two others'."""
    if state.result is None:
        return 0
    points = state.result.hand_points
    if len(points) == 2:
        return points[team] - points[1 - team]
    return points[team] - (sum(points) - points[team]) / (len(points) - 1)


def distinct_plays(view: SeatView) -> list[int]:
    """The legal actions, keeping one card of each run with no unseen card between its cards."""
    return sorted(group[0] for group in play_groups(view))


def play_groups(view: SeatView) -> list[list[int]]:
    """The legal actions in groups that play alike: each run of a suit's cards with no unseen
    card between them (the lowest first), every other action alone.  The search scores each
    group's first action for the whole group (:func:`distinct_plays`)."""
    ctx = view.context
    unseen = view.unseen
    pw = POWER[ctx]
    k = kit(view.rules.players)
    above, below = k.above[ctx], k.below[ctx]
    out = [[a] for a in view.legal_actions() if not k.play_base <= a < k.joker_lead_base]
    cards = (view.legal >> k.play_base) & k.card_bits
    for suit in range(5):
        mine = sorted(cards_of(cards & SUIT_MASK[ctx][suit]), key=lambda c: pw[c])
        prev = -1
        for c in mine:
            if prev < 0 or unseen & above[prev] & below[c]:
                out.append([])
            out[-1].append(k.play_base + c)
            prev = c
    return out


class MCBot:
    """Monte Carlo player; ``act`` draws everything from the generator it is given."""

    def __init__(self, samples: int = 20, infer: bool = False, bid_samples: int | None = None,
                 discard_candidates: int = 4, rollout: str = "rule", infer_eps: float = 0.1,
                 max_draws: int = 10, name: str | None = None) -> None:
        if samples < 1:
            raise ValueError(f"mc needs at least 1 sample, not {samples}")
        if rollout not in ("rule", "random"):
            raise ValueError(f"unknown rollout policy {rollout!r}; use 'rule' or 'random'")
        self.samples = samples
        self.bid_samples = bid_samples if bid_samples is not None else samples
        self.infer = infer
        self.discard_candidates = discard_candidates
        self.rollout_policy = rollout
        self.infer_eps = infer_eps
        self.max_draws = max_draws
        self.name = name or f"mc:samples={samples}" + (",infer=1" if infer else "")
        self._rule = RuleBot()
        self.rollouts = 0  # rollouts played so far (for benchmarks)

    # ------------------------------------------------------------------ candidates
    def candidates(self, view: SeatView) -> list[int]:
        """The actions worth simulating at this decision."""
        if view.phase == Phase.PLAY:
            return distinct_plays(view)
        if view.phase == Phase.EXCHANGE:
            order = []
            hand = view.hand
            left = view.discards_left
            for _ in range(min(self.discard_candidates, hand.bit_count())):
                a = choose_discard(hand, view.contract, view.context, left,
                                   players=view.rules.players)
                order.append(a)
                hand &= ~(1 << (a - A.DISCARD_BASE))
            return order
        return self._bid_candidates(view)

    def _bid_candidates(self, view: SeatView) -> list[int]:
        legal = view.legal
        out = {choose_call(view)}
        if legal & 1:
            out.add(A.PASS)
        est = strain_estimates(view)
        strains = sorted(range(5), key=lambda s: -est[s])[:3]
        for strain in strains:
            top = min(10, int(est[strain]) + 1)
            for level in range(6, top + 1):
                bid = A.bid_action(level, strain)
                if legal >> bid & 1:
                    out.add(bid)
                    break
        for bid in NULLO_TYPES:
            if legal >> bid & 1 and nullo_danger(view.hand, view.rules,
                                                 _exchanges_in(view.rules, bid)) <= 3.0:
                out.add(bid)
        return sorted(out)

    # ------------------------------------------------------------------ worlds
    def worlds(self, view: SeatView, rng: random.Random, n: int) -> list[State]:
        """``n`` sampled worlds (weighted by the auction when ``infer``)."""
        det = Determinizer(view)
        others = [(s, a) for s, a in view.calls if s != view.seat]
        if not self.infer or not others:
            return [det.sample(rng) for _ in range(n)]
        kept: list[State] = []
        rest: list[tuple[float, int, State]] = []
        for draw in range(n * self.max_draws):
            world = det.sample(rng)
            d = auction_distance(view, world)
            if d == 0 or rng.random() < self.infer_eps ** d:
                kept.append(world)
                if len(kept) == n:
                    return kept
            else:
                rest.append((d, draw, world))
        rest.sort(key=lambda t: (t[0], t[1]))
        return kept + [w for _, _, w in rest[:n - len(kept)]]

    # ------------------------------------------------------------------ acting
    def act(self, view: SeatView, rng: random.Random) -> int:
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        n = self.bid_samples if view.phase == Phase.AUCTION else self.samples
        totals = self.evaluate(view, candidates, rng, n)
        best = max(totals)
        rule_choice = self._rule.act(view, rng)
        if rule_choice in candidates and totals[candidates.index(rule_choice)] == best:
            return rule_choice
        return candidates[totals.index(best)]

    def evaluate(self, view: SeatView, candidates: list[int], rng: random.Random,
                 n: int) -> list[float]:
        """The total team score of each candidate over ``n`` sampled worlds."""
        team = view.team
        totals = [0.0] * len(candidates)
        for world in self.worlds(view, rng, n):
            for i, action in enumerate(candidates):
                state = world.clone()
                state.apply(action)
                rollout(state, rng, self.rollout_policy)
                totals[i] += team_score(state, team)
            self.rollouts += len(candidates)
        return totals


def auction_distance(view: SeatView, world: State) -> float:
    """How far the other players' calls are from the rule bot's calls with the world's cards."""
    state = State(view.rules, dealer=view.dealer, deal=(list(world.dealt[0]), world.dealt[1]))
    d = 0.0
    for seat, call in view.calls:
        if seat != view.seat:
            expected = choose_call(seat_view(state, seat))
            if expected != call:
                same_strain = (A.is_ordinary_bid(expected) and A.is_ordinary_bid(call)
                               and A.bid_strain(expected) == A.bid_strain(call))
                d += 0.5 if same_strain else 1.0
        state.apply(call)
    return d
