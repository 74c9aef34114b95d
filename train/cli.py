"""``fh-train``: run (or resume) PPO self-play training with TensorBoard logs and checkpoints.

A run directory holds ``config.toml`` / ``config.json`` / ``rules.toml`` (everything the run
was started with), TensorBoard event files, ``checkpoint.pt`` (the whole training state,
rewritten atomically every ``checkpoint_every`` updates and at the end), ``agent.pt`` (the
policy alone, small enough to ship, written with each checkpoint) and ``eval.json`` (the final
evaluation table).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .config import TrainConfig, field_docs

# torch (train.checkpoint, agents.neural) is imported only once the command line has been
# checked, so a bad argument is refused at once.

CHARTS = {"policy": "losses/policy", "value": "losses/value", "entropy": "losses/entropy",
          "approx_kl": "losses/approx_kl", "clipfrac": "losses/clipfrac",
          "explained_variance": "losses/explained_variance", "teacher_ce": "losses/teacher_ce",
          "steps_per_second": "charts/steps_per_second", "learning_rate": "charts/learning_rate"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fh-train",
        description="PPO self-play training for Five Hundred. Settings come from the defaults, "
                    "then --config, then --set and the per-field flags (last wins). The full "
                    "configuration and rules are written into the run directory; TensorBoard "
                    "logs go there too (tensorboard --logdir RUN_DIR). The run ends with a "
                    "duplicate evaluation table against the final_eval_opponents.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  fh-train --config configs/train/quick.toml --run-dir runs/quick\n"
               "  fh-train --config configs/train/default.toml --set num_envs=128 --seed 3\n"
               "  fh-train --config configs/train/quick.toml --workers 2   # on 2 Ray workers\n"
               "  fh-train --resume runs/quick            # continue where its checkpoint left\n"
               "  fh-train --resume runs/quick --set total_steps=4000000   # and train longer")
    parser.add_argument("--config", type=Path, help="a TOML file of config fields "
                        "(configs/train/quick.toml, default.toml, long.toml)")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override one config field (repeatable); "
                        "values in TOML syntax, lists also as a,b,c")
    parser.add_argument("--run-dir", type=Path, help="where logs and checkpoints go "
                        "(default runs/<time>); refused if it already holds a checkpoint")
    parser.add_argument("--resume", type=Path, metavar="RUN_DIR",
                        help="continue the run in RUN_DIR exactly where its last checkpoint "
                        "left it (its saved config, plus any --set overrides)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    group = parser.add_argument_group(
        "config fields", "each field of train.config.TrainConfig as a flag (same as --set)")
    docs = field_docs()
    defaults = TrainConfig().to_dict()
    for f in fields(TrainConfig):
        default = defaults[f.name]
        shown = ",".join(map(str, default)) if isinstance(default, list) else default
        group.add_argument("--" + f.name.replace("_", "-"), dest="field_" + f.name,
                           metavar=f.name.upper(),
                           help=f"{docs.get(f.name, '')} (default: {shown})".replace("%", "%%"))
    return parser


def make_config(args: argparse.Namespace) -> tuple[TrainConfig, dict[str, Any] | None]:
    """The run's config (and the checkpoint data to resume from, when resuming)."""
    assignments = list(args.overrides)
    for f in fields(TrainConfig):
        value = getattr(args, "field_" + f.name)
        if value is not None:
            assignments.append(f"{f.name}={value}")
    if args.resume is not None:
        if args.config is not None:
            raise ValueError("--resume continues a run with its own saved config; "
                             "--config cannot be combined with it (use --set to change fields)")
        if not args.resume.is_dir():
            raise ValueError(f"--resume {args.resume}: not a run directory")
        from .checkpoint import read_checkpoint

        data = read_checkpoint(args.resume / "checkpoint.pt")
        if "config" not in data or "train" not in data:
            raise ValueError(f"checkpoint {args.resume / 'checkpoint.pt'} holds an agent only, "
                             "not a training state (it cannot be resumed)")
        cfg = TrainConfig.from_dict(data["config"]).override(assignments)
        return cfg.validate().check_ray(), data
    cfg = TrainConfig.from_toml(args.config) if args.config else TrainConfig()
    return cfg.override(assignments).validate().check_ray(), None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .pipeline import is_pipeline

    if (args.config is not None and is_pipeline(args.config)) or (
            args.resume is not None and (args.resume / "pipeline.json").exists()):
        return pipeline_main(args)
    try:
        cfg, resume_data = make_config(args)
        if args.resume is not None:
            run_dir = args.resume
        else:
            run_dir = args.run_dir or Path("runs") / time.strftime("%Y%m%d-%H%M%S")
            if run_dir.exists() and not run_dir.is_dir():
                raise ValueError(f"--run-dir {run_dir} is a file, not a directory")
            if (run_dir / "checkpoint.pt").exists():
                raise ValueError(f"{run_dir} already holds a run (checkpoint.pt); "
                                 f"use --resume {run_dir} or another --run-dir")
    except (ValueError, OSError) as err:  # CheckpointError is a ValueError
        print(f"fh-train: error: {_one_line(err)}", file=sys.stderr)
        return 2
    verb = "resuming the run in" if resume_data is not None else "run directory:"
    print(f"fh-train: {verb} {run_dir}", flush=True)
    from .checkpoint import CheckpointError
    from .workers import WorkerError

    try:
        results = train(cfg, run_dir, resume_data, progress=not args.no_progress)
    except (CheckpointError, WorkerError) as err:
        print(f"fh-train: error: {_one_line(err)}", file=sys.stderr)
        return 2
    print(format_table(results))
    print(f"fh-train: run directory {run_dir} (checkpoint.pt, agent.pt, eval.json; "
          f"tensorboard --logdir {run_dir})", flush=True)
    return 0


