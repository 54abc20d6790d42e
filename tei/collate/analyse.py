"""From aligned columns to the apparatus: variation units, merged, grouped and typed readings, stable ids.

Columns where every witness has the same characters are shared text. The rest become variation units:
- a passage that some witnesses lack (PASSAGE_LENGTH columns or more in a row) is one unit;
- a run of substantive columns is one unit (a phrase, not a scatter of words); a short stretch of
  agreement (up to ISLAND columns) between two substantive columns is taken into it;
- a column where the witnesses differ only under normalisation (spelling, honorific formula, quotes,
  punctuation) is a unit of its own, so that its difference is typed as such and not hidden in a phrase;
- in a passage, the witnesses that have it form one family, and in another long unit so do witnesses
  whose readings are alike: one reading whose differences inside are nested variation units (so a
  passage two witnesses add is one unit, not dozens).
Readings are typed with the vocabulary of docs/edition-format.md, relative to the base witness's
reading (the lemma) or, without a base, to the reading most witnesses share.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import regex
from rapidfuzz.distance import Indel

from tei.collate.align import Alignment, Column
from tei.model import Reading, ReadingGroup, Token, Transposition, VariationUnit
from tei.text.normalize import CLASS_MARK, QUOTE_MARKS, Profile

ISLAND = 2  # columns of agreement that do not split a phrase-level unit
PASSAGE_LENGTH = 12  # columns a witness must lack in a row for the others' words there to form a passage
NEST_MIN = 6  # columns a unit needs before alike witnesses share one reading with nested units
FAMILY_SIMILARITY = 0.35  # share of common words (LCS-based) from which two readings are alike
PARAPHRASE_TOKENS = 6  # readings this long (together) that share little are paraphrases
PARAPHRASE_OVERLAP = 0.5  # below this share of common words, a long substitution is a paraphrase
CONTEXT = 4  # columns before a unit whose keys go into its id
NON_SUBSTANTIVE = ("honorific", "particle", "orthographic", "punctuation", "whitespace")  # most significant first
_PUNCTUATION = regex.compile(f"[^\\w\\p{{M}}\\s{regex.escape(QUOTE_MARKS)}]")

AGREE, MINOR, MAJOR, PASSAGE = "agree", "minor", "major", "passage"


def _comparison_key(token: Token) -> str:
    """The key that decides substance: punctuation standing alone compares as nothing."""
    return token.key if token.word else ""


def _is_honorific(token: Token) -> bool:
    return token.key.startswith(CLASS_MARK)


@dataclass(frozen=True)
class Text:
    """What one witness reads in a unit: its tokens and their exact characters."""

    tokens: tuple[Token, ...]

    @property
    def text(self) -> str:
        return "".join(token.text for token in self.tokens)

    def signature(self) -> tuple[str, ...]:
        return tuple(k for k in (_comparison_key(t) for t in self.tokens) if k)


@dataclass
class Collation:
    """Everything the analysis reads, and the ids it hands out."""

    alignment: Alignment
    tokens: dict[str, list[Token]]
    witness_order: tuple[str, ...]  # the order of the work, used inside @wit
    base: str | None
    profile: Profile
    moved: set[int] = field(default_factory=set)  # id() of every column a transposition touches
    unit_of: dict[int, str] = field(default_factory=dict)  # id() of a column -> the innermost unit's id
    taken: set[str] = field(default_factory=set)
    position: dict[int, int] = field(default_factory=dict)  # id() of a column -> its index

    def present(self, column: Column, wids: tuple[str, ...]) -> list[Token]:
        return [self.tokens[wid][column.cells[wid]] for wid in wids if wid in column.cells]


# --- segmentation ---------------------------------------------------------------------------------


def column_kind(column: Column, wids: tuple[str, ...], collation: Collation) -> str:
    present = collation.present(column, wids)
    if len(present) == len(wids) and len({token.text for token in present}) == 1:
        return AGREE
    if len({collation.profile.particle_key(_comparison_key(token)) for token in present}) == 1:
        light = not present[0].word or _is_honorific(present[0])
        if len(present) == len(wids) or light:
            return MINOR
    return MAJOR


def segments(columns: list[Column], wids: tuple[str, ...], collation: Collation) -> list[tuple[str, list[Column]]]:
    """(kind, columns) runs: shared text (AGREE), passages and units, short agreement inside a phrase absorbed."""
    kinds = [column_kind(c, wids, collation) for c in columns]
    cuts = set()
    for start, end in _passages(columns, wids):
        kinds[start:end] = [PASSAGE] * (end - start)
        cuts.update((start, end))
    majors = [n for n, kind in enumerate(kinds) if kind == MAJOR]
    for left, right in zip(majors, majors[1:]):
        between = range(left + 1, right)
        if len(between) <= ISLAND and all(_absorbable(columns[n], kinds[n], wids, collation) for n in between):
            kinds[left + 1 : right] = [MAJOR] * len(between)
    found: list[tuple[str, list[Column]]] = []
    for n, (column, kind) in enumerate(zip(columns, kinds)):
        if found and found[-1][0] == kind and kind != MINOR and n not in cuts:
            found[-1][1].append(column)
        else:
            found.append((kind, [column]))
    return found


def _passages(columns: list[Column], wids: tuple[str, ...]) -> list[tuple[int, int]]:
    """Column ranges where some witness has nothing for at least PASSAGE_LENGTH columns (joined where they touch)."""
    ranges: list[tuple[int, int]] = []
    for wid in wids:
        start = None
        for n, column in enumerate(columns + [None]):
            if column is not None and wid not in column.cells:
                start = n if start is None else start
                continue
            if start is not None and n - start >= PASSAGE_LENGTH:
                ranges.append((start, n))
            start = None
    passages = []
    for start, end in _joined(ranges):
        passages.extend(_blocks(columns, start, end, wids))
    return passages


def _blocks(columns: list[Column], start: int, end: int, wids: tuple[str, ...]) -> list[tuple[int, int]]:
    """A passage range cut into blocks, each one passage: a new block starts with a long run of columns
    (PASSAGE_LENGTH or more, the same witnesses present) that shares no witness with the block so far
    (one witness's addition after others'), or when a long block ends: a witness it lacked throughout
    comes in (a passage two witnesses lack, after one that three lack)."""
    runs: list[list] = []  # [first column, end, present witnesses]
    for n in range(start, end):
        present = frozenset(columns[n].cells) & frozenset(wids)
        if runs and runs[-1][2] == present:
            runs[-1][1] = n + 1
        else:
            runs.append([n, n + 1, present])
    everyone = frozenset(wids)
    blocks: list[list] = []  # [first column, end, witnesses present somewhere, witnesses absent throughout]
    for first, last, present in runs:
        if blocks:
            block = blocks[-1]
            new_passage = last - first >= PASSAGE_LENGTH and present.isdisjoint(block[2])
            lacked_comes_in = block[1] - block[0] >= PASSAGE_LENGTH and not block[3] <= everyone - present
            if not (new_passage or lacked_comes_in):
                block[1], block[2], block[3] = last, block[2] | present, block[3] - present
                continue
        blocks.append([first, last, present, everyone - present])
    return [(block[0], block[1]) for block in blocks]


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching ranges joined into one."""
    joined: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


