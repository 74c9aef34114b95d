"""One game in the compiled core, stepped and observed from Python: the AEC env's fast path.

The PettingZoo env (:mod:`fh_env.envs.aec`) spends most of an agent step in Python: applying
the action to the reference ``State`` and bringing the observation up to date.  A
:class:`CompiledTable` holds the episode's hand as one record of the compiled core instead:
:meth:`~CompiledTable.apply` checks and applies an action in one kernel call, and
:meth:`~CompiledTable.observe` writes a seat's observation and action mask in another
(``fh_env.compiled.observe``'s encoder, byte-identical to ``fh_env.observe.observation``).  The
reference ``State`` is rebuilt from the record (:meth:`~CompiledTable.state`) only when
something reads it.

Only when numba's cache already holds these kernels for the table size (:func:`ready`): a cold
cache would cost a compile of tens of seconds on the env's first step, so the env keeps to the
reference engine until ``make venv`` (``python -m arena.warm``) or another run has filled it.
``tests/test_env_compiled.py`` plays the two paths side by side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import HandResult, State
from ..rules import Rules
from . import engine as K
from . import observe as O
from .games import FastGames


@njit(cache=True)
def _apply(games, rules, action):
    """Apply ``action`` to game 0 if legal: its phase * 8 + turn + 1 after (-1: illegal, the
    game unchanged)."""
    g = games[0]
    r = rules[0]
    if g.phase >= K.HAND_OVER or not K.is_legal(g, r, action):
        return -1
    K.apply(g, r, action)
    return g.phase * 8 + g.turn + 1


@njit(cache=True)
def _observe(games, rules, seat, lay, scales, features, bid_values, kitty_size, obs, mask):
    """``obs`` and ``mask``: seat ``seat``'s observation of game 0 and its action mask (all zero
    unless the seat is on turn in a hand not over)."""
    g = games[0]
    O._encode(g, seat, lay, scales, features, bid_values, kitty_size, obs)
    if g.turn == seat:
        K.legal_row(g, rules[0], mask)
    else:
        mask[:] = 0


KERNELS = (_apply, _observe)


def ready(players: int) -> bool:
    """Whether numba's cache holds this module's kernels for a table of ``players`` (so that
    using them compiles nothing).  False when that cannot be told."""
    itemsize = K.GAME_DTYPES[players].itemsize
    try:
        for kernel in KERNELS:
            index = kernel._cache._cache_file._load_index()
            if not any(getattr(key[0][0].dtype, "size", None) == itemsize for key in index):
                return False
        return True
    except Exception:  # numba's internals moved: say cold
        return False


class CompiledTable:
    """The hand of one episode in the compiled core (module docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._fast = FastGames(1, rules)
        self._games, self._rules = self._fast.games, self._fast._rules
        t, lay = O._tables(rules), O._layout(rules.players)
        self._args = (lay, O._SCALES, t.features, t.bid_values, t.kitty_size)
        self._obs = np.zeros(lay[O._OBS_SIZE], np.float32)
        self._num_actions = self._fast.num_actions
        self._mask = np.zeros(self._num_actions, np.int8)
        self.phase = self.turn = 0

    def load(self, state: State) -> None:
        """Hold ``state`` (of these rules)."""
        if (state.deal_index == 1 and state.hands_played == 0 and state.phase == 0
                and not state.calls):
            # A new game's first deal: begin it in the kernels (scores 0), cheaper than copying.
            self._fast.set_deals([list(state.dealt[0])], [state.dealt[1]], state.dealer,
                                 check=False)
        else:
            self._fast.set_state(0, state)
        self._fast.seed = state.seed  # the seed the rebuilt State carries (its later deals)
        self.phase, self.turn = int(state.phase), state.turn

    def apply(self, action: int) -> bool:
        """Apply the action of the seat on turn; False (nothing changed) if it is illegal."""
        if not 0 <= action < self._num_actions:  # also keeps huge ints out of the kernel
            return False
        code = _apply(self._games, self._rules, action)
        if code < 0:
            return False
        self.phase, self.turn = code >> 3, (code & 7) - 1
        return True

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """``fh_env.observe.observation(seat_view(self.state(), seat))``, as new arrays."""
        _observe(self._games, self._rules, seat, *self._args, self._obs, self._mask)
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def legal_actions(self) -> list[int]:
        return self._fast.legal_actions(0)

    @property
    def result(self) -> HandResult | None:
        """The hand's result once it is over, else None (as ``State.result``)."""
        return self._fast.result(0)

    @property
    def winner(self) -> int | None:
        w = int(self._games[0]["winner"])
        return None if w == K.GAME_GOES_ON else w

    def state(self) -> State:
        """The game as a reference ``State`` (a new one at every call)."""
        return self._fast.to_state(0)
