"""Places of variation (tei.apparatus.places): adjacent units read as one, each witness's words kept."""

from __future__ import annotations

import pytest
from lxml import etree
from paths import FIXTURES, SHARED

from tei.apparatus import APP, Apparatus
from tei.apparatus.places import by_place
from tei.xmlio import NSMAP, parse_file

from .conftest import document, witnesses

FOLDERS = ("tei-apparatus", "tei-apparatus-conventions")
FILES = sorted(
    f"{folder}/{path.name}" for folder in FOLDERS for path in (SHARED / "corpora" / folder).glob("*.xml")
) or ["(../shared/corpora absent)"]
NOT_A_TEI_DOCUMENT = "tei-apparatus/tei-guidelines_TC-CriticalApparatus.xml"

TAXONOMY = (
    '<encodingDesc><classDecl><taxonomy><category xml:id="substitution"/><category xml:id="omission"/>'
    '<category xml:id="addition"/><category xml:id="orthographic"/><category xml:id="punctuation"/>'
    "</taxonomy></classDecl></encodingDesc>"
)


def tree_of(body: str, ids=("A", "B", "C"), encoding: str = TAXONOMY) -> etree._ElementTree:
    return etree.ElementTree(etree.fromstring(document(body, witnesses(*ids), encoding, space="preserve")))


def units(tree: etree._ElementTree) -> list[etree._Element]:
    return list(tree.getroot().iter(APP))


def texts(tree: etree._ElementTree) -> dict[str, str]:
    reader = Apparatus(tree)
    return {witness: reader.text(witness) for witness in reader.ids}


def readings_of(app: etree._Element) -> list[tuple[str, str, str | None, str]]:
    found = [*app.iterfind("tei:lem", NSMAP), *app.iterfind("tei:rdg", NSMAP)]
    return [(r.tag.rsplit("}", 1)[1], r.get("wit"), r.get("type"), "".join(r.itertext())) for r in found]


ADJACENT = (
    "<ab>When "
    '<app><lem wit="#A">it was the day </lem><rdg wit="#B" type="substitution">on the day </rdg>'
    '<rdg wit="#C" type="omission"/></app>'
    '<app><lem wit="#A #C"/><rdg wit="#B" type="addition">of the battle </rdg></app>'
    '<app><lem wit="#A #C">of Badr</lem><rdg wit="#B" type="punctuation">of Badr,</rdg></app>'
    " the Prophet "
    '<app><lem wit="#A">turned</lem><rdg wit="#B #C" type="substitution">looked</rdg></app>'
    ".</ab>"
)


def test_adjacent_units_become_one_with_each_witness_words():
    tree = tree_of(ADJACENT)
    placed = by_place(tree)
    assert placed is not tree and len(units(tree)) == 4
    first, second = units(placed)
    assert readings_of(first) == [
        ("lem", "#A", None, "it was the day of Badr"),
        ("rdg", "#B", "substitution", "on the day of the battle of Badr,"),  # types differ: words changed
        ("rdg", "#C", "omission", "of Badr"),  # its one difference is an omission
    ]
    assert readings_of(second) == [("lem", "#A", None, "turned"), ("rdg", "#B #C", "substitution", "looked")]
    assert texts(placed) == texts(tree), "every witness reads exactly what it read"
    assert len(units(tree)) == 4, "the edition itself is not changed"


def test_a_run_that_is_an_addition_or_an_omission_keeps_that_type():
    body = (
        "<ab>One "
        '<app><lem wit="#A"/><rdg wit="#B" type="addition">two </rdg></app>'
        '<app><lem wit="#A"/><rdg wit="#B" type="addition">three </rdg></app>'
        "four "
        '<app><lem wit="#A">five </lem><rdg wit="#B" type="omission"/></app>'
        '<app><lem wit="#A">six </lem><rdg wit="#B" type="omission"/></app>'
        "end</ab>"
    )
    tree = tree_of(body, ids=("A", "B"))
    added, omitted = units(by_place(tree))
    assert readings_of(added) == [("lem", "#A", None, ""), ("rdg", "#B", "addition", "two three ")]
    assert readings_of(omitted) == [("lem", "#A", None, "five six "), ("rdg", "#B", "omission", "")]