def _absorbable(column: Column, kind: str, wids: tuple[str, ...], collation: Collation) -> bool:
    """May this column, between two substantive ones, join their phrase? Agreement, punctuation and
    spacing may; a spelling or honorific difference may not: it keeps a unit of its own, typed as such."""
    if kind == AGREE:
        return True
    present = collation.present(column, wids)
    return kind == MINOR and not any(_is_honorific(t) for t in present) and len({t.word for t in present}) == 1


def arrange(columns: list[Column], wids: tuple[str, ...], collation: Collation) -> tuple[str | VariationUnit, ...]:
    """Shared strings and variation units for these witnesses over these columns."""
    body: list[str | VariationUnit] = []
    for kind, run in segments(columns, wids, collation):
        texts = witness_texts(run, wids, collation)
        if kind == AGREE:
            shared = texts[wids[0]].text
            if body and isinstance(body[-1], str):
                body[-1] += shared
            else:
                body.append(shared)
        else:
            body.append(build_unit(run, wids, texts, collation, kind == PASSAGE))
    return tuple(body)


def witness_texts(columns: list[Column], wids: tuple[str, ...], collation: Collation) -> dict[str, Text]:
    return {wid: Text(tuple(collation.tokens[wid][c.cells[wid]] for c in columns if wid in c.cells)) for wid in wids}


# --- reading types ----------------------------------------------------------------------------------


