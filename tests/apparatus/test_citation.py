"""Citable passages: the citeStructure an edition declares (or the toolkit's), resolved; its anchors in the page."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from lxml import etree
from paths import FIXTURES, SEEDS

from tei.apparatus.citation import TOOLKIT, citable_units, declared_structure, refs_decl
from tei.collate import collate
from tei.outputs import write_files
from tei.readers.manifest import read_manifest
from tei.render import render
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes, parse_file, tei

MINI = FIXTURES / "editions" / "mini.xml"

VERSE = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Poems</title></titleStmt>
<publicationStmt><p>x</p></publicationStmt><sourceDesc><p>x</p></sourceDesc></fileDesc><encodingDesc>
<refsDecl><citeStructure unit="poem" match="/TEI/text/body/div" use="@n">
<citeStructure unit="line" match="lg/l|l" use="@n" delim="."/></citeStructure></refsDecl></encodingDesc></teiHeader>
<text><body><div n="1"><l n="1">a</l><lg><l n="2">b</l></lg></div><div n="2"><l n="1">c</l><l>no n</l></div></body></text></TEI>"""


@pytest.fixture(scope="module")
def seeds_edition():
    return parse_bytes(edition_bytes(collate(read_manifest(SEEDS))), "edition.xml")


def test_the_toolkits_editions_declare_their_passages_and_units(seeds_edition):
    header = seeds_edition.getroot().find(f"{tei('teiHeader')}/{tei('encodingDesc')}")
    assert header.find(f"{tei('refsDecl')}/{tei('citeStructure')}") is not None
    assert declared_structure(seeds_edition) == TOOLKIT
    units = citable_units(seeds_edition)
    apps = list(seeds_edition.getroot().iter(tei("app")))
    assert [u.identifier for u in units[:2]] == [
        "badr-text",
        f"badr-text.{apps[0].get('{http://www.w3.org/XML/1998/namespace}id')}",
    ]
    assert (units[0].level, units[0].parent, units[0].cite_type) == (1, None, "passage")
    assert len(units) == 1 + len(apps)  # every unit, nested ones too, under its passage
    assert {(u.level, u.parent, u.cite_type) for u in units[1:]} == {(2, "badr-text", "unit")}
    assert [u.element for u in units[1:]] == apps  # document order


def test_the_short_title_and_the_editors_reach_the_header(seeds_edition):
    title_stmt = seeds_edition.getroot().find(f".//{tei('titleStmt')}")
    assert [t.get("type") for t in title_stmt.findall(tei("title"))] == [None, "short"]
    assert title_stmt.find(f"{tei('title')}[@type='short']").text == "Badr"


def test_another_editions_structure_is_read_with_the_tei_namespace_as_default():
    tree = etree.ElementTree(etree.fromstring(VERSE))
    units = [(u.identifier, u.level, u.parent, u.cite_type) for u in citable_units(tree)]
    assert units == [
        ("1", 1, None, "poem"),
        ("1.1", 2, "1", "line"),
        ("1.2", 2, "1", "line"),
        ("2", 1, None, "poem"),
        ("2.1", 2, "2", "line"),  # a line without @n is not citable
    ]


def test_an_edition_without_a_structure_is_read_with_the_toolkits():
    tree = parse_file(MINI)
    assert declared_structure(tree) == TOOLKIT
    assert all(u.element.tag == tei("app") for u in citable_units(tree) if u.level == 2)


def test_the_refs_decl_round_trips():
    tree = etree.ElementTree(etree.Element(tei("TEI")))
    tree.getroot().append(refs_decl())
    assert declared_structure(tree) == TOOLKIT


def test_every_passage_has_a_stable_anchor_and_the_page_knows_what_to_cite(tmp_path):
    edition = tmp_path / "edition.xml"
    edition.write_bytes(etree.tostring(etree.fromstring(VERSE)))
    write_files(render(edition, "html", tmp_path / "html").files)
    page = (tmp_path / "html" / "index.html").read_text("utf-8")
    anchors = dict(re.findall(r'id="(passage-[^"]+)" data-cite="([^"]+)"', page))
    assert anchors == {
        "passage-1": "1",
        "passage-1.1": "1.1",
        "passage-1.2": "1.2",
        "passage-2": "2",
        "passage-2.1": "2.1",
    }
    assert 'data-cite-title="Poems"' in page
    ids = re.findall(r' id="([^"]+)"', page)
    assert [i for i, n in Counter(ids).items() if n > 1] == []
