"""tei.render.entries: the reader's verdicts as the stylesheets print them (groups, hands, ranges, lacunae)."""

from __future__ import annotations

from lxml import etree
from paths import FIXTURES

from tei.apparatus import witness_text
from tei.render.entries import TK_NS, annotated, witness_texts
from tei.xmlio import NSMAP, parse_file, tei, xml

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


def test_each_witness_text_and_each_group_is_carried_for_the_page():
    tree = copy()
    source = etree.ElementTree(etree.fromstring(EDITION))
    texts = witness_texts(tree)
    assert texts == [(w, witness_text(source, w)) for w, _ in texts]
    assert dict(texts)["R1"] == "Enter Mortimor and Hamlet so."
    (group,) = tree.xpath("//tk:group", namespaces=NS)
    assert dict(group.attrib) == {"id": "Q", "siglum": "Q", "members": "Q1 Q2 Q3 Q4", "members-sigla": "Q1–4"}
    assert witness_texts(etree.ElementTree(etree.fromstring(EDITION))) is None  # not annotated


LACUNAE = EDITION.replace(
    "<text><body><p>Enter",
    '<text><body><p><app><lem wit="#Q1"/><rdg wit="#F"><witEnd/></rdg></app> Enter',
).replace("so.</p>", '<app><lem wit="#Q1"/><rdg wit="#F"><witStart/>so</rdg></app>.</p>')


def test_a_lacuna_opened_by_an_element_is_carried_on_each_marker_and_unit():
    tree = annotated(etree.ElementTree(etree.fromstring(LACUNAE)), "test")
    found = tree.xpath("//*[@tk:lacking]", namespaces=NS)
    lacking = [(etree.QName(e).localname, e.get(f"{{{TK_NS}}}id"), e.get(f"{{{TK_NS}}}lacking")) for e in found]
    assert lacking == [
        ("app", "u1", "F"),  # F lacks the text from its witEnd to its witStart
        ("witEnd", None, "F"),
        ("app", "u2", "F"),
        ("app", "u3", "F"),
        ("app", "u4", ""),
        ("witStart", None, ""),
    ]
    assert tree.xpath("string(//tk:apparatus/@lacking-at-start)", namespaces=NS) == ""
    assert dict(witness_texts(tree))["F"] == "[…]so."


def test_a_transposition_by_reference_carries_its_lemma_and_each_reading_in_base_texts():
    """tests/fixtures/editions/transposition.xml (teiphy's shape): the reader's texts of the moved units."""
    tree = annotated(parse_file(FIXTURES / "editions" / "transposition.xml"), "t")
    (unit,) = tree.xpath("//tei:app[@tk:transposition]", namespaces={**NS, **NSMAP})
    assert unit.get(f"{{{TK_NS}}}transposition") == "ινα εν αυτω παρρησιασωμαι"
    assert [r.get(f"{{{TK_NS}}}transposed") for r in unit.iter(tei("rdg"))] == [
        "ινα εν αυτω παρρησιασωμαι",
        "ινα παρρησιασωμαι εν αυτω",
    ]
    (first,) = tree.xpath("//tei:app[@tk:transposed-by]", namespaces={**NS, **NSMAP})
    assert (first.get(xml("id")), first.get(f"{{{TK_NS}}}transposed-by")) == ("U12", unit.get(f"{{{TK_NS}}}id"))
    texts = dict(witness_texts(tree))
    assert texts["C"] == "το μυστηριον του ευαγγελιου ινα παρρησιασωμαι εν αυτω ως δει"


CONTAINER = EDITION.replace(
    """<text><body><p>Enter <app><lem wit="#Q">Mortimer</lem><rdg wit="#F F* #R1 #R2 #R3">Mortimor</rdg>
<witDetail type="lac" wit="#S"/></app> and <app><rdg wit="#R1">Hamlet</rdg></app> so.</p></body></text>""",
    """<text><body><p><app type="paraphrase"><lem wit="#Q1 #F #R1">Enter <app><lem wit="#Q1 #F">Mortimer</lem>
<rdg wit="#R1">Mortimor</rdg></app> now</lem><rdg wit="#S">He comes in</rdg></app>; <app><lem wit="#Q1 #F #S"/>
<rdg wit="#R1">Exit <app><lem wit="#R1">Hamlet</lem><rdg wit="#R2">Hamlett</rdg></app></rdg></app></p></body></text>""",
)


def test_a_reading_holding_units_names_only_the_witnesses_whose_text_it_prints():
    """Issue 41: the lem of a paraphrase's container prints each nested unit's base reading (Q1's and F's
    words), so R1, which reads Mortimor inside it, is not named; inside a variant reading a nested unit
    shows what the reading's first witness reads there."""
    tree = annotated(etree.ElementTree(etree.fromstring(CONTAINER)), "test")
    assert sigla(tree, "u1") == [("Q1", "Q1"), ("F", "F"), ("S", "S")]  # not R1
    assert tree.xpath("//tk:unit[@of='u1']/tk:reading[1]/@wit", namespaces=NS) == ["Q1 F"]
    apps = tree.getroot().iter(tei("app"))
    assert [a.get(f"{{{TK_NS}}}shown") for a in apps] == [None, "u2.1", None, "u4.1"]
    assert [r.get(f"{{{TK_NS}}}wit") for r in tree.getroot().iter(tei("lem"))][0] == "Q1 F R1"  # who passes it
