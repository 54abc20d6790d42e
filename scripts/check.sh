#!/bin/sh
# The whole test suite, as README command (b) and CI run it: layer contracts, lint, format, then pytest.
# Every tool is taken from ./.venv, never from PATH, so a missing install step fails here too.
set -eu
cd "$(dirname "$0")/.."
.venv/bin/lint-imports
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# pytest on every core (pytest-xdist, at most 4 workers); arguments come after, so `sh scripts/check.sh -n 0 tests/x`
# runs in one process. --dist loadgroup: the tests that share a rendering or a module's fixture run on one worker
# (the groups are given in tests/conftest.py), so it is made once, not once on each worker.
# --durations=10: the slowest ten tests, in every CI log (the suite's time is a target of its own).
.venv/bin/python -m pytest -n auto --maxprocesses 4 --dist loadgroup --durations=10 "$@"
