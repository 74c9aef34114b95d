"""The training pipeline (train/pipeline.py, ``fh-train --config`` with ``[[stages]]``) at toy
scale: every kind of stage, the end-of-stage evaluations, ``best.pt``, and a resume after a
kill between stages, inside a collection and (a real SIGKILL) inside PPO."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from train import distill as distill_module  # noqa: E402
from train.cli import main  # noqa: E402
from train.pipeline import PipelineConfig, is_pipeline, run_pipeline  # noqa: E402
from conftest import imitate_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

TOY = """
seed = 3
rules = "australian-no-nullo"
eval_deals = 2
final_eval_deals = 3
eval_opponents = ["random", "rule"]

[[stages]]
kind = "ppo"
total_steps = 256
num_envs = 4
rollout_steps = 8
hidden_sizes = [16]
num_minibatches = 2
update_epochs = 1
bc_hands = 8
bc_chunk_hands = 4
bc_epochs = 1
league_self = 1.0
league_past = 0.0
league_rule = 0.0
league_mc = 0.0
league_random = 0.0
checkpoint_every = 1

[[stages]]
kind = "distill"
search = "deal"
hands = 4
pieces = 2
num_envs = 2
workers = 1
epochs = 1

[[stages]]
kind = "distill"
search = "cards"
samples = 2
hands = 2
pieces = 1
num_envs = 2
opponent = ""
epochs = 1
"""


def toy(tmp_path: Path) -> Path:
    path = tmp_path / "toy.toml"
    path.write_text(TOY, encoding="utf-8")
    return path


def weights(path: Path) -> dict:
    return torch.load(path, weights_only=True)["policy"]["state_dict"]


def same_weights(a: Path, b: Path) -> bool:
    wa, wb = weights(a), weights(b)
    return wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory) -> Path:
    """One uninterrupted toy run through the command line."""
    tmp = tmp_path_factory.mktemp("whole")
    run = tmp / "run"
    assert main(["--config", str(toy(tmp)), "--run-dir", str(run), "--no-progress"]) == 0
    return run


def test_every_stage_runs_and_is_recorded(whole_run: Path, capsys) -> None:
    stages = json.loads((whole_run / "stages.json").read_text())
    assert [s["kind"] for s in stages] == ["ppo", "distill", "distill"]
    for s in stages:
        assert set(s["results"]) == {"random", "rule"}  # the evaluation at each stage's end
        assert s["seconds"] > 0 and Path(s["agent"]).is_file()
    assert stages[0]["results"]["rule"]["deals"] == 2
    assert stages[-1]["results"]["rule"]["deals"] == 3
    assert sorted(p.name for p in (whole_run / "stage-2-distill").glob("piece-*.npz")) == [
        "piece-1.npz", "piece-2.npz"]
    assert same_weights(whole_run / "best.pt", whole_run / "stage-3-distill" / "agent.pt")
    # each distill stage changed the network it started from
    assert not same_weights(whole_run / "stage-1-ppo" / "agent.pt",
                            whole_run / "stage-2-distill" / "agent.pt")
    final = json.loads((whole_run / "eval.json").read_text())
    assert final["stages"] == 3 and set(final["results"]) == {"random", "rule"}
    events = list(whole_run.glob("events.out.tfevents.*"))  # one TensorBoard run for all stages
    assert len(events) >= 2 and not list((whole_run / "stage-1-ppo").glob("events.*"))


def test_best_loads_as_a_neural_agent(whole_run: Path) -> None:
    from agents.registry import make_bot
    from fh_env.rules import Rules

    bot = make_bot(f"neural:{whole_run / 'best.pt'}", Rules())
    assert bot.rules == Rules()


def test_a_kill_between_stages_and_inside_a_collection_resumes_to_the_same_agent(
        tmp_path: Path, whole_run: Path, monkeypatch) -> None:
    cfg = PipelineConfig.from_toml(toy(tmp_path))
    run = tmp_path / "run"

    def stop_after(i: int) -> None:
        if i == 0:
            raise KeyboardInterrupt  # killed between stage 1 and stage 2

    with pytest.raises(KeyboardInterrupt):
        run_pipeline(cfg, run, progress=False, after_stage=stop_after)
    first = (run / "stage-1-ppo" / "agent.pt").stat().st_mtime_ns
    assert len(json.loads((run / "stages.json").read_text())) == 1

    real_save, calls = distill_module.save_data, []

    def save_then_die(data, rules, path):
        calls.append(Path(path).name)
        if len(calls) == 2:
            raise KeyboardInterrupt  # killed inside stage 2's collection, after one piece
        return real_save(data, rules, path)

    monkeypatch.setattr(distill_module, "save_data", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(cfg, run, progress=False)
    piece = run / "stage-2-distill" / "piece-1.npz"
    kept = piece.stat().st_mtime_ns
    assert not (run / "stage-2-distill" / "piece-2.npz").exists()
    monkeypatch.setattr(distill_module, "save_data", real_save)

    assert main(["--resume", str(run), "--no-progress"]) == 0
    assert (run / "stage-1-ppo" / "agent.pt").stat().st_mtime_ns == first  # not trained again
    assert piece.stat().st_mtime_ns == kept  # the finished piece was not collected again
    for name in ("stage-1-ppo/agent.pt", "stage-2-distill/agent.pt", "best.pt"):
        assert same_weights(run / name, whole_run / name), name


def test_a_sigkill_inside_ppo_resumes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.Popen([sys.executable, "-m", "train.cli", "--config", str(toy(tmp_path)),
                             "--run-dir", str(run), "--no-progress"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    checkpoint = run / "stage-1-ppo" / "checkpoint.pt"
    deadline = time.monotonic() + 240
    while not checkpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert checkpoint.exists()
    assert main(["--resume", str(run), "--no-progress"]) == 0
    assert len(json.loads((run / "stages.json").read_text())) == 3
    assert (run / "best.pt").is_file()


@pytest.mark.parametrize("text, message", [
    ("[[stages]]\nkind = 'dance'\n", "kind='dance' must be one of ppo, distill"),
    ("[[stages]]\nkind = 'distill'\nhands = 0\n", "hands=0 must be at least 1"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'guess'\n", "search='guess' must be one of"),
    ("[[stages]]\nkind = 'distill'\nwidth = 3\n", "unknown key(s) width"),
    ("[[stages]]\nkind = 'ppo'\nnum_envs = 0\n", "stage 1 (ppo): config num_envs=0"),
    ("[[stages]]\nkind = 'ppo'\nseed = 4\n", "seed is the pipeline's"),
    ("eval_opponents = ['nobody']\n[[stages]]\nkind = 'ppo'\n", "unknown bot 'nobody'"),
    ("rules = 'australain'\n[[stages]]\nkind = 'ppo'\n", "australain"),
    ("stages = []\n", "at least one [[stages]] table"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'cards'\nnullo_calls = true\n",
     "nullo calls are candidates of deal branches only"),
    ("[[stages]]\nkind = 'distill'\ntemperature = 0.0\n", "set call_temperature = 0"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'cards'\ncards = 'trumps'\n",
     "cards='trumps' must be one of all, leads, nullo-declarer"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'cards'\nrollout = 'mc'\n",
     "rollout='mc' must be one of rule, net"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'deal'\nrollout = 'net'\n", "not deal branches"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'cards'\nbelief = -0.5\n",
     "belief=-0.5 must be at least 0"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'deal'\ncards = 'nullo-declarer'\n",
     "not deal branches"),
    ("[[stages]]\nkind = 'distill'\nsearch = 'cards'\ncards = 'nullo-declarer'\n",
     "which these rules do not have"),
    ("[[stages]]\nkind = 'imitate'\nlabels = 'nullo-cards'\nroles = 'declarer'\n",
     "roles='declarer' must be one of all, defenders"),
    ("[[stages]]\nkind = 'imitate'\nroles = 'defenders'\n",
     "labels='nullo' copies calls"),
])
def test_a_bad_pipeline_is_refused_in_one_line(tmp_path: Path, capsys, text: str,
                                               message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["--config", str(path), "--run-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fh-train: error:") and "\n" not in err and message in err
    assert not (tmp_path / "r").exists()  # nothing written


def test_the_nullo_card_roles_are_the_collectors() -> None:
    """The config's choices of ``roles`` are those :mod:`train.nullo_play` collects."""
    from train import nullo_play
    from train.pipeline import NULLO_CARD_ROLES

    assert NULLO_CARD_ROLES == nullo_play.ROLES


