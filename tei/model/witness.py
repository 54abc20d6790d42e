"""Witnesses and the work they attest: TEI <witness> and the header facts of <titleStmt>."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Mark:
    """Markup of a transcription that is not the witness's text, at its place in that text (character offsets).

    `kind` is "milestone" (pb, cb, lb, milestone, handShift: `start == end`), "lacuna" (a gap: zero width,
    the witness is lacunose there), "span" (hi, persName, unclear, supplied, ...: the text from `start`
    to `end`) or "choice" (the form collated spans the text; `other` is the form not collated, as
    (element name, its text)). `tag` is the TEI element name, `attributes` its attributes as (name, value).
    """

    kind: str
    start: int
    end: int
    tag: str
    attributes: tuple[tuple[str, str], ...] = ()
    other: tuple[str, str] | None = None  # a choice: the form not collated (e.g. ("abbr", "vbm"))


@dataclass(frozen=True)
class Witness:
    """A TEI <witness>: one version of the text, holding its exact characters (never normalised)."""

    id: str  # the xml:id, ASCII, stable
    siglum: str  # what the apparatus prints
    text: str  # every character of the source, byte for byte once encoded as UTF-8
    language: str = "en"  # BCP 47 tag of the main language
    description: str = ""  # a short neutral description, shown in the conspectus siglorum
    source: str | None = None  # where the text was read from (a path), if anywhere
    references: tuple[tuple[str, str], ...] = ()  # typed reference numbers, e.g. (("abd-al-baqi", "1763"),)
    kind: str = "close"  # a role from WITNESS_KINDS: "close" (word-level apparatus) or "paraphrase"
    # The source's own tokens, when it gives them (CollateX JSON input): each token's text with the whitespace
    # after it, and its normalised form (None: the profile's key). Joined, the texts are `text`. Empty: the
    # text is cut into tokens by the profile (tei.collate.tokenize).
    tokens: tuple[tuple[str, str | None], ...] = ()
    marks: tuple[Mark, ...] = ()  # a scholar's transcription: its markup, placed in the edition by the writer
    layer_of: str | None = None  # a hand layer (W*, Wc): the id of the witness whose hand it is
    scholarly: bool = False  # read from a scholar's TEI transcription (tei.readers.scholarly), not a lossless one


WITNESS_KINDS = {
    "close": "a translation or copy compared word by word (the word-level apparatus)",
    "paraphrase": "a loose rendering, aligned with the others by sentence and clause only",
}


@dataclass(frozen=True)
class Regularisation:
    """An editor's rule (manifest [[regularise]]): what `reading` says counts as `as_` for collation, in
    every witness, in one witness, or in one unit (by its id). Recorded in the TEI header (a category of
    the taxonomy 'regularisations') and on every reading it affects (@ana)."""

    id: str  # reg-1, reg-2, ... in the manifest's order
    reading: str  # the words as a witness writes them (compared by their keys under the profile)
    as_: str  # the words they count as; as many as `reading` has
    witness: str | None = None  # only this witness
    unit: str | None = None  # only in the unit with this id

    def scope(self) -> str:
        where = f"in unit {self.unit}" if self.unit else "everywhere"
        return f"{where}, in witness {self.witness}" if self.witness else where

    def described(self) -> str:
        return f"“{self.reading}” is collated as “{self.as_}” ({self.scope()})"


@dataclass(frozen=True)
class Work:
    """The work the witnesses attest: what the TEI header says about the edition as a whole."""

    id: str
    title: str
    language: str = "en"
    base: str | None = None  # the id of the base witness whose readings become <lem>
    profile: str = "default"  # the normalisation profile used for comparison
    witnesses: tuple[Witness, ...] = field(default_factory=tuple)
    regularisations: tuple[Regularisation, ...] = ()  # applied at every collation (tei.collate.regularise)
    # (a narrator's name key, its persName/@ref) from the manifest's [hadith] narrators (tei.hadith.authority)
    narrators: tuple[tuple[str, str], ...] = ()
    short_title: str | None = None  # what a citation names the edition by ("Badr"); the title when None
    editors: tuple[str, ...] = ()  # "Family, Given" (or "Given Family"), in the order they are credited
    version: str | None = None  # of the edition, as published
    doi: str | None = None  # "10.NNNN/suffix", the edition's DOI once it has one

    def witness(self, witness_id: str) -> Witness:
        for witness in self.witnesses:
            if witness.id == witness_id:
                return witness
        raise KeyError(witness_id)
