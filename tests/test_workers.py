"""Rollout workers (train.workers) without Ray: the single-process path unchanged, the refusal
without Ray, the workers' rollouts and their seeds, joining, and an exact resume.

The same workers on a real Ray cluster (two workers, one killed in the middle, a learner killed
with SIGKILL and resumed) are tested in tests/recipes/test_workers_ray.py, in .venv-recipes,
which has Ray (`make test-recipes`).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.neural import read_checkpoint
from train import cli, run
from train.config import TrainConfig
from train.ppo import Rollout, Trainer, per_seat_gae
from train.workers import (LocalWorkers, RolloutWorker, join_rollouts, shares, weights_of,
                           worker_seed)

torch.set_num_threads(1)

SMOKE = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"


def tiny_config(**changes) -> TrainConfig:
    return dataclasses.replace(TrainConfig.from_toml(SMOKE), final_eval_opponents=[], **changes)


def weights(path: Path) -> dict[str, torch.Tensor]:
    return read_checkpoint(path)["policy"]["state_dict"]


def same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_one_worker_is_the_single_process_trainer_unchanged(tmp_path: Path) -> None:
    """workers = 1: no collector, and the run's weights are those of Trainer.train_update."""
    cfg = tiny_config(total_steps=200)
    seen = []
    run.train(cfg, tmp_path / "run", progress=False, final_eval=False,
              on_update=lambda t: seen.append(t.collector))
    assert seen and all(c is None for c in seen)
    trainer = Trainer(tiny_config(total_steps=200))
    while trainer.global_step < 200:
        trainer.train_update()
    assert same(weights(tmp_path / "run" / "checkpoint.pt"), trainer.model.policy.state_dict())


