"""What the recipe and Ray tests share: stopping the local Ray head (and learner) they start."""

from __future__ import annotations

import os
import signal
import subprocess


def stop_group(proc: subprocess.Popen) -> None:
    """Stop the process group that ``proc`` leads: SIGTERM, then SIGKILL after 10 s (Ray
    drains for up to 30 s).  The group holds only the processes this test started."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    proc.poll()
