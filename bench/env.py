"""Speed of random play through the AEC API: ``python -m bench.env [--seconds S] [--repeats N]``.

Plays random legal actions with the loop every PettingZoo user writes (``agent_iter``, ``last()``
(which observes the agent on turn: full observation and mask, as a real agent needs), ``step``)
and reports agent steps and episodes per second (median of ``--repeats`` runs), for
``fh_env.env()`` under the default rules (one hand an episode), for ``fh_env.raw_env``, and for
PettingZoo's ``connect_four_v3`` measured the same way in the same run, so that the ratio does not
depend on the machine.  Also the cost of one :func:`fh_env.observe.encode` call.

The "before" systems are the same envs with every observation encoded again from the seat view
(``raw_env.incremental_observations = False``) and, for ``env()``, PettingZoo's own
``last``/``observe``/``step``/``agent_iter`` paths through the wrapper chain instead of the
shortcuts of ``fh_env.envs.aec``: the env as it was before incremental observations, measured
in the same run (:func:`before_env`).

Targets: issue 3, ``env()`` at twice the agent steps/s of ``connect_four_v3`` and at least
1,000 hands per second; "speed where users touch it", at least 1,500 hands per second through
``env()`` (about 2.5x the "before" system).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import types
from typing import Any, Callable

import numpy as np

from bench.common import positive_float, positive_int


def random_play(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[float, float]:
    """(agent steps per second, episodes per second) of random legal play for ``seconds`` of
    this process's CPU time (so that other load on the machine counts less)."""
    env = make_env()
    rng = random.Random(seed)
    steps = episodes = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
        episodes += 1
    elapsed = clock() - start
    env.close()
    return steps / elapsed, episodes / elapsed


def full_encoding_raw_env(**kwargs: Any) -> Any:
    """``fh_env.raw_env()`` encoding every observation from the seat view again (before)."""
    from fh_env.envs.aec import raw_env

    env = raw_env(**kwargs)
    env.compiled_core = False  # the reference engine, as before the compiled table
    env.incremental_observations = False
    return env


def before_env(**kwargs: Any) -> Any:
    """``fh_env.env()`` as it was before incremental observations: every observation encoded
    from the seat view again, and PettingZoo's wrapper methods (``last``, ``observe``,
    ``step``, ``agent_iter`` of ``OrderEnforcingWrapper``/``AECEnv``, ``observe`` of
    ``TerminateIllegalWrapper``) in place of fh_env's shortcuts, bound on the instances."""
    import fh_env
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    env = fh_env.env(**kwargs)
    env.unwrapped.compiled_core = False
    env.unwrapped.incremental_observations = False
    order = wrappers.OrderEnforcingWrapper
    for name, method in (("last", AECEnv.last), ("observe", order.observe),
                         ("step", order.step), ("agent_iter", order.agent_iter)):
        setattr(env, name, types.MethodType(method, env))
    inner = env.env
    while not isinstance(inner, wrappers.TerminateIllegalWrapper):
        inner = inner.env
    inner.observe = types.MethodType(wrappers.TerminateIllegalWrapper.observe, inner)
    return env


def _connect_four() -> Callable[[], Any]:
    import importlib.util

    if importlib.util.find_spec("pygame") is None:
        # connect_four imports pygame at module level for its "human"/"rgb_array" rendering
        # only; this benchmark never renders, so an empty stand-in module is enough.
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env


def encode_cost(n_hands: int = 50, seed: int = 0) -> float:
    """Microseconds per ``encode`` call, over the views of the agent on turn of random hands."""
    from fh_env import Rules, State, seat_view
    from fh_env.observe import encode

    rng = random.Random(seed)
    views = []
    for k in range(n_hands):
        state = State(Rules(), seed=seed + k)
        while not state.is_terminal:
            views.append(seat_view(state, state.turn))
            state.apply(rng.choice(state.legal_actions()))
    start = time.process_time()
    for view in views:
        encode(view)
    return (time.process_time() - start) / len(views) * 1e6


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=positive_float, default=5.0, help="length of one run")
    parser.add_argument("--repeats", type=positive_int, default=3,
                        help="runs per system (median)")
    args = parser.parse_args(argv)

    import fh_env
    from fh_env.envs.aec import raw_env

    systems = {
        "fh_env.env() (default rules, hand episodes)": fh_env.env,
        "fh_env.env(), before (full re-encoding)": before_env,
        "fh_env.raw_env()": raw_env,
        "fh_env.raw_env(), full re-encoding": full_encoding_raw_env,
        "connect_four_v3.env()": _connect_four(),
    }
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in systems}
    for i in range(args.repeats):  # interleaved, so that a change of load hits every system
        for name, make in systems.items():
            runs[name].append(random_play(make, args.seconds, seed=1000 * i))
    results = {name: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
               for name, rs in runs.items()}
    print(f"random play, one process, median of {args.repeats} runs of {args.seconds:g} CPU-s "
          f"(observe every step through last())")
    print(f"{'system':<46}{'agent steps/s':>15}{'episodes/s':>13}")
    for name, (steps, episodes) in results.items():
        print(f"{name:<46}{steps:>15,.0f}{episodes:>13,.0f}")
    ours = results["fh_env.env() (default rules, hand episodes)"]
    before = results["fh_env.env(), before (full re-encoding)"]
    raw, raw_before = results["fh_env.raw_env()"], results["fh_env.raw_env(), full re-encoding"]
    c4 = results["connect_four_v3.env()"]
    speedup = statistics.median(a[1] / b[1] for a, b in zip(
        runs["fh_env.env() (default rules, hand episodes)"],
        runs["fh_env.env(), before (full re-encoding)"]))
    print(f"env() / connect_four_v3 agent steps/s: {ours[0] / c4[0]:.2f} (target 2.0); "
          f"hands/s: {ours[1]:,.0f} (target 1,500)")
    print(f"env() hands/s / before: {speedup:.2f} (median of the runs' ratios; target about "
          f"2.5); raw_env(): {raw[1] / raw_before[1]:.2f}")
    print(f"encode(): {encode_cost():.1f} µs per call")
    return results


if __name__ == "__main__":
    main()
