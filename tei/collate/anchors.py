"""Unit ids anchored in content and position, so that they survive a re-collation.

An id should not change when a witness is added, corrected or taken out away from the unit: permalinks
point to it, and `tei build --carry-decisions` finds the editor's decisions by it. So it is made only of
what one witness, the unit's speaker, reads: its own last CONTEXT_WORDS words before the unit (the
position, in that witness's own text, which no other witness can move) and its first FIRST_WORDS words in
the unit (the content). The speaker is the anchor (the base witness, else the witness whose id sorts
first) when it reads something in the unit, else the first witness by id that does. Where one speaker
and its words recur, a number in document order tells the units apart. The readings of the other
witnesses, how far the unit reaches, and the columns other witnesses add around it do not count: a fifth
witness that agrees with the anchor, or has a variant of its own in a unit, leaves the unit's id as it
was; a unit cut shorter or longer by a new witness keeps it too.

What does change an id: a new witness that makes the aligner arrange the old witnesses' words otherwise
(an addition placed before a word instead of after it), for then the speaker or its position changes.
benchmarks/unit_ids.py measures the share of ids kept.

Words are compared by their comparison keys under the work's profile (case, spelling, formulas folded).

Cost: a unit's speaker is found through a map from witness to reading, and each distinct text is tokenized
once. (Asking every witness in turn, tokenizing its reading each time, made 4 million tokenizations for
500 witnesses x 1,000 words where one witness's addition needs the witnesses before it asked: 59 s of
CPU, now about 1.5.)
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import replace

from tei.collate.tokenize import tokenize
from tei.model import Edition, Reading, ReadingGroup, Section, Transposition, VariationUnit, text_read
from tei.text.normalize import Profile, profile_named

CONTEXT_WORDS = 4  # words of the anchor before a unit that go into its id
FIRST_WORDS = 1  # words of the anchor's reading that go into it: a unit cut shorter or longer keeps its id


def anchored(edition: Edition) -> Edition:
    """The edition with every unit's id made from its anchor's words (transpositions follow)."""
    work = edition.work
    ids = sorted(w.id for w in work.witnesses)  # by id, not by the order given: the order must not count
    anchor = work.base if work.base in ids else (ids[0] if ids else None)
    if anchor is None:
        return edition
    naming = _Naming(anchor, ids, profile_named(edition.profile))
    if edition.body and all(isinstance(part, Section) for part in edition.body):
        body = tuple(Section(s.type, naming.parts(s.body, tuple(ids), s.type)) for s in edition.body)
    else:
        body = naming.parts(edition.body, tuple(ids), "")
    moved = tuple(Transposition(tuple(naming.renamed.get(u, u) for u in t.unit_ids)) for t in edition.transpositions)
    return replace(edition, body=body, transpositions=moved)


class _Naming:
    def __init__(self, anchor: str, witnesses: list[str], profile: Profile):
        self.anchor, self.witnesses, self.profile = anchor, witnesses, profile
        self.before = {w: deque(maxlen=CONTEXT_WORDS) for w in witnesses}  # each witness's last keys so far
        self.taken: set[str] = set()
        self.renamed: dict[str, str] = {}
        self.known: dict[str, tuple[str, ...]] = {}  # a reading's text -> its keys: each text tokenized once

    def keys(self, text: str) -> tuple[str, ...]:
        found = self.known.get(text)
        if found is None:
            found = self.known[text] = tuple(t.key for t in tokenize(text, self.profile) if t.word)
        return found

    def parts(self, parts, holders: tuple[str, ...], section: str) -> tuple:
        renamed = []
        for part in parts:
            if isinstance(part, str):
                keys = self.keys(part)
                if keys:
                    for witness in holders:
                        self.before[witness].extend(keys)
                renamed.append(part)
            else:
                renamed.append(self.unit(part, holders, section))
        return tuple(renamed)

    def unit(self, unit: VariationUnit, holders: tuple[str, ...], section: str) -> VariationUnit:
        readings = unit.readings()
        speaker, words = self.speaker(readings)  # the id: its last words before the unit, its first in it
        context = list(self.before[speaker]) if speaker is not None else []
        key = [unit.type or "", speaker or "", " ".join(context), " ".join(words[:FIRST_WORDS])]
        digest = hashlib.sha1("\x1d".join(key).encode("utf-8")).hexdigest()[:8]
        new_id, n = f"app-{digest}", 1
        while new_id in self.taken:
            n += 1
            new_id = f"app-{digest}-{n}"
        self.taken.add(new_id)
        self.renamed[unit.id] = new_id
        lemma, entries = unit.lemma, unit.entries
        before = self.before
        for reading in readings:
            if all(isinstance(part, str) for part in reading.content):
                keys = self.keys("".join(reading.content))
                if keys:
                    for witness in reading.witnesses:
                        if witness in before:
                            before[witness].extend(keys)
                continue
            inside = tuple(w for w in reading.witnesses if w in before)
            renamed = replace(reading, content=self.parts(reading.content, inside, section))
            lemma, entries = swap_reading(lemma, entries, reading, renamed)
        return replace(unit, id=new_id, lemma=lemma, entries=entries)

    def speaker(self, readings: tuple[Reading, ...]) -> tuple[str | None, tuple[str, ...]]:
        """The unit's speaker and its words there: the anchor when it reads something here, else the first
        witness by id that does. A witness's reading is the first that names it."""
        anchor = next((r for r in readings if self.anchor in r.witnesses), None)
        words = self.keys(text_read(anchor.content, self.anchor)) if anchor is not None and anchor.content else ()
        if words:
            return self.anchor, words
        reading_of = {witness: reading for reading in reversed(readings) for witness in reading.witnesses}
        for witness in self.witnesses:
            reading = reading_of.get(witness)
            if reading is not None and reading.content:
                words = self.keys(text_read(reading.content, witness))
                if words:
                    return witness, words
        return None, ()


def swap_reading(lemma, entries, old: Reading, new: Reading):
    """A unit's lemma and entries with one reading (by identity) replaced, inside a group too."""
    if lemma is old:
        return new, entries
    swapped = []
    for entry in entries:
        if entry is old:
            swapped.append(new)
        elif isinstance(entry, ReadingGroup) and any(r is old for r in entry.readings):
            swapped.append(replace(entry, readings=tuple(new if r is old else r for r in entry.readings)))
        else:
            swapped.append(entry)
    return lemma, tuple(swapped)
