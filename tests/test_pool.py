"""The worker pools of ``fh-eval`` and ``fh-train``'s collection end with their parent: a
SIGTERM or ``kill -9`` of the parent stops the workers too, instead of leaving them to go on
with the tasks queued to them (as ``multiprocessing``'s own pools do)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.pool import process_pool

ROOT = Path(__file__).resolve().parents[1]

#: A parent that starts a pool, prints its workers' ids and keeps them busy for a minute.
PROBE = """
import time
from arena.pool import process_pool
pool = process_pool(2, fork={fork})
pool.map(time.sleep, [0, 0])
print(" ".join(str(p.pid) for p in pool._pool), flush=True)
pool.map_async(time.sleep, [60, 60])
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not).  Read from /proc, as
    the project runs on Linux: the orphaned workers are not this process's children, so it
    cannot wait for them, and a reparented zombie still answers ``os.kill(pid, 0)``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("sig,fork", [(signal.SIGKILL, False), (signal.SIGTERM, False),
                                      (signal.SIGKILL, True)])
def test_workers_end_with_their_parent(sig: int, fork: bool) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", PROBE.format(fork=fork)], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        parent.send_signal(sig)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(p) for p in pids), "a worker outlived its parent"
    finally:
        parent.kill()
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_pool_still_returns_its_results() -> None:
    with process_pool(2) as pool:
        assert pool.map(abs, [-1, 2, -3]) == [1, 2, 3]
