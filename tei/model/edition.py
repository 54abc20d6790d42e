"""The collated edition: tokens, readings, reading groups, variation units and transpositions, named after TEI."""

from __future__ import annotations

from dataclasses import dataclass, field

from tei.model.witness import Work


@dataclass(frozen=True, slots=True)
class Token:
    """A TEI <w> (or <pc>) of one witness: its exact surface, the whitespace after it, and a comparison key.

    `surface + whitespace` over a witness's tokens, in order, is the witness text byte for byte.
    `word` is the surface without the punctuation attached before or after it; `key` is the word
    normalised by the profile and is used only for comparison, never printed.
    """

    surface: str
    whitespace: str
    key: str
    word: str

    @property
    def text(self) -> str:
        return self.surface + self.whitespace


@dataclass(frozen=True)
class Reading:
    """A TEI <rdg> (or, when `is_lemma`, a <lem>): what some witnesses read in one variation unit.

    `content` is the exact text, possibly empty (an omission); when the witnesses of a reading share a
    passage but differ inside it, the content alternates strings and nested variation units.
    """

    witnesses: tuple[str, ...]  # witness ids, in the order of the work
    content: tuple[str | VariationUnit, ...]
    type: str | None  # a reading type from the vocabulary; None on a lemma
    is_lemma: bool = False
    regularised: tuple[str, ...] = ()  # the ids of the regularisation rules that made its words equal


@dataclass(frozen=True)
class ReadingGroup:
    """A TEI <rdgGrp>: readings that differ from each other (or from the lemma) only under normalisation."""

    type: str  # the class of the difference: orthographic, honorific, punctuation, whitespace
    readings: tuple[Reading, ...]


@dataclass(frozen=True)
class VariationUnit:
    """A TEI <app>: one place where the witnesses differ, with a stable id derived from its content."""

    id: str
    lemma: Reading | None  # the base witness's reading, when the work names a base
    entries: tuple[Reading | ReadingGroup, ...]  # the other readings, grouped where normalisation allows
    type: str | None = None  # "paraphrase": a clause-level container of a loose rendering, not an entry

    def readings(self) -> tuple[Reading, ...]:
        """Every reading, the lemma first, groups flattened."""
        found = [self.lemma] if self.lemma else []
        for entry in self.entries:
            found.extend(entry.readings if isinstance(entry, ReadingGroup) else (entry,))
        return tuple(found)


@dataclass(frozen=True)
class Transposition:
    """A TEI <transpose>: variation units whose words stand in another order in some witnesses."""

    unit_ids: tuple[str, ...]  # two or more


@dataclass(frozen=True)
class Section:
    """A TEI <ab type="...">: one part of the text collated on its own (a hadith's isnad, its matn)."""

    type: str
    body: tuple[str | VariationUnit, ...]


@dataclass(frozen=True)
class Edition:
    """A TEI parallel-segmentation edition: the text as shared runs and variation units, in order.

    `body` alternates freely between strings (text every witness has, exactly) and variation units; a
    text collated in parts holds only Sections, each such a body, whose texts follow one another.
    """

    work: Work
    profile: str  # the name of the normalisation profile used for comparison
    body: tuple[str | VariationUnit, ...] | tuple[Section, ...]
    transpositions: tuple[Transposition, ...] = field(default_factory=tuple)

    def units(self) -> tuple[VariationUnit, ...]:
        """Every variation unit, nested ones included, in document order."""
        return tuple(_units_in(self.body))

    def sections(self) -> tuple[Section, ...]:
        """The parts of the text: its Sections, or one untyped part holding the whole body."""
        if self.body and all(isinstance(part, Section) for part in self.body):
            return self.body
        return (Section("", self.body),)


def text_read(parts, witness: str) -> str:
    """The text one witness reads in a body or a reading's content: its strings, and in each variation unit
    the text of the witness's own reading there (nested units included; nothing where it has no reading)."""
    found = []
    for part in parts:
        if isinstance(part, str):
            found.append(part)
        else:
            own = next((r for r in part.readings() if witness in r.witnesses), None)
            if own is not None:
                found.append(text_read(own.content, witness))
    return "".join(found)


def _units_in(parts) -> list[VariationUnit]:
    found = []
    for part in parts:
        if isinstance(part, Section):
            found.extend(_units_in(part.body))
        elif isinstance(part, VariationUnit):
            found.append(part)
            for reading in part.readings():
                found.extend(_units_in(reading.content))
    return found
