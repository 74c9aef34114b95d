"""``mcfast``: Monte Carlo play with compiled rollouts (the fast core and the compiled rule bot).

At a PLAY decision the bot does what :class:`agents.mc.MCBot` does (same candidates,
:func:`agents.mc.distinct_plays`; the same exact distribution of worlds as
:class:`fh_env.sampler.Determinizer`; same paired comparison on shared worlds; ties go to the rule
bot's card, then to the lowest action id) but draws the worlds and plays the rollouts in
compiled code: :class:`fh_env.compiled.sampler.CompiledSampler` (seeded from the bot's
generator, so its worlds are not the Python sampler's at the same seed) loads the public history
into one fast-core record once (:meth:`fh_env.compiled.games.FastGames.set_state`), copies it
``samples x candidates`` times with each world's hidden cards, and every copy plays its
candidate and then the rest of the hand with the compiled rule bot (:data:`ROLLOUTS`): on the
same worlds it scores every candidate exactly as ``mc`` does (``tests/test_mc_fast.py``).  The
chosen card is the one with the best mean team hand score (:func:`agents.mc.team_score`: its
team's points minus the other's; with three players its own minus the mean of the two
others').

Calls and discards go the same way, with ``mc``'s candidates (:meth:`agents.mc.MCBot.candidates`):
the rule-bot rollouts run through the rest of the auction and the exchange in compiled code.
With ``rollout="policy"`` (a policy for card play only) they are delegated to
:class:`agents.mc.MCBot` with the same number of samples.

Every table size plays (§9), as with ``mc``: with three and six players the compiled sampler
deals the two or five hidden hands and the kitty (the sitting-out partners of a six-handed
nullo included) into the size's records, and the compiled rule bot plays them out.  The
compiled policy (``rollout="policy"``) plays four players only: other sizes are refused with a
``ValueError`` when that bot is built for them (``make_bot("mcfast:rollout=policy", rules)``,
``fh-eval``) and when it is asked to act (:meth:`FastMCBot.check_rules`).
"""

from __future__ import annotations

import random

import numpy as np

from fh_env.engine import Phase, State
from fh_env.compiled.games import FastGames
from fh_env.rules import Rules
from fh_env.view import SeatView

from .mc import MCBot, distinct_plays
from .rule import RuleBot
from .compiled.rollout_policy import policy_rollouts
from .compiled.rule import RuleSeats
from .compiled.rule import rollouts as rule_rollouts
from fh_env.compiled.sampler import CompiledSampler

#: How the rollouts play the rest of the hand: ``rule``, the rule bot at every seat in compiled
#: code (:mod:`agents.compiled.rule`), exactly ``mc``'s rollouts, so that mcfast scores each
#: candidate as ``mc`` does on the same worlds; ``policy``, the simpler and faster compiled
#: policy of :mod:`agents.compiled.rollout_policy`.
ROLLOUTS = ("rule", "policy")


def side_scores(points: np.ndarray, side: int) -> np.ndarray:
    """:func:`agents.mc.team_score` of each game's hand points (``[N, sides]``): ``side``'s
    points minus the other team's, or with three players minus the mean of the two others'."""
    mine = points[:, side]
    if points.shape[1] == 2:
        return mine - points[:, 1 - side]
    return mine - (points.sum(axis=1) - mine) / (points.shape[1] - 1)


def candidate_means(games: np.ndarray, side: int, k: int,
                    weights: np.ndarray | None = None) -> np.ndarray:
    """The mean :func:`side_scores` of each of ``k`` candidates over finished rollouts
    (``games``: each world once per candidate, in order), weighted by ``weights`` (one per
    world) when given."""
    scores = side_scores(games["hand_points"], side).reshape(-1, k)
    return scores.mean(axis=0) if weights is None else np.average(scores, axis=0,
                                                                  weights=weights)


