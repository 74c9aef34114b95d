"""The training loop of one PPO run: imitation warm start, then updates until ``total_steps``,
with TensorBoard logs, periodic evaluations and checkpoints (:func:`train`).

A run directory holds ``config.toml`` / ``config.json`` / ``rules.toml`` (everything the run
was started with), TensorBoard event files, ``checkpoint.pt`` (the whole training state,
rewritten atomically every ``checkpoint_every`` updates and at the end), ``agent.pt`` (the
policy alone, small enough to ship, written with each checkpoint) and ``eval.json`` (the final
evaluation table).  ``fh-train`` (:mod:`train.cli`) and the pipeline's PPO stages
(:mod:`train.pipeline`) both run it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .config import TrainConfig

CHARTS = {"policy": "losses/policy", "value": "losses/value", "entropy": "losses/entropy",
          "approx_kl": "losses/approx_kl", "clipfrac": "losses/clipfrac",
          "explained_variance": "losses/explained_variance", "teacher_ce": "losses/teacher_ce",
          "steps_per_second": "charts/steps_per_second", "learning_rate": "charts/learning_rate"}


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
    if progress:  # start-up work gets its own line, so the bar never sits silent at 0
        print(f"fh-train: preparing the imitation of {cfg.bc_teacher} (its games, "
              "and on a fresh install the compiled core)", file=sys.stderr, flush=True)
    from arena.warm import warm_if_cold

    warm_if_cold(trainer.rules)  # compile in parallel now, not inside the bar's first chunk
    with tqdm(total=cfg.bc_hands, unit="hand", desc=f"imitating {cfg.bc_teacher}",
              disable=not progress, dynamic_ncols=True) as bar:
        for hands, stats in imitation(trainer, make_bot(cfg.bc_teacher)):
            writer.add_scalar("bc/cross_entropy", stats["cross_entropy"], hands)
            writer.add_scalar("bc/accuracy", stats["accuracy"], hands)
            bar.set_postfix(acc=f"{stats['accuracy']:.3f}")
            bar.update(hands - bar.n)


def _markdown_table(data: dict[str, Any]) -> str:
    return "| key | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in data.items())
