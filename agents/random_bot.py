"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random

from fh_env.view import SeatView


class RandomBot:
    """Uniform over the legal actions of the view (drawn from the bot's own generator)."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> int:
        legal = view.legal
        n = rng.randrange(legal.bit_count())
        while n:
            legal &= legal - 1
            n -= 1
        return (legal & -legal).bit_length() - 1
