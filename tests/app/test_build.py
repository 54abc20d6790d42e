"""`tei build` with the stages of a group side by side in worker processes (BuildOptions.stage_jobs, which the
command line sets): the same files, reported in the same order, as one stage after another; a stage's error
arrives whole (its diagnostics, its exit code) and stops the build before any later stage is written.
The builds with workers run in a fresh process: a test runner's process has threads, and forks none."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time

import pytest
from paths import SEEDS

from tei.app.build import STAGES, BuildOptions, build, render_settings
from tei.diagnostics import error
from tei.errors import ExitCode, ExternalToolError
from tei.readers.manifest import manifest_path, read_manifest, read_render_settings


def built(out, jobs):
    """The (stage, file) pairs reported as written and the (stage, skipped) pairs reported, in order."""
    work = read_manifest(SEEDS)
    settings = render_settings(read_render_settings(SEEDS), manifest_path(SEEDS))
    written, reported = [], []
    options = BuildOptions(out, render=settings, stage_jobs=jobs)
    build(
        work,
        options,
        lambda stage, path: written.append((stage, path.relative_to(out).as_posix())),
        lambda name, seconds, skipped: reported.append((name, skipped)),
    )
    return written, reported


@pytest.mark.slow
def test_stages_side_by_side_write_what_one_after_another_writes(tmp_path):
    """The command line (a fresh process, so it forks its workers) against one stage after another here."""
    written, reported = built(tmp_path / "one", 1)
    assert [name for name, _ in reported] == [name for name, _ in STAGES]
    command = [sys.executable, "-m", "tei", "build", str(SEEDS), "-o", str(tmp_path / "two"), "--timings"]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == [str(tmp_path / "two" / name) for _, name in written]
    assert [line.split(":")[0] for line in result.stderr.splitlines()] == [name for name, _ in STAGES]
    for name in [name for _, name in written] + [".tei-build-stamp.json"]:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert again.stdout == "" and again.stderr.count("(unchanged, skipped)") == len(STAGES)


def test_a_changed_toolkit_runs_every_stage_again(tmp_path, monkeypatch):
    """A stage is stamped with the toolkit that ran it (its modules, schemas and stylesheets), not its version
    alone: after a change to the toolkit, a schema or a stylesheet, nothing is taken from the stamps."""
    built(tmp_path, 1)
    _, reported = built(tmp_path, 1)
    assert all(skipped for _, skipped in reported)
    monkeypatch.setattr("tei.app.build.toolkit_digest", lambda: "a toolkit changed since")
    _, reported = built(tmp_path, 1)
    assert not any(skipped for _, skipped in reported)


FAILING_BUILD = """
import json, sys
from pathlib import Path
from tei.app import build as build_module
from tei.app.build import STAGES, BuildOptions, build, from_edition
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.parallel import single_threaded
from tei.readers.manifest import read_manifest

def failing(edition, options):  # the workers are forked from this process, so they run this stage
    raise InvalidInputError(error("B003", "this stage fails on purpose", edition, 3, hint="a test"))

build_module.STAGES = tuple((n, from_edition(failing) if n == "validate" else s) for n, s in STAGES)
assert single_threaded()
options = BuildOptions(Path(sys.argv[2]), stages=("edition", "validate", "html", "stats"), stage_jobs=2)
try:
    build(read_manifest(Path(sys.argv[1])), options, lambda stage, path: print(stage, flush=True))
except InvalidInputError as exc:
    print(json.dumps([type(exc).__name__, [d.to_text() for d in exc.diagnostics]]))
"""


def test_an_error_in_a_worker_stops_the_build_before_the_later_stages(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-c", FAILING_BUILD, str(SEEDS), str(out)]
    lines = subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()
    assert lines[:-1] == ["edition"]  # validate failed: html and stats, computed beside it, are not written
    name, diagnostics = json.loads(lines[-1])
    assert name == "InvalidInputError"
    assert diagnostics == [f"{out / 'edition.xml'}:3: error: [B003] this stage fails on purpose (hint: a test)"]
    assert (out / "edition.xml").is_file()
    assert not (out / "html").exists() and not (out / "stats").exists()


def test_a_killed_build_leaves_no_worker_behind(tmp_path):
    command = [sys.executable, "-m", "tei", "build", str(SEEDS), "-o", str(tmp_path / "out")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    process.stdout.readline()  # the transcriptions are written: the workers run the edition or the next stages
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    for _ in range(100):  # the workers end with their parent (PR_SET_PDEATHSIG), at once
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGKILL)
    pytest.fail("a worker outlived its killed parent")


def test_an_error_crosses_processes_with_its_diagnostics_and_exit_code():
    sent = ExternalToolError(error("P010", "typst failed", "edition.xml", 2), error("P011", "and again", None))
    received = pickle.loads(pickle.dumps(sent))
    assert type(received) is ExternalToolError and received.exit_code == ExitCode.EXTERNAL
    assert received.diagnostics == sent.diagnostics and str(received) == str(sent)
