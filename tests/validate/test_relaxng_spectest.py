"""James Clark's RELAX NG test suite (../shared/corpora/peer-suites/relaxng-spectest, 385 cases) through the
engine `tei validate --schema` runs: every case a test (the suite's expectation, not a tool's).

An incorrect schema must be refused with a schema error (SCH002: the schema's root is a RELAX NG pattern; the
one whose root is not, SCH005) at a line and column of the schema file; a correct one must be accepted, each
valid instance pass and each invalid one fail with RELAX NG errors placed at a line and column. The first
error's place and words are compared with jing's on a sample of the schema forms (one jing run per case;
jing's details of a datatype after a character content error are not given); benchmarks/conformance.py
compares every case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from validate import jing_runs
from validate.relaxng_spectest import Case, Written, cases, extract
from validate.test_locate import in_our_words

from tei.diagnostics import Severity
from tei.errors import TeiError
from tei.validate.schema import load_schema
from tei.xmlio import parse_file

pytestmark = pytest.mark.needs_shared

CASES, INCORRECT, INSTANCES = 385, 213, 580  # ../shared/corpora/peer-suites/SOURCES.md
# jing's first error compared on these: schemas whose root is an element, a group, a choice, a grammar with
# nested grammars, externalRef and include (with xml:base), and QName values.
COMPARED_WITH_JING = (95, 100, 101, 117, 126, 138, 147, 190, 209, 210, 218, 225, 261, 345, 378, 379, 384)


@pytest.fixture(scope="module")
def suite(shared_dir, tmp_path_factory) -> dict[int, tuple[Case, Written]]:
    folder = tmp_path_factory.mktemp("spectest")
    return {case.number: (case, extract(case, folder / f"{case.number:03}")) for case in cases(shared_dir / "corpora")}


def test_the_suite_is_the_one_described(suite):
    assert len(suite) == CASES
    assert sum(not case.correct for case, _ in suite.values()) == INCORRECT
    assert sum(len(case.valid) + len(case.invalid) for case, _ in suite.values()) == INSTANCES


def without_datatype_details(message: str) -> str:
    """jing's words without what it adds of a datatype after a character content error ('; token "x"
    invalid; must be ...'), which `tei validate` does not give (its words otherwise as test_locate's)."""
    if message.startswith("character content of element "):
        message = message.split("; ", 1)[0]
    return in_our_words(message)


def errors_of(engines, document: Path):
    try:
        tree = parse_file(document)
        return [d for engine in engines for d in engine.check(tree, str(document)) if d.severity == Severity.ERROR]
    except TeiError as refused:
        return refused.diagnostics


@pytest.mark.parametrize("number", range(1, CASES + 1))
def test_each_case_as_the_suite_expects(suite, number):
    case, written = suite[number]
    if not case.correct:
        with pytest.raises(TeiError) as refused:
            load_schema(written.schema)
        (problem,) = refused.value.diagnostics
        assert problem.code in ("SCH002", "SCH005") and problem.line is not None, problem
        assert problem.code == "SCH005" or problem.column is not None, problem
        return
    engines = load_schema(written.schema)
    for document in written.valid:
        assert errors_of(engines, document) == [], document.name
    for document in written.invalid:
        found = errors_of(engines, document)
        assert found, f"{document.name} is invalid"
        assert all(d.line is not None and d.column is not None for d in found), found


@pytest.mark.external_tool
def test_the_first_error_is_jings_on_each_schema_form(suite, jing):
    ours, theirs = {}, {}
    for number in COMPARED_WITH_JING:
        case, written = suite[number]
        assert case.correct and written.invalid, number
        found = jing_runs.jing_first_errors(jing, written.schema, list(written.invalid))
        engines = load_schema(written.schema)
        for document in written.invalid:
            first = errors_of(engines, document)[0]
            ours[number, document.name] = (first.line, first.column, without_datatype_details(first.message))
            jings = found[document]
            theirs[number, document.name] = (jings.line, jings.column, without_datatype_details(jings.message))
    assert ours == theirs