#: The config-field flags a pipeline takes on the command line (its stages' fields are set in
#: its [[stages]] tables).
PIPELINE_FLAGS = ("rules", "seed", "device")


def pipeline_main(args: argparse.Namespace) -> int:
    """``fh-train --config PIPELINE.toml`` (a config with [[stages]]), or its ``--resume``."""
    from .pipeline import PipelineConfig, format_stages, run_pipeline

    try:
        assignments = list(args.overrides)
        for f in fields(TrainConfig):
            value = getattr(args, "field_" + f.name)
            if value is None:
                continue
            if f.name not in PIPELINE_FLAGS:
                raise ValueError(f"--{f.name.replace('_', '-')}: a pipeline's stages take their "
                                 "fields in its [[stages]] tables; on the command line it takes "
                                 + ", ".join(f"--{n}" for n in PIPELINE_FLAGS)
                                 + " and --set for its own keys")
            assignments.append(f"{f.name}={value}")
        if args.resume is not None:
            if args.config is not None or assignments:
                raise ValueError("--resume continues a pipeline with its own saved config "
                                 f"({args.resume / 'pipeline.json'}); it takes no --config, "
                                 "--set or field flags")
            run_dir = args.resume
            cfg = PipelineConfig.from_dict(json.loads(
                (run_dir / "pipeline.json").read_text(encoding="utf-8")))
        else:
            cfg = PipelineConfig.from_toml(args.config).override(assignments)
            run_dir = args.run_dir or Path("runs") / time.strftime("%Y%m%d-%H%M%S")
            if run_dir.exists() and not run_dir.is_dir():
                raise ValueError(f"--run-dir {run_dir} is a file, not a directory")
            if (run_dir / "pipeline.json").exists() or (run_dir / "checkpoint.pt").exists():
                raise ValueError(f"{run_dir} already holds a run; use --resume {run_dir} or "
                                 "another --run-dir")
    except (ValueError, OSError) as err:  # CheckpointError is a ValueError
        print(f"fh-train: error: {_one_line(err)}", file=sys.stderr)
        return 2
    verb = "resuming the pipeline in" if args.resume is not None else "pipeline run directory:"
    print(f"fh-train: {verb} {run_dir} ({len(cfg.stages)} stages)", flush=True)
    from .checkpoint import CheckpointError
    from .workers import WorkerError

    try:
        results = run_pipeline(cfg, run_dir, progress=not args.no_progress)
    except (CheckpointError, WorkerError, ValueError) as err:
        print(f"fh-train: error: {_one_line(err)}", file=sys.stderr)
        return 2
    print(format_stages(run_dir))
    print(format_table(results))
    print(f"fh-train: agent {run_dir / 'best.pt'} (neural:{run_dir / 'best.pt'}); "
          f"tensorboard --logdir {run_dir}", flush=True)
    return 0


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())


def train(cfg: TrainConfig, run_dir: Path, resume_data: dict[str, Any] | None = None,
          progress: bool = True, final_eval: bool = True,
          on_update: Callable[[Any], None] | None = None,
          collector: Callable[[Any], Any] | None = None,
          log_dir: Path | None = None) -> dict[str, Any]:
    """Train until ``cfg.total_steps``; return the final evaluation results (or {}).

    Rollouts come from the trainer itself, or with ``cfg.workers > 1`` / ``cfg.ray_address``
    from Ray workers (:mod:`train.workers`), or from ``collector`` when given (a
    :class:`train.workers.LocalWorkers`, say).  ``on_update(trainer)`` is called after every
    update (the tests use it).  ``log_dir``: where the TensorBoard events go (default
    ``run_dir``; a pipeline logs all its stages in its own run directory, as one run)."""
    from .ppo import Trainer

    trainer = Trainer(cfg)
    checkpoint = run_dir / "checkpoint.pt"
    if resume_data is not None:
        from .checkpoint import load_into

        load_into(trainer, resume_data, checkpoint)  # checks everything before changing state
    elif cfg.init_policy:
        from .checkpoint import load_initial_policy

        load_initial_policy(trainer, cfg.init_policy)
    if collector is None and cfg.uses_ray:
        from .workers import make_workers

        collector = make_workers(cfg)
    trainer.collector = collector
    try:
        return _train(trainer, run_dir, resume_data, progress, final_eval, on_update,
                      log_dir or run_dir)
    finally:
        close = getattr(collector, "close", None)
        if close is not None:
            close()


