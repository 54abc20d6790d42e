"""The `tei` console script a user runs: the one installed beside the Python that runs the benchmark (a
venv's bin/), rather than whatever is first on PATH, such as a version manager's shim (pyenv's costs
about 70 ms a call, more than some of the figures measured)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def tei_script() -> str:
    beside = Path(sys.executable).parent / "tei"
    found = str(beside) if beside.is_file() else shutil.which("tei")
    return found or sys.exit("the tei console script is not installed: run scripts/setup.sh, then .venv/bin/python")
