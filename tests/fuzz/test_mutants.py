"""Mutants of real files given to the commands (hypothesis): never a traceback, an exit code from the table,
the input untouched, nothing half-written (issue 38, point 5 of what to build). benchmarks/fuzz.py runs the
same mutations as long campaigns over every corpus file; here a few dozen examples run with the tests.

The strategies work on the bytes of a real file: an element moved, an attribute's value corrupted, a control
character inserted, the file truncated, deep nesting inserted, a huge @wit token.
"""

from __future__ import annotations

import hashlib
import re
import shutil

import pytest
from cli_runner import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import SEEDS, SHARED

EXIT_CODES = {0, 1, 2, 3}
JUNK = [b"#", b"#nowhere", b"#A #A", b"", b"\xc3\x28", b"&#1;", b"x" * 3000, b"#A" + b"1" * 20_000]


def move_element(data: bytes, first: int, second: int) -> bytes:
    tags = list(re.finditer(rb"<[A-Za-z][^<>]*>", data))
    a, b = sorted((tags[first % len(tags)], tags[second % len(tags)]), key=lambda m: m.start())
    if a.start() == b.start():
        return data
    return data[: a.start()] + b.group() + data[a.end() : b.start()] + a.group() + data[b.end() :]


def corrupt_attribute(data: bytes, which: int, junk: bytes) -> bytes:
    values = list(re.finditer(rb'="([^"]*)"', data))
    value = values[which % len(values)]
    return data[: value.start(1)] + junk + data[value.end(1) :]


def insert(data: bytes, at: int, piece: bytes) -> bytes:
    at %= len(data) + 1
    return data[:at] + piece + data[at:]


def mutations():
    return st.one_of(
        st.tuples(st.just("move"), st.integers(0, 10_000), st.integers(0, 10_000)),
        st.tuples(st.just("attribute"), st.integers(0, 10_000), st.sampled_from(JUNK)),
        st.tuples(st.just("control"), st.integers(0, 10**6), st.sampled_from([b"\x00", b"\x01", b"\x0c", b"\x1b"])),
        st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(b"")),
        st.tuples(st.just("nesting"), st.integers(0, 10**6), st.sampled_from([300, 3000])),
    )


def mutated(data: bytes, mutation) -> bytes:
    kind, first, second = mutation
    if kind == "move":
        return move_element(data, first, second)
    if kind == "attribute":
        return corrupt_attribute(data, first, second)
    if kind == "control":
        return insert(data, first, second)
    if kind == "truncate":
        return data[: first % (len(data) + 1)]
    return insert(data, data.find(b"<body>") + 6, b"<seg>" * second + b"x" + b"</seg>" * second)


@pytest.fixture(scope="module")
def seeds_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz") / "b"
    assert run("build", SEEDS, "-o", out, "--stages", "transcriptions,edition,schema").exit_code == 0
    return out


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(result, source, before, folder):
    assert "Traceback" not in (result.stderr or "")
    assert result.exit_code in EXIT_CODES, (result.exit_code, result.stderr[-400:])
    assert digest(source) == before
    assert not list(folder.rglob("*.tmp"))


COMMANDS = {
    "validate": lambda source, out: ("validate", source),
    "witness": lambda source, out: ("witness", source, "--all", "-o", out / "texts"),
    "convert": lambda source, out: ("convert", source, "--method", "double-end-point", "-o", out / "c.xml"),
    "sync": lambda source, out: ("sync", source, "--dry-run"),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutation=mutations(), command=st.sampled_from(sorted(COMMANDS)))
def test_a_mutant_of_the_seeds_edition(seeds_build, tmp_path_factory, mutation, command):
    folder = tmp_path_factory.mktemp("mutant")
    shutil.copytree(seeds_build, folder / "b")
    source = folder / "b" / "edition.xml"
    source.write_bytes(mutated(source.read_bytes(), mutation))
    before = digest(source)
    transcriptions = {p.name: digest(p) for p in (folder / "b" / "transcriptions").glob("*.xml")}
    result = run(*COMMANDS[command](source, folder / "out"))
    check(result, source, before, folder)
    assert {p.name: digest(p) for p in (folder / "b" / "transcriptions").glob("*.xml")} == transcriptions


def corpus_files():
    folder = SHARED / "corpora" / "tei-apparatus"
    return sorted(folder.glob("*.xml"))[:4] if folder.is_dir() else []


@pytest.mark.skipif(not corpus_files(), reason="../shared/corpora/tei-apparatus is not here")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutation=mutations(), which=st.integers(0, 3), command=st.sampled_from(["validate", "witness", "convert"]))
def test_a_mutant_of_a_corpus_file(tmp_path_factory, mutation, which, command):
    files = corpus_files()
    original = files[which % len(files)]
    folder = tmp_path_factory.mktemp("corpus-mutant")
    source = folder / original.name
    source.write_bytes(mutated(original.read_bytes(), mutation))
    before = digest(source)
    result = run(*COMMANDS[command](source, folder / "out"))
    check(result, source, before, folder)
