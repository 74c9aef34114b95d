"""Five Hundred: a complete rules engine and a PettingZoo AEC environment.

The engine (``fh_env.engine``) is plain Python; PettingZoo is imported only when the
environment is asked for (``fh_env.env()``, ``fh_env.raw_env``).
"""

from __future__ import annotations

from typing import Any

from .actions import NUM_ACTIONS, action_to_str, str_to_action
from .cards import card_name, parse_card
from .engine import HandResult, IllegalActionError, Phase, State
from .rules import PRESETS, Rules
from .view import SeatView, seat_view

__all__ = [
    "NUM_ACTIONS", "PRESETS", "HandResult", "IllegalActionError", "Phase", "Rules", "SeatView",
    "SingleSeatEnv", "State", "VectorEnv", "action_to_str", "card_name", "env", "parse_card",
    "raw_env", "seat_view",
    "str_to_action",
]


def env(**kwargs: Any):
    """The wrapped PettingZoo AEC environment (see :mod:`fh_env.envs.aec`)."""
    from .envs.aec import env as make_env

    return make_env(**kwargs)


def _register_gymnasium() -> None:
    """Register the single-seat env as ``fh_env/FiveHundred-v0`` (see :mod:`fh_env.envs.single`), so
    that ``import fh_env`` is enough before ``gymnasium.make``; nothing is imported until then."""
    try:
        import gymnasium
    except ImportError:  # the engine works without Gymnasium
        return
    if "fh_env/FiveHundred-v0" not in gymnasium.registry:
        gymnasium.register("fh_env/FiveHundred-v0", entry_point="fh_env.envs.single:SingleSeatEnv")


_register_gymnasium()


_LAZY = {"raw_env": ".envs.aec", "SingleSeatEnv": ".envs.single", "VectorEnv": ".envs.vector"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:  # the environments import PettingZoo/Gymnasium/numba only when asked for
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module 'fh_env' has no attribute {name!r}")
