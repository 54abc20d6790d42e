"""tei.parallel.Forked, the children `tei build` runs its stages in: results in the order asked for, never more
children than asked at once, an exception raised here with its type and its traceback there, children ended
on close. Run in a fresh process: a test runner's process has threads, and forks none."""

from __future__ import annotations

import json
import subprocess
import sys

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
