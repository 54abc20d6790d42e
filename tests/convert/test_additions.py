"""A unit without lem that some witness lacks (words added against the base text) keeps its readings as
readings through every method: the base text has nothing there, no reading becomes the lemma."""

from __future__ import annotations

import pytest

from tei.apparatus import Apparatus, witness_text
from tei.convert import convert_checked
from tei.xmlio import parse_bytes, tei

from .documents import document

BODY = '<ab xml:space="preserve">The Prophet <app><rdg wit="#B">, at that time, </rdg></app>turned.</ab>'


@pytest.mark.parametrize("method", ["location-referenced", "double-end-point"])
def test_an_addition_round_trips_without_becoming_the_lemma(method):
    tree = parse_bytes(document(BODY), "added.xml")
    texts = {w: witness_text(tree, w) for w in "ABC"}
    assert texts == {"A": "The Prophet turned.", "B": "The Prophet , at that time, turned.", "C": "The Prophet turned."}
    converted, _ = convert_checked(tree, method, "added.xml")
    there = parse_bytes(converted, "there.xml")
    (app,) = there.getroot().iter(tei("app"))
    lem, rdg = [child for child in app if isinstance(child.tag, str)]
    assert (lem.tag, lem.text, lem.get("wit")) == (tei("lem"), None, None)  # the base text has nothing here
    assert (rdg.tag, rdg.text) == (tei("rdg"), ", at that time, ")
    back, _ = convert_checked(there, "parallel-segmentation", "there.xml")
    result = parse_bytes(back, "back.xml")
    assert {w: witness_text(result, w) for w in "ABC"} == texts
    assert [r.text for r in result.getroot().iter(tei("rdg"))] == [", at that time, "]


def test_the_stats_of_an_addition_name_it_so():
    from tei.stats import statistics

    stats = statistics(parse_bytes(document(BODY), "added.xml"), "added.xml")
    assert stats.units_by_type == {"addition": 1, "untyped": 1}
    assert Apparatus(parse_bytes(document(BODY), "added.xml")).units()[0].is_addition