def test_the_shipped_pipelines_are_valid() -> None:
    for path in sorted((ROOT / "configs" / "train").glob("strong*.toml")):
        PipelineConfig.from_toml(path)
    steps = [p for p in sorted((ROOT / "configs" / "train" / "presets").glob("*.toml"))
             if is_pipeline(p)]
    assert len(steps) >= 8  # every shipped preset agent's steps
    for path in steps:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        init = data.get("init", "")
        if init.startswith("runs/"):  # a later step starts from an earlier step's run
            earlier = Path(init).parent.name
            assert init == f"runs/{earlier}/best.pt", path
            assert is_pipeline(path.parent / f"{earlier}.toml"), path
            earlier_init = tomllib.loads((path.parent / f"{earlier}.toml").read_text("utf-8"))
            data["init"] = earlier_init["init"]  # same rules, and it exists on a fresh clone
        cfg = PipelineConfig.from_dict(data)
        # from a shipped agent of its rules, or from scratch with a PPO stage first
        assert cfg.init or cfg.kind(0) == "ppo", path
        assert path.name.startswith(cfg.rules), path
    step1 = PipelineConfig.from_toml(ROOT / "configs" / "train" / "presets" / "american-deal.toml")
    assert step1.init == "ppo-american" and step1.rules == "american"
    assert (ROOT / "configs" / "train" / "strong.toml").exists()


