"""`tei stats` figures: exact on the hand-made miniature, and equal to counts made independently on the seeds."""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import combinations

import pytest
from lxml import etree
from paths import FIXTURES

from tei.apparatus import follow, witness_text
from tei.convert import convert
from tei.stats import statistics
from tei.stats.tables import TABLES, as_records, density
from tei.xmlio import parse_file

MINI = FIXTURES / "editions" / "mini.xml"
NS = {"t": "http://www.tei-c.org/ns/1.0"}


def test_the_miniature_by_hand():
    stats = statistics(parse_file(MINI), "mini.xml")
    assert (stats.units, stats.readings) == (5, 11)
    assert stats.units_by_type == {"honorific": 1, "orthographic": 2, "addition": 1, "substitution": 1}
    assert stats.readings_by_type == {"lemma": 5, "honorific": 1, "orthographic": 3, "addition": 1, "substitution": 1}
    shares = {(p.first, p.second): (p.agreeing, p.compared) for p in stats.agreement}
    assert shares == {("A", "B"): (0, 5), ("A", "C"): (2, 5), ("B", "C"): (2, 5)}


def test_a_transposition_by_reference_counts_as_the_print_types_it():
    """The reading that lists the units in another order than the document's is a 'transposition' (as the
    print and the web edition call it); the one that lists them in the document's order is untyped."""
    stats = statistics(parse_file(FIXTURES / "editions" / "transposition.xml"), "transposition.xml")
    assert stats.readings_by_type == {"lemma": 3, "transposition": 1, "untyped": 5}
    assert stats.units_by_type == {"transposition": 1, "untyped": 4}


def test_every_method_gives_the_same_figures():
    tree = parse_file(MINI)
    expected = as_records(statistics(tree, "mini.xml"))
    for method in ("location-referenced", "double-end-point"):
        assert as_records(statistics(convert(tree, method, "mini.xml"), "converted.xml")) == expected


def test_the_walk_counts_exactly_the_text_the_apparatus_rebuilds(seed_edition_path):
    tree = parse_file(seed_edition_path)
    body = tree.getroot().find(".//t:body", NS)
    for witness in "ABCD":
        path = follow(body, witness)
        assert "".join(path.parts) == witness_text(tree, witness)
        assert path.length == len(witness_text(tree, witness))


def independent_counts(path):
    """The seeds' figures counted another way: regular expressions on the file, XPath on @wit sets."""
    source = path.read_text("utf-8")
    tree = etree.parse(str(path))
    units = len(re.findall(r"<app[\s>]", source))
    readings = len(re.findall(r"<(?:lem|rdg)[\s/>]", source))
    typed = Counter()
    for reading in tree.iterfind(".//t:body//t:lem", NS):
        typed[reading.get("type") or "lemma"] += 1
    for reading in tree.iterfind(".//t:body//t:rdg", NS):
        typed[reading.get("type") or reading.getparent().get("type") or "untyped"] += 1

    def wits(element):
        return set(element.get("wit", "").replace("#", "").split())

    passing = {}  # app -> {witness: reading}
    for app in tree.iterfind(".//t:body//t:app", NS):
        enclosing = [wits(r) for r in app.iterancestors("{*}lem", "{*}rdg")]
        for reading in app.xpath("t:lem | t:rdg | t:rdgGrp/t:lem | t:rdgGrp/t:rdg", namespaces=NS):
            for witness in wits(reading):
                if all(witness in names for names in enclosing):
                    passing.setdefault(app, {})[witness] = reading
    agreement = {}
    for first, second in combinations("ABCD", 2):
        both = [app for app, taken in passing.items() if first in taken and second in taken]
        agreement[first, second] = (sum(passing[a][first] is passing[a][second] for a in both), len(both))
    return units, readings, typed, agreement


def test_seed_figures_agree_with_independent_counts(seed_edition_path):
    stats = statistics(parse_file(seed_edition_path), "edition.xml")
    units, readings, typed, agreement = independent_counts(seed_edition_path)
    assert units > 50 and stats.units == units
    assert stats.readings == readings
    assert stats.readings_by_type == dict(typed)
    assert {(p.first, p.second): (p.agreeing, p.compared) for p in stats.agreement} == agreement
    assert sum(n for _, _, n in density(stats)) == units  # every unit is placed once along the text


@pytest.mark.parametrize("table", sorted(TABLES))
def test_tables_hold_the_figures(table):
    rendered = TABLES[table](statistics(parse_file(MINI), "mini.xml"))
    if table == "json":
        assert json.loads(rendered)["units"] == 5
    elif table == "csv":
        assert "agreement,A,C,0.4,5,2" in rendered.splitlines()
    else:
        assert "variation units: 5" in rendered and "40.0%  (2 of 5)" in rendered


def test_groups_lacunae_and_additions_as_the_reader_gives_them():
    from tei.xmlio import parse_bytes

    source = (
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>'
        '<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit><witness xml:id="A"/>'
        '<listWit xml:id="D"><witness xml:id="D1"/><witness xml:id="D2"/></listWit></listWit></sourceDesc>'
        '</fileDesc></teiHeader><text><body><ab>x <app><lem>y</lem><rdg wit="#D">z</rdg></app> '
        '<app><rdg wit="#D1">added</rdg></app> <app><lem>v</lem><witDetail type="lac" wit="#D2"/></app></ab>'
        "</body></text></TEI>"
    )
    stats = statistics(parse_bytes(source.encode(), "g.xml"), "g.xml")
    shares = {(p.first, p.second): (p.agreeing, p.compared) for p in stats.agreement}
    # A takes the lem, D1 and D2 the group's rdg; in the unit without lem A and D2 read nothing (an addition
    # in D1); D2 is lacunose in the last unit, which is not compared for it
    assert shares == {("A", "D1"): (1, 3), ("A", "D2"): (1, 2), ("D1", "D2"): (1, 2)}
    assert stats.units_by_type == {"addition": 1, "untyped": 2}
    assert stats.readings_by_type == {"lemma": 2, "untyped": 2, "addition": 1}
