"""Timing helpers shared by the benchmarks: timed loops, medians over interleaved rounds, machine
information and the JSON record of a run.

Rates are given per wall-clock second and per CPU second of this process: on a machine busy with
other jobs the CPU-second figures move less, and ratios of two systems measured in the same round
(the same load) move least of all, so those are the headline.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import statistics
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Mapping

from fh_env.rules import PRESETS

Work = Callable[[], tuple[int, int]]
"""One slice of work: plays some episodes and returns (agent steps, episodes) it played."""


def timed(work: Work, seconds: float) -> dict[str, float]:
    """Call ``work`` until ``seconds`` of this process's CPU time have passed; the rates of steps
    and episodes per CPU second and per wall second."""
    steps = episodes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        s, e = work()
        steps += s
        episodes += e
        cpu_s = time.process_time() - cpu
        if cpu_s >= seconds:
            wall_s = time.perf_counter() - wall
            return {"steps_per_cpu_s": steps / cpu_s, "episodes_per_cpu_s": episodes / cpu_s,
                    "steps_per_s": steps / wall_s, "episodes_per_s": episodes / wall_s,
                    "steps_per_episode": steps / max(episodes, 1)}


def rounds(systems: Mapping[str, Callable[[], dict[str, float]]],
           runs: int) -> list[dict[str, dict[str, float]]]:
    """``runs`` rounds, each calling every system once in turn, so that a change of machine
    load hits every system of a round alike."""
    return [{name: measure() for name, measure in systems.items()} for _ in range(runs)]


def median_figures(samples: list[Mapping[str, float]]) -> dict[str, float]:
    """The median of each figure over the samples (all with the same keys)."""
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def medians(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per system, the median of each figure over the rounds of :func:`rounds`."""
    return {name: median_figures([r[name] for r in runs]) for name in runs[0]}


def median_ratio(runs: list[dict[str, dict[str, float]]], ours: str, reference: str,
                 figure: str) -> float:
    """The median over rounds of ``figure`` of ``ours`` divided by that of ``reference`` in the
    same round."""
    return statistics.median(r[ours][figure] / r[reference][figure] for r in runs)


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def machine_info() -> dict[str, Any]:
    """What the figures depend on: CPUs, Python, the versions of the libraries measured."""
    return {
        "cpu_count": os.cpu_count(),
        "affinity_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else None,
        "processor": platform.processor() or platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "packages": {name: _version(name) for name in
                     ("numpy", "numba", "pettingzoo", "gymnasium", "open-spiel")},
        "load_average": load_average(),
    }


def timestamp() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def default_json_path(stamp: str, root: Path | None = None) -> Path:
    """``bench/results/<timestamp>.json`` (the folder is git-ignored)."""
    root = root or Path(__file__).resolve().parent / "results"
    return root / (stamp.replace(":", "").replace("+0000", "Z") + ".json")


def write_json(path: str | os.PathLike, record: Mapping[str, Any]) -> Path:
    """Write ``record`` as indented JSON, creating the folder; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, sort_keys=False) + "\n")
    return path



def positive_int(text: str) -> int:
    """argparse type: an integer at least 1 (a bad one exits with status 2 and a one-line
    reason)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a positive finite number")
    return value


def unwritable(path: str | os.PathLike) -> str | None:
    """Why a JSON record could not be written to ``path`` (None if it can, as far as can be
    told before writing): checked before a benchmark runs, so a bad path fails at once."""
    path = Path(path)
    if path.is_dir():
        return "is a directory"
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{parent} is a file, not a folder"
            if not os.access(parent, os.W_OK):
                return f"folder {parent} is not writable"
            break
    return None


def batch_parser(description: str, default_sizes: list[int]) -> argparse.ArgumentParser:
    """The command line of the batched benchmarks: a preset, batch sizes, run length and count."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--preset", default="australian", choices=sorted(PRESETS))
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=default_sizes)
    parser.add_argument("--seconds", type=positive_float, default=1.0,
                        help="length of one timed run")
    parser.add_argument("--runs", type=positive_int, default=5,
                        help="timed runs per figure (median)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser
