"""Collation: tokenize -> normalize -> align -> analyse, from a Work to an Edition. `collate` runs the stages.

Witnesses declared loose renderings (kind "paraphrase") stay out of the word-level alignment: the close
witnesses are aligned and analysed alone, and each paraphrase is placed against them clause by clause
(tei.collate.clauses). With no close witness, or no paraphrase, every witness is collated word by word.

Narrations of which two or more open with a chain of narrators (tei.hadith.isnad) are collated in two
sections, the isnads against each other and the matns against each other: different kinds of evidence,
never aligned across.
"""

from __future__ import annotations

from tei.collate.align import align
from tei.collate.anchors import anchored
from tei.collate.analyse import Collation, edition_body
from tei.collate.clauses import clause_body
from tei.collate.tokenize import tokenize
from tei.hadith.isnad import isnad_and_matn
from tei.hadith.units import whole_tokens
from tei.model import Edition, Section, Work
from tei.text.normalize import profile_named


def collate(work: Work) -> Edition:
    """The parallel-segmentation edition of the work's witnesses, under the work's normalisation profile; unit
    ids are anchored in content and position (tei.collate.anchors)."""
    profile = profile_named(work.profile)
    taken: set[str] = set()  # unit ids, unique across sections
    parts = isnad_and_matn(work.witnesses)
    if parts is None:
        body, transpositions = _collated({w.id: w.text for w in work.witnesses}, work, profile, taken)
        return anchored(Edition(work, profile.name, body, transpositions))
    sections, transpositions = [], []
    for kind, texts in parts:
        body, moved = _collated(texts, work, profile, taken, kind)
        sections.append(Section(kind, body))
        transpositions.extend(moved)
    return anchored(Edition(work, profile.name, tuple(sections), tuple(transpositions)))


def _collated(texts: dict[str, str], work: Work, profile, taken: set[str], section: str = ""):
    """The body and transpositions of one text (or section) of each witness. A narrator's name in an Arabic
    isnad and a Qur'an citation are one token each (tei.hadith.units)."""
    tokens = {
        wid: whole_tokens(tokenize(text, profile), text, work.witness(wid), section) for wid, text in texts.items()
    }
    loose = {w.id for w in work.witnesses if w.kind == "paraphrase" and w.id in tokens}
    if len(loose) == len(tokens):
        loose = set()
    close = {wid: found for wid, found in tokens.items() if wid not in loose}
    alignment = align({wid: [t.key for t in found] for wid, found in close.items()}, work.base)
    witness_order = tuple(w.id for w in work.witnesses)
    collation = Collation(alignment, close, witness_order, work.base, profile, taken=taken)
    if not loose:
        return edition_body(collation)
    return edition_body(collation, lambda c: clause_body(c, {wid: tokens[wid] for wid in loose}))


__all__ = ["collate"]
