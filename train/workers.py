"""Rollout workers: games played in several processes (on Ray), one learner.

``fh-train --workers N`` (``TrainConfig.workers``) starts N rollout workers; ``--ray-address``
(``ray_address``) puts them on an existing Ray cluster instead of a Ray started on this machine.
Each worker (:class:`RolloutWorker`) holds what the single-process trainer collects with: a
:class:`~fh_env.envs.vector.VectorEnv` of its share of ``num_envs`` games, the league's bots
(the ``rule`` seats compiled, played inside ``VectorEnv.step``) and a CPU copy of the policy
(and of the centralised critic, whose values the rollout stores).  Its rollouts are made by the
very same :meth:`train.ppo.Trainer.collect`, so they hold the same arrays, complete hands only.

**Staleness: none (synchronous).**  Each update the learner sends every worker the weights of
its last update (and the league's snapshots when they changed), every worker collects one
rollout with exactly those weights, the learner waits for all of them, joins them into one
rollout (:func:`join_rollouts`) and runs the PPO update on it, then starts the next round.
A worker's policy is therefore never older than the one PPO's ratio is taken against: the
training stays on-policy, no importance correction is needed, and workers wait while the
learner updates.

**Seeds.**  Worker ``k`` plays deals from its own seed ``worker_seed(seed, k)`` (game ``j`` of
its row ``i`` in update ``u``: ``game_seed(worker_seed(seed, k), 1 << 20, u)``, as the
single-process trainer does with ``seed``), and its generators (league draws, bots, action
sampling) are reseeded from ``worker_seed(seed, k, u)`` at the start of every update.  So a
worker keeps no state from one update to the next: a run is determined by its config (worker
count included), a worker that dies is replaced and repeats the same rollout, and a resumed
run (``fh-train --resume``, which restarts the workers) continues exactly like an
uninterrupted one.  (With ``workers = 1`` and no ``ray_address`` nothing of this runs: the
trainer collects in its own process as it always has.)

**Faults.**  A worker that dies (its process killed, its machine gone) is replaced by a new
Ray actor, which collects the dead one's rollout of the current update again; a worker is
replaced at most :data:`MAX_REPLACEMENTS` times in one update, and one more death stops the run
with :class:`WorkerError`.
An error inside a worker's own code (a bug, not a fault) stops the run at once.
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from .config import TrainConfig

if TYPE_CHECKING:
    from .ppo import Rollout, Trainer

#: Replacements of one worker within one update; one more death stops the run.
MAX_REPLACEMENTS = 3


class WorkerError(RuntimeError):
    """The workers cannot go on (Ray unreachable, a worker dying again and again)."""


def worker_seed(seed: int, worker: int, update: int = -1) -> int:
    """The seed of worker ``worker`` (with ``update``: of its generators in that update)."""
    key = (int(worker),) if update < 0 else (int(worker), int(update))
    words = np.random.SeedSequence(int(seed), spawn_key=(7_919, *key)).generate_state(2, np.uint32)
    return int(words[0]) | int(words[1]) << 32


def shares(num_envs: int, workers: int) -> list[int]:
    """Games per worker: ``num_envs`` split as evenly as possible (the first get one more)."""
    return [num_envs // workers + (k < num_envs % workers) for k in range(workers)]


def join_rollouts(parts: list["Rollout"]) -> "Rollout":
    """One rollout of the parts in order (``next_index`` shifted to the joined positions)."""
    from .ppo import Rollout

    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0] + [len(p) for p in parts[:-1]])
    nxt = [np.where(p.next_index >= 0, p.next_index + off, -1) for p, off in zip(parts, offsets)]

    def cat(name: str) -> np.ndarray | None:
        arrays = [getattr(p, name) for p in parts]
        return None if arrays[0] is None else np.concatenate(arrays)

    return Rollout(obs=cat("obs"), state_obs=cat("state_obs"), mask=cat("mask"),
                   actions=cat("actions"), logprobs=cat("logprobs"), values=cat("values"),
                   rewards=cat("rewards"), dones=cat("dones"),
                   next_index=np.concatenate(nxt).astype(np.int64), teacher=cat("teacher"))


def weights_of(trainer: "Trainer") -> dict[str, Any]:
    """The learner's network as CPU tensors: what the workers act with."""
    critic = trainer.model.critic
    return {"policy": _cpu(trainer.model.policy.state_dict()),
            "critic": None if critic is None else _cpu(critic.state_dict())}