SIZES = """
seed = 5
eval_deals = 2
final_eval_deals = 2
eval_opponents = ["rule"]

[[stages]]
kind = "ppo"
total_steps = 128
num_envs = 4
rollout_steps = 4
hidden_sizes = [16]
num_minibatches = 2
update_epochs = 1
bc_hands = 4
bc_chunk_hands = 4
bc_epochs = 1
league_self = 1.0
league_past = 0.0
league_rule = 0.0
league_mc = 0.0
league_random = 0.0

[[stages]]
kind = "distill"
players = [4]
hands = 2
pieces = 1
num_envs = 2
workers = 1
epochs = 1

[[stages]]
kind = "distill"
players = [3, 6]
opponent = ""
hands = 2
pieces = 1
num_envs = 2
workers = 1
epochs = 1
"""


@pytest.mark.parametrize("rules, runs", [("three-handed", ["stage-1-ppo", "stage-3-distill"]),
                                          ("six-handed", ["stage-1-ppo", "stage-3-distill"]),
                                          ("american", ["stage-1-ppo", "stage-2-distill"])])
def test_rules_pick_the_game_and_the_stages_of_its_table_size(tmp_path: Path, rules: str,
                                                              runs: list[str]) -> None:
    from fh_env.rules import Rules

    path = tmp_path / "sizes.toml"
    path.write_text(SIZES, encoding="utf-8")
    run = tmp_path / "run"
    assert main(["--config", str(path), "--rules", rules, "--run-dir", str(run),
                 "--no-progress"]) == 0
    assert sorted(p.name for p in run.glob("stage-*")) == runs
    agent = torch.load(run / "best.pt", weights_only=True)
    assert Rules.from_dict(agent["rules"]) == Rules.preset(rules)


INIT_ONLY = """
seed = 4
eval_deals = 2
final_eval_deals = 2
eval_opponents = ["random"]
init = "{init}"

[[stages]]
kind = "distill"
search = "deal"
hands = 2
pieces = 1
num_envs = 2
workers = 1
epochs = 1
"""


