"""tei.app.carry: which decisions are found in an edited edition, how each is carried, and what is reported."""

from __future__ import annotations

from lxml import etree
from paths import FIXTURES

from tei.app.carry import carry, decisions
from tei.xmlio import parse_bytes, tei, xml

MINI = (
    (FIXTURES / "editions" / "mini.xml")
    .read_text("utf-8")
    .replace('location="internal"/>', 'location="internal" source="#A"/>')
)
EDITS = [
    ("<title>A miniature edition (test fixture)</title>",
     '<title>A miniature edition (test fixture)</title><editor xml:id="ed">The Editor</editor>'),
    ('<lem wit="#A">captives</lem>\n          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
     '<lem wit="#B #C" resp="#ed">prisoners</lem>\n          <rdg wit="#A" type="substitution">captives</rdg>'
     "\n          <note>B and C agree.</note>"),
    ('<rdg wit="#B #C" type="orthographic">Qiblah</rdg>', '<rdg wit="#B #C" type="punctuation">Qiblah</rdg>'),
]  # fmt: skip


def edited(text: str = MINI) -> etree._ElementTree:
    for old, new in EDITS:
        assert old in text, old
        text = text.replace(old, new)
    return parse_bytes(text.encode("utf-8"), "edited.xml")


def test_every_kind_of_decision_is_found_and_nothing_the_toolkit_wrote():
    found = decisions(edited(), parse_bytes(MINI.encode("utf-8"), "mini.xml"))
    assert sorted((d.kind, d.app_id, d.witness or "", d.name or d.value) for d in found) == [
        ("attribute", "app-0005", "B", "resp"),
        ("element", "app-0005", "", ""),
        ("header", "", "", ""),
        ("lemma", "app-0005", "B", ""),
        ("type", "app-0002", "B", "punctuation"),
    ]


def test_the_decisions_are_carried_into_the_same_units():
    found = decisions(edited(), parse_bytes(MINI.encode("utf-8"), "mini.xml"))
    data, result = carry(MINI.encode("utf-8"), found, "new.xml", None)
    assert result.diagnostics == []
    root = parse_bytes(data, "new.xml").getroot()
    app = root.find(f".//{tei('app')}[@{xml('id')}='app-0005']")
    lem = app.find(tei("lem"))
    assert (lem.get("wit"), lem.get("resp"), lem.text) == ("#B #C", "#ed", "prisoners")
    assert app.find(tei("rdg")).get("wit") == "#A" and app.find(tei("rdg")).get("type") == "substitution"
    assert app.find(tei("note")).text == "B and C agree."
    assert root.find(f".//{tei('rdg')}[@wit='#B #C']").get("type") == "punctuation"
    assert root.find(f".//{tei('editor')}").get(xml("id")) == "ed"


def test_a_decision_whose_unit_is_gone_is_reported_not_lost_silently():
    found = decisions(edited(), parse_bytes(MINI.encode("utf-8"), "mini.xml"))
    without = MINI.replace('<app xml:id="app-0005">', '<app xml:id="app-other">')
    _, result = carry(without.encode("utf-8"), found, "new.xml", None, "edited.xml")
    reported = [(d.code, d.severity, d.file) for d in result.diagnostics]
    assert reported == [("B004", "warning", "edited.xml")] * 3  # lemma, @resp, note of app-0005
    assert all("app-0005" in d.message and "not in the new collation" in d.message for d in result.diagnostics)


def test_a_type_the_toolkit_gave_other_words_is_not_the_editors():
    """Failure 5: --carry-decisions reported B004 for reading types the toolkit had assigned itself: where a
    unit is cut otherwise in the collation of the texts rebuilt from the edited edition, the old type of other
    words is the toolkit's, not a decision. A type on the same words, or one the toolkit never writes, is."""
    regenerated = parse_bytes(MINI.encode("utf-8"), "mini.xml")
    old = '<rdg wit="#B #C" type="orthographic">Qiblah</rdg>'
    assert old in MINI
    for new, decided in (
        ('<rdg wit="#B #C" type="substitution">Qibla</rdg>', []),
        ('<rdg wit="#B #C" type="substitution">Qiblah</rdg>', [("type", "substitution")]),
        ('<rdg wit="#B #C" type="the-editors-own">Qibla</rdg>', [("type", "the-editors-own")]),
    ):
        edited_tree = parse_bytes(MINI.replace(old, new).encode("utf-8"), "edited.xml")
        found = [(d.kind, d.value) for d in decisions(edited_tree, regenerated) if d.kind == "type"]
        assert found == decided, new
