"""What tests need from the machine: external programs (or a clear failure naming the install step) and
small tmpfs mounts (or a skip where mounting is denied)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest


def program(name: str, install: str) -> str:
    """The path of an external program the suite needs; the test fails, naming the install step, if it is missing.

    A program installed with the toolkit's Python packages (teiphy, tei) is looked for next to the running
    interpreter first, so the suite finds it in a fresh shell where the virtual environment is not on PATH.
    """
    beside = Path(sys.executable).parent / name
    path = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: {install}")
    return path


@contextmanager
def tmpfs(folder: Path, options: str):
    """Mount a tmpfs with these options on `folder` for the duration (skip the test if mounting is denied)."""
    folder.mkdir(exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
