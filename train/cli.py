"""``fh-train``: run (or resume) PPO self-play training, or a pipeline of stages.

This module is the command line only: it builds the config (or the pipeline's,
:mod:`train.pipeline`), refuses bad input with one line and status 2, and hands over to
:func:`train.run.train` or :func:`train.pipeline.run_pipeline`.  What a run directory holds: :mod:`train.run`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any, Sequence

from .config import TrainConfig, field_docs

# torch (train.checkpoint, agents.neural) is imported only once the command line has been
# checked, so a bad argument is refused at once.

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
               "  fh-train --config configs/train/strong.toml --run-dir runs/strong\n"
               "      # a pipeline: [[stages]] of ppo and distill in one run (train/pipeline.py);\n"
               "      # it takes --rules, --seed, --device and --set for its own keys\n"
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

    from .run import train

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
    print(f"fh-train: {verb} {run_dir} ({len(cfg.active_stages())} stages)", flush=True)
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


def format_table(results: dict[str, Any]) -> str:
    from .evaluation import format_table as fmt

    return fmt(results)


if __name__ == "__main__":
    sys.exit(main())