def reading_type(text: Text, reference: Text, profile: Profile) -> str:
    """The type of a reading relative to the reference reading, from the documented vocabulary."""
    mine, theirs = text.signature(), reference.signature()
    if mine == theirs or _spelling_variants(mine, theirs, profile):
        return _non_substantive_type(text, reference)
    if _without_honorifics(mine) == _without_honorifics(theirs):
        return "honorific"
    if _particle_variants(mine, theirs, profile):
        return "particle"
    if not mine:
        return "omission"
    if not theirs:
        return "addition"
    if sorted(mine) == sorted(theirs):
        return "transposition"
    if len(mine) + len(theirs) >= PARAPHRASE_TOKENS and _overlap(mine, theirs) < PARAPHRASE_OVERLAP:
        return "paraphrase"
    return "substitution"


def _non_substantive_type(text: Text, reference: Text) -> str:
    mine, theirs = text.tokens, reference.tokens
    if [t.surface for t in mine] == [t.surface for t in theirs]:
        return "whitespace"
    honorifics = [t.surface for t in mine if _is_honorific(t)], [t.surface for t in theirs if _is_honorific(t)]
    if honorifics[0] != honorifics[1]:
        return "honorific"
    bare = [_PUNCTUATION.sub("", "".join(t.surface for t in side)) for side in (mine, theirs)]
    return "punctuation" if bare[0] == bare[1] else "orthographic"


def _spelling_variants(mine: tuple[str, ...], theirs: tuple[str, ...], profile: Profile) -> bool:
    return len(mine) == len(theirs) and all(x == y or profile.spelling_variants(x, y) for x, y in zip(mine, theirs))


def _particle_variants(mine: tuple[str, ...], theirs: tuple[str, ...], profile: Profile) -> bool:
    """The same words but for attached particles (وقال / قال), when the profile counts those as minor."""
    return len(mine) == len(theirs) and all(
        profile.particle_key(x) == profile.particle_key(y) for x, y in zip(mine, theirs)
    )


