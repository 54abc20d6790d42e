"""tei/apparatus/walk.py: the rebuild rule, convention by convention (negative apparatus, additions, lacunae,
TEI whitespace, w/pc tokens, characters, alternatives), and the toolkit's own documents byte for byte."""

from __future__ import annotations

import pytest
from paths import FIXTURES

from tei.apparatus import LACUNOSE, NOTHING, Apparatus, content_text
from tei.convert.collatex import alignment_table
from tei.xmlio import NSMAP, parse_bytes, parse_file, xml

from .conftest import document, witnesses

XML_ID = xml("id")


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


# A transposition by reference (teiphy's Ephesians 6:20): tests/fixtures/editions/transposition.xml
TRANSPOSITION = FIXTURES / "editions" / "transposition.xml"


def test_a_reading_of_refs_to_units_reorders_them_in_their_places():
    apparatus = Apparatus(parse_file(TRANSPOSITION), "t.xml")
    assert {w: apparatus.text(w) for w in apparatus.ids} == {
        "A": "το μυστηριον του ευαγγελιου ινα εν αυτω παρρησιασωμαι ως δει",
        "B": "το μυστηριον του ευαγγελιου ινα αυτο παρρησιασωμαι ως δει",  # its own reading of the moved unit
        "C": "το μυστηριον του ευαγγελιου ινα παρρησιασωμαι εν αυτω ως δει",
        "D": "το μυστηριον του ευαγγελιου […] ως δει",
    }
    transposing, *_ = apparatus.units()
    assert transposing.transposes and all(not r.steps for r in transposing.readings)


def test_each_unit_is_passed_once_in_the_order_of_the_text_with_the_slot_it_stands_in():
    apparatus = Apparatus(parse_file(TRANSPOSITION), "t.xml")
    path = apparatus.path("C")
    ids = [(p.app.get(XML_ID), p.place.get(XML_ID) if p.place is not None else None) for p in path.passages]
    assert ids == [("U12-18", None), ("U12", None), ("U18", "U14-16"), ("U14-16", "U18")]
    assert [path.text[p.offset : p.end] for p in path.passages] == ["", " ινα", " παρρησιασωμαι", " εν αυτω"]
    assert [p.offset for p in path.passages] == sorted(p.offset for p in path.passages)
    # who reads what in each unit is unchanged: C reads the first reading of U14-16, wherever it stands
    taken = apparatus.attestations()
    (u14,) = [app for app in taken if app.get(XML_ID) == "U14-16"]
    assert {r.get("n"): ids for r, ids in taken[u14].items() if r is not LACUNOSE} == {"1": ["A", "C"], "2": ["B"]}


def test_the_collatex_table_gives_each_slot_a_column():
    table = alignment_table(parse_file(TRANSPOSITION), "t.xml")
    rows = [["".join(t["t"] for t in cell or []).strip() for cell in row] for row in table["table"]]
    # shared text, the transposing unit (D's lacuna marker), then one column for each slot
    assert rows[0] == ["το μυστηριον του ευαγγελιου", "", "ινα", "εν αυτω", "παρρησιασωμαι", "ως δει"]
    assert rows[2] == ["το μυστηριον του ευαγγελιου", "", "ινα", "παρρησιασωμαι", "εν αυτω", "ως δει"]
    assert rows[3][1:5] == ["[…]", "", "", ""]


@pytest.mark.parametrize(
    "reading",
    [
        '<ref target="#elsewhere">[x]</ref>',  # not a unit
        '<ref target="#u2">[u2]</ref> and <ref target="#u3">[u3]</ref>',  # text between the refs
        '<ref target="#u2">[u2]</ref><ref target="#u2">[u2]</ref>',  # a unit twice
        '<ref target="#u1">[u1]</ref>',  # the unit itself
        '<ref target="u2">[u2]</ref>',  # no '#': another document
    ],
)
def test_a_ref_that_is_no_transposition_stays_text(reading):
    body = (
        f'<ab xml:id="elsewhere">a <app xml:id="u1"><rdg wit="#C">{reading}</rdg></app> '
        '<app xml:id="u2"><lem>b</lem></app> <app xml:id="u3"><lem>c</lem></app></ab>'
    )
    expected = "a " + "".join(parse_bytes(f"<r>{reading}</r>".encode(), "r").getroot().itertext()) + " b c"
    assert texts(body)[2] == expected


def test_a_transposition_in_a_container_read_by_itself_lists_units_outside_it():
    apparatus = Apparatus(parse_file(TRANSPOSITION), "t.xml")
    reading = apparatus.tree.getroot().find(".//tei:rdg[@n='2']", NSMAP)
    assert content_text(reading, "C") == "[U12] [U18] [U14-16]"  # the units are not in it: its refs are text
