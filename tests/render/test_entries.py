"""tei.render.entries: the reader's verdicts as the stylesheets print them (groups, hands, ranges, lacunae)."""

from __future__ import annotations

from lxml import etree

from tei.render.entries import TK_NS, annotated

EDITION = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>
<publicationStmt><p>p</p></publicationStmt><sourceDesc>
<listWit><listWit xml:id="Q" n="Q"><witness xml:id="Q1"/><witness xml:id="Q2"/><witness xml:id="Q3"/>
<witness xml:id="Q4"/></listWit><witness xml:id="F"/><witness xml:id="R1"/><witness xml:id="R2"/>
<witness xml:id="R3"/><witness xml:id="S"/></listWit></sourceDesc></fileDesc></teiHeader>
<text><body><p>Enter <app><lem wit="#Q">Mortimer</lem><rdg wit="#F F* #R1 #R2 #R3">Mortimor</rdg>
<witDetail type="lac" wit="#S"/></app> and <app><rdg wit="#R1">Hamlet</rdg></app> so.</p></body></text></TEI>"""

NS = {"tk": TK_NS}


def copy():
    return annotated(etree.ElementTree(etree.fromstring(EDITION)), "test")


def sigla(tree, unit, kind="reading"):
    return [(s.text, s.get("ids")) for s in tree.xpath(f"//tk:unit[@of='{unit}']/tk:{kind}/tk:s", namespaces=NS)]


def test_a_group_whose_members_all_agree_is_printed_by_its_siglum():
    tree = copy()
    assert sigla(tree, "u1")[0] == ("Q", "Q1 Q2 Q3 Q4")


def test_a_hand_reading_with_its_witness_is_left_out_and_a_run_of_three_is_a_range():
    tree = copy()
    assert sigla(tree, "u1")[1:] == [("F", "F F*"), ("R1\u20133", "R1 R2 R3")]


def test_lacunose_witnesses_and_the_place_of_an_addition():
    tree = copy()
    assert sigla(tree, "u1", "lacuna") == [("S", "S")]
    assert tree.xpath("//tk:unit[@of='u2']/@addition-after", namespaces=NS) == ["and"]
    texts = {t.get("wit"): t.text for t in tree.xpath("//tk:text", namespaces=NS)}
    assert texts["R1"] == "Enter Mortimor and Hamlet so." and texts["S"] == "Enter […] and so."
