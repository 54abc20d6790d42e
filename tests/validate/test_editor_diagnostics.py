"""Diagnostics a scholar can act on (issue 16, point 3), each compared with jing's where jing reports the same
fault: the expectations of the actual context, one cause one error, a duplicate id at both places, sorted."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from validate.test_rules import MINI, variant

from tei.validate import ValidationOptions, check_file, project_schema

JING_LINE = re.compile(r"^(.+?):(\d+):(\d+): error: (.*)$")


def jing_errors(jing: str, paths: list[Path]) -> dict[Path, list[tuple[int, int, str]]]:
    """jing's errors in each document, from one run over them all (a run costs a JVM start)."""
    out = subprocess.run([jing, str(project_schema()), *map(str, paths)], capture_output=True, text=True).stdout
    found: dict[Path, list[tuple[int, int, str]]] = {path: [] for path in paths}
    for m in map(JING_LINE.match, out.splitlines()):
        if m:
            found[Path(m[1])].append((int(m[2]), int(m[3]), m[4]))
    return found


def ours(path) -> list[tuple[int | None, int | None, str]]:
    return [(d.line, d.column, d.message) for d in check_file(path, ValidationOptions())]


CASES = {
    "misspelled element": [('<lem wit="#A">Qibla</lem>', '<lemm wit="#A">Qibla</lemm>')],
    "misspelled attribute": [('<rdg wit="#B" type="addition">', '<rdg wiit="#B" type="addition">')],
}
DUPLICATE_ID = [('<app xml:id="app-0002">', '<app xml:id="app-0001">')]


@pytest.fixture(scope="module")
def compared(tmp_path_factory, jing) -> dict[str, tuple[Path, list[tuple[int, int, str]]]]:
    """Each case's document and jing's errors in it, all from one jing run."""
    folder = tmp_path_factory.mktemp("editor-diagnostics")
    paths = {case: variant(folder, edits, f"{case.replace(' ', '-')}.xml") for case, edits in CASES.items()}
    paths["duplicate id"] = variant(folder, DUPLICATE_ID, "duplicate-id.xml")
    theirs = jing_errors(jing, list(paths.values()))
    return {case: (path, theirs[path]) for case, path in paths.items()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_fault_is_one_error_in_jings_words_at_jings_place(compared, case):
    """A misspelled <lemm> in an app lists what an app may hold, as jing does (not what a paragraph may);
    a misspelled @wit lists the attributes a rdg may have. Neither also gives the apparatus rules'
    follow-on findings (the witness that now has no reading)."""
    path, theirs = compared[case]
    assert ours(path) == theirs
    assert len(ours(path)) == 1


def test_the_expected_elements_are_those_of_the_app(tmp_path):
    (found,) = ours(variant(tmp_path, CASES["misspelled element"]))
    assert found[2].endswith(
        'expected the element end-tag or element "lem", "note", "rdg", "rdgGrp", "wit" or "witDetail"'
    )


def test_a_duplicate_id_is_reported_at_both_places_with_columns_as_jing_does(compared):
    path, theirs = compared["duplicate id"]
    found = check_file(path, ValidationOptions())
    (second, first) = theirs  # jing: the second use, then 'first occurrence'
    assert [(d.line, d.column) for d in found] == [first[:2], second[:2]]  # ours sorted by line
    assert "first at line" in found[1].message and found[1].severity == "error"


def test_diagnostics_are_sorted_by_line(tmp_path):
    """Schema, Schematron and apparatus findings interleaved by line, not engine by engine."""
    path = variant(
        tmp_path,
        [
            ('<rdg wit="#B" type="honorific">', '<rdg wit="#B #Z" type="honorific">'),  # APP001, early
            ('type="addition"', 'type="gloss"'),  # ED006 (Schematron), later
            ("<p>Hand-written test fixture", "<p rend='x' bogus='1'>Hand-written test fixture"),  # RNG, first
        ],
    )
    lines = [d.line or 0 for d in check_file(path, ValidationOptions())]
    assert len(lines) >= 3 and lines == sorted(lines)


def test_the_fixture_itself_is_still_clean():
    assert ours(MINI) == []
