"""Five Hundred: a complete rules engine and a PettingZoo AEC environment.

The engine (``fh_env.engine``) is plain Python; PettingZoo is imported only when the
environment is asked for (``fh_env.env()``, ``fh_env.raw_env``).  ``import fh_env`` registers
``five_hundred_v0`` with PettingZoo's registry (``pettingzoo.make("aec", "five_hundred_v0")``)
and ``fh_env/FiveHundred-v0`` with Gymnasium's, without importing the environments themselves.
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


def env(rules: Any = None, render_mode: str | None = None, episode: str = "hand",
        reward: str = "diff", reward_scale: float = 1.0, illegal_reward: float | None = None,
        render_seat: int | None = None):
    """The wrapped PettingZoo AEC environment, ``five_hundred_v0`` (see :mod:`fh_env.envs.aec`;
    the same signature as :func:`fh_env.envs.aec.env`): ``fh_env.env("australian")``."""
    from .envs.aec import env as make_env

    return make_env(rules, render_mode=render_mode, episode=episode, reward=reward,
                    reward_scale=reward_scale, illegal_reward=illegal_reward,
                    render_seat=render_seat)


PETTINGZOO_ID = "five_hundred_v0"
_PETTINGZOO_REGISTRATION = "pettingzoo.env_registry.registration"


def _register_pettingzoo(registration: Any) -> None:
    """Register ``five_hundred_v0`` (entry point ``fh_env:env``) in PettingZoo's AEC registry."""
    register, registry = (getattr(registration, "register", None),
                          getattr(registration, "aec_registry", None))
    if register is None or registry is None:  # a PettingZoo without a registry
        return
    if PETTINGZOO_ID.replace("_v", "-v") not in registry:  # the registry's own spelling
        register("aec", PETTINGZOO_ID, entry_point="fh_env:env")


def _register_with_pettingzoo() -> None:
    """Register ``five_hundred_v0`` so that ``pettingzoo.make("aec", "five_hundred_v0")`` works
    after ``import fh_env`` (PettingZoo has no plugin entry points; importing its registry costs
    about 15 ms once Gymnasium is loaded, and the environment module itself is not imported)."""
    try:
        from pettingzoo.env_registry import registration
    except ImportError:  # the engine works without PettingZoo
        return
    _register_pettingzoo(registration)


_register_with_pettingzoo()


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