def test_workers_without_ray_is_one_line_and_exit_2(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    run = tmp_path / "run"
    assert cli.main(["--config", str(SMOKE), "--workers", "2", "--run-dir", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fh-train: error: config workers=2 needs Ray")
    assert "pip install 'fivehundred-rl[ray]'" in err
    assert not run.exists()
    assert cli.main(["--config", str(SMOKE), "--ray-address", "auto", "--run-dir", str(run)]) == 2
    assert "ray_address='auto' needs Ray" in capsys.readouterr().err


def test_worker_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="workers=0 is invalid"):
        tiny_config(workers=0)
    with pytest.raises(ValueError, match="at most num_envs=4"):
        tiny_config(workers=5)
    assert shares(7, 3) == [3, 2, 2] and shares(64, 2) == [32, 32]
    assert worker_seed(1, 0) != worker_seed(1, 1) != worker_seed(2, 1)
    assert worker_seed(1, 0, 3) != worker_seed(1, 0, 4)


def rollout_equal(a: Rollout, b: Rollout) -> bool:
    return all((x is None and y is None) or np.array_equal(x, y)
               for x, y in zip(dataclasses.astuple(a), dataclasses.astuple(b)))


def test_a_worker_collects_complete_hands_and_a_replacement_repeats_them() -> None:
    """Bots (the compiled rule seats, the bid teacher) and a centralised critic in the worker;
    a new worker with the same index and update collects exactly the same rollout."""
    cfg = tiny_config(num_envs=6, workers=2, league_rule=1.0, central_critic=True,
                      bid_teacher_share=0.5)
    learner = Trainer(dataclasses.replace(cfg, workers=1))
    league = {"snapshots": [], "updates": []}
    first = RolloutWorker(cfg.to_dict(), 1, 3)
    ro, info = first.collect(5, weights_of(learner), 0, [league])
    assert first.trainer.venv.num_envs == 3 and first.trainer.device.type == "cpu"
    assert len(ro) >= 3 * cfg.rollout_steps and ro.dones.sum() > 0
    assert ro.state_obs is not None and len(ro.state_obs) == len(ro)
    assert set(info["returns"]) <= {"self", "past", "rule"} and info["contracts"]
    # every chain of a seat's decisions ends in a done decision (complete hands only)
    for t in range(len(ro)):
        while not ro.dones[t]:
            t = ro.next_index[t]
            assert t > 0
    again, _ = RolloutWorker(cfg.to_dict(), 1, 3).collect(5, weights_of(learner), 0, [league])
    assert rollout_equal(ro, again)
    other, _ = RolloutWorker(cfg.to_dict(), 0, 3).collect(5, weights_of(learner), 0, [league])
    assert not np.array_equal(other.obs[:10], ro.obs[:10])  # other deals


def test_joined_rollouts_keep_each_seats_chain() -> None:
    cfg = tiny_config(num_envs=4, workers=2)
    learner = Trainer(dataclasses.replace(cfg, workers=1))
    pool = LocalWorkers(cfg)
    parts = [w.collect(0, weights_of(learner), 0, [{"snapshots": [], "updates": []}])[0]
             for w in pool.workers]
    joined = join_rollouts(parts)
    assert len(joined) == sum(map(len, parts))
    adv, ret = per_seat_gae(joined.rewards, joined.values, joined.dones, joined.next_index,
                            0.99, 0.9)
    pieces = [per_seat_gae(p.rewards, p.values, p.dones, p.next_index, 0.99, 0.9)
              for p in parts]
    np.testing.assert_allclose(adv, np.concatenate([a for a, _ in pieces]), rtol=1e-6)
    np.testing.assert_allclose(ret, np.concatenate([r for _, r in pieces]), rtol=1e-6)


def test_workers_run_resumes_exactly_after_a_kill(tmp_path: Path) -> None:
    """Workers keep no state between updates, so a killed learner resumed from its last
    checkpoint (workers restarted) ends exactly where an uninterrupted run ends."""
    cfg = tiny_config(total_steps=600, workers=2, league_rule=0.5)
    steps = []
    run.train(cfg, tmp_path / "whole", progress=False, final_eval=False,
              collector=LocalWorkers(cfg), on_update=lambda t: steps.append(t.global_step))
    assert len(steps) >= 4

    class Killed(Exception):
        pass

    def kill_after_update_2(trainer: Trainer) -> None:
        if trainer.update == 2:
            raise Killed  # after the checkpoint of update 2 (checkpoint_every = 1)

    with pytest.raises(Killed):
        run.train(cfg, tmp_path / "broken", progress=False, final_eval=False,
                  collector=LocalWorkers(cfg), on_update=kill_after_update_2)
    data = read_checkpoint(tmp_path / "broken" / "checkpoint.pt")
    assert data["train"]["update"] == 2 and data["config"]["workers"] == 2
    run.train(TrainConfig.from_dict(data["config"]), tmp_path / "broken", data, progress=False,
              final_eval=False, collector=LocalWorkers(cfg))
    assert same(weights(tmp_path / "broken" / "checkpoint.pt"),
                weights(tmp_path / "whole" / "checkpoint.pt"))


def test_learner_device_is_the_configured_one_and_workers_stay_on_cpu() -> None:
    """--device cpu explicitly: the learner's code path of --device cuda, tested on the CPU."""
    parsed = cli.make_config(cli.build_parser().parse_args(
        ["--config", str(SMOKE), "--device", "cpu"]))[0]
    assert parsed.device == "cpu"
    cfg = dataclasses.replace(parsed, workers=2, total_steps=100)
    learner = Trainer(dataclasses.replace(cfg, workers=1))
    pool = LocalWorkers(cfg)
    learner.collector = pool
    stats = learner.train_update()
    assert stats["steps"] > 0 and learner.update == 1
    assert all(p.device.type == "cpu" for w in pool.workers
               for p in w.trainer.model.parameters())


def test_bench_train_times_and_profiles_the_in_process_trainer(capsys) -> None:
    from bench import train as bench_train

    res = bench_train.run(updates=1, rounds=1, workers=[1])
    (row,) = res["rows"]
    assert row["setting"] == "in-process" and row["steps_per_second"] > 0 and row["ratio"] == 1
    assert set(res["profile"]) == {*bench_train.CATEGORIES, "other"}
    assert abs(sum(res["profile"].values()) - 1) < 1e-6 and res["profile"]["update"] > 0
    assert "where the in-process trainer's time goes" in bench_train.format_results(res)
