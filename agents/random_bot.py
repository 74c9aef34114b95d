"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random

from fh_env.actions import random_action
from fh_env.view import SeatView


class RandomBot:
    """Uniform over the legal actions of the view (drawn from the bot's own generator)."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> int:
        return random_action(view.legal, rng)
