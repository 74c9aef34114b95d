"""Bad input: every command refuses it with a one-line reason and exit status 2, never a
traceback, and writes nothing; and the fixes behind that (issue "First contact", points 8-13).

The commands run in subprocesses (the console scripts in the virtualenv, or ``python -m``) from
a scratch directory, with tiny deal counts.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SHIPPED = ROOT / "agents" / "checkpoints" / "ppo-selfplay.pt"
SMOKE = ROOT / "configs" / "train" / "smoke.toml"


def _command(name: str) -> list[str]:
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"fh-eval": "arena.cli", "fh-train": "train.cli"}[name]
    return [sys.executable, "-m", module]


# ---------------------------------------------------------------------------- files
@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """Bad files of every kind, and run directories holding them as checkpoint.pt."""
    import torch

    d = tmp_path_factory.mktemp("bad")
    out: dict[str, Path] = {}
    out["truncated"] = d / "truncated.pt"
    out["truncated"].write_bytes(SHIPPED.read_bytes()[:5000])
    out["text"] = d / "text.pt"
    out["text"].write_text("this is not a checkpoint\n")
    out["garbage"] = d / "agent.pt"
    out["garbage"].write_bytes(b"\x80\x02garbage that is no zip")
    out["zip"] = d / "archive.pt"
    with zipfile.ZipFile(out["zip"], "w") as z:
        z.writestr("readme.txt", "a zip file, not a checkpoint")
    out["json"] = d / "data.json"
    out["json"].write_text(json.dumps({"format": "fivehundred-rl/checkpoint"}))
    out["foreign"] = d / "foreign.pt"
    torch.save({"weights": torch.zeros(3)}, out["foreign"])
    out["list"] = d / "list.pt"
    torch.save([1, 2, 3], out["list"])
    out["missing"] = d / "missing.pt"
    out["empty_dir"] = d / "empty-run"
    out["empty_dir"].mkdir()
    # rules files
    out["rules_missing"] = d / "missing-rules.toml"
    out["rules_bad_toml"] = d / "bad.toml"
    out["rules_bad_toml"].write_text("nullo = = 1\n")
    out["rules_unknown"] = d / "unknown.toml"
    out["rules_unknown"].write_text("frobnicate = 1\n")
    out["rules_bad_value"] = d / "badvalue.toml"
    out["rules_bad_value"].write_text('nullo = "sometimes"\n')
    out["rules_binary"] = d / "binary.toml"
    out["rules_binary"].write_bytes(SHIPPED.read_bytes()[:2000])
    # training configs
    out["config_unknown"] = d / "config-unknown.toml"
    out["config_unknown"].write_text("num_env = 4\n")
    out["config_bad_value"] = d / "config-bad.toml"
    out["config_bad_value"].write_text('num_envs = -1\nlearning_rate = "abc"\n')
    # run directories with a bad checkpoint.pt
    for kind in ("truncated", "text"):
        run = d / f"run-{kind}"
        run.mkdir()
        shutil.copy(out[kind], run / "checkpoint.pt")
        out[f"run_{kind}"] = run
    run = d / "run-agent-only"
    run.mkdir()
    shutil.copy(SHIPPED, run / "checkpoint.pt")
    out["run_agent_only"] = run
    return out


def _run(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def assert_refused(proc: subprocess.CompletedProcess, *words: str) -> str:
    """Exit status 2, no traceback, and the reason on one line (after argparse's usage lines,
    if any) holding every word; returns that line."""
    err = proc.stderr
    assert proc.returncode == 2, (proc.returncode, err[-2000:], proc.stdout[-500:])
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, "nothing on stderr"
    reason = lines[-1]
    assert "error:" in reason, err
    if not lines[0].startswith("usage:"):
        assert len(lines) == 1, err  # our own errors: exactly one line
    for word in words:
        assert word in reason, (word, reason)
    return reason


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# ---------------------------------------------------------------------------- fh-eval
EVAL_CASES = [
    (["rule", "nobody"], ["unknown bot 'nobody'", "known bots"]),
    (["mc:samples=abc", "rule"], ["samples='abc'", "integer"]),
    (["mc:samples=0", "rule"], ["samples='0'", "at least 1"]),
    (["mc:samples=2.5", "rule"], ["samples='2.5'", "integer"]),
    (["mc:frob=1", "rule"], ["'frob'", "samples", "rollout"]),
    (["mc:rollout=smart", "rule"], ["rollout='smart'", "rule, random"]),
    (["mc:level=9", "rule"], ["level='9'", "4, 5, 6"]),
    (["mc:infer=maybe", "rule"], ["infer='maybe'", "boolean"]),
    (["mc:infer_eps=2", "rule"], ["infer_eps='2'", "from 0 to 1"]),
    (["mc:samples", "rule"], ["key=value"]),
    (["mc5:samples=x", "rule"], ["'mc5'", "samples='x'"]),
    (["rule:nt_risk=high", "rule"], ["nt_risk='high'", "number"]),
    (["rule:nt_risk=nan", "rule"], ["nt_risk='nan'", "number"]),
    (["rule:fast=1", "rule"], ["'fast'", "nt_risk"]),
    (["rule", "mcfast:samples=abc"], ["'mcfast'", "samples='abc'", "integer"]),
    (["rule", "mcfast:level=4"], ["'level'", "samples"]),
    (["random:x=1", "rule"], ["'random'", "'x'"]),
    (["neural", "rule"], ["needs a checkpoint"]),
    (["neural:", "rule"], ["neural"]),
    (["neural:ppo-selfplay,greedy=maybe", "rule"], ["greedy='maybe'", "boolean"]),
    (["neural:ppo-selfplay,frob=1", "rule"], ["'frob'", "strict_rules"]),
    (["neural:ppo-selfplay", "rule", "--rules", "american"], ["other rules", "strict_rules=0"]),
    (["neural:no-such-agent", "rule"], ["no checkpoint 'no-such-agent'", "ppo-selfplay"]),
    (["neural:{truncated}", "rule"], ["truncated.pt", "truncated"]),
    (["neural:{garbage}", "rule"], ["agent.pt", "not a checkpoint file"]),
    (["neural:{foreign}", "rule"], ["foreign.pt", "not a Five Hundred checkpoint",
                                     "missing keys"]),
    (["rule", "random", "--rules", "no-such-preset"], ["no-such-preset"]),
    (["rule", "random", "--rules", "{rules_missing}"], ["missing-rules.toml", "does not exist"]),
    (["rule", "random", "--rules", "{rules_bad_toml}"], ["bad.toml", "not valid TOML"]),
    (["rule", "random", "--rules", "{rules_unknown}"], ["unknown.toml", "frobnicate"]),
    (["rule", "random", "--rules", "{rules_bad_value}"], ["badvalue.toml", "sometimes"]),
    (["rule", "random", "--rules", "{rules_binary}"], ["binary.toml", "not a text"]),
    (["rule", "random", "--rules", "{empty_dir}"], ["empty-run", "directory"]),
    (["rule", "random", "--deals", "0"], ["--deals"]),
    (["rule", "random", "--deals", "many"], ["--deals"]),
    (["rule", "random", "--workers", "0"], ["--workers"]),
    (["rule", "random", "--games", "-1"], ["--games"]),
    (["rule", "random", "--save", "{text}"], ["--save", "not a folder"]),
    (["rule", "random", "--save", "{text}/records"], ["--save", "not a folder"]),
    (["rule"], ["required"]),
]


@pytest.mark.parametrize("args, words", EVAL_CASES, ids=[" ".join(a) for a, _ in EVAL_CASES])
def test_fh_eval_refuses_bad_input(files, tmp_path: Path, args, words) -> None:
    names = {k: str(v) for k, v in files.items()}
    args = [a.format(**names) for a in args]
    save = tmp_path / "records"
    extra = [] if "--save" in args else ["--save", str(save)]
    before = _snapshot(files["empty_dir"].parent)
    proc = _run([*_command("fh-eval"), "--deals", "1", *extra, *args], tmp_path)
    assert_refused(proc, *words)
    assert not save.exists()  # nothing written
    assert _snapshot(files["empty_dir"].parent) == before
    assert proc.stdout == ""


def test_fh_eval_save_writes_nothing_with_a_bad_bot(tmp_path: Path) -> None:
    save = tmp_path / "records"
    save.mkdir()
    proc = _run([*_command("fh-eval"), "rule", "mc:samples=x", "--deals", "1", "--save",
                 str(save)], tmp_path)
    assert_refused(proc, "samples='x'")
    assert list(save.iterdir()) == []


# ---------------------------------------------------------------------------- fh-train
TRAIN_CASES = [
    (["--set", "num_envs=-1"], ["num_envs=-1", "at least 1"]),
    (["--set", "learning_rate=abc"], ["learning_rate='abc'", "number greater than 0"]),
    (["--num-envs", "0", "--learning-rate", "-1"], ["num_envs=0", "learning_rate=-1"]),
    (["--gamma", "2"], ["gamma=2", "from 0 to 1"]),
    (["--hidden-sizes", "0"], ["hidden_sizes", "at least 1"]),
    (["--anneal-lr", "maybe"], ["anneal_lr", "true or false"]),
    (["--device", "gpu7"], ["device='gpu7'", "cpu"]),
    (["--set", "no_such_field=1"], ["no_such_field"]),
    (["--set", "num_envs"], ["key=value"]),
    (["--set", "league_self=0", "--set", "league_past=0", "--set", "league_rule=0",
      "--set", "league_mc=0", "--set", "league_random=0"], ["league shares"]),
    (["--set", "eval_opponents=rule,nobody"], ["eval_opponents", "unknown bot 'nobody'"]),
    (["--set", "mc_bot=mc:samples=abc"], ["mc_bot", "samples='abc'"]),
    (["--bc-teacher", "rule:fast=1"], ["bc_teacher", "'fast'"]),
    (["--rules", "no-such-preset"], ["rules='no-such-preset'"]),
    (["--rules", "{rules_bad_value}"], ["badvalue.toml", "sometimes"]),
    (["--rules", "{rules_missing}"], ["missing-rules.toml", "does not exist"]),
    (["--config", "{rules_missing}"], ["missing-rules.toml", "does not exist"]),
    (["--config", "{rules_bad_toml}"], ["bad.toml", "not valid TOML"]),
    (["--config", "{config_unknown}"], ["config-unknown.toml", "num_env"]),
    (["--config", "{config_bad_value}"], ["config-bad.toml", "num_envs=-1",
                                          "learning_rate='abc'"]),
    (["--config", "{rules_binary}"], ["binary.toml", "not a text"]),
    (["--config", "{json}"], ["data.json", "not valid TOML"]),
    (["--config", "{empty_dir}"], ["empty-run", "directory"]),
    (["--run-dir", "{text}"], ["text.pt", "is a file"]),
    (["--resume", "{missing}"], ["missing.pt", "not a run directory"]),
    (["--resume", "{empty_dir}"], ["checkpoint.pt", "does not exist"]),
    (["--resume", "{run_truncated}"], ["checkpoint.pt", "truncated"]),
    (["--resume", "{run_text}"], ["checkpoint.pt", "not a checkpoint file"]),
    (["--resume", "{run_agent_only}"], ["checkpoint.pt", "agent only"]),
    (["--resume", "{run_truncated}", "--config", str(SMOKE)], ["--config"]),
]


@pytest.mark.parametrize("args, words", TRAIN_CASES, ids=[" ".join(a) for a, _ in TRAIN_CASES])
def test_fh_train_refuses_bad_input_and_writes_nothing(files, tmp_path: Path, args,
                                                       words) -> None:
    names = {k: str(v) for k, v in files.items()}
    args = [a.format(**names) for a in args]
    run = tmp_path / "run"
    extra = [] if "--resume" in args or "--run-dir" in args else ["--run-dir", str(run)]
    before = _snapshot(files["empty_dir"].parent)
    proc = _run([*_command("fh-train"), *args, *extra, "--no-progress"], tmp_path)
    assert_refused(proc, *words)
    assert not run.exists()
    assert not (tmp_path / "runs").exists()  # the default run directory
    assert _snapshot(files["empty_dir"].parent) == before  # a bad checkpoint is left alone


# ---------------------------------------------------------------------------- benchmarks
BENCH_CASES = [
    (["bench", "--seconds", "-1"], ["--seconds"]),
    (["bench", "--seconds", "nan"], ["--seconds"]),
    (["bench", "--seconds", "abc"], ["--seconds"]),
    (["bench", "--runs", "0"], ["--runs"]),
    (["bench", "--only", "nothing"], ["nothing", "engine"]),
    (["bench", "--json", "{empty_dir}"], ["--json", "directory"]),
    (["bench", "--json", "{text}/x.json"], ["--json", "not a folder"]),
    (["bench", "--frobnicate"], ["unrecognized"]),
    (["bench.vector", "--sizes", "0"], ["--sizes"]),
    (["bench.vector", "--runs", "0"], ["--runs"]),
    (["bench.vector", "--seconds", "inf"], ["--seconds"]),
    (["bench.vector", "--preset", "nope"], ["--preset"]),
    (["bench.vector_env", "--sizes", "-1"], ["--sizes"]),
    (["bench.vector_env", "--seconds", "0"], ["--seconds"]),
    (["bench.engine", "--runs", "0"], ["--runs"]),
    (["bench.engine", "--seconds", "-1"], ["--seconds"]),
]
BENCH_MODULE_CASES = [
    (["bench.mc", "--rules", "nope", "--positions", "1"], ["nope"]),
    (["bench.mc", "--levels", "7", "--positions", "1"], ["7"]),
    (["bench.mc_fast", "--samples", "0", "--positions", "1"], ["--samples"]),
    (["bench.env", "--repeats", "0"], ["--repeats"]),
    (["bench.peers", "--runs", "0"], ["--runs"]),
]


@pytest.mark.parametrize("args, words", BENCH_CASES + BENCH_MODULE_CASES,
                         ids=[" ".join(a) for a, _ in BENCH_CASES + BENCH_MODULE_CASES])
def test_bench_refuses_bad_arguments(files, tmp_path: Path, args, words) -> None:
    names = {k: str(v) for k, v in files.items()}
    args = [a.format(**names) for a in args]
    results = ROOT / "bench" / "results"
    before = sorted(results.iterdir()) if results.is_dir() else []
    proc = _run([sys.executable, "-m", *args], tmp_path, timeout=60)
    assert_refused(proc, *words)
    assert (sorted(results.iterdir()) if results.is_dir() else []) == before


# ---------------------------------------------------------------------------- point 8
def test_a_truncated_or_foreign_checkpoint_gets_a_one_line_reason(files) -> None:
    from agents.neural import CheckpointError, read_checkpoint

    cases = {"truncated": "truncated", "garbage": "not a checkpoint file",
             "zip": "not a checkpoint file", "text": "not a checkpoint file",
             "json": "not a checkpoint file", "foreign": "missing keys format, obs_version",
             "list": "holds a list", "missing": "does not exist",
             "empty_dir": "is not a file"}
    for kind, words in cases.items():
        with pytest.raises(CheckpointError) as info:
            read_checkpoint(files[kind])
        message = str(info.value)
        assert str(files[kind]) in message and words in message, message
        assert "\n" not in message and "weights_only" not in message and "Errno" not in message


def test_resume_from_a_truncated_checkpoint_changes_nothing(files, capsys) -> None:
    from train import cli

    run = files["run_truncated"]
    before = _snapshot(run)
    assert cli.main(["--resume", str(run), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "truncated" in err and "checkpoint.pt" in err and err.count("\n") == 1
    assert _snapshot(run) == before


# ---------------------------------------------------------------------------- point 9
def test_neural_bots_are_checked_against_the_rules_when_built() -> None:
    import random

    from arena.match import play_hand
    from agents.neural import CheckpointError
    from agents.registry import make_bot
    from fh_env import Rules, State

    american = Rules.preset("american")
    with pytest.raises(CheckpointError, match="other rules.*strict_rules=0"):
        make_bot("neural:ppo-selfplay", american)
    bot = make_bot("neural:ppo-selfplay,strict_rules=0", american)
    assert not bot.strict_rules and bot.greedy
    state = play_hand(State(american, seed=3), [bot, make_bot("rule")] * 2,
                      [random.Random(k) for k in range(4)])
    assert state.is_terminal
    assert not make_bot("neural:ppo-selfplay,greedy=0").greedy
    assert not make_bot("neural:ppo-selfplay:sample").greedy  # the older spelling still works
    make_bot("neural:ppo-selfplay", Rules.preset("australian-no-nullo"))  # its own rules: fine


def test_duplicate_refuses_a_neural_bot_for_other_rules_before_any_play() -> None:
    from arena.duplicate import duplicate
    from agents.neural import CheckpointError, NeuralBot

    bot = NeuralBot.load("ppo-selfplay")
    with pytest.raises(CheckpointError, match="strict_rules=0"):
        duplicate(bot, "rule", "american", deals=1)
    with pytest.raises(CheckpointError, match="strict_rules=0"):
        duplicate("neural:ppo-selfplay", "rule", "american", deals=1)
    result = duplicate("neural:ppo-selfplay,strict_rules=0", "rule", "american", deals=1)
    assert result.deals == 1


def test_fh_eval_plays_a_neural_bot_under_other_rules_when_told(tmp_path: Path) -> None:
    proc = _run([*_command("fh-eval"), "neural:ppo-selfplay,strict_rules=0", "rule", "--rules",
                 "american", "--deals", "1", "--json", "--no-progress"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["a"] == "neural:ppo-selfplay,strict_rules=0"


# ---------------------------------------------------------------------------- point 10
def _no_constants(name: str):
    raise ValueError(f"non-standard JSON constant {name}")


def test_fh_eval_json_is_strict_even_for_one_deal(capsys) -> None:
    from arena.cli import main

    assert main(["rule", "random", "--deals", "1", "--json", "--no-progress"]) == 0
    text = capsys.readouterr().out
    data = json.loads(text, parse_constant=_no_constants)
    assert data["ci_low"] is None and data["ci_high"] is None and data["deals"] == 1
    assert math.isfinite(data["mean"])


def test_eval_json_holds_json_objects(tmp_path: Path) -> None:
    from arena.duplicate import duplicate
    from train.run import write_eval_json

    results = {"random": duplicate("rule", "random", deals=1, seed=1),
               "rule": duplicate("rule", "rule", deals=2, seed=1)}
    path = write_eval_json(tmp_path / "eval.json", results, updates=3, global_step=40)
    data = json.loads(path.read_text(), parse_constant=_no_constants)
    assert data["updates"] == 3 and data["global_step"] == 40
    one = data["results"]["random"]
    assert isinstance(one, dict) and one["a"] == "rule" and one["b"] == "random"
    assert one["deals"] == 1 and one["ci_low"] is None
    assert set(one["contracts"]) == {"A", "B"}
    assert data["results"]["rule"]["mean"] == 0 and data["results"]["rule"]["ci_low"] == 0
    assert [p.name for p in tmp_path.iterdir()] == ["eval.json"]  # no temporary file left


# ---------------------------------------------------------------------------- point 11
@pytest.mark.parametrize("spec, words", [
    ("rule:partner_raise=x", ["'rule'", "partner_raise='x'", "a number"]),
    ("mc:samples=abc", ["'mc'", "samples='abc'", "an integer at least 1"]),
    ("mc:bid_samples=-2", ["bid_samples='-2'", "at least 1"]),
    ("mc:discard_candidates=0", ["discard_candidates='0'"]),
    ("mc:max_draws=x", ["max_draws='x'"]),
    ("mc-infer:infer_eps=-0.5", ["'mc-infer'", "infer_eps='-0.5'", "from 0 to 1"]),
    ("mc6:rollout=x", ["'mc6'", "rollout='x'", "one of rule, random"]),
    ("mcfast:samples=0", ["'mcfast'", "samples='0'"]),
    ("neural:ppo-selfplay,strict_rules=perhaps", ["strict_rules='perhaps'", "boolean"]),
    ("mc:nope=1", ["no option 'nope'", "accepted options: samples, bid_samples"]),
    ("mcfast:infer=1", ["no option 'infer'", "accepted options: samples"]),
    ("rule:nope=1", ["no option 'nope'", "partner_unknown"]),
    ("mc:samples=1,samples=2", ["given twice"]),
])
def test_bot_options_are_checked_with_a_clear_reason(spec: str, words: list[str]) -> None:
    from agents.registry import check_spec, make_bot

    for check in (make_bot, check_spec):
        with pytest.raises(ValueError) as info:
            check(spec)
        message = str(info.value)
        for word in words:
            assert word in message, (word, message)


def test_bot_options_are_converted_to_their_types() -> None:
    from agents.registry import make_bot

    bot = make_bot("mc:samples=7,infer=yes,rollout=random,infer_eps=0.5,level=5")
    assert (bot.samples, bot.infer, bot.rollout_policy, bot.infer_eps) == (7, True, "random", 0.5)
    assert make_bot("mc:level=5").samples == 50
    assert make_bot("rule:nt_risk=1").params.nt_risk == 1.0


# ---------------------------------------------------------------------------- point 12
def test_train_config_checks_every_field_on_construction() -> None:
    from train.config import TrainConfig

    with pytest.raises(ValueError) as info:
        TrainConfig(num_envs=-1, learning_rate="abc")
    message = str(info.value)
    assert "num_envs=-1" in message and "learning_rate='abc'" in message
    assert "at least 1" in message and "number greater than 0" in message
    for bad in [dict(gamma=1.5), dict(hidden_sizes=[]), dict(hidden_sizes=[8, "x"]),
                dict(anneal_lr=1), dict(total_steps=True), dict(seed=-1), dict(rules="nope"),
                dict(eval_opponents=["nobody"]), dict(bc_teacher="mc:samples=x"),
                dict(device="tpu"), dict(final_eval_opponents=["neural:/no/such.pt"]), dict(bid_teacher_share=2.0), dict(eval_every=-1)]:
        (name, value), = bad.items()
        with pytest.raises(ValueError, match=f"config {name}="):
            TrainConfig(**bad)
    cfg = TrainConfig(total_steps=1e3, learning_rate=1, eval_opponents="rule")
    assert cfg.total_steps == 1000 and isinstance(cfg.learning_rate, float)
    assert cfg.eval_opponents == ["rule"]


def test_fh_train_prints_its_run_directory_at_start_and_end(tmp_path: Path, monkeypatch,
                                                             capsys) -> None:
    from train import cli, run

    seen = []
    monkeypatch.setattr(run, "train", lambda cfg, run_dir, *a, **k: seen.append(run_dir) or {})
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--config", str(SMOKE), "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    (run_dir,) = seen
    assert str(run_dir).startswith("runs")
    assert str(run_dir) in out[0] and str(run_dir) in out[-1]


# ---------------------------------------------------------------------------- point 13
def test_fh_eval_help_lists_every_bot_its_options_and_the_shipped_agents(capsys) -> None:
    from arena.cli import parser
    from agents.registry import BOTS
    from agents.shipped import shipped_agents

    text = parser().format_help()
    for name in BOTS:
        assert f"\n  {name}" in text, name
    for word in ("mcfast", "neural:ppo-selfplay", "nt_risk", "partner_raise", "samples",
                 "rollout", "strict_rules", "greedy"):
        assert word in text, word
    assert "ppo-selfplay" in shipped_agents()