class FastMCBot:
    """Monte Carlo player with compiled rollouts; ``act`` draws only from the given generator."""

    def __init__(self, samples: int = 20, name: str | None = None,
                 rollout: str = "rule") -> None:
        if samples < 1:
            raise ValueError(f"mcfast needs at least 1 sample, not {samples}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"mcfast rollout={rollout!r}: choose one of {', '.join(ROLLOUTS)}")
        self.samples = samples
        self.rollout = rollout
        self._twins: dict[Rules, RuleSeats] = {}
        self.name = name or f"mcfast:samples={samples}"
        self._mc = MCBot(samples=samples)
        self._rule = RuleBot()
        self._loaders: dict[Rules, FastGames] = {}
        self.rollouts = 0  # rollouts played so far (for benchmarks)

    def check_rules(self, rules: Rules) -> None:
        """Refuse a table size the rollouts cannot play (ValueError, one line): the rule bot's
        (the default) play every size, the compiled policy's four players only."""
        if self.rollout == "policy" and rules.players != 4:
            raise ValueError(f"bot {self.name!r} with rollout=policy plays four players only "
                             f"(the compiled policy of agents.compiled.rollout_policy), not "
                             f"players={rules.players}; rollout=rule, the default, plays every "
                             "table size")

    def act(self, view: SeatView, rng: random.Random) -> int:
        if self.rollout != "rule" and view.rules.players != 4:
            self.check_rules(view.rules)
        if self.rollout != "rule" and view.phase != Phase.PLAY:
            return self._mc.act(view, rng)  # the compiled policy plays cards only
        candidates = self._mc.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        means = self.score(view, candidates, self.draw_worlds(view, len(candidates), rng))
        best = means.max()
        rule_choice = self._rule.act(view, rng)
        if rule_choice in candidates and means[candidates.index(rule_choice)] == best:
            return rule_choice
        return candidates[int(np.argmax(means))]

    def rule_twin(self, rules: Rules) -> RuleSeats:
        """The compiled rule bot under ``rules`` (one per rule set, kept)."""
        twin = self._twins.get(rules)
        if twin is None:
            twin = self._twins[rules] = RuleSeats(rules)
        return twin

    def evaluate(self, view: SeatView, candidates: list[int], worlds: list[State]) -> np.ndarray:
        """The mean team score of each candidate over ``worlds`` (float64 ``[len(candidates)]``)."""
        n, k = len(worlds), len(candidates)
        games = self._batch(worlds[0], n * k)
        hands = np.array([w.hands for w in worlds], dtype=np.uint64)
        games["hands"] = np.repeat(hands, k, axis=0)
        games["kitty"] = np.repeat(np.array([w.kitty for w in worlds], dtype=np.uint64), k)
        games["dealt_hands"] = np.repeat(np.array([w.dealt[0] for w in worlds], np.uint64), k,
                                         axis=0)
        games["dealt_kitty"] = np.repeat(np.array([w.dealt[1] for w in worlds], np.uint64), k)
        if worlds[0].exchanges:  # who picked up what differs between worlds (not who exchanged)
            for field, j in (("exch_picked", 1), ("exch_discards", 2)):
                games[field][:, :len(worlds[0].exchanges)] = np.repeat(np.array(
                    [[e[j] for e in w.exchanges] for w in worlds], np.uint64), k, axis=0)
        return self.score(view, candidates, games)

    def draw_worlds(self, view: SeatView, repeat: int, rng: random.Random,
                    count: int | None = None) -> np.ndarray:
        """``count`` worlds (``samples`` unless given) drawn by the compiled exact sampler from
        a seed taken from ``rng``, as fast-core records, each ``repeat`` times in a row."""
        return CompiledSampler(view).sample_games(self.samples if count is None else count,
                                                  rng.getrandbits(64), repeat,
                                                  self._loader(view.rules))

    def score(self, view: SeatView, candidates: list[int], games: np.ndarray,
              weights: np.ndarray | None = None) -> np.ndarray:
        """Roll out ``games`` (each world once per candidate, in the order of ``candidates``)
        and return the mean team score of each candidate (float64 ``[len(candidates)]``),
        weighted by ``weights`` (one per world) when given."""
        k = len(candidates)
        n = len(games) // k
        first = np.tile(np.asarray(candidates, dtype=np.int64), n)
        rules_record = self._loader(view.rules)._rules
        if self.rollout == "rule":
            rule_rollouts(games, rules_record, self.rule_twin(view.rules).record, first)
        else:
            policy_rollouts(games, rules_record, first)
        self.rollouts += n * k
        return candidate_means(games, view.team, k, weights)

    def _batch(self, world: State, size: int) -> np.ndarray:
        """``size`` fast-core copies of ``world`` (only the hidden fields differ between worlds,
        so one world's record serves as the template of all)."""
        loader = self._loader(world.rules)
        loader.set_state(0, world)
        return np.repeat(loader.games, size)

    def _loader(self, rules: Rules) -> FastGames:
        """A 1-game batch of ``rules`` to load template states with (one per rule set)."""
        loader = self._loaders.get(rules)
        if loader is None:
            loader = self._loaders[rules] = FastGames(1, rules)
        return loader
