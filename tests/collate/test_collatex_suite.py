"""CollateX's own test suite (../shared/corpora/peer-suites/collatex/cases/) through `tei collate`: every enabled
case that duplicates no other, scored by the rules of collatex_cases.py; benchmarks/collatex_suite.py prints
the same figures beside CollateX 2.3's.

The cases run once per group (by suite), so the figures are held together: how many complete cases are met
on words, the identity pairs, the partial cases and transposition counts, and that nothing crashes and
every witness is rebuilt byte for byte."""

from __future__ import annotations

import pytest
from collate.collatex_cases import CASES, load_cases, run_tei, score

pytestmark = pytest.mark.usefixtures("shared_dir")

# What tei reaches, by suite: complete cases met on words, of how many; identity word pairs found (of those
# expected) and stated beyond them (at most); transposition counts met, of how many.
REACHED = {
    "java": {"complete": 67, "met": 61, "true": 471, "expected": 481, "extra": 19, "counts": 14, "counts_met": 13},
    "python": {"complete": 20, "met": 20, "true": 186, "expected": 186, "extra": 0, "counts": 0, "counts_met": 0},
    "pretok": {"complete": 6, "met": 6, "true": 13, "expected": 13, "extra": 0, "counts": 0, "counts_met": 0},
}


def _group(case) -> str:
    return "pretok" if case.pretokenised else case.data["suite"]


@pytest.fixture(scope="module")
def scored():
    if not CASES.is_dir():
        pytest.skip(f"{CASES} is absent")
    found = {}
    for case in load_cases():
        result = run_tei(case)
        found[case.id] = (case, result, score(case, result, result.texts))
    return found


def _figures(scored, group: str) -> dict:
    figures = dict.fromkeys(
        ("complete", "met", "met_or_artefact", "true", "stated", "expected", "partial", "partial_met", "counts"), 0
    )
    figures["counts_met"] = 0
    for case, _result, found in scored.values():
        if _group(case) != group:
            continue
        if case.complete:
            figures["complete"] += 1
            figures["met"] += bool(found.met_words)
            figures["met_or_artefact"] += bool(found.met_words or found.artefact)
            figures["true"] += found.true
            figures["stated"] += found.stated
            figures["expected"] += found.expected
        elif found.partial is not None:
            figures["partial"] += 1
            figures["partial_met"] += found.partial
        if found.transpositions is not None:
            figures["counts"] += 1
            figures["counts_met"] += found.transpositions[0] == found.transpositions[1]
    return figures


@pytest.mark.parametrize("group", sorted(REACHED))
def test_no_crash_and_every_witness_rebuilt(scored, group):
    problems = [
        f"{case.id}: {result.problem}"
        for case, result, _ in scored.values()
        if _group(case) == group and result.problem
    ]
    assert not problems


@pytest.mark.parametrize("group", sorted(REACHED))
def test_figures_reached(scored, group):
    figures = _figures(scored, group)
    reached = REACHED[group]
    assert (figures["complete"], figures["expected"], figures["counts"]) == (
        reached["complete"],
        reached["expected"],
        reached["counts"],
    ), figures
    assert figures["met"] >= reached["met"], figures
    assert figures["true"] >= reached["true"], figures
    assert figures["stated"] - figures["true"] <= reached["extra"], figures
    assert figures["counts_met"] >= reached["counts_met"], figures
    assert figures["partial_met"] == figures["partial"], figures