def test_minor_types_alike_stay_and_mixed_minor_types_take_the_first_the_taxonomy_declares():
    body = (
        "<ab>"
        '<app><lem wit="#A">Qibla</lem><rdg wit="#B" type="orthographic">Qiblah</rdg></app>'
        '<app><lem wit="#A">.</lem><rdg wit="#B" type="punctuation">,</rdg></app>'
        " then "
        '<app><lem wit="#A">Haizum</lem><rdg wit="#B" type="orthographic">Hayzum</rdg></app>'
        '<app><lem wit="#A">!</lem><rdg wit="#B" type="orthographic">?</rdg></app>'
        "</ab>"
    )
    mixed, alike = units(by_place(tree_of(body, ids=("A", "B"))))
    assert readings_of(mixed)[1] == ("rdg", "#B", "orthographic", "Qiblah,")
    assert readings_of(alike)[1] == ("rdg", "#B", "orthographic", "Hayzum?")


def test_units_with_notes_conjectures_or_nested_units_keep_their_own_entries():
    body = (
        "<ab>"
        '<app><lem wit="#A">a</lem><rdg wit="#B">b</rdg><note>the scribe corrects</note></app>'
        '<app><lem wit="#A">c</lem><rdg wit="#B">d</rdg></app>'
        '<app><lem resp="#ed">e</lem><rdg wit="#A #B">f</rdg></app>'
        '<app><lem wit="#A #B"><app><lem wit="#A">g</lem><rdg wit="#B">h</rdg></app></lem>'
        '<rdg wit="#C" type="paraphrase">i</rdg></app>'
        "</ab>"
    )
    tree = tree_of(body)
    assert by_place(tree) is tree, "nothing to merge"


def test_witnesses_reading_alike_share_one_reading_and_the_lemma_readers_are_named():
    body = (
        "<ab>"
        '<app><lem wit="#A #C">x </lem><rdg wit="#B">y </rdg></app>'
        '<app><lem wit="#A">z</lem><rdg wit="#B #C">w</rdg></app>'
        "</ab>"
    )
    (unit,) = units(by_place(tree_of(body)))
    assert readings_of(unit) == [("lem", "#A", None, "x z"), ("rdg", "#B", None, "y w"), ("rdg", "#C", None, "x w")]


@pytest.mark.needs_shared
@pytest.mark.parametrize("name", [f for f in FILES if f != NOT_A_TEI_DOCUMENT])
def test_every_witness_of_every_real_edition_reads_the_same_by_places(name):
    edition = SHARED / "corpora" / name
    if not edition.exists():
        pytest.skip("../shared/corpora is absent")
    tree = parse_file(edition)
    reader = Apparatus(tree, str(edition))
    if reader.folding_refused is not None:
        pytest.skip(f"the reader does not fold it: {reader.folding_refused}")
    parallel = reader.parallel
    placed = by_place(parallel, str(edition))
    assert texts(placed) == texts(parallel)
    assert len(units(placed)) <= len(units(parallel))


def test_a_transposition_by_reference_and_the_units_it_moves_keep_their_own_entries():
    tree = parse_file(FIXTURES / "editions" / "transposition.xml")
    for detail in list(tree.getroot().iter("{http://www.tei-c.org/ns/1.0}witDetail")):  # every unit plain
        detail.getparent().remove(detail)
    assert by_place(tree) is tree  # merged, the refs would point to no unit and read as text
    assert texts(tree)["C"] == "το μυστηριον του ευαγγελιου ινα παρρησιασωμαι εν αυτω ως δει"
