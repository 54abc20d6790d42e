"""tei/apparatus/walk.py: the rebuild rule, convention by convention (negative apparatus, additions, lacunae,
TEI whitespace, w/pc tokens, characters, alternatives), and the toolkit's own documents byte for byte."""

from __future__ import annotations

import pytest

from tei.apparatus import LACUNOSE, NOTHING, Apparatus
from tei.xmlio import parse_bytes

from .conftest import document, witnesses


def texts(body: str, ids=("A", "B", "C"), space: str = "", marker: str = "[…]") -> list[str]:
    apparatus = Apparatus(parse_bytes(document(body, witnesses(*ids), space=space), "t.xml"), "t.xml")
    return [apparatus.text(w, marker) for w in ids]


def test_a_lem_without_wit_stands_for_the_witnesses_not_cited_and_not_lacunose():
    body = (
        '<ab>a <app><lem>b</lem><rdg wit="#B">c</rdg><witDetail type="lac" wit="#C"/></app> d '
        '<app><lem>e</lem><rdg wit="#A">f</rdg><witDetail type="ambiguous" wit="#B"/></app></ab>'
    )
    assert texts(body) == ["a b d f", "a c d […]", "a […] d e"]


def test_a_unit_without_lem_is_an_addition_the_uncited_witnesses_lack():
    body = '<ab>a <app><rdg wit="#B">added</rdg></app> b</ab>'
    assert texts(body) == ["a b", "a added b", "a b"]
    apparatus = Apparatus(parse_bytes(document(body, witnesses("A", "B")), "t.xml"), "t.xml")
    (unit,) = apparatus.units()
    assert unit.is_addition and unit.choose("A") is NOTHING
    assert [p.reading for p in apparatus.path("A").passages] == [NOTHING]


def test_a_positive_apparatus_gives_an_uncited_witness_nothing():
    assert texts('<ab>a <app><lem wit="#A">b</lem><rdg wit="#B">c</rdg></app> d</ab>') == ["a b d", "a c d", "a d"]


def test_lacuna_start_and_end_mark_one_stretch_with_one_marker():
    body = (
        '<ab>one <app><lem wit="#A #B">two</lem><rdg wit="#C">two<lacunaStart/></rdg></app> three '
        '<app><lem>four</lem><rdg wit="#B">quattuor</rdg></app> five '
        '<app><lem wit="#A #B"/><rdg wit="#C"><lacunaEnd/></rdg></app> six</ab>'
    )
    assert texts(body) == ["one two three four five six", "one two three quattuor five six", "one two[…] six"]
    apparatus = Apparatus(parse_bytes(document(body, witnesses("A", "B", "C")), "t.xml"), "t.xml")
    path = apparatus.path("C")
    assert (path.lacunae, path.lacunose_units) == (1, 1)
    assert [p.reading for p in path.passages][1] is LACUNOSE


def test_wit_start_makes_a_witness_lacunose_until_it_begins_and_wit_end_after_it_ends():
    body = (
        '<ab><app><lem wit="#A #B">a</lem><rdg wit="#C"><witStart/>a</rdg></app> b '
        '<app><lem wit="#A #C">c<witEnd wit="#C"/></lem><rdg wit="#B">C</rdg></app> d</ab>'
    )
    assert texts(body, marker="<>") == ["a b c d", "a b C d", "<>a b c<>"]


def test_a_gap_is_a_lacuna_in_every_witness_reading_there():
    body = '<ab>a <gap/> b <app><lem wit="#A">c</lem><rdg wit="#B #C">c <gap reason="illegible"/></rdg></app></ab>'
    assert texts(body, marker="?") == ["a ? b c", "a ? b c ?", "a ? b c ?"]


def test_tei_whitespace_outside_preserve_and_exact_text_inside():
    body = '\n  <p>\n  The   first\n  line. </p>\n  <p>Second<lb/>line<lb break="no"/>s.</p>\n'
    assert texts(body, ids=("A",)) == ["The first line. Second lines."]
    assert texts(body, ids=("A",), space="preserve") == ["\n  The   first\n  line. Secondlines."]