def league_of(trainer: "Trainer") -> dict[str, Any]:
    state = trainer.league.state_dict()
    return {"snapshots": [_cpu(s) for s in state["snapshots"]], "updates": state["updates"]}


def _cpu(state_dict: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu().clone() for k, v in state_dict.items()}


# ---------------------------------------------------------------------- one worker
class RolloutWorker:
    """Collects rollouts for the learner (plain Python; :class:`RayWorkers` runs it as an actor).

    ``config``: the run's ``TrainConfig.to_dict()``; ``index``: this worker's number (its seeds);
    ``num_envs``: its games.
    """

    def __init__(self, config: dict[str, Any], index: int, num_envs: int) -> None:
        from .ppo import Trainer

        cfg = TrainConfig.from_dict(config)
        cfg = dataclasses.replace(cfg, device="cpu", workers=1, ray_address="", bc_hands=0,
                                  num_envs=num_envs, seed=worker_seed(cfg.seed, index))
        self.index = index
        self.trainer = Trainer(cfg)
        self.league_version = -1

    def pid(self) -> int:
        return os.getpid()

    def collect(self, update: int, weights: dict[str, Any], league_version: int,
                league: list[Any]) -> tuple["Rollout", dict[str, Any]]:
        """One rollout with ``weights`` in update ``update``; ``league``: ``[state]`` (or its
        reference, fetched only when ``league_version`` differs from the one held)."""
        start = time.perf_counter()
        t = self.trainer
        t.model.policy.load_state_dict(weights["policy"])
        if t.model.critic is not None:
            t.model.critic.load_state_dict(weights["critic"])
        if league_version != self.league_version:
            t.league.load_state_dict(self._fetch(league[0]), t.model.policy)
            self.league_version = league_version
        seed = worker_seed(t.cfg.seed, 0, update)  # t.cfg.seed is already this worker's own
        t.py_rng.seed(seed)
        t.np_rng = np.random.default_rng(seed)
        t.torch_rng.manual_seed(seed)
        t.update = update
        rollout, info = t.collect()
        info["contracts"], t.contract_log = t.contract_log, []
        info["seconds"] = time.perf_counter() - start
        return rollout, info

    def _fetch(self, item: Any) -> Any:
        return item


def merge(trainer: "Trainer", results: list[tuple["Rollout", dict[str, Any]]]
          ) -> tuple["Rollout", dict[str, Any]]:
    """The workers' rollouts as one (in worker order); their training-hand logs go to the
    learner's ``contract_log``."""
    returns: dict[str, list[float]] = {}
    for _, info in results:
        for kind, values in info["returns"].items():
            returns.setdefault(kind, []).extend(values)
        trainer.contract_log.extend(tuple(c) for c in info["contracts"])
    seconds = [info["seconds"] for _, info in results]
    return join_rollouts([r for r, _ in results]), {"returns": returns,
                                                     "worker_seconds": seconds}


