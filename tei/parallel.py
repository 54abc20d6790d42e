"""Process pools for --jobs: started with forkserver, so a threaded program (a browser driver, a GUI, a test
runner) never forks its own locks into the workers, and an interrupt is left to the parent. The stages of
one `tei build` run in workers forked from the command itself (`stage_pool`): a single-threaded process."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends (Linux)


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` worker processes that ignore SIGINT: the parent decides what an interrupt stops."""
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_leave_interrupts_to_the_parent,
    )


def _end_with_the_parent(parent: int) -> None:
    """A forked worker: interrupts are left to the parent, and the worker ends when the parent does (killed,
    it would leave its workers waiting forever on a queue whose writing end they hold themselves)."""
    _leave_interrupts_to_the_parent()
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)


def stage_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` workers forked from this process, for the stages of one `tei build`: a fork keeps what
    the process has imported and read, where a forkserver would start a new interpreter and import it all again
    (more than a stage of a small edition costs). Only for a process that runs no other thread
    (single_threaded). The workers leave interrupts to the parent and end with it."""
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_end_with_the_parent,
        initargs=(os.getpid(),),
    )


def stage_jobs(most: int = 2) -> int:
    """How many stages of one build may run at once: one per core this process may use, at most `most`."""
    return max(1, min(most, len(os.sched_getaffinity(0))))


def single_threaded() -> bool:
    """Whether this process runs one thread, native ones counted (Typst's, OpenBLAS's, a test runner's): only
    then may it fork workers. A thread holding a lock at the fork leaves it held forever in the child (a build
    that had run Typst in the parent hung in a worker's Typst)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: Python's own threads only
        return threading.active_count() == 1
