"""Smoke tests of the recipes in examples/: each trains for a few seconds with its library, to
the end, and its policy then plays duplicate evaluation hands against random and rule.

They need the optional libraries (``pip install -e '.[sb3,tianshou,torchrl,rllib]'``), so the
core ``make test`` leaves this folder out and ``make test-recipes`` runs it in .venv-recipes.
Every recipe runs as a subprocess, as a user would start it, with one torch thread.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from fh_env import observe
from fh_env.engine import State
from fh_env.rules import Rules
from fh_env.view import seat_view

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))

import recipe_common as rc  # noqa: E402
from ray_helpers import stop_group  # noqa: E402

#: Ray on this machine only: node address 127.0.0.1 (this switch only keeps Ray from adding
#: nodes), token authentication with a token of this test run.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token",
           "RAY_DISABLE_USAGE_STATS": "1"}
TINY = ["--eval-deals", "3", "--seed", "5"]


def run_recipe(script: str, *args: str, timeout: float = 150, env: dict | None = None) -> dict:
    """Run ``examples/<script>`` to the end; its RESULT record."""
    full_env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                "PYTHONUNBUFFERED": "1", **(env or {})}
    try:
        proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args, *TINY],
                              cwd=ROOT, env=full_env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as err:
        raise AssertionError(f"{script} ran past {timeout} s:\n"
                             f"{(err.stdout or b'')[-4000:]!r}\n{(err.stderr or b'')[-4000:]!r}")
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{script} failed:\n{output[-6000:]}"
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"{script} printed no RESULT:\n{output[-3000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def check_result(result: dict, steps: int) -> None:
    """Trained to the end, then played every evaluation hand with legal actions only."""
    assert result["env_steps"] >= steps
    assert result["illegal_actions"] == 0
    assert result["policy_actions"] > 0  # it did play (each action checked against the mask)
    assert [e["against"] for e in result["evaluations"]] == ["random", "rule"]
    for evaluation in result["evaluations"]:
        assert evaluation["deals"] == 3
        assert evaluation["ci_low"] <= evaluation["mean"] <= evaluation["ci_high"]


def test_sb3_maskable_ppo_in_subprocess_envs():
    check_result(run_recipe("sb3_maskable_ppo.py", "--timesteps", "256", "--envs", "2",
                            "--subproc", "--n-steps", "64"), 256)


def test_tianshou_masked_ppo_self_play():
    result = run_recipe("tianshou_ppo.py", "--timesteps", "256", "--envs", "2",
                        "--steps-per-collect", "128", "--epoch-steps", "128",
                        "--opponents", "self")
    check_result(result, 256)


def test_torchrl_ppo_and_its_pettingzoo_wrapper():
    result = run_recipe("torchrl_ppo.py", "--timesteps", "256", "--envs", "2",
                        "--frames-per-batch", "128", "--pettingzoo-hands", "3")
    check_result(result, 256)
    assert result["pettingzoo_hands"] == 3 and result["pettingzoo_steps"] >= 3 * 40


def test_rllib_shared_policy_on_a_local_ray(tmp_path):
    token = tmp_path / "ray-token"
    token.write_text(secrets.token_hex(32))
    result = run_recipe("rllib_ppo.py", "--timesteps", "200", "--train-batch", "100",
                        env={**RAY_ENV, "RAY_AUTH_TOKEN_PATH": str(token)})
    check_result(result, 200)
    assert result["env_runners"] == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_rllib_on_a_ray_cluster_with_two_env_runners(tmp_path):
    """``ray start --head`` on 127.0.0.1, the recipe joins it with --address and 2 runners."""
    token = tmp_path / "ray-token"
    token.write_text(secrets.token_hex(32))
    env = {**os.environ, **RAY_ENV, "RAY_AUTH_TOKEN_PATH": str(token)}
    port = free_port()
    ray = Path(sys.executable).with_name("ray")
    head_log = tmp_path / "ray-start.log"
    ray_dir = tempfile.mkdtemp(prefix="fhray", dir="/tmp")  # Ray's socket paths must be short
    with open(head_log, "w") as out:
        head = subprocess.Popen(
            [str(ray), "start", "--head", "--block", f"--port={port}",
             f"--ray-client-server-port={free_port()}", "--num-cpus=2",
             "--include-dashboard=false", "--disable-usage-stats",
             f"--temp-dir={ray_dir}"],
            env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)  # its own process group: stopped below, and only it
    try:
        deadline = time.monotonic() + 90
        while "--block" not in head_log.read_text() and head.poll() is None \
                and time.monotonic() < deadline:  # wait for the head to be up
            time.sleep(0.5)
        log = head_log.read_text()
        assert head.poll() is None and "--block" in log, "ray start failed:\n" + log
        assert "Local node IP: 127.0.0.1" in log
        result = run_recipe("rllib_ppo.py", "--address", f"127.0.0.1:{port}",
                            "--env-runners", "2", "--timesteps", "200", "--train-batch", "100",
                            env={**RAY_ENV, "RAY_AUTH_TOKEN_PATH": str(token)})
    finally:
        stop_group(head)
        shutil.rmtree(ray_dir, ignore_errors=True)
    check_result(result, 200)
    assert result["env_runners"] == 2 and result["cluster_cpus"] == 2


# ---------------------------------------------------------------------- the shared helpers
def test_policy_bot_plays_the_policy_and_refuses_an_illegal_action():
    state = State(Rules(), seed=3)
    view = seat_view(state, state.turn)
    seen = {}

    def first_legal(obs, mask):
        seen["obs"], seen["mask"] = obs.copy(), mask.copy()
        return int(np.flatnonzero(mask)[0])

    bot = rc.PolicyBot(first_legal, "first")
    assert bot.act(view, random.Random(0)) == view.legal_actions()[0]
    np.testing.assert_array_equal(seen["obs"], observe.encode(view))
    np.testing.assert_array_equal(seen["mask"], observe.action_mask(view))
    illegal = int(np.flatnonzero(observe.action_mask(view) == 0)[0])
    with pytest.raises(rc.IllegalPolicyAction, match="illegal action"):
        rc.PolicyBot(lambda obs, mask: illegal, "bad").act(view, random.Random(0))
