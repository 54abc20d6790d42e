"""Transmission terms in the edition: every transmission term of a witness's chain (a seg type=transmission in its
transcription) is a seg type=transmission in the edition's isnad too, in shared text or in the lemma or reading of
that witness, in order, and the witness still reads back byte for byte.

A term is marked wherever its word stands whole in the isnad, so a saying verb the chain reader does not count
as a link is marked too: the first قال of «عن عمرو بن شرحبيل، قال قال عبد الله» (pair 7, B), the one such word
in the 16 pairs."""

from __future__ import annotations

from lxml import etree

from tei.apparatus import witness_text
from tei.collate import collate
from tei.hadith.isnad import TERM, chain_links
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def _terms_read_by(tree: etree._ElementTree, wid: str) -> list[str]:
    """The seg type=transmission of the isnad that witness `wid` reads, in order."""
    found = []
    for seg in tree.xpath("//t:ab[@type='isnad']//t:seg[@type='transmission']", namespaces=NS):
        readings = seg.xpath("ancestor::t:lem | ancestor::t:rdg", namespaces=NS)
        if all(f"#{wid}" in reading.get("wit", "").split() for reading in readings):
            found.append(seg.xpath("string()"))
    return found


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)


def test_every_transmission_term_of_the_pairs_chains_is_a_seg_in_the_edition(arabic_pairs):
    checked, extra = 0, []
    for number, pair in enumerate(arabic_pairs):
        witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in zip("AB", pair, strict=True))
        work = Work(f"pair{number}", "pair", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
        tree = etree.ElementTree(etree.fromstring(edition_bytes(collate(work))))
        for witness in witnesses:
            text = witness.text
            terms = [text[start:end] for kind, start, end in chain_links(text) if kind == TERM]
            read = _terms_read_by(tree, witness.id)
            assert _is_subsequence(terms, read), (number, witness.id)
            if len(read) > len(terms):
                extra.append((number, witness.id, len(read) - len(terms)))
            assert witness_text(tree, witness.id) == text, (number, witness.id)
            checked += len(terms)
    assert checked >= 150  # 189 terms in the 16 pairs
    assert extra == [(6, "B", 1)]
