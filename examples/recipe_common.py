"""What the recipes share: a trained policy as a Bot, the duplicate evaluation, the arguments.

Every recipe trains with its library, wraps the result as a :class:`PolicyBot` (a function of
one seat's observation and action mask) and measures it with our duplicate evaluation
(:func:`arena.duplicate.duplicate`) against ``random`` and ``rule``.  The engine refuses an
illegal action, and :class:`PolicyBot` checks the mask first, so an evaluation that finishes
is one in which the policy never chose an illegal action.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from arena.duplicate import duplicate
from fh_env import observe
from fh_env.rules import resolve_rules
from fh_env.rules import Rules
from fh_env.view import SeatView

#: policy(observation float32[OBS_SIZE], action_mask int8[130]) -> action id
PolicyFn = Callable[[np.ndarray, np.ndarray], int]


class IllegalPolicyAction(RuntimeError):
    """The trained policy chose an action that its mask forbids."""


class PolicyBot:
    """A Bot (``act(view, rng)``) playing ``policy`` on the seat's observation and mask."""

    def __init__(self, policy: PolicyFn, name: str) -> None:
        self.policy = policy
        self.name = name
        self.actions = 0
        self._obs = np.zeros(observe.OBS_SIZE, dtype=np.float32)

    def act(self, view: SeatView, rng: random.Random) -> int:
        observe.encode(view, out=self._obs)
        mask = observe.action_mask(view)
        action = int(self.policy(self._obs, mask))
        if not (0 <= action < mask.size and mask[action]):
            raise IllegalPolicyAction(f"{self.name} chose illegal action {action} "
                                      f"(legal: {np.flatnonzero(mask).tolist()})")
        self.actions += 1
        return action


def parser(description: str, **defaults: Any) -> argparse.ArgumentParser:
    """The arguments every recipe takes (a recipe adds its own)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--rules", default="australian-no-nullo",
                   help="preset name or rules TOML file (default australian-no-nullo)")
    p.add_argument("--timesteps", type=int, default=defaults.get("timesteps", 200_000),
                   help="environment steps to train for")
    p.add_argument("--minutes", type=float, default=defaults.get("minutes", 0.0),
                   help="stop training after this many minutes as well (0: no limit)")
    p.add_argument("--opponents", default=defaults.get("opponents", "rule"),
                   help="bot of the other team while training (random, rule, mc, neural:PATH)")
    p.add_argument("--eval-deals", type=int, default=200,
                   help="duplicate deals against each of random and rule (default 200)")
    p.add_argument("--eval-against", default="random,rule",
                   help="comma-separated bots to evaluate against (default random,rule)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads (default 1: faster on a busy 2-core machine)")
    p.add_argument("--out", default=None, help="write the results as JSON to this file")
    return p


def setup(args: argparse.Namespace) -> Rules:
    """Thread limits and seeds shared by the recipes; the rules of the run."""
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    return resolve_rules(args.rules)


def evaluate(bot: PolicyBot, rules: Rules, args: argparse.Namespace,
             train_seconds: float, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Duplicate evaluation of ``bot`` against each bot of ``--eval-against``; prints and saves.

    Returns ``{"recipe", "train_seconds", "timesteps", "evaluations": [...], ...}``.
    """
    results = []
    for other in [s.strip() for s in args.eval_against.split(",") if s.strip()]:
        result = duplicate(bot, other, rules, deals=args.eval_deals, seed=args.seed + 1000)
        print(result.format(), flush=True)
        results.append({"against": other, "deals": result.deals, "mean": result.mean,
                        "ci_low": result.ci_low, "ci_high": result.ci_high,
                        "seconds": result.seconds})
    out = {"recipe": Path(sys.argv[0]).stem, "policy": bot.name, "rules": args.rules,
           "train_seconds": round(train_seconds, 1), "timesteps": args.timesteps,
           "policy_actions": bot.actions, "illegal_actions": 0, "evaluations": results,
           **(extra or {})}
    print("RESULT " + json.dumps(out), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    return out


class Deadline:
    """``--minutes`` as a clock: ``expired()`` once the training time is spent."""

    def __init__(self, minutes: float) -> None:
        self.start = time.perf_counter()
        self.limit = minutes * 60 if minutes > 0 else float("inf")

    def expired(self) -> bool:
        return self.elapsed() >= self.limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.start
