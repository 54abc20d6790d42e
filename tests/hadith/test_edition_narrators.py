"""Narrators in the edition: every narrator's name of a witness's chain (a persName type=narrator in its
transcription) is a persName type=narrator in the edition's isnad too, in shared text or in the lemma or
reading of that witness, and the witness still reads back byte for byte."""

from __future__ import annotations

from lxml import etree

from tei.apparatus import witness_text
from tei.collate import collate
from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def _narrators_read_by(tree: etree._ElementTree, wid: str) -> list[str]:
    """The persName type=narrator of the isnad that witness `wid` reads, in order."""
    found = []
    for name in tree.xpath("//t:ab[@type='isnad']//t:persName[@type='narrator']", namespaces=NS):
        readings = name.xpath("ancestor::t:lem | ancestor::t:rdg", namespaces=NS)
        if all(f"#{wid}" in reading.get("wit", "").split() for reading in readings):
            found.append(name.xpath("string()"))
    return found


def test_every_narrator_of_the_pairs_chains_is_a_persname_in_the_edition(arabic_pairs):
    checked = 0
    for number, pair in enumerate(arabic_pairs):
        witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in zip("AB", pair, strict=True))
        work = Work(f"pair{number}", "pair", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
        tree = etree.ElementTree(etree.fromstring(edition_bytes(collate(work))))
        for witness in witnesses:
            text = witness.text
            narrators = [text[start:end] for kind, start, end in chain_links(text) if kind == NARRATOR]
            assert _narrators_read_by(tree, witness.id) == narrators, (number, witness.id)
            assert witness_text(tree, witness.id) == text, (number, witness.id)
            checked += len(narrators)
    assert checked >= 150  # 192 names in the 16 pairs
