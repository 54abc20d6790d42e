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
from tei.collate.analyse import Collation, edition_body
from tei.collate.anchors import anchored
from tei.collate.clauses import clause_body
from tei.collate.regularise import mark_readings, regularise, unit_spans
from tei.collate.tokenize import given_tokens, tokenize
from tei.hadith.parts import isnad_and_matn
from tei.hadith.units import whole_tokens
from tei.model import Edition, Section, Work
from tei.text.normalize import profile_named


def collate(work: Work) -> Edition:
    """The parallel-segmentation edition of the work's witnesses, under the work's normalisation profile and
    its regularisation rules; unit ids are anchored in content and position (tei.collate.anchors)."""
    edition = _edition(work, None)
    if any(rule.unit for rule in work.regularisations):  # placed by the units of a first collation
        edition = _edition(work, edition)
    return edition


def _edition(work: Work, first: Edition | None) -> Edition:
    profile = profile_named(work.profile)
    taken: set[str] = set()  # unit ids, unique across sections
    ids = tuple(w.id for w in work.witnesses)
    given = any(w.tokens for w in work.witnesses)  # the source's own tokens are not cut into isnad and matn
    parts = None if given else isnad_and_matn(work.witnesses)
    if parts is None:
        spans = unit_spans(first.body, ids) if first else None
        body, transpositions = _collated({w.id: w.text for w in work.witnesses}, work, profile, taken, "", spans)
        return anchored(Edition(work, profile.name, body, transpositions))
    sections, transpositions = [], []
    for kind, texts in parts:
        spans = unit_spans(first.body, ids, kind) if first else None
        body, moved = _collated(texts, work, profile, taken, kind, spans)
        sections.append(Section(kind, body))
        transpositions.extend(moved)
    return anchored(Edition(work, profile.name, tuple(sections), tuple(transpositions)))


def _collated(texts: dict[str, str], work: Work, profile, taken: set[str], section: str = "", spans=None):
    """The body and transpositions of one text (or section) of each witness. A narrator's name in an Arabic
    isnad and a Qur'an citation are one token each (tei.hadith.units); the editor's regularisation rules
    act on the comparison keys (tei.collate.regularise), and the readings they touch record them."""
    tokens = {wid: _tokens(work.witness(wid), text, profile, section) for wid, text in texts.items()}
    tokens, regularised = regularise(tokens, work.regularisations, profile, spans)
    loose = {w.id for w in work.witnesses if w.kind == "paraphrase" and w.id in tokens}
    if len(loose) == len(tokens):
        loose = set()
    close = {wid: found for wid, found in tokens.items() if wid not in loose}
    alignment = align({wid: [t.key for t in found] for wid, found in close.items()}, work.base)
    witness_order = tuple(w.id for w in work.witnesses)
    collation = Collation(alignment, close, witness_order, work.base, profile, taken=taken)
    if not loose:
        body, transpositions = edition_body(collation)
    else:
        body, transpositions = edition_body(collation, lambda c: clause_body(c, {wid: tokens[wid] for wid in loose}))
    return mark_readings(body, tokens, regularised), transpositions


def _tokens(witness, text: str, profile, section: str):
    """The witness's tokens: those its source gives (tei.collate.tokenize.given_tokens), else its text cut by
    the profile, with a narrator's name and a Qur'an citation one token each."""
    if witness.tokens:
        return given_tokens(witness.tokens, profile)
    return whole_tokens(tokenize(text, profile), text, witness, section)


__all__ = ["collate"]
