"""Playing bots seat by seat: on the engine directly (fast), or through the PettingZoo env."""

from __future__ import annotations

import random
from typing import Sequence

from fh_env.engine import State
from fh_env.view import seat_view

from .base import Bot


def play_hand(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """Play the hand in progress to its end: seat ``s`` is ``bots[s]`` drawing from ``rngs[s]``.

    Each bot sees only :func:`fh_env.view.seat_view` of its own seat.  Returns ``state``.
    """
    while not state.is_terminal:
        seat = state.turn
        state.apply(bots[seat].act(seat_view(state, seat), rngs[seat]))
    return state


def play_game(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random],
              max_hands: int = 1000) -> State:
    """Play whole hands until the game is over (or ``max_hands`` hands were dealt)."""
    for _ in range(max_hands):
        play_hand(state, bots, rngs)
        if state.game_over:
            break
        state.next_hand()
    return state
