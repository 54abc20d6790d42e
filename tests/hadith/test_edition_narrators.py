"""Narrators in the edition: every narrator's name of a witness's chain (a persName type=narrator in its
transcription) is a persName type=narrator in the edition's isnad too, in shared text or in the lemma or
reading of that witness, and the witness still reads back byte for byte."""

from __future__ import annotations

from hadith.isnad_marks import isnad_marks_read_by

from tei.apparatus import witness_text
from tei.hadith.isnad import NARRATOR, chain_links


def test_every_narrator_of_the_pairs_chains_is_a_persname_in_the_edition(arabic_pair_editions):
    checked = 0
    for number, (witnesses, tree) in enumerate(arabic_pair_editions):
        for witness in witnesses:
            text = witness.text
            narrators = [text[start:end] for kind, start, end in chain_links(text) if kind == NARRATOR]
            assert isnad_marks_read_by(tree, witness.id, "t:persName[@type='narrator']") == narrators, (
                number,
                witness.id,
            )
            assert witness_text(tree, witness.id) == text, (number, witness.id)
            checked += len(narrators)
    assert checked >= 150  # 192 names in the 16 pairs
