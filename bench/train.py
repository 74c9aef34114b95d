"""Training throughput: ``python -m bench.train [--updates N] [--rounds R] [--workers 1,2]
[--json PATH]``.

Learner agent steps per second (the learner's decisions trained on, per second of the learner's
wall clock, collection and PPO update together) for ``configs/train/quick.toml``'s PPO phase
(its imitation warm start is skipped: it is not PPO), with the games played

* in the learner's own process (``workers = 1``, the default, no Ray), and
* by N Ray rollout workers on this machine (``train.workers.RayWorkers``; needs the ``ray``
  extra; a Ray with N CPUs is started for the run),

each timed over ``--updates`` updates after one warm-up update, in ``--rounds`` interleaved
rounds (the ratio to the in-process rate is the median of the per-round ratios: the machine's
load moves the rates, the ratios much less).

Then where the in-process trainer's time goes, from an instrumented profile of ``--updates``
more updates (each call of the functions below timed, time charged to the innermost one):
``environment`` (``VectorEnv.step``/``reset``/``encode_state``: the compiled game core,
observations and masks), ``bots`` (the compiled rule bot, in ``VectorEnv.step`` for the
league's rule seats and as bid teacher), ``inference`` (the network's forward passes, masking
and sampling while collecting), ``bookkeeping`` (the rest of ``Trainer.collect``: the rollout
buffer, league draws, Python loops) and ``update`` (``Trainer.learn``: GAE and PPO epochs).
With workers, the learner's own split (waiting for rollouts vs. updating) is printed too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
QUICK = ROOT / "configs" / "train" / "quick.toml"
CATEGORIES = ("environment", "bots", "inference", "bookkeeping", "update")


def bench_config(**changes: Any):
    from train.config import TrainConfig

    return dataclasses.replace(TrainConfig.from_toml(QUICK), bc_hands=0, eval_every=0,
                               final_eval_opponents=[], **changes)


class Profile:
    """Exclusive time per category: each wrapped call charges the time to the innermost
    category running (everything inside ``update`` stays ``update``)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(CATEGORIES, 0.0)
        self.stack: list[str] = []
        self.mark = time.perf_counter()
        self.undo: list[Callable[[], None]] = []

    def _switch(self) -> None:
        now = time.perf_counter()
        if self.stack:
            self.seconds[self.stack[-1]] += now - self.mark
        self.mark = now

    def wrap(self, owner: Any, name: str, category: str) -> None:
        original = getattr(owner, name)
        profile = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            if "update" in profile.stack:
                return original(*args, **kwargs)
            profile._switch()
            profile.stack.append(category)
            try:
                return original(*args, **kwargs)
            finally:
                profile._switch()
                profile.stack.pop()

        setattr(owner, name, timed)
        self.undo.append(lambda: setattr(owner, name, original))

    def restore(self) -> None:
        for undo in reversed(self.undo):
            undo()

    def install(self) -> "Profile":
        import train.ppo as ppo
        from agents.neural import PolicyNet
        from agents.compiled.rule import RuleSeats
        from fh_env.envs.vector import VectorEnv
        from train.model import ActorCritic

        for name in ("step", "reset", "encode_state"):
            self.wrap(VectorEnv, name, "environment")
        for name in ("__call__", "act"):
            self.wrap(RuleSeats, name, "bots")
        for owner, name in ((ActorCritic, "forward"), (PolicyNet, "forward"), (ppo, "sample"),
                            (ppo, "masked_logits")):
            self.wrap(owner, name, "inference")
        self.wrap(ppo.Trainer, "collect", "bookkeeping")
        self.wrap(ppo.Trainer, "learn", "update")
        return self


def timed_updates(trainer: Any, updates: int) -> dict[str, float]:
    """Run ``updates`` updates; steps, seconds, and the learner's own collect/update split."""
    steps, wall, collect = 0, 0.0, 0.0
    learn = trainer.learn
    spent = {"update": 0.0}

    def timed_learn(rollout: Any) -> Any:
        start = time.perf_counter()
        try:
            return learn(rollout)
        finally:
            spent["update"] += time.perf_counter() - start

    trainer.learn = timed_learn
    try:
        for _ in range(updates):
            start = time.perf_counter()
            stats = trainer.train_update()
            wall += time.perf_counter() - start
            steps += stats["steps"]
    finally:
        del trainer.learn
    collect = wall - spent["update"]
    return {"steps": steps, "seconds": wall, "steps_per_second": steps / wall,
            "collect_seconds": collect, "update_seconds": spent["update"]}


