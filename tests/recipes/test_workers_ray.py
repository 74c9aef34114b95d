"""Rollout workers on a real Ray cluster (train.workers): ``ray start --head`` on 127.0.0.1
(once for the module); a worker killed in the middle of a run (ray.kill); ``fh-train
--ray-address ... --workers 2`` killed with SIGKILL and resumed to the end.

Every run is compared with the same run collected in-process (``LocalWorkers``, no Ray): the
workers keep no state between updates, so the weights are equal to the last bit.

Here and not in tests/: these need Ray, which .venv-recipes has (``ray[rllib]==2.60.0``, the
same Ray as the ``ray`` extra), while the core ``.venv`` stays without it (see
docs/training.md, "Training on several machines").
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import torch

ray = pytest.importorskip("ray")

from agents.neural import read_checkpoint  # noqa: E402
from agents.registry import make_bot  # noqa: E402
from train import run  # noqa: E402
from train.config import TrainConfig  # noqa: E402
from train.workers import LocalWorkers  # noqa: E402
from ray_helpers import stop_group  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "train" / "smoke.toml"
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token",
           "RAY_DISABLE_USAGE_STATS": "1"}
#: The smoke config, shortened; the rule bot in half the games (its compiled seats in the
#: workers' VectorEnv), snapshots every update (the league sent to the workers).
TINY = ["--config", str(SMOKE), "--no-progress", "--final-eval-deals", "2",
        "--set", "league_rule=0.5"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A Ray head on 127.0.0.1 with 3 CPUs and a token of its own: (address, environment)."""
    tmp = tmp_path_factory.mktemp("ray")
    token = tmp / "ray-token"
    token.write_text(secrets.token_hex(32))
    env = {**RAY_ENV, "RAY_AUTH_TOKEN_PATH": str(token), "OMP_NUM_THREADS": "1"}
    port = free_port()
    ray_dir = tempfile.mkdtemp(prefix="fhray", dir="/tmp")  # Ray's socket paths must be short
    log = tmp / "ray-start.log"
    with open(log, "w") as out:
        head = subprocess.Popen(
            [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block",
             f"--port={port}", f"--ray-client-server-port={free_port()}", "--num-cpus=3",
             "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={ray_dir}"],
            env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while "--block" not in log.read_text() and head.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.3)
        assert head.poll() is None and "--block" in log.read_text(), log.read_text()
        yield f"127.0.0.1:{port}", env
    finally:
        stop_group(head)
        shutil.rmtree(ray_dir, ignore_errors=True)


def fh_train(env: dict, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "train.cli", *args], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=timeout)


def local_run(tmp: Path, **changes) -> dict[str, torch.Tensor]:
    """The same run with its workers in this process: the weights it ends with."""
    cfg = dataclasses.replace(TrainConfig.from_toml(SMOKE), league_rule=0.5,
                              final_eval_opponents=[], **changes)
    run.train(cfg, tmp, progress=False, final_eval=False, collector=LocalWorkers(cfg))
    return read_checkpoint(tmp / "checkpoint.pt")["policy"]["state_dict"]


def assert_same(path: Path, expected: dict[str, torch.Tensor]) -> None:
    got = read_checkpoint(path)["policy"]["state_dict"]
    assert got.keys() == expected.keys()
    assert all(torch.equal(got[k], expected[k]) for k in got)


#: A learner whose hook kills rollout worker 0 (ray.kill on its actor) after update 2.
KILL_A_WORKER = """
import dataclasses, json, sys
from pathlib import Path
import ray
from train import run as training
from train.config import TrainConfig
smoke, address, run = sys.argv[1:]
cfg = dataclasses.replace(TrainConfig.from_toml(smoke), league_rule=0.5, workers=2,
                          ray_address=address, total_steps=400, final_eval_opponents=[])
seen = {}
def kill_worker_0(trainer):
    pool = trainer.collector
    if trainer.update == 2:
        seen["pid"] = ray.get(pool.actors[0].pid.remote())
        ray.kill(pool.actors[0], no_restart=True)
    elif trainer.update == 3:
        seen["new_pid"] = ray.get(pool.actors[0].pid.remote())
    seen["replacements"] = pool.replacements
training.train(cfg, Path(run), progress=False, final_eval=False, on_update=kill_worker_0)
seen["ray_still_up"] = ray.is_initialized()
print("RESULT " + json.dumps(seen))
"""


def test_a_killed_worker_is_replaced_and_the_run_goes_on(cluster, tmp_path):
    address, env = cluster
    run = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-c", KILL_A_WORKER, str(SMOKE), address, str(run)],
                          cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    seen = json.loads(proc.stdout.split("RESULT ")[-1])
    assert seen["replacements"] == 1 and seen["new_pid"] != seen["pid"]
    assert not seen["ray_still_up"]  # the pool disconnected from the cluster it joined
    assert read_checkpoint(run / "checkpoint.pt")["train"]["global_step"] >= 400
    assert_same(run / "checkpoint.pt", local_run(tmp_path / "local", workers=2, total_steps=400))


def test_two_workers_train_to_a_loadable_agent_through_a_learner_sigkill(cluster, tmp_path):
    """fh-train --ray-address --workers 2, killed with SIGKILL after its checkpoint of update 2,
    then fh-train --resume (which rejoins the cluster with new workers) to the end."""
    address, env = cluster
    run = tmp_path / "run"
    steps = 800
    learner = subprocess.Popen(
        [sys.executable, "-m", "train.cli", *TINY, "--ray-address", address, "--workers", "2",
         "--run-dir", str(run), "--set", f"total_steps={steps}"],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while learner.poll() is None and time.monotonic() < deadline:
            if (run / "checkpoint.pt").exists() and \
                    read_checkpoint(run / "checkpoint.pt")["train"]["update"] >= 2:
                os.kill(learner.pid, signal.SIGKILL)
                break
            time.sleep(0.05)
        learner.wait(timeout=30)
        assert learner.returncode == -signal.SIGKILL, learner.stdout.read()[-3000:]
    finally:
        stop_group(learner)
    killed_at = read_checkpoint(run / "checkpoint.pt")
    assert killed_at["config"]["workers"] == 2 and killed_at["config"]["ray_address"] == address
    assert killed_at["train"]["update"] >= 2 and killed_at["train"]["global_step"] < steps
    proc = fh_train(env, "--resume", str(run), "--no-progress")  # rejoins ray_address
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "95% CI" in proc.stdout  # the final evaluation table
    assert read_checkpoint(run / "checkpoint.pt")["train"]["global_step"] >= steps
    assert make_bot(f"neural:{run / 'agent.pt'}") is not None  # a loadable agent
    # the same weights as the run without the kill, its workers in this process
    assert_same(run / "checkpoint.pt", local_run(tmp_path / "local", workers=2, total_steps=steps))
