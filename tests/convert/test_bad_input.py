"""Bad apparatus input: one clear diagnostic with its place, never a silent wrong conversion."""

from __future__ import annotations

import pytest

from tei.apparatus import witness_text
from tei.apparatus.witnesses import undeclared_witnesses
from tei.convert import convert_checked
from tei.errors import TeiError
from tei.xmlio import parse_bytes

from .documents import document


def refusal(xml: bytes, method: str = "parallel-segmentation"):
    with pytest.raises(TeiError) as refused:
        convert_checked(parse_bytes(xml, "bad.xml"), method, "bad.xml")
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.file == "bad.xml"
    return diagnostic


def test_parallel_segmentation_declared_but_app_points_into_the_text():
    xml = document('<ab>x <anchor xml:id="a"/>y<app from="#a"><rdg wit="#B">z</rdg></app></ab>')
    diagnostic = refusal(xml, "double-end-point")
    assert diagnostic.code == "CV002" and diagnostic.line == 1
    assert "declares the parallel-segmentation method" in diagnostic.message
    assert "variantEncoding" in diagnostic.hint


def test_double_end_point_declared_but_app_has_no_from():
    diagnostic = refusal(
        document('<ab>x <app><lem wit="#A">y</lem><rdg wit="#B">z</rdg></app></ab>', "double-end-point")
    )
    assert diagnostic.code == "CV002" and "has no @from" in diagnostic.message


def test_an_unknown_method_is_named():
    diagnostic = refusal(document("<ab>x</ab>", "interlinear"))
    assert diagnostic.code == "CV001" and "interlinear" in diagnostic.message


def test_a_pointer_to_nothing():
    diagnostic = refusal(document('<ab>x<app from="#nowhere"><rdg wit="#B">z</rdg></app></ab>', "double-end-point"))
    assert diagnostic.code == "CV004" and "#nowhere" in diagnostic.message


def test_overlapping_double_end_point_ranges():
    body = (
        '<ab>And <anchor xml:id="a1"/>of so <anchor xml:id="a2"/>wys <anchor xml:id="a3"/>a wight'
        '<anchor xml:id="a4"/> ywroght'
        '<app from="#a1" to="#a3"><rdg wit="#B">in what wise was </rdg></app>'
        '<app from="#a2" to="#a4"><rdg wit="#B #C">was a wight</rdg></app></ab>'
    )
    diagnostic = refusal(document(body, "double-end-point"))
    assert diagnostic.code == "CV007" and "overlaps" in diagnostic.message


def test_a_lemma_across_element_boundaries_cannot_become_parallel_segmentation():
    body = '<p>one <anchor xml:id="s"/>two</p><p>three<anchor xml:id="e"/></p><listApp><app from="#s" to="#e"><rdg wit="#B">2 3</rdg></app></listApp>'
    tree = parse_bytes(document(body, "double-end-point"), "bad.xml")
    assert witness_text(tree, "B") == "one 2 3"  # the reading is well defined ...
    assert refusal(document(body, "double-end-point")).code == "CV008"  # ... but cannot be segmented


def test_a_lem_that_differs_from_its_base_text_is_not_dropped():
    body = '<ab><anchor xml:id="s"/>Experience though<app from="#s"><lem>Experience ... though</lem><rdg wit="#B">x</rdg></app></ab>'
    diagnostic = refusal(document(body, "double-end-point"))
    assert diagnostic.code == "CV009" and "Experience ... though" in diagnostic.message


def test_markup_of_the_base_text_goes_into_a_plain_lem():
    body = '<ab><anchor xml:id="s"/><hi>Experience</hi><app from="#s"><lem>Experience</lem><rdg wit="#B">x</rdg></app></ab>'
    converted, _ = convert_checked(
        parse_bytes(document(body, "double-end-point"), "in.xml"), "parallel-segmentation", "in.xml"
    )
    assert b"<lem><hi>Experience</hi></lem>" in converted


def test_a_lem_and_its_base_text_with_different_markup_are_refused():
    body = '<ab><anchor xml:id="s"/><hi>Experience</hi><app from="#s"><lem><emph>Experience</emph></lem><rdg wit="#B">x</rdg></app></ab>'
    diagnostic = refusal(document(body, "double-end-point"))
    assert diagnostic.code == "CV010" and "hi" in diagnostic.message


def test_a_location_referenced_lem_found_twice_is_ambiguous():
    body = '<ab>a b a<app><lem>a</lem><rdg wit="#B">c</rdg></app> d</ab>'
    assert witness_text(parse_bytes(document(body, "location-referenced"), "x"), "B") == "a b c d"  # right before
    body = '<ab>a b a c<app><lem>a</lem><rdg wit="#B">e</rdg></app> d</ab>'
    diagnostic = refusal(document(body, "location-referenced"))
    assert diagnostic.code == "CV006" and "more than once" in diagnostic.message


def test_witnesses_referenced_but_not_declared_are_reported_and_kept():
    xml = document('<ab>x <app><lem wit="#A #B">y</lem><rdg wit="#C #Z">z</rdg></app></ab>')
    tree = parse_bytes(xml, "bad.xml")
    (warning,) = undeclared_witnesses(tree, "bad.xml")
    assert warning.code == "A007" and "'Z'" in warning.message and warning.line == 1
    converted, warnings = convert_checked(tree, "double-end-point", "bad.xml")
    assert warnings == [warning]
    assert witness_text(parse_bytes(converted, "out.xml"), "Z") == "x z"
