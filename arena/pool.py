"""Process pools whose workers end with the process that made them.

A ``multiprocessing`` pool's workers outlive their parent when it is killed (``kill -9``, or a
SIGTERM, which ends Python without running the pool's ``__exit__``): they go on with the tasks
already queued to them, holding the cores and, in ``fh-train``'s collection, writing pieces
beside the ones a resumed run writes.  Each worker here watches its parent and exits as soon as
it is gone, so stopping the parent in any way stops its workers within about a second.  What a
worker had in hand is lost; the pools' users write their results atomically, so nothing is left
half written.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.pool import Pool

#: How often (seconds) a worker checks that its parent is alive.
WATCH_EVERY = 0.5


def process_pool(workers: int, fork: bool = False, initializer: Callable[..., None] | None = None,
                 initargs: tuple = ()) -> Pool:
    """A pool of ``workers`` processes (forked, or spawned: fork only while torch is not
    loaded, since a forked child of a process whose torch thread pool runs can hang), each
    running ``initializer(*initargs)`` first and exiting when this process ends."""
    ctx = mp.get_context("fork" if fork else "spawn")
    return ctx.Pool(workers, _start_worker, (os.getpid(), initializer, initargs))


def _start_worker(parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="watch-parent").start()
    if initializer is not None:
        initializer(*initargs)


def _watch_parent(parent: int) -> None:
    """Exit this worker once ``parent`` is no longer its parent (it ended; the worker was
    handed to another process)."""
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)  # no clean-up: the parent that would collect the results is gone
