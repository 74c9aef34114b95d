"""Checkpoints: exact resume, atomic writes, and clear refusals that change nothing."""

from __future__ import annotations

import dataclasses
import copy
from pathlib import Path

import pytest
import torch

from agents.neural import CheckpointError, read_checkpoint
from fh_env import observe
from train import cli, run
from train.checkpoint import load_checkpoint, save_atomic, state_of
from train.config import TrainConfig
from train.ppo import Trainer

torch.set_num_threads(1)
SMOKE = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"


def tiny_config(**changes) -> TrainConfig:
    """configs/train/smoke.toml (self-play and snapshots only, no bots) with some changes."""
    return dataclasses.replace(TrainConfig.from_toml(SMOKE), **changes)


def _flat(data) -> list:
    """Every leaf of a nested checkpoint structure, tensors as lists, in a stable order."""
    if isinstance(data, dict):
        return [(k, _flat(data[k])) for k in sorted(data, key=str)]
    if isinstance(data, (list, tuple)):
        return [_flat(v) for v in data]
    if isinstance(data, torch.Tensor):
        return [str(data.dtype), list(data.shape), data.tolist()]
    return data


def _params(trainer: Trainer) -> list[torch.Tensor]:
    return [p.detach().clone() for p in trainer.model.parameters()]


class Killed(Exception):
    pass


def test_smoke_run_writes_logs_and_resumes_exactly(tmp_path: Path, monkeypatch) -> None:
    """N+M updates in one go == N updates, a kill during update N+1, then a resume."""
    cfg = tiny_config(league_size=2, snapshot_every=2)
    whole = tmp_path / "whole"
    run.train(copy.deepcopy(cfg), whole, progress=False, final_eval=False)
    assert list(whole.glob("events.out.tfevents.*"))
    assert (whole / "config.toml").exists() and (whole / "rules.toml").exists()
    assert (whole / "agent.pt").exists()
    final = read_checkpoint(whole / "checkpoint.pt")
    updates = final["train"]["update"]
    assert updates >= 4 and final["train"]["global_step"] >= cfg.total_steps

    # The same run, killed in the middle of update 3 (after checkpoint 2 was written).
    broken = tmp_path / "broken"
    real_update = Trainer.train_update
    calls = {"n": 0}

    def dying_update(self):
        calls["n"] += 1
        if calls["n"] == 3:
            self.collect()  # half an update's work is lost with the process
            raise Killed
        return real_update(self)

    monkeypatch.setattr(Trainer, "train_update", dying_update)
    with pytest.raises(Killed):
        run.train(copy.deepcopy(cfg), broken, progress=False, final_eval=False)
    monkeypatch.setattr(Trainer, "train_update", real_update)
    assert read_checkpoint(broken / "checkpoint.pt")["train"]["update"] == 2

    exit_code = cli.main(["--resume", str(broken), "--no-progress", "--set",
                          "final_eval_opponents=[]"])
    assert exit_code == 0
    resumed = read_checkpoint(broken / "checkpoint.pt")
    assert resumed["train"]["update"] == updates
    assert resumed["config"] == dict(final["config"], final_eval_opponents=[])  # the --set
    resumed["config"] = final["config"]
    assert _flat(resumed) == _flat(final)  # parameters, optimiser, league, generators: all


def test_trainer_state_round_trip(tmp_path: Path) -> None:
    a = Trainer(tiny_config())
    for _ in range(2):
        a.train_update()
    save_atomic(state_of(a), tmp_path / "c.pt")
    b = Trainer(tiny_config())  # fresh: update 0
    load_checkpoint(b, tmp_path / "c.pt")
    a.train_update()
    b.train_update()
    assert all(torch.equal(x, y) for x, y in zip(_params(a), _params(b)))
    assert _flat(state_of(a)) == _flat(state_of(b))


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    trainer = Trainer(tiny_config())
    path = save_atomic(state_of(trainer), tmp_path / "checkpoint.pt")
    save_atomic(state_of(trainer), path)
    assert [p.name for p in tmp_path.iterdir()] == ["checkpoint.pt"]
    torch.load(path, weights_only=True)  # plain data only


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Trainer, Path]:
    trainer = Trainer(tiny_config())
    trainer.train_update()
    path = save_atomic(state_of(trainer), tmp_path / "checkpoint.pt")
    return trainer, path


def _assert_refused(trainer: Trainer, path: Path, match: str) -> None:
    before = _params(trainer)
    state = _flat(state_of(trainer))
    with pytest.raises(CheckpointError, match=match):
        load_checkpoint(trainer, path)
    assert all(torch.equal(x, y) for x, y in zip(before, _params(trainer)))
    assert _flat(state_of(trainer)) == state


def test_corrupt_file_is_refused_and_changes_nothing(saved, tmp_path: Path) -> None:
    _, path = saved
    other = Trainer(tiny_config(seed=5))
    data = path.read_bytes()
    (tmp_path / "cut.pt").write_bytes(data[: len(data) // 2])
    _assert_refused(other, tmp_path / "cut.pt", "corrupt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint at all")
    _assert_refused(other, tmp_path / "junk.pt", "corrupt")
    torch.save({"format": "something else"}, tmp_path / "alien.pt")
    _assert_refused(other, tmp_path / "alien.pt", "not a Five Hundred checkpoint: format")
    _assert_refused(other, tmp_path / "missing.pt", "does not exist")


def test_other_rules_are_refused(saved) -> None:
    _, path = saved
    _assert_refused(Trainer(tiny_config(rules="australian")), path, "other rules: nullo=")


def test_other_observation_version_is_refused(saved, monkeypatch) -> None:
    trainer, path = saved
    monkeypatch.setattr(observe, "OBS_VERSION", observe.OBS_VERSION + 1)
    _assert_refused(trainer, path, "observation version")


def test_other_architecture_is_refused(saved) -> None:
    _, path = saved
    _assert_refused(Trainer(tiny_config(hidden_sizes=[8])), path, "hidden_sizes")
    _assert_refused(Trainer(tiny_config(central_critic=True)), path, "central_critic")


def test_cli_resume_refuses_corrupt_checkpoint_and_writes_nothing(tmp_path: Path, capsys) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.pt").write_bytes(b"\x00garbage")
    assert cli.main(["--resume", str(run), "--no-progress"]) == 2
    assert "corrupt" in capsys.readouterr().err
    assert [p.name for p in run.iterdir()] == ["checkpoint.pt"]
