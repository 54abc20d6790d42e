"""Collation: tokenize -> normalize -> align -> analyse, from a Work to an Edition. `collate` runs the stages.

Narrations of which two or more open with a chain of narrators (tei.hadith.isnad) are collated in two
sections, the isnads against each other and the matns against each other: different kinds of evidence,
never aligned across.
"""

from __future__ import annotations

from tei.collate.align import align
from tei.collate.analyse import Collation, edition_body
from tei.collate.tokenize import tokenize
from tei.hadith.isnad import isnad_and_matn
from tei.model import Edition, Section, Work
from tei.text.normalize import profile_named


def collate(work: Work) -> Edition:
    """The parallel-segmentation edition of the work's witnesses, under the work's normalisation profile."""
    profile = profile_named(work.profile)
    taken: set[str] = set()  # unit ids, unique across sections
    parts = isnad_and_matn(work.witnesses)
    if parts is None:
        body, transpositions = _collated({w.id: w.text for w in work.witnesses}, work, profile, taken)
        return Edition(work, profile.name, body, transpositions)
    sections, transpositions = [], []
    for kind, texts in parts:
        body, moved = _collated(texts, work, profile, taken)
        sections.append(Section(kind, body))
        transpositions.extend(moved)
    return Edition(work, profile.name, tuple(sections), tuple(transpositions))


def _collated(texts: dict[str, str], work: Work, profile, taken: set[str]):
    """The body and transpositions of one text (or section) of each witness."""
    tokens = {wid: tokenize(text, profile) for wid, text in texts.items()}
    alignment = align({wid: [t.key for t in found] for wid, found in tokens.items()}, work.base)
    witness_order = tuple(w.id for w in work.witnesses)
    return edition_body(Collation(alignment, tokens, witness_order, work.base, profile, taken=taken))


__all__ = ["collate"]
