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
    # validate failed: html and stats, computed beside it, are not written (the transcriptions and the schema,
    # which validation needs and the fresh folder lacks, run with the edition: B009)
    assert sorted(set(lines[:-1])) == ["edition", "schema", "transcriptions"]
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


def test_two_builds_into_one_folder_take_turns(tmp_path):
    """Failure 6: two concurrent builds into one folder with different manifests: the first always failed with
    a misleading APP007 (6 of 6). Now the second waits for the first (B008 says so) and both succeed."""
    import shutil

    other = tmp_path / "other"
    shutil.copytree(SEEDS, other)
    source = other / "001_9ad4fe1e89355a52.txt"
    source.write_text(source.read_text("utf-8").replace("Uhud", "Ohod", 1), "utf-8")
    out = tmp_path / "b"
    stages = "transcriptions,edition,schema,validate"
    commands = [[sys.executable, "-m", "tei", "build", str(m), "-o", str(out), "--stages", stages]
                for m in (SEEDS, other)]  # fmt: skip
    runs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    results = [(r.wait(), r.stderr.read()) for r in runs]
    for code, stderr in results:
        assert code == 0, stderr
        assert "[APP007]" not in stderr
    check = subprocess.run([sys.executable, "-m", "tei", "validate", str(out / "edition.xml"),
                            *map(str, sorted((out / "transcriptions").glob("*.xml")))], capture_output=True, text=True)  # fmt: skip
    assert check.returncode == 0, check.stderr


def test_a_build_that_finds_the_folder_locked_says_it_waits(tmp_path):
    import fcntl

    out = tmp_path / "b"
    out.mkdir()
    lock = os.open(out / ".tei-build.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)
    command = [sys.executable, "-m", "tei", "build", str(SEEDS), "-o", str(out), "--stages", "schema"]
    waiting = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = waiting.stderr.readline()  # it says so, then waits: nothing is written while the lock is held
    assert "[B008]" in said and "waiting" in said, said
    assert not (out / "schemas").exists() and waiting.poll() is None
    os.close(lock)
    assert waiting.wait() == 0 and (out / "schemas").is_dir()


def test_stages_run_what_a_chosen_stage_needs_on_a_fresh_folder(tmp_path):
    """Failure 7: the README's `--stages edition,validate,html` on a fresh folder exited 1 (SCH007 and 4×
    APP008): the schema and transcription stages validation needs did not run. They run now, said by B009;
    on a folder that has their files, they are not added."""
    from cli_runner import run

    out = tmp_path / "b"
    result = run("build", SEEDS, "-o", out, "--stages", "edition,validate,html")
    assert result.exit_code == 0, result.stderr
    assert "[B009]" in result.stderr and "transcriptions, schema" in result.stderr
    assert (out / "schemas" / "tei-edition.rng").is_file() and (out / "html" / "index.html").is_file()
    again = run("build", SEEDS, "-o", out, "--stages", "validate,stats")
    assert again.exit_code == 0 and "[B009]" not in again.stderr, again.stderr
