"""Editions of the shared corpus (the 16 pairs and pairs of consecutive narrations of one chapter of Sahih Muslim,
kitabs 1-16): every eulogy of every text, vocalised or not, is a seg in the edition, and where each witness has
one of the same class (the Prophet's, a Companion's ...) they face each other in one unit of a non-substantive
type; every ح standing alone is marked; no narrator's name stands across two units (a chain is collated
narrator by narrator); each witness still rebuilds byte for byte."""

from __future__ import annotations

import pytest
import regex
from hadith.names import split_names

from tei.apparatus import witness_text
from tei.collate import collate
from tei.hadith.markup import EULOGY, TAHWIL_WORD
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.xmlio import NSMAP, parse_bytes, tei

NON_SUBSTANTIVE = {"honorific", "orthographic", "whitespace", "punctuation", "particle"}
EVERY = 8  # one pair of consecutive narrations in EVERY of each chapter


def _work(name: str, narrations: list[dict]) -> Work:
    witnesses = tuple(Witness(f"M{n['id']}", str(n["id"]), n["arabic"], "ar") for n in narrations)
    return Work(name, name, language="ar", base=witnesses[0].id, profile="hadith-ar", witnesses=witnesses)


def _works(arabic_pairs, muslim_records) -> list[Work]:
    works = [_work(f"pair{n}", list(pair)) for n, pair in enumerate(arabic_pairs)]
    chapters: dict[tuple[int, int], list[dict]] = {}
    for record in muslim_records:
        chapters.setdefault((record["bookId"], record["chapterId"]), []).append(record)
    for (_, chapter), narrations in chapters.items():
        for n in range(0, len(narrations) - 1, EVERY):
            works.append(_work(f"c{chapter}-{n}", narrations[n : n + 2]))
    return works


def _reading_witnesses(element) -> set[str] | None:
    """The witnesses whose text this element carries: None outside any reading (all of them)."""
    reading = next(iter(element.xpath("ancestor::*[self::tei:lem or self::tei:rdg][1]", namespaces=NSMAP)), None)
    return None if reading is None else {w.lstrip("#") for w in reading.get("wit").split()}


def _type(reading) -> str | None:
    parent = reading.getparent()
    return reading.get("type") or (parent.get("type") if parent.tag == tei("rdgGrp") else None)


@pytest.fixture(scope="module")
def editions(arabic_pairs, muslim_records) -> list[tuple[Work, object]]:
    """Each corpus work with its collated edition, parsed."""
    return [(work, parse_bytes(edition_bytes(collate(work)), work.id)) for work in _works(arabic_pairs, muslim_records)]


@pytest.mark.slow
def test_eulogies_and_tahwil_in_the_corpus_editions(editions):
    assert len(editions) > 300
    vocalised = faced = 0
    for work, tree in editions:
        segs = tree.xpath("//tei:body//tei:seg[@type='eulogy']", namespaces=NSMAP)
        tahwil = tree.xpath("//tei:body//tei:seg[@type='tahwil']", namespaces=NSMAP)
        for witness in work.witnesses:
            assert witness_text(tree, witness.id) == witness.text, (work.id, witness.id)
            mine = [s for s in segs if (_reading_witnesses(s) or {witness.id}) >= {witness.id}]
            expected = list(EULOGY.finditer(witness.text))
            assert ["".join(s.itertext()) for s in mine] == [m.group() for m in expected], (work.id, witness.id)
            vocalised += sum(1 for m in expected if regex.search(r"\p{M}", m.group()))
            marked = [s for s in tahwil if (_reading_witnesses(s) or {witness.id}) >= {witness.id}]
            assert len(marked) == len(TAHWIL_WORD.findall(witness.text)), (work.id, witness.id)
        for app in tree.iter(tei("app")):
            readings = app.xpath("tei:lem|tei:rdg|tei:rdgGrp/tei:rdg", namespaces=NSMAP)
            classes = {tuple(r.xpath(".//tei:seg[@type='eulogy']/@subtype", namespaces=NSMAP)) for r in readings}
            if len(readings) > 1 and len(classes) == 1 and () not in classes:  # each the same formula's class
                faced += 1
                assert {_type(r) for r in readings if r.tag == tei("rdg")} <= NON_SUBSTANTIVE, (
                    work.id,
                    app.get("{http://www.w3.org/XML/1998/namespace}id"),
                )
    assert faced > 0


@pytest.mark.slow
def test_no_narrators_name_is_split_across_units(editions):
    names, split = 0, []
    for work, tree in editions:
        found, cut = split_names(work, tree)
        names += found
        split += cut
    assert names > 1500
    assert split == []
