"""Collation: tokenize -> normalize -> align -> analyse, from a Work to an Edition. `collate` runs the stages."""

from __future__ import annotations

from tei.collate.align import align
from tei.collate.analyse import Collation, edition_body
from tei.collate.normalize import profile_named
from tei.collate.tokenize import tokenize
from tei.model import Edition, Work


def collate(work: Work) -> Edition:
    """The parallel-segmentation edition of the work's witnesses, under the work's normalisation profile."""
    profile = profile_named(work.profile)
    tokens = {w.id: tokenize(w.text, profile) for w in work.witnesses}
    alignment = align({wid: [t.key for t in found] for wid, found in tokens.items()}, work.base)
    witness_order = tuple(w.id for w in work.witnesses)
    body, transpositions = edition_body(Collation(alignment, tokens, witness_order, work.base, profile))
    return Edition(work, profile.name, body, transpositions)


__all__ = ["collate"]
