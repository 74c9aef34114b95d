"""A fresh install's first ``fh-eval`` against a warm one (issue 32: at most 3x).

Each run points ``NUMBA_CACHE_DIR`` at an empty folder, so that the batched core's kernels are
cold, and times the command in a new process (wall clock, start-up and imports included); then
waits for the background compile that the cold run started (:mod:`arena.warm`) and times the
same command twice more, warm.  The figure is cold wall ÷ warm wall (the better of the two warm
runs), median over ``runs``; the cold run's stderr must carry the notice.

    python -m bench.first_run [--runs 3] [--deals 50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stderr


def _wait_for_background(env: dict[str, str], limit: float = 600.0) -> float:
    """Seconds until the background compile's lock is free (it has finished)."""
    from arena import warm

    saved = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = env["NUMBA_CACHE_DIR"]
    try:
        start = time.perf_counter()
        time.sleep(1.0)  # let the detached process take the lock
        while time.perf_counter() - start < limit:
            lock = warm._take_lock(warm._lock_path())
            if lock is not None:
                lock.close()
                return time.perf_counter() - start
            time.sleep(0.5)
        raise TimeoutError("the background compile did not finish")
    finally:
        if saved is None:
            os.environ.pop("NUMBA_CACHE_DIR", None)
        else:
            os.environ["NUMBA_CACHE_DIR"] = saved


def measure(runs: int = 3, deals: int = 50) -> dict[str, Any]:
    """Cold and warm wall seconds of ``fh-eval neural:best rule --deals N`` and their ratio."""
    command = [sys.executable, "-m", "arena.cli", "neural:best", "rule", "--deals", str(deals)]
    cold, warm, compile_s, ratios = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="fh-cold-cache-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            seconds, stderr = _timed(command, env)
            if "compiling" not in stderr:
                raise AssertionError(f"the cold run said nothing of a compile: {stderr!r}")
            compile_s.append(_wait_for_background(env))
            best = min(_timed(command, env)[0] for _ in range(2))
        cold.append(seconds)
        warm.append(best)
        ratios.append(seconds / best)
    return {"command": " ".join(["fh-eval", *command[3:]]), "cold_s": cold, "warm_s": warm,
            "background_compile_s": compile_s, "ratio": statistics.median(ratios)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.first_run",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="cold/warm pairs, median (default 3)")
    p.add_argument("--deals", type=int, default=50, help="deals of the match (default 50)")
    args = p.parse_args(argv)
    if args.runs < 1 or args.deals < 1:
        p.error("--runs and --deals must be at least 1")
    r = measure(args.runs, args.deals)
    print(f"{r['command']}: cold {statistics.median(r['cold_s']):.1f} s, warm "
          f"{statistics.median(r['warm_s']):.1f} s, cold ÷ warm x{r['ratio']:.2f} (median of "
          f"{args.runs}); the background compile finished "
          f"{statistics.median(r['background_compile_s']):.0f} s after the cold run")


if __name__ == "__main__":
    main()
