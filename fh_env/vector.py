"""A batch of games stepped together, for training: numpy arrays in, numpy arrays out.

``VectorEnv(num_envs, rules, seed)`` holds ``num_envs`` engine :class:`~fh_env.engine.State` s
(``states``).  Every row of the outputs belongs to one game and always describes the seat on
turn in that game:

===========  ======================  =========================================================
output       shape, dtype            meaning
===========  ======================  =========================================================
``obs``      [N, OBS_SIZE] float32   :func:`fh_env.observe.encode` of the seat on turn
``mask``     [N, 130] int8           its legal actions (:func:`fh_env.observe.action_mask`)
``seat``     [N] int64               the seat on turn (0..3)
``rewards``  [N, 4] float32          per seat, at the end of a hand: the seat's team's hand
                                     points minus the other team's (AEC ``reward="diff"``);
                                     0 for a hand thrown in and on every other step
``done``     [N] bool                the episode of that row ended on this step
===========  ======================  =========================================================

``step`` returns ``(obs, mask, rewards, seat, done, infos)`` where ``infos`` is a dict with
``"hand_over"`` (bool[N]: a hand ended on this step) and ``"results"`` (the ended hand's
:class:`~fh_env.engine.HandResult` per row, ``None`` elsewhere).

Episodes (``episode``): ``"hand"`` (one hand of a fresh game: every episode is a new game) or
``"game"`` (a whole game; rewards still come at the end of every hand).  An ended episode
restarts by itself: game ``k`` of row ``i`` is ``State(rules, seed=game_seed(seed, i, k))``,
so the whole sequence of deals is a pure function of the seed given to ``reset``.  After a done
step the row already shows the first decision of the next game.

A negative action leaves its game untouched (its rows stay as they are, with zero reward and
``done`` false): a trainer can let some games wait while others finish.

The output arrays are preallocated and overwritten in place by every call: copy what you keep.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import observe
from .actions import NUM_ACTIONS
from .engine import State
from .rules import Rules
from .view import seat_view

EPISODES = ("hand", "game")


def game_seed(seed: int, env_index: int, game_index: int) -> int:
    """The engine seed of game ``game_index`` of row ``env_index`` (a 64-bit integer)."""
    words = np.random.SeedSequence(int(seed), spawn_key=(int(env_index), int(game_index)))
    lo, hi = words.generate_state(2, np.uint32)
    return int(lo) | int(hi) << 32


class VectorEnv:
    """``num_envs`` games of Five Hundred with automatic restarts (see the module docstring)."""

    def __init__(self, num_envs: int, rules: Rules | None = None, seed: int = 0,
                 episode: str = "hand") -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        self.num_envs = int(num_envs)
        self.rules = rules if rules is not None else Rules()
        self.episode = episode
        self.obs = np.zeros((num_envs, observe.OBS_SIZE), dtype=np.float32)
        self.mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self.seat = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, 4), dtype=np.float32)
        self.done = np.zeros(num_envs, dtype=bool)
        self.hand_over = np.zeros(num_envs, dtype=bool)
        #: games started in each row since the last reset (game k uses game_seed(seed, i, k))
        self.games = np.zeros(num_envs, dtype=np.int64)
        self.states: list[State] = []
        self.reset(seed)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start game 0 in every row (from ``seed``, or the last seed); return obs, mask, seat."""
        if seed is not None:
            if int(seed) < 0:
                raise ValueError(f"seed must be a non-negative integer, not {seed}")
            self.seed = int(seed)
        self.games[:] = 0
        self.states = [self._new_game(i) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._observe(i)
        return self.obs, self.mask, self.seat

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """Apply one action per row (negative: leave that game alone); see the module docstring."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        self.rewards[:] = 0.0
        self.done[:] = False
        self.hand_over[:] = False
        results: list[Any] = [None] * self.num_envs
        for i, action in enumerate(actions.tolist()):
            if action < 0:
                continue
            state = self.states[i]
            state.apply(action)
            if state.is_terminal:
                result = state.result
                assert result is not None
                diff = result.hand_points[0] - result.hand_points[1]
                self.rewards[i] = (diff, -diff, diff, -diff)
                self.hand_over[i] = True
                results[i] = result
                if self.episode == "hand" or state.game_over:
                    self.done[i] = True
                    self.states[i] = state = self._new_game(i)
                else:
                    state.next_hand()
            self._observe(i)
        infos = {"hand_over": self.hand_over, "results": results}
        return self.obs, self.mask, self.rewards, self.seat, self.done, infos

    # ------------------------------------------------------------------ internals
    def _new_game(self, i: int) -> State:
        state = State(self.rules, seed=game_seed(self.seed, i, int(self.games[i])))
        self.games[i] += 1
        return state

    def _observe(self, i: int) -> None:
        state = self.states[i]
        seat = state.turn
        view = seat_view(state, seat)
        observe.encode(view, out=self.obs[i])
        self.mask[i] = observe.action_mask(view)
        self.seat[i] = seat