def test_a_pipeline_improves_the_init_agent_it_names(whole_run: Path, tmp_path: Path) -> None:
    """``init`` names the agent the first stage starts from: a distill-only pipeline fits it
    (same layout, new weights) and records the stage."""
    start = whole_run / "best.pt"
    path = tmp_path / "more.toml"
    path.write_text(INIT_ONLY.format(init=start), encoding="utf-8")
    run = tmp_path / "more"
    assert main(["--config", str(path), "--run-dir", str(run), "--no-progress"]) == 0
    stages = json.loads((run / "stages.json").read_text())
    assert [s["kind"] for s in stages] == ["distill"]
    assert weights(run / "best.pt").keys() == weights(start).keys()
    assert not same_weights(run / "best.pt", start)


@pytest.mark.parametrize("init,message", [
    ("", "give the pipeline an init agent"),
    ("nowhere.pt", "init='nowhere.pt': no checkpoint"),
    ("best-canadian", "init='best-canadian'"),  # an agent of other rules
])
def test_a_bad_init_is_refused_before_the_run(tmp_path: Path, capsys, init: str,
                                               message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(INIT_ONLY.format(init=init), encoding="utf-8")
    assert main(["--config", str(path), "--run-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fh-train: error:") and "\n" not in err and message in err, err
    assert not (tmp_path / "r").exists()


def test_a_stage_that_keeps_earlier_data_says_when_it_is_missing(whole_run: Path,
                                                                 tmp_path: Path, capsys) -> None:
    """A run copied without its collections (the state/ folders keep no pieces) fits its
    last stage on its own data: the run says so instead of fitting less in silence."""
    text = INIT_ONLY.format(init=whole_run / "best.pt")
    text += text[text.index("[[stages]]"):]  # a second deal stage, keep_earlier by default
    cfg = PipelineConfig.from_dict(tomllib.loads(text))
    run = tmp_path / "copied"

    def drop_pieces(i: int) -> None:
        if i == 0:
            for piece in (run / "stage-1-distill").glob("piece-*.npz"):
                piece.unlink()

    run_pipeline(cfg, run, progress=False, after_stage=drop_pieces)
    err = capsys.readouterr().err
    assert "warning: stage 2 keeps earlier data, but stage 1's pieces are not in" in err


# ---------------------------------------------------------------------- nullo-cards
def nullo_cards(tmp_path: Path, extra: str = "", rules: str = "six-handed",
                init: str = "distill-six-handed", teacher: str = "rule") -> Path:
    return imitate_config(tmp_path / "nullo-cards.toml", rules, init, teacher,
                          'labels = "nullo-cards"\n' + extra, seed=6)


def test_a_nullo_cards_stage_validates(tmp_path: Path) -> None:
    cfg = PipelineConfig.from_toml(nullo_cards(tmp_path, "declarer_weight = 3\nmix = 0.4"))
    stage = cfg.stage(0)
    assert (stage.labels, stage.declarer_weight, stage.mix) == ("nullo-cards", 3.0, 0.4)
    assert PipelineConfig.from_toml(nullo_cards(tmp_path)).stage(0).declarer_weight == 2.0


@pytest.mark.parametrize("extra, rules, init, message", [
    ("declarer_weight = -0.5", "six-handed", "distill-six-handed",
     "stage 1 (imitate): declarer_weight=-0.5 must be at least 0"),
    ("declarer_weight = 'high'", "six-handed", "distill-six-handed",
     "declarer_weight='high' must be a float"),
    ("", "australian-no-nullo", "ppo-selfplay",
     "stage 1 (imitate): labels='nullo-cards' copies the teacher's card play in nullo "
     "contracts, which these rules do not have"),
])
def test_a_bad_nullo_cards_stage_is_refused_in_one_line(tmp_path: Path, capsys, extra: str,
                                                        rules: str, init: str,
                                                        message: str) -> None:
    path = nullo_cards(tmp_path, extra, rules, init)
    assert main(["--config", str(path), "--run-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fh-train: error:") and "\n" not in err and message in err, err
    assert not (tmp_path / "r").exists()


def test_a_nullo_cards_stage_runs_end_to_end(tmp_path: Path, monkeypatch) -> None:
    """Six players, from an agent without a nullo branch: the stage's agent has one, fitted
    on the teacher's cards, with every other weight as it was."""
    from agents.neural import NeuralBot, resolve_checkpoint
    from agents.registry import BOTS, BotInfo
    from test_imitate import OpenNulloTeacher

    monkeypatch.setitem(BOTS, "open-nullo-teacher", BotInfo(
        "open-nullo-teacher", "test", factory_fn=lambda arg: OpenNulloTeacher()))
    extra = ("hands = 6\npieces = 2\nworkers = 1\nepochs = 2\nlearning_rate = 1e-3\n"
             "declarer_weight = 3")
    run = tmp_path / "run"
    assert main(["--config", str(nullo_cards(tmp_path, extra, teacher="open-nullo-teacher")),
                 "--run-dir", str(run), "--no-progress"]) == 0
    stages = json.loads((run / "stages.json").read_text())
    assert [s["kind"] for s in stages] == ["imitate"] and set(stages[0]["results"]) == {"random"}
    assert sorted(p.name for p in (run / "stage-1-imitate").glob("piece-*.npz")) == [
        "piece-1.npz", "piece-2.npz"]
    assert same_weights(run / "best.pt", run / "stage-1-imitate" / "agent.pt")
    start, end = weights(resolve_checkpoint("distill-six-handed")), weights(run / "best.pt")
    assert set(end) == set(start) | {f"nullo.{k}" for k in start}
    assert all(torch.equal(start[k], end[k]) for k in start)
    assert not all(torch.equal(start[k], end[f"nullo.{k}"]) for k in start)
    assert NeuralBot.load(run / "best.pt").net.nullo is not None
    record = torch.load(run / "best.pt", weights_only=True)["imitate"]
    assert record["labels"] == "nullo-cards" and record["counts"]["hands"] == 6
    assert record["declarer_weight"] == 3.0 and record["joined"]
    assert record["counts"]["nullo_contracts"] > 0 and len(record["history"]) == 3


def test_a_leads_step_collects_the_leads_alone_searched_as_set(tmp_path: Path,
                                                                monkeypatch) -> None:
    """``cards = "leads"`` with ``rollout`` and ``belief``: the teacher is that search (issue
    30's), and the piece holds only the first card of each trick, each scored."""
    import numpy as np

    from agents.neural import NeuralBot
    from train.pipeline import collect_piece

    specs = []
    make_teacher = distill_module.make_teacher
    monkeypatch.setattr(distill_module, "make_teacher",
                        lambda spec, search: specs.append(spec) or make_teacher(spec, search))
    stage = {"search": "cards", "samples": 3, "cards": "leads", "rollout": "net",
             "belief": 0.5, "num_envs": 4, "opponent": ""}
    collect_piece("best", stage, 4, 3, str(tmp_path / "piece.npz"))
    assert specs == ["nmc:best,samples=3,cards=leads,rollout=net,belief=0.5"]
    data = distill_module.load_data([tmp_path / "piece.npz"], NeuralBot.load("best").rules)
    records = data["records"]
    assert len(records) >= 4 * 8  # about ten leads a hand
    assert (records["ntrick"] == 0).all() and (records["turn"] == records["leader"]).all()
    assert (np.isfinite(data["scores"].astype(np.float32)).sum(axis=1) > 1).mean() > 0.5


def test_a_nullo_declarer_step_collects_the_declarers_nullo_cards_alone(tmp_path: Path) -> None:
    """``cards = "nullo-declarer"``: the piece holds only the declarer's card decisions of
    nullo-type contracts, each scored by the search, so the stage's fit moves the nullo branch
    alone."""
    import numpy as np

    from fh_env.actions import NULLO_TYPES
    from fh_env.rules import Rules
    from train.pipeline import collect_piece

    stage = {"search": "cards", "samples": 4, "cards": "nullo-declarer", "num_envs": 8,
             "opponent": ""}
    collect_piece("best-australian", stage, 40, 3, str(tmp_path / "piece.npz"))
    data = distill_module.load_data([tmp_path / "piece.npz"], Rules.preset("australian"))
    assert len(data["labels"]) > 0
    records = data["records"]
    assert np.isin(records["contract"], NULLO_TYPES).all()
    assert (records["turn"] == records["declarer"]).all()
    assert (np.isfinite(data["scores"].astype(np.float32)).sum(axis=1) > 1).mean() > 0.5
