"""Process pools for --jobs: started with forkserver, so a threaded program (a browser driver, a GUI, a test
runner) never forks its own locks into the workers, and an interrupt is left to the parent. The stages of
one `tei build` run in children forked from the command itself (`Forked`): a single-threaded process.

An interrupt (SIGINT) while a pool runs is noted, not raised where it lands (`pool_results`): raised inside the
pool's own machinery it left Python 3.11 unable to end. Interrupted while `shutdown` joined the pool's manager
thread, `Thread.join` marks that thread stopped though it still runs (the bpo-45274 fix); at exit nobody waits
for it, multiprocessing closes the queue it is sending the workers' stop signals through, and the exit waits
forever for workers that never get them. So the pool is driven by a loop that looks at the note between
results; once noted, the calls not started are cancelled, those under way finish (their outputs whole), the
pool is shut down, and KeyboardInterrupt is raised from there."""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import pickle
import select
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends (Linux)


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` worker processes that ignore SIGINT: the parent decides what an interrupt stops.
    (multiprocessing and concurrent.futures are imported here: the stages of one `tei build` run in forked
    children, Forked, and importing them cost its start 15 ms.)"""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_leave_interrupts_to_the_parent,
    )


@contextlib.contextmanager
def noted_interrupts() -> Iterator[list[int]]:
    """Within the block, SIGINT appends to the list yielded instead of raising KeyboardInterrupt. In the main
    thread only (elsewhere signals cannot be handled), and not where SIGINT is ignored (a job a shell started in
    the background): the list then stays empty."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield noted
        return
    previous = signal.signal(signal.SIGINT, lambda number, _frame: noted.append(number))
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)


def pool_results(jobs: int, function: Callable, calls: Iterable[tuple], ordered: bool = False) -> Iterator:
    """Each call's result (`function(*call)` in a pool of `jobs` workers), as it completes or, if `ordered`,
    in the order of the calls. An exception in a call is raised here. At most `jobs` calls are handed to the
    pool at a time (the next as soon as one is done, before its result is handed out): a pool given them all
    queues some in its own pipe ahead of the workers, where they can no longer be cancelled. On SIGINT the
    calls under way finish, no other starts, and KeyboardInterrupt is raised once the pool is down (see the
    module's text)."""
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    with noted_interrupts() as interrupted:
        pool = process_pool(jobs)
        try:
            waiting = enumerate(calls)
            running: dict[Future, int] = {}
            finished: dict[int, Future] = {}
            following = 0  # ordered: the number of the next result to hand out
            while True:
                if not interrupted:
                    for number, call in itertools.islice(waiting, jobs - len(running)):
                        running[pool.submit(function, *call)] = number
                if not running or interrupted:
                    break
                done, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=running.__getitem__):
                    finished[running.pop(future)] = future
                if not ordered:
                    for number in sorted(finished):
                        yield finished.pop(number).result()
                while ordered and following in finished:
                    yield finished.pop(following).result()
                    following += 1
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    if interrupted:
        raise KeyboardInterrupt


def _end_with_the_parent(parent: int) -> None:
    """A forked worker: interrupts are left to the parent, and the worker ends when the parent does (killed,
    it would leave its workers waiting forever on a queue whose writing end they hold themselves)."""
    _leave_interrupts_to_the_parent()
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a forked child, as the cause of that exception here."""

    def __str__(self) -> str:
        return self.args[0]


class Forked:
    """Calls run in children forked from this process, at most `jobs` at once, started in the order given;
    each sends back its result, or its exception, pickled through a pipe, and ends at once (os._exit).

    For the stages of one `tei build`: a fork keeps what this process has imported and read, where a
    forkserver would import it all again (more than a stage of a small edition costs). No thread is started
    here, so this process may fork again at any time, having loaded more (tei.app.build does, while the first
    stages run); and a child has nothing to tear down, so nobody waits for it to end (a process pool's workers
    end their interpreter when it shuts down, and its shutdown joins them). Only for a process that runs no
    other thread (single_threaded). Children leave interrupts to this process and end with it. A queued call
    starts when this process next waits for a result (`result`), as soon as a child is done."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self.parent = os.getpid()
        self.queued: deque[tuple[int, Callable, tuple]] = deque()
        self.running: dict[int, tuple[int, int, bytearray]] = {}  # pipe -> (call, child, data read so far)
        self.done: dict[int, tuple] = {}
        self.calls = 0

    def submit(self, function: Callable, *args) -> int:
        """Queue a call (started at once while fewer than `jobs` run); its number, for `result`."""
        self.calls += 1
        self.queued.append((self.calls, function, args))
        self._start()
        return self.calls

    def result(self, call: int):
        """The value the call returned, or its exception raised here (its traceback there as the cause)."""
        while call not in self.done:
            ready, _, _ = select.select(list(self.running), [], [])
            for pipe in ready:
                self._read(pipe)
        outcome = self.done.pop(call)
        if outcome[0]:
            return outcome[1]
        raise outcome[1] from RemoteTraceback(outcome[2])

    def wait_until_running(self, most: int) -> None:
        """Return once at most `most` calls run and none is queued (results kept for `result`): to use the
        cores the others leave free."""
        while self.queued or len(self.running) > most:
            ready, _, _ = select.select(list(self.running), [], [])
            for pipe in ready:
                self._read(pipe)

    def close(self) -> None:
        """The calls still queued never start; the children still running are ended (their results unread)."""
        self.queued.clear()
        for pipe, (_, child, _) in list(self.running.items()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
            os.close(pipe)
            os.waitpid(child, 0)
        self.running.clear()

    def _start(self) -> None:
        while self.queued and len(self.running) < self.jobs:
            call, function, args = self.queued.popleft()
            reader, writer = os.pipe()
            for stream in (sys.stdout, sys.stderr):  # what is buffered here is not written by the child too
                stream.flush()
            child = os.fork()
            if child == 0:
                os.close(reader)
                _run_and_send(writer, self.parent, function, args)
            os.close(writer)
            self.running[reader] = (call, child, bytearray())

    def _read(self, pipe: int) -> None:
        call, child, data = self.running[pipe]
        chunk = os.read(pipe, 1 << 20)
        if chunk:
            data.extend(chunk)
            return
        os.close(pipe)
        del self.running[pipe]
        _, status = os.waitpid(child, 0)
        if data:
            self.done[call] = pickle.loads(data)
        else:
            died = RuntimeError(f"a forked worker ended without a result (wait status {status})")
            self.done[call] = (False, died, "")
        self._start()


def _run_and_send(writer: int, parent: int, function: Callable, args: tuple) -> NoReturn:
    """In the child: run the call, send its outcome, end (no exit handler, no interpreter teardown)."""
    status = 0
    try:
        _end_with_the_parent(parent)
        try:
            outcome: tuple = (True, function(*args))
        except BaseException as exc:  # sent to the parent, which raises it
            outcome = (False, exc, "".join(traceback.format_exception(exc)))
        try:
            data = pickle.dumps(outcome)
        except Exception as exc:  # an exception that cannot be pickled: its text
            data = pickle.dumps((False, RuntimeError(repr(outcome[1])), repr(exc)))
        with os.fdopen(writer, "wb") as stream:
            stream.write(data)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)


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
