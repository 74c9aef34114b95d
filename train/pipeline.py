"""One command to a strong agent: the stages of a recipe in one config and one run directory.

``fh-train --config configs/train/strong.toml`` reads a config with ``[[stages]]`` tables and
runs them in order, each starting from the agent the one before it left (the first from
``init`` where the config names an agent, so that a run can improve one already trained):

* ``kind = "ppo"``: imitation then PPO self-play (:func:`train.run.train`); every other key of
  the table is a :class:`train.config.TrainConfig` field, validated as in any ``fh-train`` run;
* ``kind = "distill"``: one step of policy improvement (:class:`DistillStage`): the current
  network plays, its decisions are scored (by deal branches on the dealt cards, or by ``nmc``'s
  search), and the next network is fitted to the scores (:mod:`train.distill`);
* ``kind = "imitate"``: the current network copies a teacher bot (:class:`ImitateStage`):
  ``labels = "nullo"``, its nullo-type calls and nullo discards along the network's own
  auctions, anchored elsewhere (:mod:`train.imitate`: a network that never bids a nullo learns
  where one pays); ``labels = "nullo-cards"``, its card play in its own nullo contracts, by
  DAgger into the network's nullo branch alone (:mod:`train.nullo_play`: the network's nullo
  card play loses the contracts that the calls would bid).

A stage's ``players`` key (a list of table sizes; all by default) says at which table sizes it
runs, so that one recipe serves every ``--rules``: the 4-player observation's options
(``trump_first``, ``features``) go in stages of their own.

Why one config: the shipped agent came out of six hand-run stages with switches that nobody
could repeat in one go or run for other rules.  Here ``--rules PRESET`` (or a rules file) picks
the game, table size included, for every stage at once.

The run directory holds ``pipeline.json`` (the config as run), one folder a stage
(``stage-1-ppo/``, ...: its checkpoint, data pieces and ``agent.pt``), ``stages.json`` (what each
finished stage measured, and its wall time), TensorBoard events of all the stages in one run
(PPO's curves, then ``pipeline/*`` at each stage's end), ``best.pt`` (the last stage's agent:
``neural:RUN_DIR/best.pt``) and ``eval.json`` (the final duplicate table).  A kill at any point
loses at most the piece of work in hand: ``fh-train --resume RUN_DIR`` skips finished stages,
resumes PPO from its last checkpoint and a collection from its last finished piece.

At the end of every stage the agent plays ``eval_opponents`` on ``eval_deals`` fixed duplicate
deals of ``eval_seed``, a seed no training stage draws from.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from fh_env.observe import TABLE_SIZES as _OBSERVED_SIZES
from fh_env.rules import NULLO_BIDS, Rules, load_rules, read_toml

from .config import TrainConfig, _parse_value

#: What an imitate stage copies from its teacher (:func:`imitate_recipe` names the module of
#: each): ``nullo``, its nullo-type calls and its discards in nullo contracts (the other rows
#: anchored); ``nullo-cards``, its card play in nullo contracts, into the nullo branch alone.
IMITATE_LABELS = ("nullo", "nullo-cards")
#: Which card decisions a distill stage's search scores (``search = "cards"``): every card, the
#: first of each trick (``nmc``'s ``cards=leads``, where issue 30's search gains), or the
#: declarer's in nullo-type contracts alone (``cards=nullo-declarer``).  Not the defenders':
#: fitted to the search's defence, the network defends worse (docs/research-log.md, "The nullo
#: defence").
DISTILL_CARDS = ("all", "leads", "nullo-declarer")
#: Who plays a card search's worlds out (``nmc``'s ``rollout``).
DISTILL_ROLLOUTS = ("rule", "net")
#: What a ``labels = "nullo"`` stage teaches of the teacher's double-nullo calls.
DOUBLE_NULLO_CALLS = ("copy", "pass")
#: Whose nullo cards a ``labels = "nullo-cards"`` stage copies (:data:`train.nullo_play.ROLES`,
#: named here so that a config is checked without loading the training code).
NULLO_CARD_ROLES = ("all", "defenders")

#: Deals of the end-of-stage evaluations (no training stage draws from it).
EVAL_SEED = 20_577
KINDS = ("ppo", "distill", "imitate")
#: The kinds that improve an agent they are given (the first stage needs ``init``).
IMPROVING = ("distill", "imitate")
TABLE_SIZES = tuple(sorted(_OBSERVED_SIZES))  # (3, 4, 6), in the order messages list them
SEARCHES = ("deal", "deal-calls", "cards")


def _typed(cls: type, data: dict[str, Any], where: str, what: str) -> dict[str, Any]:
    """``data`` checked against the fields of the dataclass ``cls``: no unknown key, each
    value of its default's type (an int where a float is wanted becomes a float)."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}; {what} "
                         f"takes {', '.join(sorted(known))}")
    defaults = cls()
    for key, value in data.items():
        want = type(getattr(defaults, key))
        ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            ok, data = True, {**data, key: float(value)}
        if not ok:
            raise ValueError(f"{where}: {key}={value!r} must be a {want.__name__}")
    return data


