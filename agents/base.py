"""The one interface every bot implements, the neural agent included.

A bot sees a :class:`fh_env.SeatView` (never the hidden cards) and a seeded
``random.Random``, and returns a legal action id.  Bots are built by name with
:func:`agents.registry.make_bot` so that the command-line tools can name them.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from fh_env import SeatView


@runtime_checkable
class Bot(Protocol):
    """A player: ``act`` returns one of ``view.legal_actions()``."""

    name: str

    def act(self, view: SeatView, rng: random.Random) -> int: ...
