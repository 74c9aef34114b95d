"""``nmc``: a trained network for the auction and the kitty, Monte Carlo search for the cards.

The shipped agent wins by its bidding (docs/training.md: its calls with the rule bot's card
play score about as much against ``rule`` as the whole agent), while its card play is no better
than the rule bot's; Monte Carlo search (``mc``, ``mcfast``) plays cards better than either,
but bids by rollouts of the rule bot.  ``nmc`` takes the better half of each: the network
(:class:`agents.neural.NeuralBot`, greedy) makes every call and the kitty discard, and each
card is chosen by :class:`agents.mc_fast.FastMCBot` (``samples`` worlds drawn exactly from the
seat's view, every distinct card rolled out by the compiled rule bot on each).  Where the search
finds several cards equally good (say, two equal cards), the network's favourite among them is
played, so that the search only overrides the network where it sees a difference.

Spec: ``nmc:PATH[,samples=N]`` (``PATH`` as for ``neural``: a checkpoint, a run directory, a
shipped name or ``best``).  It plays the table sizes and rules both halves play (the network's
rules, ``mcfast``'s compiled core).
"""

from __future__ import annotations

import random

import numpy as np

from fh_env.engine import Phase
from fh_env.rules import Rules
from fh_env.view import SeatView

from .mc_fast import FastMCBot
from .neural import NeuralBot


class NetworkMCBot:
    """The network's calls and discards; card play by Monte Carlo search (module docstring)."""

    def __init__(self, network: NeuralBot, samples: int = 100, name: str | None = None) -> None:
        self.network = network
        self.search = FastMCBot(samples=samples)
        self.samples = samples
        self.name = name or f"nmc:{network.name},samples={samples}"

    def check_rules(self, rules: Rules) -> None:
        """Refuse rules either half cannot play (the network's, the compiled core's)."""
        self.network.check_rules(rules)
        check = getattr(self.search, "check_rules", None)
        if callable(check):
            check(rules)

    def act(self, view: SeatView, rng: random.Random) -> int:
        if view.phase != Phase.PLAY:
            return self.network.act(view, rng)
        search = self.search
        candidates = search._mc.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        means = search.score(view, candidates,
                             search.draw_worlds(view, len(candidates), rng))
        best = np.flatnonzero(means == means.max())
        if len(best) == 1:
            return candidates[int(best[0])]
        preferred = self.network.preferences(view)  # the network's order over the actions
        return min((candidates[int(i)] for i in best), key=lambda a: preferred[a])


def make_nmc(name: str, arg: str, samples: int = 100) -> NetworkMCBot:
    """Registry factory: ``nmc:PATH[,samples=N]``."""
    from .registry import resolve_agent_alias

    network = NeuralBot.load(resolve_agent_alias(arg), greedy=True)
    return NetworkMCBot(network, samples=samples, name=name)