def _check_choices(stage: Any, where: str, choices: dict[str, tuple[str, ...]]) -> None:
    """Each key of ``choices`` holds one of its values."""
    for key, allowed in choices.items():
        if getattr(stage, key) not in allowed:
            raise ValueError(f"{where}: {key}={getattr(stage, key)!r} must be one of "
                             f"{', '.join(allowed)}")


def _check_ranges(stage: Any, where: str, keys: tuple[str, ...]) -> None:
    """The ranges every collecting stage shares: ``keys`` at least 1, no more pieces than
    hands, a learning rate above 0."""
    for key in keys:
        if getattr(stage, key) < 1:
            raise ValueError(f"{where}: {key}={getattr(stage, key)} must be at least 1")
    if stage.pieces > stage.hands:
        raise ValueError(f"{where}: pieces={stage.pieces} is more than hands={stage.hands}")
    if stage.learning_rate <= 0:
        raise ValueError(f"{where}: learning_rate={stage.learning_rate} must be above 0")


@dataclass
class DistillStage:
    """One step of policy improvement from the previous stage's agent."""

    #: What scores the decisions: ``deal`` every decision by deal branches (the network's four
    #: favourite actions played out on the dealt cards), ``deal-calls`` only the calls and
    #: kitty discards so, ``cards`` the card play by ``nmc``'s search.
    search: str = "deal"
    #: Hands played in the collection (split over ``pieces`` files; a kill loses one piece).
    hands: int = 24_000
    pieces: int = 4
    #: Worlds a decision of the search (``search = "cards"`` only).
    samples: int = 100
    #: Which card decisions the search scores (``search = "cards"`` only): ``all``; ``leads``,
    #: the first card of each trick; or ``nullo-declarer``, the declarer's in nullo-type
    #: contracts alone, where a preset agent is far behind the search and a fit learns the
    #: search's choices (the defenders' it did not: docs/research-log.md, "The nullo cards" and
    #: "The nullo defence").  Other than ``all``, only they are stored (``nullo-declarer``: the
    #: fit moves the nullo branch alone).
    cards: str = "all"
    #: Who plays the search's worlds out (``search = "cards"`` only): the compiled rule bot or
    #: the network itself (``nmc``'s ``rollout``).
    rollout: str = "rule"
    #: Resample the search's worlds by the learned belief model, its weights to this power
    #: (``search = "cards"`` only; 0: off; ``nmc``'s ``belief``).
    belief: float = 0.0
    #: A bot holding every seat but the network's side (a team, or one seat of three), the
    #: network's side moving on every hand; "" for self-play.
    opponent: str = "rule"
    #: Fit on the data of this stage and of the earlier distill stages that scored the same
    #: way (newest first).
    keep_earlier: bool = True
    epochs: int = 2
    learning_rate: float = 2e-4
    #: Points: the softmax temperature of the card scores, and of the calls' and discards'
    #: (0: the card temperature).
    temperature: float = 20.0
    call_temperature: float = 150.0
    #: Fit the current policy times exp(score / T) rather than the scores alone.
    anchor: bool = True
    #: Give the network the derived card-play inputs (agents.features) at this stage.
    features: bool = False
    #: Deal branches of a call try the network's favourite nullo-type call too
    #: (train.branches.DealBranches.choose; deal searches only).
    nullo_calls: bool = False
    num_envs: int = 64
    #: Processes collecting pieces side by side (one a core).
    workers: int = 2

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> "DistillStage":
        stage = cls(**_typed(cls, data, where, "a distill stage"))
        _check_choices(stage, where, {"search": SEARCHES, "cards": DISTILL_CARDS,
                                      "rollout": DISTILL_ROLLOUTS})
        _check_ranges(stage, where, ("hands", "pieces", "samples", "epochs", "num_envs",
                                     "workers"))
        for key in ("temperature", "call_temperature", "belief"):
            if getattr(stage, key) < 0:
                raise ValueError(f"{where}: {key}={getattr(stage, key)} must be at least 0")
        if stage.temperature == 0 and stage.call_temperature > 0:
            # the fit refuses it (train.distill.check_fit_options); refused here before the
            # collection rather than after it
            raise ValueError(f"{where}: temperature=0 fits the search's choices alone, so "
                             f"call_temperature={stage.call_temperature} cannot apply: set "
                             "call_temperature = 0")
        for key in ("cards", "rollout", "belief"):  # the card search's keys, off their defaults
            if getattr(stage, key) != getattr(cls, key) and stage.search != "cards":
                raise ValueError(f"{where}: {key}={getattr(stage, key)!r} sets the card search "
                                 f"(search = \"cards\"), not deal branches")
        if stage.nullo_calls and stage.search == "cards":
            raise ValueError(f"{where}: nullo_calls=true: nullo calls are candidates of deal "
                             f"branches only (search = \"deal\" or \"deal-calls\"), not of "
                             "search = \"cards\"")
        if stage.opponent:
            from agents.registry import check_spec

            try:
                check_spec(stage.opponent)
            except ValueError as err:
                raise ValueError(f"{where}: opponent={stage.opponent!r}: {err}") from None
        return stage

    def check_rules(self, rules: Rules, where: str) -> None:
        """Refuse, before anything runs, a search of nullo cards under rules without them."""
        if self.cards == "nullo-declarer" and not rules.has_nullo_calls:
            raise ValueError(f"{where}: cards={self.cards!r} searches the cards of nullo "
                             f"contracts, which these rules do not have "
                             f"({', '.join(NULLO_BIDS)} are off)")


