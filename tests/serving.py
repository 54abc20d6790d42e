"""`tei serve` run as the editor runs it: a process of its own on a free port, read from its stderr, ended by SIGINT."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

URL = re.compile(r"tei serve: (http://127\.0\.0\.1:\d+/)")
STARTUP = 300  # seconds at most for the first build (a bound for a stuck server, not a figure of speed)


@contextmanager
def served(*args, cwd: Path | None = None):
    """Start `tei serve ARGS --port 0`, yield (url, process, stderr lines so far); always stop it (SIGINT, then
    kill)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tei", "serve", *map(str, args), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    lines: list[str] = []
    found = threading.Event()

    def read():
        for line in process.stderr:
            lines.append(line)
            if URL.search(line):
                found.set()
        found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        found.wait(STARTUP)
        match = next((URL.search(line) for line in lines if URL.search(line)), None)
        assert match is not None, "".join(lines)
        yield match.group(1), process, lines
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(30)
        reader.join(30)
