"""Process pools for --jobs: started with forkserver, so a threaded program (a browser driver, a GUI, a test
runner) never forks its own locks into the workers, and an interrupt is left to the parent."""

from __future__ import annotations

import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` worker processes that ignore SIGINT: the parent decides what an interrupt stops."""
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_leave_interrupts_to_the_parent,
    )