@dataclass
class ImitateStage:
    """The previous stage's agent copies a teacher bot: its nullo-type calls and nullo discards
    along the agent's own auctions, anchored to itself elsewhere (``labels = "nullo"``,
    :mod:`train.imitate`), or its card play in nullo contracts, into the nullo branch alone
    (``labels = "nullo-cards"``, :mod:`train.nullo_play`)."""

    #: The bot whose calls and nullo discards (or nullo card play) are copied (a bot spec).
    teacher: str = "mcfast:samples=30"
    #: What is copied (:data:`IMITATE_LABELS`): ``nullo``, the teacher's nullo-type calls and its
    #: discards in nullo contracts, the other calls anchored; ``nullo-cards``, its cards in the
    #: nullo contracts of its own calls (the teacher calls and exchanges at every seat).
    labels: str = "nullo"
    #: Hands played in the collection (split over ``pieces`` files; a kill loses one piece).
    hands: int = 60_000
    pieces: int = 12
    #: The chance that the teacher's call (or nullo discard; ``nullo-cards``: card) is the one
    #: played, so that the states after a nullo call, which the network never makes, are in
    #: the data (``nullo-cards``: so that the network's own play is, DAgger).
    mix: float = 0.5
    #: Weight of the cross-entropy to the starting network on the rows not copied.
    anchor_weight: float = 3.0
    #: ``labels = "nullo"``: ``copy`` the teacher's double-nullo calls like its other nullo
    #: calls, or ``pass``: teach none (its double nullos labelled pass, the network's own
    #: double-nullo calls fitted to the teacher's call; :func:`train.imitate.pass_double_nullos`).
    double_nullo_calls: str = "copy"
    #: Share of the card decisions (outside nullo contracts) kept as anchors.
    card_anchor_share: float = 0.15
    #: ``nullo-cards``: weight of the declarer's cards against a defender's (1) in the fit.
    declarer_weight: float = 2.0
    #: ``nullo-cards``: whose cards the teacher labels (:data:`train.nullo_play.ROLES`):
    #: ``all``, or ``defenders`` alone (the network calls and plays the declarer's side, whose
    #: rows keep its own card).
    roles: str = "all"
    epochs: int = 3
    learning_rate: float = 3e-4
    #: Processes collecting pieces side by side (one a core).
    workers: int = 2

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> "ImitateStage":
        stage = cls(**_typed(cls, data, where, "an imitate stage"))
        _check_choices(stage, where, {"labels": IMITATE_LABELS,
                                      "double_nullo_calls": DOUBLE_NULLO_CALLS,
                                      "roles": NULLO_CARD_ROLES})
        if stage.roles != "all" and stage.labels != "nullo-cards":
            raise ValueError(f"{where}: roles={stage.roles!r} names whose nullo cards are "
                             f"copied (labels='nullo-cards'); labels={stage.labels!r} copies "
                             "calls")
        if stage.double_nullo_calls != "copy" and stage.labels != "nullo":
            raise ValueError(f"{where}: double_nullo_calls={stage.double_nullo_calls!r} is for "
                             f"labels='nullo'; labels={stage.labels!r} copies no call")
        _check_ranges(stage, where, ("hands", "pieces", "epochs", "workers"))
        for key in ("mix", "card_anchor_share"):
            if not 0 <= getattr(stage, key) <= 1:
                raise ValueError(f"{where}: {key}={getattr(stage, key)} must be in [0, 1]")
        for key in ("anchor_weight", "declarer_weight"):
            if getattr(stage, key) < 0:
                raise ValueError(f"{where}: {key}={getattr(stage, key)} must be at least 0")
        from agents.registry import check_spec

        try:
            check_spec(stage.teacher)
        except ValueError as err:
            raise ValueError(f"{where}: teacher={stage.teacher!r}: {err}") from None
        return stage

    def check_rules(self, rules: Rules, where: str) -> None:
        """Refuse, before anything runs, rules without a nullo-type call (nothing to copy:
        the fit would only anchor the network to itself, or no hand would be a nullo
        contract) and a teacher that cannot play them."""
        from agents.registry import make_bot

        if not rules.has_nullo_calls:
            what = ("card play in nullo contracts" if self.labels == "nullo-cards"
                    else "nullo-type calls")
            raise ValueError(f"{where}: labels={self.labels!r} copies the teacher's {what}, "
                             f"which these rules do not have ({', '.join(NULLO_BIDS)} "
                             "are off)")
        if self.double_nullo_calls != "copy" and rules.double_nullo == "off":
            raise ValueError(f"{where}: double_nullo_calls={self.double_nullo_calls!r}, but "
                             "these rules have no double nullo (double_nullo='off')")
        try:
            make_bot(self.teacher, rules)
        except ValueError as err:
            raise ValueError(f"{where}: teacher={self.teacher!r}: {err}") from None