def test_w_and_pc_tokens_are_separated_as_tei_implies():
    body = (
        '<ab><w>εν</w><w>τω</w><app><lem><w>ηγαπημενω</w></lem><rdg wit="#B"><w>υιω</w><w>αυτου</w></rdg></app>'
        '<pc join="left">,</pc><w>και</w></ab>'
    )
    assert texts(body, ids=("A", "B")) == ["εν τω ηγαπημενω, και", "εν τω υιω αυτου, και"]


def test_punctuation_without_join_attaches_as_its_category_says():
    body = "<ab><w>he</w><pc>(</pc><w>said</w><pc>)</pc><pc>,</pc><w>then</w><pc>–</pc><w>left</w><pc>.</pc></ab>"
    assert texts(body, ids=("A",)) == ["he (said), then – left."]


def test_spaces_written_as_elements_make_the_whitespace_between_elements_layout():
    body = '<l xml:space="preserve">\n  <w>Ich</w><c type="space"/>\n  <w>prueve</w><pc>,</pc>\n</l>'
    assert texts(body, ids=("A",)) == ["Ich prueve,"]
    assert texts('<ab xml:space="preserve">a<space/>b</ab>', ids=("A",)) == ["a b"]


def test_characters_notes_and_alternatives():
    body = (
        '<ab>a<g type="char" n="U+000C"/>b<note>editorial</note> <choice><sic>teh</sic><corr>the</corr></choice> '
        "<w><orig>vnto</orig><reg>unto</reg></w></ab>"
    )
    assert texts(body, ids=("A",)) == ["a\x0cb teh vnto"]


def test_nested_units_answer_only_for_their_readings_witnesses():
    body = (
        '<ab>a <app><lem>b <app><rdg wit="#A">c</rdg><rdg wit="#B">d</rdg></app></lem><rdg wit="#C">e</rdg></app></ab>'
    )
    assert texts(body) == ["a b c", "a b d", "a e"]


@pytest.mark.parametrize("space", ["preserve", ""])
def test_isnad_and_matn_sections_join_exactly_only_when_preserved(space):
    body = '<ab type="isnad">Narrated X: </ab><ab type="matn">The text.</ab>'
    expected = "Narrated X: The text." if space else "Narrated X: The text."
    assert texts(body, ids=("A",), space=space) == [expected]


def test_the_cte_shape_an_app_at_the_start_of_its_lemma_with_only_to():
    encoding = '<encodingDesc><variantEncoding method="double-end-point" location="internal"/></encodingDesc>'
    body = (
        '<p>in scientia <app to="#w3"><rdg wit="#M2"> </rdg></app>quaedam<anchor xml:id="w3"/> '
        '<app to="#w4"><rdg wit="#M2">sunt aliqua </rdg></app>sunt<anchor xml:id="w4"/> praemittenda.</p>'
    )
    source = document(body, witnesses("M1", "M2"), encoding, space="preserve")
    apparatus = Apparatus(parse_bytes(source, "cte.xml"), "cte.xml")
    assert apparatus.method == "double-end-point" and apparatus.folding_refused is None
    assert apparatus.text("M1") == "in scientia quaedam sunt praemittenda."
    assert apparatus.text("M2") == "in scientia   sunt aliqua  praemittenda."


def test_attestations_list_each_readings_witnesses_as_resolved():
    list_wit = '<listWit><witness xml:id="A"/><listWit xml:id="D"><witness xml:id="D1"/><witness xml:id="D2"/></listWit></listWit>'
    body = '<ab><app><lem>x</lem><rdg wit="#D">y</rdg><witDetail type="lac" wit="#D2"/></app><app><rdg wit="#D1">z</rdg></app></ab>'
    apparatus = Apparatus(parse_bytes(document(body, list_wit), "t.xml"), "t.xml")
    first, second = apparatus.attestations().values()
    assert {getattr(r, "text", r): w for r, w in first.items()} == {"x": ["A"], "y": ["D1"], LACUNOSE: ["D2"]}
    assert {getattr(r, "text", r): w for r, w in second.items()} == {NOTHING: ["A", "D2"], "z": ["D1"]}
