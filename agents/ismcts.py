"""``ismcts``: OpenSpiel's Information Set Monte Carlo Tree Search as a bot of this package.

The search is OpenSpiel's own (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) on the game
``python_five_hundred`` of :mod:`fh_env.envs.openspiel`; this module gives it what it needs
from our side:

* a root state: the bot sees a :class:`~fh_env.view.SeatView`, draws one world consistent with
  it and converts it (:func:`fh_env.envs.openspiel.from_engine`); the search resamples the
  hidden cards at every simulation, so which world starts it does not matter;
* a leaf evaluator that plays the engine state out directly (:class:`RolloutEvaluator`):
  uniformly random actions as OpenSpiel's ``RandomRolloutEvaluator`` does, but without a
  round trip through pyspiel per action, or the rule bot (``rollout=rule``).

Every random choice (the root world, the resampling, the search's tie breaks and rollouts)
comes from the generator ``act`` is given, so a seeded match replays exactly.  The returns the
search maximises are the hand's points of the bot's side (§6).  Budget: ``sims`` simulations a
decision (``ismcts:sims=200``); a decision with one legal action is made at once.

pyspiel is the optional extra ``openspiel``; :mod:`agents.registry` imports this module only
when an ``ismcts`` bot is built.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as err:  # the optional extra
    raise ImportError("the ismcts bot plays through OpenSpiel, the optional extra 'openspiel': "
                      "pip install -e '.[openspiel]'") from err
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from fh_env.engine import side_of
from fh_env.envs import openspiel as fh_openspiel
from fh_env.rules import Rules
from fh_env.view import SeatView

from .mc import rollout
from fh_env.sampler import Determinizer

DEFAULT_SIMS = 200
#: The exploration constant: returns are hand points (tens to hundreds), so the UCT term is on
#: that scale too.
DEFAULT_UCT_C = 150.0


@lru_cache(maxsize=64)
def game_for(rules: Rules, dealer: int) -> pyspiel.Game:
    """The OpenSpiel game of ``rules`` with ``dealer`` dealing (loaded once)."""
    return fh_openspiel.load_game(rules, dealer)


class RolloutEvaluator(os_mcts.Evaluator):
    """IS-MCTS leaf values: ``rollouts`` playouts of the engine state to the end of the hand,
    by uniformly random actions (``policy="random"``) or the rule bot (``"rule"``); the value
    is each player's hand points, averaged."""

    def __init__(self, rng: random.Random, rollouts: int = 1, policy: str = "random") -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.policy = policy

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        engine = state.engine
        n = engine.rules.players
        total = np.zeros(n)
        for _ in range(self.rollouts):
            end = rollout(engine.clone(), self.rng, self.policy)
            if end.result is not None:
                points = end.result.hand_points
                total += [points[side_of(n, p)] for p in range(n)]
        return total / self.rollouts

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def root_state(view: SeatView, rng: random.Random) -> pyspiel.State:
    """An OpenSpiel state that ``view.seat`` cannot tell from the real one (same information
    state): one world drawn by the exact sampler, converted."""
    world = Determinizer(view).sample(rng)
    return fh_openspiel.from_engine(game_for(view.rules, view.dealer), world)


class ISMCTSBot:
    """Plays each decision by OpenSpiel's IS-MCTS (``sims`` simulations, UCT with ``uct_c``,
    the most visited action), its leaves valued by :class:`RolloutEvaluator`."""

    def __init__(self, sims: int = DEFAULT_SIMS, uct_c: float = DEFAULT_UCT_C,
                 rollouts: int = 1, rollout: str = "random", name: str = "ismcts") -> None:
        if sims < 1 or rollouts < 1:
            raise ValueError(f"ismcts needs sims >= 1 and rollouts >= 1, not {sims}, {rollouts}")
        if rollout not in ("random", "rule"):
            raise ValueError(f"ismcts rollout={rollout!r}; choose random or rule")
        self.sims = sims
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.rollout = rollout
        self.name = name

    def search(self, view: SeatView, rng: random.Random) -> list[tuple[int, float]]:
        """IS-MCTS's policy at ``view`` (action, probability) after ``sims`` simulations."""
        state = root_state(view, rng)
        bot = self._searcher(state.get_game(), rng)
        return bot.get_policy(state)

    def act(self, view: SeatView, rng: random.Random) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = root_state(view, rng)
        bot = self._searcher(state.get_game(), rng)
        action = int(bot.step(state))
        if action not in legal:  # the search only ever picks a legal action; say so if not
            raise AssertionError(f"IS-MCTS chose {action}, not one of {legal}")
        return action

    def _searcher(self, game: pyspiel.Game, rng: random.Random) -> Any:
        np_rng = np.random.RandomState(rng.getrandbits(32))
        bot = os_ismcts.ISMCTSBot(
            game, RolloutEvaluator(rng, self.rollouts, self.rollout), self.uct_c, self.sims,
            random_state=np_rng,
            final_policy_type=os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
        return bot