def _without_honorifics(signature: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(k for k in signature if not k.startswith(CLASS_MARK))


def _overlap(mine: tuple[str, ...], theirs: tuple[str, ...]) -> float:
    return len(set(mine) & set(theirs)) / max(len(set(mine)), len(set(theirs)))


# --- units ------------------------------------------------------------------------------------------


def build_unit(
    columns: list[Column], wids: tuple[str, ...], texts: dict[str, Text], collation: Collation, passage: bool = False
) -> VariationUnit:
    """One <app>: a reading per family of witnesses, typed against the reference, grouped where only
    normalisation differs."""
    unit_id = _unit_id(columns, texts, collation)
    for column in columns:
        collation.unit_of[id(column)] = unit_id
    transposed = any(id(c) in collation.moved for c in columns)
    rank = {wid: n for n, wid in enumerate(collation.alignment.order)}
    families = _families(columns, wids, texts, rank, passage)
    base = collation.base if collation.base in wids else None
    reference = next((f for f in families if base in f), None) or max(
        families, key=lambda f: (len(f), -min(rank[w] for w in f))
    )
    reference_text = texts[reference[0]]
    typed = [
        (f, _retyped(reading_type(texts[f[0]], reference_text, collation.profile), transposed))
        for f in families
        if f is not reference
    ]
    typed.sort(key=lambda pair: min(pair[0]))
    content = {tuple(f): _content(columns, f, texts, collation) for f in families}
    wit = {tuple(f): tuple(w for w in collation.witness_order if w in f) for f in families}
    if base:
        lemma, grouped = Reading(wit[tuple(reference)], content[tuple(reference)], None, True), []
    else:
        reference_type = _mirror(typed[0][1]) if typed else "substitution"
        lemma, grouped = None, [Reading(wit[tuple(reference)], content[tuple(reference)], reference_type)]
    substantive: list[tuple[list[str], Reading]] = []
    for family, kind in typed:
        reading = Reading(wit[tuple(family)], content[tuple(family)], kind)
        if kind in NON_SUBSTANTIVE:
            grouped.append(reading)
        else:
            substantive.append((family, reading))
    entries: list[Reading | ReadingGroup] = []
    if any(r.type in NON_SUBSTANTIVE for r in grouped) and (base or len(grouped) > 1):
        entries.append(ReadingGroup(_most_significant(r.type for r in grouped), tuple(grouped)))
    else:
        entries.extend(grouped)
    entries.extend(_grouped_by_normalisation(substantive, texts, collation.profile))
    return VariationUnit(unit_id, lemma, tuple(entries))


def _families(columns, wids, texts, rank, passage: bool) -> list[list[str]]:
    """Witnesses grouped by reading: identical texts always; in a passage that some witnesses lack, all
    who have it; in another long unit, the most alike texts, clustered greedily (never all of them: a
    family is a reading, one of several)."""
    ordered = sorted(wids, key=rank.__getitem__)
    having = [wid for wid in ordered if texts[wid].tokens]
    if passage and 2 <= len(having) < len(ordered):
        return [[wid for wid in ordered if not texts[wid].tokens], having]
    families: list[list[str]] = []
    for wid in ordered:
        family = next((f for f in families if texts[f[0]].text == texts[wid].text), None)
        if family:
            family.append(wid)
        else:
            families.append([wid])
    if len(columns) < NEST_MIN:
        return families
    while len(families) > 2:
        score, left, right = max(
            (_similarity(texts[x[0]], texts[y[0]]), -n, -m)
            for n, x in enumerate(families)
            for m, y in enumerate(families)
            if n < m
        )
        if score < FAMILY_SIMILARITY:
            break
        families[-left].extend(families.pop(-right))
    return families


def _similarity(first: Text, other: Text) -> float:
    mine, theirs = first.signature(), other.signature()
    return Indel.normalized_similarity(mine, theirs) if mine and theirs else 0.0


def _content(columns, family, texts, collation) -> tuple[str | VariationUnit, ...]:
    """A family's reading: its one text, or its shared text with nested units where its members differ."""
    if len({texts[w].text for w in family}) == 1:
        text = texts[family[0]].text
        return (text,) if text else ()
    members = tuple(w for w in collation.alignment.order if w in family)
    return arrange([c for c in columns if not set(members).isdisjoint(c.cells)], members, collation)


def _grouped_by_normalisation(substantive, texts, profile) -> list[Reading | ReadingGroup]:
    """Substantive readings that differ among themselves only under normalisation share an rdgGrp."""
    clusters: list[list[tuple[list[str], Reading]]] = []
    for family, reading in substantive:
        for cluster in clusters:
            if reading_type(texts[family[0]], texts[cluster[0][0][0]], profile) in NON_SUBSTANTIVE:
                cluster.append((family, reading))
                break
        else:
            clusters.append([(family, reading)])
    entries: list[Reading | ReadingGroup] = []
    for cluster in clusters:
        if len(cluster) == 1:
            entries.append(cluster[0][1])
            continue
        first = texts[cluster[0][0][0]]
        kinds = (reading_type(texts[family[0]], first, profile) for family, _ in cluster[1:])
        entries.append(ReadingGroup(_most_significant(kinds), tuple(reading for _, reading in cluster)))
    return entries


def _most_significant(kinds) -> str:
    return min((k for k in kinds if k in NON_SUBSTANTIVE), key=NON_SUBSTANTIVE.index)


def _retyped(kind: str, transposed: bool) -> str:
    return "transposition" if transposed and kind in ("addition", "omission") else kind


def _mirror(kind: str) -> str:
    return {"addition": "omission", "omission": "addition"}.get(kind, kind)


def _unit_id(columns: list[Column], texts: dict[str, Text], collation: Collation) -> str:
    """An id from the unit's readings and the keys just before it: stable while they stay the same."""
    start = collation.position[id(columns[0])]
    context = "\x1f".join(c.key for c in collation.alignment.columns[max(0, start - CONTEXT) : start])
    readings = "\x1e".join(sorted({t.text for t in texts.values()}))
    digest = hashlib.sha1(f"{context}\x1d{readings}".encode()).hexdigest()[:8]
    candidate, n = f"app-{digest}", 1
    while candidate in collation.taken:
        n += 1
        candidate = f"app-{digest}-{n}"
    collation.taken.add(candidate)
    return candidate


def edition_body(collation: Collation) -> tuple[tuple[str | VariationUnit, ...], tuple[Transposition, ...]]:
    """The edition's body (shared strings and units) and its transpositions."""
    columns = collation.alignment.columns
    collation.position = {id(c): n for n, c in enumerate(columns)}
    collation.moved = {id(c) for move in collation.alignment.moves for c in move.moved + move.original}
    body = arrange(columns, tuple(w for w in collation.alignment.order), collation)
    transpositions: list[Transposition] = []
    for move in collation.alignment.moves:
        pair = (collation.unit_of.get(id(move.original[0])), collation.unit_of.get(id(move.moved[0])))
        if None not in pair and pair[0] != pair[1] and Transposition(pair) not in transpositions:
            transpositions.append(Transposition(pair))
    return body, tuple(transpositions)
