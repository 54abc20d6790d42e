"""tei.parallel.Forked, the children `tei build` runs its stages in: results in the order asked for, never more
children than asked at once, an exception raised here with its type and its traceback there, children ended
on close. Run in a fresh process: a test runner's process has threads, and forks none."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from tei.parallel import noted_interrupts

SCRIPT = """
import json, os, sys, time
from tei.errors import InvalidInputError
from tei.diagnostics import error
from tei.parallel import Forked, RemoteTraceback, single_threaded

assert single_threaded()

def square(n):
    started = time.monotonic()
    time.sleep(0.1)
    return n * n, os.getpid(), os.getppid(), started, time.monotonic()

def failing():
    raise InvalidInputError(error("B003", "fails on purpose", "x.xml", 3))

def large():
    return b"x" * 3_000_000  # more than a pipe holds: read while the child writes

def sleeper():
    time.sleep(60)

report = {}
children = Forked(2)
calls = [children.submit(square, n) for n in range(5)]
results = [children.result(call) for call in reversed(calls)]
report["squares"] = [r[0] for r in reversed(results)]
report["parents"] = sorted({r[2] for r in results}) == [os.getpid()]
report["children"] = len({r[1] for r in results})
spans = [(r[3], r[4]) for r in results]
report["most at once"] = max(sum(1 for s, e in spans if s <= start < e) for start, _ in spans)
report["large"] = len(children.result(children.submit(large)))
try:
    children.result(children.submit(failing))
except InvalidInputError as exc:
    report["error"] = [exc.diagnostics[0].code, type(exc.__cause__) is RemoteTraceback, "failing" in str(exc.__cause__)]
slow = children.submit(sleeper)
started = time.monotonic()
children.close()
report["closed"] = time.monotonic() - started < 10 and children.running == {}
report["threads"] = single_threaded()
print(json.dumps(report))
"""


def test_forked_children_return_results_errors_and_end_on_close():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    report = json.loads(result.stdout)
    assert report["squares"] == [0, 1, 4, 9, 16]
    assert report["parents"] and report["children"] == 5  # one child for each call
    assert report["most at once"] == 2
    assert report["large"] == 3_000_000
    assert report["error"] == ["B003", True, True]
    assert report["closed"] and report["threads"]
    assert result.stderr == ""


POOL_SCRIPT = """
import json, os, signal, sys, threading, time
from pathlib import Path
from tei.parallel import pool_results

def nap(number, seconds, folder):
    time.sleep(seconds)
    Path(folder, str(number)).write_text("done")
    return number

def failing():
    raise ValueError("fails on purpose")

if __name__ == "__main__":
    folder = sys.argv[1]
    report = {}
    calls = [(n, 0.3 - 0.05 * n, folder) for n in range(6)]
    report["ordered"] = list(pool_results(2, nap, calls, ordered=True))
    report["completed"] = sorted(pool_results(2, nap, calls))
    try:
        list(pool_results(2, failing, [()]))
    except ValueError as exc:
        report["error"] = str(exc)
    for marker in Path(folder).iterdir():
        marker.unlink()
    results = []
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        for result in pool_results(2, nap, [(n, 1.5, folder) for n in range(8)]):
            results.append(result)
    except KeyboardInterrupt:
        report["interrupted"] = True
    report["finished"] = sorted(int(p.name) for p in Path(folder).iterdir())
    report["results"] = results
    report["handler restored"] = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    print(json.dumps(report))
"""


def test_a_pool_gives_results_and_on_an_interrupt_lets_the_calls_under_way_finish(tmp_path):
    """pool_results: results in the calls' order or as they come, an exception raised here; SIGINT finishes the
    calls under way, starts no other, raises KeyboardInterrupt once the pool is down, and the process then
    ends (in Python 3.11 an interrupt inside the pool's shutdown had left it waiting forever at exit)."""
    script = tmp_path / "pool.py"
    script.write_text(POOL_SCRIPT)
    (tmp_path / "markers").mkdir()
    result = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "markers")], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ordered"] == [0, 1, 2, 3, 4, 5]
    assert report["completed"] == [0, 1, 2, 3, 4, 5]
    assert report["error"] == "fails on purpose"
    assert report["interrupted"] and report["handler restored"]
    # the two calls under way finish; none of the others starts
    assert report["finished"] == [0, 1], report
    assert report["results"] == []  # the interrupt is raised before the next result is handed out


def test_an_interrupt_a_shell_made_the_process_ignore_stays_ignored():
    """A job started in the background by a shell ignores SIGINT; noting interrupts must not undo that."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with noted_interrupts() as noted:
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
        assert noted == []
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