@dataclass
class PipelineConfig:
    """The whole recipe: the game, the evaluation between stages, and the stages."""

    seed: int = 1
    rules: str = "australian-no-nullo"
    eval_deals: int = 200
    eval_opponents: list[str] = field(default_factory=lambda: ["rule", "mcfast"])
    eval_seed: int = EVAL_SEED
    #: Deals of the last stage's evaluation, the final table.
    final_eval_deals: int = 500
    #: Processes for the evaluations.
    eval_workers: int = 1
    #: Where the PPO stages run (cpu, cuda, cuda:N, mps), unless a stage says otherwise.
    device: str = "cpu"
    #: An agent the first stage starts from (a checkpoint, a run directory or a shipped name,
    #: trained under the pipeline's rules): a PPO stage's ``init_policy``, the player of a
    #: distill stage.  Empty: the first stage is PPO from scratch.
    init: str = ""
    #: Each stage as its table: ``kind`` and that kind's keys.
    stages: list[dict[str, Any]] = field(default_factory=list)

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PipelineConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown pipeline key(s) {', '.join(unknown)}; the pipeline's "
                             f"keys are {', '.join(sorted(known))} (stage keys go in "
                             "[[stages]] tables)")
        return cls(**data).validate()

    @classmethod
    def from_toml(cls, path: str | Path) -> "PipelineConfig":
        try:
            return cls.from_dict(read_toml(Path(path), "config file"))
        except UnicodeDecodeError:
            raise ValueError(f"config file {path} is not a text (TOML) file") from None
        except ValueError as err:
            raise ValueError(f"config file {path}: {err}") from None

    def override(self, assignments: list[str]) -> "PipelineConfig":
        """``key=value`` for the pipeline's own keys (not the stages')."""
        data = dataclasses.asdict(self)
        for text in assignments:
            key, sep, raw = text.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in data or key == "stages":
                keys = ", ".join(sorted(k for k in data if k != "stages"))
                raise ValueError(f"bad override {text!r}: a pipeline takes key=value with a key "
                                 f"among {keys} (a stage's keys are set in its [[stages]] table)")
            data[key] = _parse_value(raw.strip())
        return PipelineConfig.from_dict(data)

    def validate(self) -> "PipelineConfig":
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise ValueError(f"seed={self.seed!r} must be an integer")
        for key in ("eval_deals", "final_eval_deals", "eval_workers"):
            value = getattr(self, key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{key}={value!r} must be an integer at least 1")
        if not isinstance(self.eval_opponents, list) or not all(
                isinstance(s, str) for s in self.eval_opponents):
            raise ValueError(f"eval_opponents={self.eval_opponents!r} must be a list of bot specs")
        from agents.registry import check_spec

        for spec in self.eval_opponents:
            check_spec(spec)
        load_rules(self.rules)
        if not self.stages:
            raise ValueError("a pipeline needs at least one [[stages]] table")
        if not all(isinstance(s, dict) for s in self.stages):
            raise ValueError("each stage must be a [[stages]] table")
        for i in range(len(self.stages)):
            self.kind(i)
            sizes = self.stages[i].get("players", list(TABLE_SIZES))
            if not isinstance(sizes, list) or not sizes or any(p not in TABLE_SIZES
                                                                for p in sizes):
                raise ValueError(f"stage {i + 1}: players={sizes!r} must be a list of table "
                                 f"sizes among {', '.join(map(str, TABLE_SIZES))}")
        if not self.active_stages():
            raise ValueError(f"no stage runs at {load_rules(self.rules).players} players "
                             f"(rules={self.rules!r}): each stage's players key leaves it out")
        for i in self.active_stages():
            self.stage(i)  # every stage that runs is checked before anything runs
        if not isinstance(self.init, str):
            raise ValueError(f"init={self.init!r} must be an agent: a checkpoint, a run "
                             "directory or a shipped name")
        if self.init:
            self._check_init()
        elif self.kind(self.active_stages()[0]) in IMPROVING:
            raise ValueError(f"the first stage is kind={self.kind(self.active_stages()[0])!r}, "
                             "which improves an agent: give the pipeline an init agent, or put "
                             "a ppo stage first")
        return self

    def _check_init(self) -> None:
        """The init agent exists and plays exactly the pipeline's rules (its checkpoint is
        read): the distill stages collect under the agent's own rules."""
        from agents.neural import NeuralBot

        try:
            NeuralBot.load(self.init).check_rules(load_rules(self.rules))
        except ValueError as err:
            raise ValueError(f"init={self.init!r}: {err}") from None

    def active_stages(self) -> list[int]:
        """The stages that run under the pipeline's rules (a stage's ``players`` key lists the
        table sizes it runs at: a recipe can give 4 players stages of their own)."""
        players = load_rules(self.rules).players
        return [i for i, table in enumerate(self.stages)
                if players in table.get("players", TABLE_SIZES)]

    # ------------------------------------------------------------------ the stages
    def kind(self, i: int) -> str:
        kind = self.stages[i].get("kind")
        if kind not in KINDS:
            raise ValueError(f"stage {i + 1}: kind={kind!r} must be one of {', '.join(KINDS)}")
        return kind

    def stage(self, i: int, init_policy: str = "") -> TrainConfig | DistillStage | ImitateStage:
        """Stage ``i``'s settings: a PPO stage's config (rules and seed from the pipeline, the
        previous agent as its ``init_policy``), a distill or an imitate stage."""
        where = f"stage {i + 1} ({self.kind(i)})"
        table = {k: v for k, v in self.stages[i].items() if k not in ("kind", "players")}
        if self.kind(i) == "distill":
            distill = DistillStage.from_dict(table, where)
            distill.check_rules(load_rules(self.rules), where)
            return distill
        if self.kind(i) == "imitate":
            imitate = ImitateStage.from_dict(table, where)
            imitate.check_rules(load_rules(self.rules), where)
            return imitate
        for key in ("rules", "seed"):
            if key in table:
                raise ValueError(f"{where}: {key} is the pipeline's, not a stage's")
        data = dict(table, rules=self.rules, seed=self.seed + 1000 * i,
                    final_eval_opponents=[], eval_every=table.get("eval_every", 0),
                    device=table.get("device", self.device))
        if init_policy:  # the agent of the stage before (a later PPO stage starts from it)
            data["init_policy"] = init_policy
        try:
            return TrainConfig.from_dict(data).validate()
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None

    def stage_dir(self, run_dir: Path, i: int) -> Path:
        return run_dir / f"stage-{i + 1}-{self.kind(i)}"


def is_pipeline(path: str | Path) -> bool:
    """Whether a config file is a pipeline (it has ``[[stages]]``)."""
    try:
        return "stages" in read_toml(Path(path), "config file")
    except (ValueError, OSError, UnicodeDecodeError):
        return False  # the plain config reader gives the error


# ---------------------------------------------------------------------- running
def run_pipeline(cfg: PipelineConfig, run_dir: Path, progress: bool = True,
                 after_stage: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run (or resume) every stage of ``cfg`` in ``run_dir``; return the final evaluation
    (opponent spec -> :class:`arena.results.DuplicateResult`).  ``after_stage(i)`` is called
    when stage ``i`` is recorded (the tests kill the run there)."""
    from torch.utils.tensorboard import SummaryWriter

    from agents.neural import resolve_checkpoint

    run_dir.mkdir(parents=True, exist_ok=True)
    _write_json(run_dir / "pipeline.json", dataclasses.asdict(cfg))
    done = _read_stages(run_dir)
    writer = SummaryWriter(str(run_dir))
    agent = str(resolve_checkpoint(cfg.init)) if cfg.init else ""
    try:
        active = cfg.active_stages()
        for pos, i in enumerate(active):
            stage_dir = cfg.stage_dir(run_dir, i)
            if pos < len(done):
                agent = done[pos]["agent"]
                continue
            started = time.perf_counter()
            print(f"fh-train: stage {pos + 1}/{len(active)} ({cfg.kind(i)}) in {stage_dir}",
                  file=sys.stderr, flush=True)
            if cfg.kind(i) == "ppo":
                agent = _ppo_stage(cfg.stage(i, agent), stage_dir, run_dir, progress)
            else:
                agent = _IMPROVERS[cfg.kind(i)](cfg, i, agent, stage_dir, progress)
            seconds = time.perf_counter() - started
            last = pos == len(active) - 1
            results = evaluate_agent(cfg, agent, cfg.final_eval_deals if last else cfg.eval_deals,
                                     progress)
            for spec, r in results.items():
                name = spec.replace(":", "_").replace(",", "_").replace("=", "")
                writer.add_scalar(f"pipeline/vs_{name}", r.mean, i + 1)
                writer.add_scalar(f"pipeline/vs_{name}_ci_low", r.ci_low, i + 1)
            writer.add_scalar("pipeline/stage_seconds", seconds, i + 1)
            writer.flush()
            done.append({"stage": i + 1, "kind": cfg.kind(i), "agent": agent,
                         "seconds": seconds, "eval_seed": cfg.eval_seed,
                         "results": {s: r.to_dict() for s, r in results.items()}})
            _write_json(run_dir / "stages.json", done)
            if after_stage is not None:
                after_stage(i)
    finally:
        writer.close()
    best = run_dir / "best.pt"
    _copy_atomic(Path(agent), best)
    from arena.results import DuplicateResult

    final = {s: DuplicateResult(**{k: v for k, v in r.items() if k != "games"})
             for s, r in done[-1]["results"].items()}
    _write_json(run_dir / "eval.json", {"agent": str(best), "stages": len(done),
                                        "seconds": sum(d["seconds"] for d in done),
                                        "results": done[-1]["results"]})
    return final


def evaluate_agent(cfg: PipelineConfig, agent: str, deals: int,
                   progress: bool) -> dict[str, Any]:
    """The agent against each of ``eval_opponents`` on the fixed held-out deals."""
    from arena.duplicate import duplicate

    return {spec: duplicate(f"neural:{agent}", spec, cfg.rules, deals=deals,
                            seed=cfg.eval_seed, workers=cfg.eval_workers, progress=progress)
            for spec in cfg.eval_opponents}


def _ppo_stage(stage: TrainConfig, stage_dir: Path, run_dir: Path, progress: bool) -> str:
    """Imitation and PPO, resumed from the stage's checkpoint if it has one."""
    from .checkpoint import read_checkpoint
    from .run import train

    checkpoint = stage_dir / "checkpoint.pt"
    resume = read_checkpoint(checkpoint) if checkpoint.exists() else None
    train(stage, stage_dir, resume, progress=progress, final_eval=False, log_dir=run_dir)
    return str(stage_dir / "agent.pt")


def _distill_stage(cfg: PipelineConfig, i: int, agent: str, stage_dir: Path,
                   progress: bool) -> str:
    """Collect the stage's pieces (those already written are kept), then fit."""
    from .distill import fit_agent

    stage = cfg.stage(i)
    assert isinstance(stage, DistillStage)
    out = stage_dir / "agent.pt"
    if not out.exists():
        pieces = _collect_stage(cfg, i, agent, stage_dir, stage, progress)
        earlier = _earlier_pieces(cfg, i, stage, stage_dir) if stage.keep_earlier else []
        fit_agent(agent, pieces + earlier, out, epochs=stage.epochs,
                  learning_rate=stage.learning_rate, temperature=stage.temperature,
                  call_temperature=stage.call_temperature or None, anchor=stage.anchor,
                  features=stage.features, seed=cfg.seed + i, progress=progress)
    return str(out)


def _imitate_stage(cfg: PipelineConfig, i: int, agent: str, stage_dir: Path,
                   progress: bool) -> str:
    """Collect the stage's pieces (those already written are kept), then fit."""
    stage = cfg.stage(i)
    assert isinstance(stage, ImitateStage)
    out = stage_dir / "agent.pt"
    if not out.exists():
        pieces = _collect_stage(cfg, i, agent, stage_dir, stage, progress)
        weights = ({"declarer_weight": stage.declarer_weight} if stage.labels == "nullo-cards"
                   else {"labels": stage.labels, "anchor_weight": stage.anchor_weight,
                         "double_nullo_calls": stage.double_nullo_calls})
        imitate_recipe(stage.labels).fit_agent(
            agent, pieces, out, epochs=stage.epochs, learning_rate=stage.learning_rate,
            seed=cfg.seed + i, progress=progress, **weights)
    return str(out)


def imitate_recipe(labels: str) -> ModuleType:
    """The module that collects and fits an imitate stage's ``labels``: the one place the two
    recipes part (imported here, lazily, as every stage's training code is)."""
    if labels == "nullo-cards":
        from . import nullo_play

        return nullo_play
    if labels == "nullo":
        from . import imitate

        return imitate
    raise ValueError(f"labels={labels!r} must be one of {', '.join(IMITATE_LABELS)}")


def _collect_imitation(agent: str, stage: dict[str, Any], hands: int, seed: int, path: str,
                       progress: bool = False) -> None:
    """One piece of an imitate stage (the stage as a dict), by its labels' recipe."""
    imitate_recipe(stage["labels"]).collect_piece(agent, stage, hands, seed, path, progress)


#: The stages that improve the agent they are given: kind -> runner.
_IMPROVERS: dict[str, Callable[[PipelineConfig, int, str, Path, bool], str]] = {
    "distill": _distill_stage, "imitate": _imitate_stage}


def _collect_stage(cfg: PipelineConfig, i: int, agent: str, stage_dir: Path,
                   stage: DistillStage | ImitateStage, progress: bool) -> list[Path]:
    """Collect the pieces of stage ``i`` not yet written; return all of them."""
    if not agent:
        raise ValueError(f"stage {i + 1}: a {cfg.kind(i)} stage needs an agent from a stage "
                         "before it")
    stage_dir.mkdir(parents=True, exist_ok=True)
    pieces = [stage_dir / f"piece-{k + 1}.npz" for k in range(stage.pieces)]
    share = [stage.hands // stage.pieces + (k < stage.hands % stage.pieces)
             for k in range(stage.pieces)]
    jobs = [(cfg.kind(i), agent, dataclasses.asdict(stage), share[k], _piece_seed(cfg, i, k),
             str(path)) for k, path in enumerate(pieces) if not path.exists()]
    _collect_pieces(jobs, min(stage.workers, len(jobs)), progress)
    return pieces


def _earlier_pieces(cfg: PipelineConfig, i: int, stage: DistillStage,
                    stage_dir: Path) -> list[Path]:
    """The pieces of the earlier distill stages that scored as ``stage`` does (the same
    ``search``, the same ``cards``), newest first."""
    earlier: list[Path] = []
    for j in reversed([j for j in cfg.active_stages() if j < i]):
        if (cfg.kind(j) == "distill" and cfg.stages[j].get("search", "deal") == stage.search
                and cfg.stages[j].get("cards", "all") == stage.cards):
            found = sorted(cfg.stage_dir(stage_dir.parent, j).glob("piece-*.npz"))
            if not found:  # a run copied without its collections (state/ folders)
                print(f"fh-train: warning: stage {i + 1} keeps earlier data, but stage "
                      f"{j + 1}'s pieces are not in {cfg.stage_dir(stage_dir.parent, j)}"
                      ": fitting without them", file=sys.stderr, flush=True)
            earlier += found
    return earlier


def _collect_pieces(jobs: list[tuple], workers: int, progress: bool) -> None:
    """Collect the pieces ``jobs`` describes (each its stage's kind, then the collector's
    arguments), ``workers`` processes side by side (each piece written atomically as it
    ends: a kill loses only the pieces in hand)."""
    if workers <= 1:
        for kind, *job in jobs:
            _collector(kind)(*job, progress=progress)
        return
    from arena.duplicate import progress_bar
    from arena.pool import process_pool

    bar = progress_bar(len(jobs), "pieces", progress)
    # spawned: a forked child of a process whose torch thread pool runs can hang
    with process_pool(workers) as pool:
        for _ in pool.imap_unordered(_collect_job, jobs):
            bar.update(1)
        pool.close()  # let the workers exit: terminated ones leave their semaphores behind
        pool.join()
    bar.close()


def _collect_job(job: tuple) -> None:
    import torch

    torch.set_num_threads(1)  # one process a core
    kind, *args = job
    _collector(kind)(*args, progress=False)


def _collector(kind: str) -> Callable[..., None]:
    """The function that collects one piece of a stage of ``kind``."""
    return _collect_imitation if kind == "imitate" else collect_piece


def collect_piece(agent: str, stage: dict[str, Any], hands: int, seed: int, path: str,
                  progress: bool = False) -> None:
    """One piece of a distill stage's collection: ``agent`` plays (against ``stage``'s
    opponent), its decisions scored as ``stage`` says, written to ``path``."""
    from agents.neural import NeuralBot

    from . import distill

    samples = (f",samples={stage['samples']},cards={stage.get('cards', 'all')},"
               f"rollout={stage.get('rollout', 'rule')},belief={stage.get('belief', 0.0)}"
               if stage["search"] == "cards" else "")
    teacher = distill.make_teacher(f"nmc:{agent}{samples}", stage["search"])
    player = NeuralBot.load(agent, greedy=True)
    cards, deal = distill.SEARCH_PARTS[stage["search"]]
    data = distill.collect(teacher, hands, seed, stage["num_envs"], player, progress=progress,
                           opponent=stage["opponent"] or None, cards=cards, deal=deal,
                           nullo_calls=stage.get("nullo_calls", False))
    distill.save_data(data, teacher.network.rules, path)


def _piece_seed(cfg: PipelineConfig, stage: int, piece: int) -> int:
    """The seed of one collected piece: distinct for every stage and piece of a run."""
    return cfg.seed * 1_000_003 + stage * 1009 + piece


def _read_stages(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "stages.json"
    if not path.exists():
        return []
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"{path} cannot be read ({err}); "
                         "it records the finished stages") from None


def _write_json(path: Path, data: Any) -> None:
    from arena.results import dumps_json

    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(dumps_json(data) + "\n", encoding="utf-8")
    tmp.replace(path)


def _copy_atomic(source: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    shutil.copyfile(source, tmp)
    tmp.replace(target)


def format_stages(run_dir: Path) -> str:
    """The finished stages: each one's wall time and points a deal against each opponent."""
    lines = [f"{'stage':<16}{'minutes':>8}  points a deal (95% CI), {'held-out deals'}"]
    for d in _read_stages(run_dir):
        results = "  ".join(f"{s} {r['mean']:+.1f} [{_num(r['ci_low'])}, {_num(r['ci_high'])}]"
                            for s, r in d["results"].items())
        lines.append(f"{d['stage']}. {d['kind']:<13}{d['seconds'] / 60:>8.1f}  {results}")
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"