def _train(trainer: Any, run_dir: Path, resume_data: dict[str, Any] | None, progress: bool,
           final_eval: bool, on_update: Callable[[Any], None] | None,
           log_dir: Path) -> dict[str, Any]:
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    from . import evaluation
    from .checkpoint import export_agent, save_atomic, state_of

    cfg = trainer.cfg
    checkpoint = run_dir / "checkpoint.pt"
    cfg.save(run_dir)
    writer = SummaryWriter(str(log_dir), purge_step=trainer.global_step or None)
    if resume_data is None:
        writer.add_text("hyperparameters", _markdown_table(cfg.to_dict()), 0)
        writer.add_text("rules", _markdown_table(trainer.rules.to_dict()), 0)
    started = time.perf_counter()
    if not trainer.bc_done:
        warm_start(trainer, writer, progress)
        save_atomic(state_of(trainer), checkpoint)
    bar = tqdm(total=cfg.total_steps, initial=trainer.global_step, unit="step",
               disable=not progress, dynamic_ncols=True)
    while trainer.global_step < cfg.total_steps:
        stats = trainer.train_update()
        step = trainer.global_step
        for key, tag in CHARTS.items():
            if key in stats:
                writer.add_scalar(tag, stats[key], step)
        all_returns = [r for rs in stats["returns"].values() for r in rs]
        if all_returns:
            writer.add_scalar("charts/episodic_return", float(np.mean(all_returns)), step)
        for kind, rs in stats["returns"].items():
            writer.add_scalar(f"league/return_vs_{kind}", float(np.mean(rs)), step)
        writer.add_scalar("league/snapshots", len(trainer.league.snapshots), step)
        bar.update(stats["steps"])
        bar.set_postfix(update=trainer.update, ret=f"{np.mean(all_returns or [0]):.0f}",
                        kl=f"{stats.get('approx_kl', 0):.3f}")
        if cfg.eval_every and trainer.update % cfg.eval_every == 0:
            evaluation.log_evaluation(writer, trainer, cfg.eval_opponents, cfg.eval_deals, step)
            if cfg.keep_eval_agents:
                export_agent(trainer, run_dir / "evals" / f"agent-{step:010d}.pt")
        if trainer.update % cfg.checkpoint_every == 0:
            save_atomic(state_of(trainer), checkpoint)
            export_agent(trainer, run_dir / "agent.pt")
        if on_update is not None:
            on_update(trainer)
    bar.close()
    save_atomic(state_of(trainer), checkpoint)
    export_agent(trainer, run_dir / "agent.pt")
    results: dict[str, Any] = {}
    if final_eval:
        results = evaluation.log_evaluation(writer, trainer, cfg.final_eval_opponents,
                                            cfg.final_eval_deals, trainer.global_step)
        write_eval_json(run_dir / "eval.json", results,
                        train_seconds_this_session=time.perf_counter() - started,
                        updates=trainer.update, global_step=trainer.global_step)
    writer.close()
    return results


def write_eval_json(path: Path, results: dict[str, Any], **summary: Any) -> Path:
    """Write the final evaluation as strict JSON, atomically: the summary fields and
    ``results``, opponent spec -> :meth:`arena.results.DuplicateResult.to_dict` (a
    non-finite number, such as the interval of a single deal, is written as null)."""
    from arena.results import dumps_json

    text = dumps_json(dict(summary, results={spec: r.to_dict() for spec, r in results.items()}))
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def warm_start(trainer: Any, writer: Any, progress: bool) -> None:
    """The imitation warm start (train.imitation), logged under bc/ by hands imitated."""
    from tqdm import tqdm

    from agents.registry import make_bot

    from .imitation import warm_start as imitation

    cfg = trainer.cfg
    with tqdm(total=cfg.bc_hands, unit="hand", desc=f"imitating {cfg.bc_teacher}",
              disable=not progress, dynamic_ncols=True) as bar:
        for hands, stats in imitation(trainer, make_bot(cfg.bc_teacher)):
            writer.add_scalar("bc/cross_entropy", stats["cross_entropy"], hands)
            writer.add_scalar("bc/accuracy", stats["accuracy"], hands)
            bar.set_postfix(acc=f"{stats['accuracy']:.3f}")
            bar.update(hands - bar.n)


def format_table(results: dict[str, Any]) -> str:
    from .evaluation import format_table as fmt

    return fmt(results)


def _markdown_table(data: dict[str, Any]) -> str:
    return "| key | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in data.items())


if __name__ == "__main__":
    sys.exit(main())
