"""Rebuilding witness texts from the XML of an apparatus (docs/edition-format.md)."""

import pytest
from paths import FIXTURES

from tei.apparatus import witness_ids, witness_text
from tei.errors import InvalidInputError
from tei.xmlio import parse_bytes, parse_file

MINI = FIXTURES / "editions" / "mini.xml"
TEI = 'xmlns="http://www.tei-c.org/ns/1.0"'


def document(body: str, list_wit: str = "") -> str:
    header = f"<teiHeader><fileDesc><sourceDesc>{list_wit}</sourceDesc></fileDesc></teiHeader>"
    return f"<TEI {TEI}>{header}<text><body>{body}</body></text></TEI>"


def test_the_mini_fixture():
    tree = parse_file(MINI)
    assert witness_ids(tree) == ["A", "B", "C"]
    assert witness_text(tree, "A") == (
        "The Prophet (ﷺ) turned towards the Qibla. He consulted Abu Bakr and `Umar about the captives.\n"
    )
    assert witness_text(tree, "B") == (
        "The Prophet (peace and blessings be upon him) turned towards the Qiblah. At that time he was wearing "
        "a cloak. He consulted Abu Bakr and Umar about the prisoners.\n"
    )
    assert "'Umar رضي الله عنهم about the prisoners" in witness_text(tree, "C")


def test_lem_without_wit_stands_for_unnamed_witnesses_and_apps_nest():
    xml = document(
        '<ab>a <app><lem>b <app><rdg wit="#X">c</rdg><rdg wit="#Y">d</rdg></app></lem>'
        '<rdg wit="#Z">e</rdg></app> f</ab>'
    )
    tree = parse_bytes(xml.encode(), "nested.xml")
    assert witness_ids(tree) == ["X", "Y", "Z"]
    assert [witness_text(tree, w) for w in "XYZ"] == ["a b c f", "a b d f", "a e f"]


def test_layout_whitespace_is_not_text_and_notes_are_not_witness_text():
    xml = document(
        '\n  <div>\n    <ab>x<app>\n      <rdgGrp>\n        <rdg wit="A">y<note>editorial</note></rdg>\n'
        '      </rdgGrp>\n    </app>z<g type="char" n="U+000C"/></ab>\n  </div>\n',
        '<listWit><witness xml:id="A"/></listWit>',
    )
    assert witness_text(parse_bytes(xml.encode(), "w.xml"), "A") == "xyz\x0c"


def test_witness_groups_are_not_witnesses():
    list_wit = (
        '<listWit><witness xml:id="G"><listWit><witness xml:id="A"/><witness xml:id="B"/></listWit></witness></listWit>'
    )
    assert witness_ids(parse_bytes(document("<ab/>", list_wit).encode(), "g.xml")) == ["A", "B"]


def test_a_document_without_body():
    with pytest.raises(InvalidInputError):
        witness_text(parse_bytes(f"<TEI {TEI}/>".encode(), "empty.xml"), "A")


def test_a_g_that_names_no_code_point_is_a_located_error():
    xml = document('<ab>x\n<g type="char" n="U+ZZZ"/></ab>', '<listWit><witness xml:id="A"/></listWit>')
    with pytest.raises(InvalidInputError) as excinfo:
        witness_text(parse_bytes(xml.encode(), "g.xml"), "A")
    (diagnostic,) = excinfo.value.diagnostics
    assert (diagnostic.code, diagnostic.file) == ("A003", "g.xml")
