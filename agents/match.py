"""Playing bots seat by seat: on the engine directly (fast), or through the PettingZoo env."""

from __future__ import annotations

import random
from typing import Any, Sequence

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


def play_env(bots: Sequence[Bot], rngs: Sequence[random.Random], seed: int | None = None,
             **env_kwargs: Any) -> tuple[dict[str, float], State]:
    """Play one episode of ``fh_env.env(**env_kwargs)``, seat by seat, with these bots.

    The agent ``player_s`` is ``bots[s]``; it is given the view of its own seat of the env's
    engine state (the env's observation encodes that same view).  Returns each agent's total
    reward and the final engine state.  PettingZoo is imported only here.
    """
    import fh_env

    env = fh_env.env(**env_kwargs)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        game = env.unwrapped.game
        env.step(bots[seat].act(seat_view(game, seat), rngs[seat]))
    return totals, env.unwrapped.game