class _Workers:
    """What both pools share: the league broadcast only when its snapshots changed."""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        self.shares = shares(cfg.num_envs, cfg.workers)
        self._league_key: list[int] | None = None
        self.league_version = -1
        self.replacements = 0  # workers replaced so far

    def _league_changed(self, trainer: "Trainer") -> bool:
        key = list(trainer.league.snapshot_updates)
        if key == self._league_key:
            return False
        self._league_key, self.league_version = key, self.league_version + 1
        return True

    def close(self) -> None:
        pass

    def __enter__(self) -> "_Workers":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class LocalWorkers(_Workers):
    """The workers as objects of this process, one after the other: the same rollouts as
    :class:`RayWorkers` (the tests compare the two), without Ray and without any speed-up."""

    def __init__(self, cfg: TrainConfig) -> None:
        super().__init__(cfg)
        self.workers = [RolloutWorker(cfg.to_dict(), k, n) for k, n in enumerate(self.shares)]
        self._league: dict[str, Any] | None = None

    def __call__(self, trainer: "Trainer") -> tuple["Rollout", dict[str, Any]]:
        if self._league_changed(trainer):
            self._league = league_of(trainer)
        weights = weights_of(trainer)
        return merge(trainer, [w.collect(trainer.update, weights, self.league_version,
                                         [self._league]) for w in self.workers])


class RayWorkers(_Workers):
    """``cfg.workers`` Ray actors (one CPU each) running :class:`RolloutWorker`.

    Joins the cluster at ``cfg.ray_address``, or starts Ray on this machine (``num_cpus`` =
    the workers) when it is empty and Ray is not running in this process yet; :meth:`close`
    stops the actors, and the Ray it started.
    """

    def __init__(self, cfg: TrainConfig) -> None:
        super().__init__(cfg)
        cfg.check_ray()
        import ray

        self.ray = ray
        self.started_ray = False
        if not ray.is_initialized():
            try:
                if cfg.ray_address:
                    ray.init(address=cfg.ray_address, log_to_driver=True)
                else:
                    ray.init(num_cpus=cfg.workers, include_dashboard=False)
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise WorkerError(f"cannot start or join Ray (ray_address="
                                  f"{cfg.ray_address!r}): {' '.join(str(err).split())}") from None
            self.started_ray = True
        self.remote = ray.remote(num_cpus=1, max_restarts=0)(_RayRolloutWorker)
        self.config = cfg.to_dict()
        self.actors = [self._spawn(k) for k in range(cfg.workers)]
        self._league_ref: Any = None
        # Wait until every worker is up, so a failing start is reported at once.
        ray.get([a.pid.remote() for a in self.actors])

    def _spawn(self, k: int) -> Any:
        return self.remote.remote(self.config, k, self.shares[k])

    def __call__(self, trainer: "Trainer") -> tuple["Rollout", dict[str, Any]]:
        ray = self.ray
        if self._league_changed(trainer):
            self._league_ref = ray.put(league_of(trainer))
        weights = ray.put(weights_of(trainer))
        update = trainer.update

        def submit(k: int) -> Any:
            return self.actors[k].collect.remote(update, weights, self.league_version,
                                                 [self._league_ref])

        pending = [submit(k) for k in range(len(self.actors))]
        results = []
        for k, ref in enumerate(pending):
            for attempt in range(MAX_REPLACEMENTS + 1):
                try:
                    results.append(ray.get(ref))
                    break
                except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError):
                    if attempt == MAX_REPLACEMENTS:
                        raise WorkerError(f"rollout worker {k} died {attempt + 1} times in "
                                          f"update {update}; stopping") from None
                    self.replacements += 1
                    self._kill(self.actors[k])
                    self.actors[k] = self._spawn(k)
                    ref = submit(k)
        return merge(trainer, results)

    def _kill(self, actor: Any) -> None:
        try:
            self.ray.kill(actor)
        except Exception:  # already gone
            pass

    def close(self) -> None:
        for actor in self.actors:
            self._kill(actor)
        self.actors = []
        if self.started_ray:
            self.ray.shutdown()
            self.started_ray = False


class _RayRolloutWorker(RolloutWorker):
    """A worker whose league state comes as a Ray object reference."""

    def _fetch(self, item: Any) -> Any:
        import ray

        return ray.get(item)


def make_workers(cfg: TrainConfig) -> _Workers | None:
    """The Ray workers a config asks for (None: collect in the learner's process)."""
    return RayWorkers(cfg) if cfg.uses_ray else None
