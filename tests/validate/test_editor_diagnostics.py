"""Diagnostics a scholar can act on (issue 16, point 3), each compared with jing's where jing reports the same
fault: the expectations of the actual context, one cause one error, a duplicate id at both places, sorted."""

from __future__ import annotations

import re
import subprocess

import pytest
from validate.test_rules import MINI, variant

from tei.validate import ValidationOptions, check_file, project_schema

JING_LINE = re.compile(r"^.+?:(\d+):(\d+): error: (.*)$")


def jing_errors(jing: str, path) -> list[tuple[int, int, str]]:
    out = subprocess.run([jing, str(project_schema()), str(path)], capture_output=True, text=True).stdout
    return [(int(m[1]), int(m[2]), m[3]) for m in map(JING_LINE.match, out.splitlines()) if m]


def ours(path) -> list[tuple[int | None, int | None, str]]:
    return [(d.line, d.column, d.message) for d in check_file(path, ValidationOptions())]


CASES = {
    "misspelled element": [('<lem wit="#A">Qibla</lem>', '<lemm wit="#A">Qibla</lemm>')],
    "misspelled attribute": [('<rdg wit="#B" type="addition">', '<rdg wiit="#B" type="addition">')],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_fault_is_one_error_in_jings_words_at_jings_place(tmp_path, jing, case):
    """A misspelled <lemm> in an app lists what an app may hold, as jing does (not what a paragraph may);
    a misspelled @wit lists the attributes a rdg may have. Neither also gives the apparatus rules'
    follow-on findings (the witness that now has no reading)."""
    path = variant(tmp_path, CASES[case])
    assert ours(path) == jing_errors(jing, path)
    assert len(ours(path)) == 1


def test_the_expected_elements_are_those_of_the_app(tmp_path):
    (found,) = ours(variant(tmp_path, CASES["misspelled element"]))
    assert found[2].endswith(
        'expected the element end-tag or element "lem", "note", "rdg", "rdgGrp", "wit" or "witDetail"'
    )


def test_a_duplicate_id_is_reported_at_both_places_with_columns_as_jing_does(tmp_path, jing):
    path = variant(tmp_path, [('<app xml:id="app-0002">', '<app xml:id="app-0001">')])
    found = check_file(path, ValidationOptions())
    (second, first) = jing_errors(jing, path)  # jing: the second use, then 'first occurrence'
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