def run(updates: int, rounds: int, workers: list[int], seed: int = 1) -> dict[str, Any]:
    import torch

    from train.ppo import Trainer

    torch.set_num_threads(1)
    settings: dict[str, Any] = {}
    pools: list[Any] = []
    notes: list[str] = []
    for n in workers:
        cfg = bench_config(seed=seed, workers=n)
        name = "in-process" if n == 1 else f"{n} Ray workers"
        if n == 1:
            trainer = Trainer(cfg)
        else:
            try:
                import ray

                from train.workers import RayWorkers
            except ImportError:
                notes.append(f"{name}: skipped (Ray is not installed: pip install '.[ray]')")
                continue
            if not ray.is_initialized():
                ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False)
            trainer = Trainer(dataclasses.replace(cfg, workers=1))
            trainer.collector = RayWorkers(cfg)
            pools.append(trainer.collector)
        timed_updates(trainer, 1)  # warm-up: compiled code, Ray's first transfers
        settings[name] = {"trainer": trainer, "rounds": []}
    try:
        for _ in range(rounds):
            for name, s in settings.items():
                s["rounds"].append(timed_updates(s["trainer"], updates))
        base = settings.get("in-process")
        rows = []
        for name, s in settings.items():
            rates = [r["steps_per_second"] for r in s["rounds"]]
            ratio = (statistics.median(r["steps_per_second"] / b["steps_per_second"]
                                       for r, b in zip(s["rounds"], base["rounds"]))
                     if base else float("nan"))
            total = sum(r["seconds"] for r in s["rounds"])
            rows.append({"setting": name, "steps_per_second": statistics.median(rates),
                         "ratio": ratio,
                         "steps_per_update": sum(r["steps"] for r in s["rounds"])
                         / (updates * rounds),
                         "learner_collect_share": sum(r["collect_seconds"] for r in s["rounds"])
                         / total,
                         "learner_update_share": sum(r["update_seconds"] for r in s["rounds"])
                         / total})
        profile_rows: dict[str, float] = {}
        if base:
            profile = Profile().install()
            try:
                start = time.perf_counter()
                timed_updates(base["trainer"], updates)
                total = time.perf_counter() - start
            finally:
                profile.restore()
            profile_rows = {k: v / total for k, v in profile.seconds.items()}
            profile_rows["other"] = max(0.0, 1 - sum(profile_rows.values()))
    finally:
        for pool in pools:
            pool.close()
        if pools:
            import ray

            ray.shutdown()
    return {"updates": updates, "rounds": rounds, "rows": rows, "profile": profile_rows,
            "notes": notes}


def format_results(res: dict[str, Any]) -> str:
    lines = [f"quick.toml PPO (no imitation), {res['updates']} updates x {res['rounds']} rounds "
             "per setting",
             f"{'games played':<18}{'steps/s':>10}{'x in-process':>14}{'steps/update':>14}"
             f"{'learner: collect/update':>26}"]
    for r in res["rows"]:
        lines.append(f"{r['setting']:<18}{r['steps_per_second']:>10.0f}{r['ratio']:>14.2f}"
                     f"{r['steps_per_update']:>14.0f}"
                     f"{r['learner_collect_share']:>19.0%} / {r['learner_update_share']:.0%}")
    lines += res["notes"]
    if res["profile"]:
        lines.append("where the in-process trainer's time goes: " + ", ".join(
            f"{k} {v:.1%}" for k, v in res["profile"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.train", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=int, default=4, help="timed updates per round")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds")
    parser.add_argument("--workers", default="1,2",
                        help="worker counts, comma-separated (1: in-process)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    if args.updates < 1 or args.rounds < 1 or not workers or min(workers) < 1:
        parser.error("--updates, --rounds and every worker count must be at least 1")
    res = run(args.updates, args.rounds, workers)
    print(format_results(res))
    if args.json:
        args.json.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
