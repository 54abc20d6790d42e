"""Transmission terms in the edition: every transmission term of a witness's chain (a seg type=transmission in its
transcription) is a seg type=transmission in the edition's isnad too, in shared text or in the lemma or reading of
that witness, in order, and the witness still reads back byte for byte.

A term is marked wherever its word stands whole in the isnad, so a saying verb the chain reader does not count
as a link is marked too: the first قال of «عن عمرو بن شرحبيل، قال قال عبد الله» (pair 7, B), the one such word
in the 16 pairs."""

from __future__ import annotations

from hadith.isnad_marks import isnad_marks_read_by

from tei.apparatus import witness_text
from tei.hadith.isnad import TERM, chain_links


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)


def test_every_transmission_term_of_the_pairs_chains_is_a_seg_in_the_edition(arabic_pair_editions):
    checked, extra = 0, []
    for number, (witnesses, tree) in enumerate(arabic_pair_editions):
        for witness in witnesses:
            text = witness.text
            terms = [text[start:end] for kind, start, end in chain_links(text) if kind == TERM]
            read = isnad_marks_read_by(tree, witness.id, "t:seg[@type='transmission']")
            assert _is_subsequence(terms, read), (number, witness.id)
            if len(read) > len(terms):
                extra.append((number, witness.id, len(read) - len(terms)))
            assert witness_text(tree, witness.id) == text, (number, witness.id)
            checked += len(terms)
    assert checked >= 150  # 189 terms in the 16 pairs
    assert extra == [(6, "B", 1)]
