"""Peers driven from Python the same way as our engine: OpenSpiel's ``euchre`` and ``bridge``.

    python -m bench.peers [--seconds S] [--runs N]

Each system plays uniformly random legal actions, one game at a time, in one process, dealing
every game afresh; chance nodes (the deal) are sampled but not counted as steps.  Two ways:

* ``plain``: only what playing needs (legal actions, apply);
* ``observed``: also, at every decision, the observation tensor of the player on turn and its
  legal-action mask, as an agent needs them (OpenSpiel: ``observation_tensor`` where the game
  has one, else ``information_state_tensor`` (euchre); ``legal_actions_mask``.  Ours:
  ``fh_env.observe.observation(seat_view(state, turn))``, the observation and mask the AEC env
  returns).

``bridge`` is loaded with ``use_double_dummy_result=false`` so that the cards are played out
(its default ends the game after the auction and scores it with a double-dummy solver, about two
games a second).  Our side is the reference engine (``fh_env.engine.State``) under the default
rules.  Every figure is the median over ``--runs`` interleaved rounds of ``--seconds`` of CPU
time per system; the ratio is ours ÷ the peer in agent steps per CPU second, per round.

Ours is also measured through the PettingZoo AEC env (``fh_env.env()``, the loop of
:mod:`bench.env`: ``last()`` observes the agent on turn), and set beside OpenSpiel's bridge with
its tensor and mask in games (hands) per CPU second: ``aec_over_bridge_games``.  With numba's
cache warm the env steps in the compiled core (:mod:`fh_env.compiled.table`), else on the
reference engine: ``aec_path`` says which.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
from typing import Any, Callable

from bench.common import (Work, median_ratio, medians, positive_float, positive_int, rounds,
                          timed)
from fh_env.engine import State
from fh_env.observe import observation
from fh_env.rules import Rules
from fh_env.view import seat_view

OPENSPIEL_GAMES = {"euchre": "euchre", "bridge": "bridge(use_double_dummy_result=false)"}
OURS = {False: "fh engine", True: "fh engine + observation + mask"}
#: Ours through the PettingZoo AEC env, as a user drives it (``agent_iter``, ``last()``,
#: ``step``): measured beside OpenSpiel's bridge with observations, in games per CPU second.
AEC = "fh AEC env() + observation + mask"
BRIDGE_OBSERVED = "OpenSpiel bridge + tensor + mask"


def have_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def ours_work(rules: Rules, observe: bool, seed: int = 0) -> Work:
    """Random hands of the reference engine, ten per call; with ``observe``, the observation
    and mask of the seat on turn are built at every decision."""
    rng = random.Random(seed)
    choice = rng.choice
    counter = [seed * 1_000_000]

    def work() -> tuple[int, int]:
        steps = 0
        for _ in range(10):
            counter[0] += 1
            state = State(rules, seed=counter[0])
            while not state.is_terminal:
                if observe:
                    observation(seat_view(state, state.turn))
                state.apply(choice(state.legal_actions()))
                steps += 1
        return steps, 10

    return work


def aec_work(seed: int = 0) -> Work:
    """Random hands through ``fh_env.env()``, ten per call: the loop of bench.env (``last()``
    returns the observation and mask of the agent on turn)."""
    import numpy as np

    import fh_env

    env = fh_env.env()
    rng = random.Random(seed)
    randrange = rng.randrange
    counter = [seed * 1_000_000]

    def work() -> tuple[int, int]:
        steps = 0
        for _ in range(10):
            counter[0] += 1
            env.reset(seed=counter[0])
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[randrange(len(legal))]))
                steps += 1
        return steps, 10

    return work


def openspiel_work(spec: str, observe: bool, seed: int = 0) -> Work:
    """Random games of the OpenSpiel game ``spec``, ten per call (see the module docstring)."""
    import pyspiel

    game = pyspiel.load_game(spec)
    tensor_of = ("observation_tensor" if game.get_type().provides_observation_tensor
                 else "information_state_tensor")
    rng = random.Random(seed)
    randrange = rng.randrange

    def work() -> tuple[int, int]:
        steps = 0
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[randrange(len(outcomes))][0])
                    continue
                if observe:
                    player = state.current_player()
                    getattr(state, tensor_of)(player)
                    state.legal_actions_mask(player)
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
                steps += 1
        return steps, 10

    return work


def systems() -> dict[str, tuple[Callable[[], Work], str | None]]:
    """Name -> (factory of its work, the name of our system it is compared with, or None for
    ours).  OpenSpiel's games only where ``pyspiel`` is installed."""
    out: dict[str, tuple[Callable[[], Work], str | None]] = {}
    for observe, name in OURS.items():
        out[name] = (lambda o=observe: ours_work(Rules(), o), None)
    out[AEC] = (aec_work, None)
    if have_openspiel():
        for game, spec in OPENSPIEL_GAMES.items():
            for observe, ours in OURS.items():
                label = f"OpenSpiel {game}" + (" + tensor + mask" if observe else "")
                out[label] = (lambda s=spec, o=observe: openspiel_work(s, o), ours)
    return out


def measure(seconds: float, runs: int) -> dict[str, Any]:
    """The figures of every system (medians over interleaved rounds) and, for each peer, the
    ratio ours ÷ peer in agent steps per CPU second."""
    table = systems()
    works = {name: make() for name, (make, _) in table.items()}
    for work in works.values():
        work()  # warm-up: imports, caches
    runs_ = rounds({name: (lambda w=w: timed(w, seconds)) for name, w in works.items()}, runs)
    figures: dict[str, dict[str, Any]] = medians(runs_)
    for name, (_, ours) in table.items():
        figures[name]["compared_with"] = ours
        figures[name]["ours_over_this"] = (
            None if ours is None else median_ratio(runs_, ours, name, "steps_per_cpu_s"))
    aec_over_bridge = (median_ratio(runs_, AEC, BRIDGE_OBSERVED, "episodes_per_cpu_s")
                       if BRIDGE_OBSERVED in figures else None)
    from fh_env.compiled.table import ready

    return {"seconds": seconds, "runs": runs, "openspiel": have_openspiel(),
            "systems": figures, "aec_over_bridge_games": aec_over_bridge,
            "aec_path": "compiled core" if ready(4) else "reference engine (numba cache cold)"}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.peers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=positive_float, default=2.0,
                        help="CPU seconds of one run")
    parser.add_argument("--runs", type=positive_int, default=3, help="rounds (median)")
    args = parser.parse_args(argv)
    result = measure(args.seconds, args.runs)
    if not result["openspiel"]:
        print("open_spiel is not installed (pip install '.[bench]'): our engine only")
    print(f"{'system':<34}{'steps/CPU-s':>13}{'games/CPU-s':>13}{'ours/this':>11}")
    for name, f in result["systems"].items():
        ratio = f"{f['ours_over_this']:>11.2f}" if f["compared_with"] else ""
        print(f"{name:<34}{f['steps_per_cpu_s']:>13,.0f}{f['episodes_per_cpu_s']:>13,.0f}{ratio}")
    if result["aec_over_bridge_games"] is not None:
        print(f"{AEC} hands ÷ {BRIDGE_OBSERVED} games, per CPU second: "
              f"{result['aec_over_bridge_games']:.2f} (the env stepped in the "
              f"{result['aec_path']})")
    return result


if __name__ == "__main__":
    main()
