"""From aligned columns to the apparatus: variation units, merged, grouped and typed readings, stable ids.

Columns where every witness has the same characters are shared text. The rest become variation units,
as fine as the alignment:
- adjacent columns where the witnesses differ are one unit while they divide the witnesses alike
  (_same_agreement: those present in both grouped the same way by comparison key, a witness present
  in one only agreeing with none present in the other, one witness at least in both), so a unit ends
  exactly where the agreement of the columns changes (`Messenger of Allah` against B's `Prophet`, B
  silent, present, silent, is one unit). Witnesses that agree in one column agree wherever they are
  present, so a reading names only witnesses that read exactly its text; where every witness is
  present throughout, its readings are of equal length and correspond word for word;
- a column where the witnesses differ only under normalisation (spelling, honorific formula, quotes,
  punctuation) is a unit of its own, so its difference is typed as such;
- a phrase unit is made only where no word corresponds: two runs side by side, each of PHRASE_MIN
  columns or more, no witness present in both, neither part of a moved block (one set of witnesses
  says it one way, the others another way); its substantive readings are typed `paraphrase`. A long addition needs nothing
  special: one witness present throughout is one signature, hence one unit.
Readings are the distinct texts of the witnesses (identical texts merged into one reading), typed with
the vocabulary of docs/edition-format.md relative to the base witness's reading (the lemma) or, without a
base, to the reading most witnesses share; readings differing only under normalisation share an rdgGrp.
Nothing is nested here: a reading never holds another unit. (Witnesses declared loose renderings are
aligned by clause in tei.collate.clauses, which wraps these flat units in clause-level containers.)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import regex

from tei.collate.align import Alignment, Column
from tei.model import Reading, ReadingGroup, Token, Transposition, VariationUnit
from tei.text.arabic import vocalisation_differs
from tei.text.normalize import CLASS_MARK, QUOTE_MARKS, Profile

PHRASE_MIN = 6  # columns each side of a phrase unit needs (shorter runs stay additions and omissions)
PARAPHRASE_TOKENS = 6  # readings this long (together) that share little are paraphrases
PARAPHRASE_OVERLAP = 0.5  # below this share of common words, a long substitution is a paraphrase
CONTEXT = 4  # columns before a unit whose keys go into its id
NON_SUBSTANTIVE = (  # the words the same under normalisation; most significant first
    "vocalisation",
    "honorific",
    "particle",
    "orthographic",
    "punctuation",
    "whitespace",
)
_PUNCTUATION = regex.compile(f"[^\\w\\p{{M}}\\s{regex.escape(QUOTE_MARKS)}]")

AGREE, MINOR, MAJOR, PHRASE = "agree", "minor", "major", "phrase"


def _comparison_key(token: Token) -> str:
    """The key that decides substance: punctuation standing alone compares as nothing."""
    return token.key if token.word else ""


def _is_honorific(token: Token) -> bool:
    return token.key.startswith(CLASS_MARK)


@dataclass(frozen=True)
class Text:
    """What one witness reads in a unit: its tokens and their exact characters (`text`, joined once)."""

    tokens: tuple[Token, ...]
    text: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", "".join(token.text for token in self.tokens))

    def signature(self) -> tuple[str, ...]:
        return tuple(k for k in (_comparison_key(t) for t in self.tokens) if k)


_EMPTY = Text(())


@dataclass
class Collation:
    """Everything the analysis reads, and the ids it hands out."""

    alignment: Alignment
    tokens: dict[str, list[Token]]
    witness_order: tuple[str, ...]  # the order of the work, used inside @wit
    base: str | None
    profile: Profile
    moved: dict[int, int] = field(default_factory=dict)  # id() of every column a moved block spans -> its piece
    unit_of: dict[int, str] = field(default_factory=dict)  # id() of a column -> its unit's id
    taken: set[str] = field(default_factory=set)
    position: dict[int, int] = field(default_factory=dict)  # id() of a column -> its index
    rank: dict[str, int] = field(init=False, repr=False)  # witness -> its place in the canonical order
    place: dict[str, int] = field(init=False, repr=False)  # witness -> its place in the work's order

    def __post_init__(self) -> None:
        self.rank = {wid: n for n, wid in enumerate(self.alignment.order)}
        self.place = {wid: n for n, wid in enumerate(self.witness_order)}

    def present(self, column: Column, wids: tuple[str, ...] | None = None) -> list[Token]:
        """The tokens of the column (of these witnesses only, when given), in the order of its cells."""
        tokens = self.tokens
        if wids is None:
            return [tokens[wid][index] for wid, index in column.cells.items()]
        return [tokens[wid][column.cells[wid]] for wid in wids if wid in column.cells]


# --- segmentation ---------------------------------------------------------------------------------


def column_kind(column: Column, wids: tuple[str, ...], collation: Collation) -> str:
    return _kind_and_keys(column, wids, collation)[0]


def _kind_and_keys(column: Column, wids: tuple[str, ...], collation: Collation) -> tuple[str, dict[str, str]]:
    """The column's kind and, for each of its witnesses, the comparison key of its token (one pass each)."""
    present = collation.present(column)  # every witness of a column is one of wids
    if len(present) == len(wids) and len({token.surface + token.whitespace for token in present}) == 1:
        return AGREE, {}
    keys = {wid: token.key if token.word else "" for wid, token in zip(column.cells, present)}  # _comparison_key
    profile = collation.profile
    distinct = {profile.particle_key(key) for key in keys.values()} if profile.particles else set(keys.values())
    if len(distinct) == 1:
        light = not present[0].word or _is_honorific(present[0])
        if len(present) == len(wids) or light:
            return MINOR, keys
    return MAJOR, keys


def segments(columns: list[Column], wids: tuple[str, ...], collation: Collation) -> list[tuple[str, list[Column]]]:
    """(kind, columns) runs: shared text (AGREE), one unit per run of one agreement, phrases joined.

    Adjacent variant columns are one unit while they divide the witnesses alike (`_same_agreement`): a
    unit ends where the agreement of the columns changes, not where a witness merely falls silent."""
    runs: list[tuple[str, list[Column], object]] = []
    for n, column in enumerate(columns):
        kind, keys = _kind_and_keys(column, wids, collation)
        if kind == MAJOR:
            block = collation.moved.get(id(column))
            if (
                runs
                and runs[-1][0] == MAJOR
                and collation.moved.get(id(runs[-1][1][-1])) == block
                and _same_agreement(runs[-1][2], keys)
            ):
                runs[-1][1].append(column)
            else:
                runs.append((kind, [column], _grouped({}, keys)))
            continue
        signature = AGREE if kind == AGREE else (MINOR, n)  # a minor column is never joined: it keeps its type
        if runs and runs[-1][2] == signature:
            runs[-1][1].append(column)
        else:
            runs.append((kind, [column], signature))
    return _with_phrases(runs, collation.moved)


def _same_agreement(groups: dict[str, object], keys: dict[str, str]) -> bool:
    """Whether a column divides the witnesses as the unit so far does (`groups`: witness -> its group
    there), and if so the groups extended by it. Alike means: the witnesses present in both are grouped
    the same way (one key for one group); a witness present only in the column agrees there with none
    of those present before; one present before but silent here agreed with none of those present here;
    and at least one witness is present in both (else the two stand side by side, not at one place).
    So witnesses that agree in one column of a unit agree wherever they are present, and each reading
    names only witnesses that read exactly its text. `Messenger of Allah` against B's `Prophet` (B
    silent, present, silent; A and C together throughout) is one unit; so is `creatr ae tuae` against
    `creaturas tuas` and `creaturarum tuarum`."""
    key_of: dict[object, str] = {}
    group_of: dict[str, object] = {}
    for wid, key in keys.items():
        group = groups.get(wid)
        if group is None:
            continue
        if key_of.setdefault(group, key) != key or group_of.setdefault(key, group) != group:
            return False
    if not key_of:
        return False
    if any(key in group_of for wid, key in keys.items() if wid not in groups):
        return False
    if any(group in key_of for wid, group in groups.items() if wid not in keys):
        return False
    _grouped(groups, keys, group_of)
    return True


def _grouped(groups: dict[str, object], keys: dict[str, str], group_of: dict[str, object] | None = None):
    """The groups with the column's new witnesses added: to the group of the key they read, else new."""
    known = dict(group_of or {})
    for wid, key in keys.items():
        if wid not in groups:
            groups[wid] = known.setdefault(key, (len(groups), wid))
    return groups


def _with_phrases(runs: list[tuple[str, list[Column], object]], moved: set[int]) -> list[tuple[str, list[Column]]]:
    """Side-by-side runs where no word corresponds (disjoint witnesses, both long enough) as one phrase;
    never a moved block (its words correspond, elsewhere). A run's witnesses are gathered only when it
    and the run before are long enough to be a phrase (with 500 witnesses, most columns vary)."""
    found: list[tuple[str, list[Column], frozenset[str] | None]] = []  # the witnesses, once gathered
    for kind, columns, _ in runs:
        if kind == MAJOR and any(id(column) in moved for column in columns):
            found.append(("moved", list(columns), None))  # a kind of its own: never joined into a phrase
            continue
        present = None
        if (
            kind == MAJOR
            and found
            and found[-1][0] in (MAJOR, PHRASE)
            and len(columns) >= PHRASE_MIN
            and _last_part(found[-1]) >= PHRASE_MIN
        ):
            _, before, had = found[-1]
            had = had if had is not None else _witnesses(before)
            present = _witnesses(columns)
            if had.isdisjoint(present):
                found[-1] = (PHRASE, before + columns, had | present)
                continue
        found.append((kind, list(columns), present))
    return [(MAJOR if kind == "moved" else kind, columns) for kind, columns, _ in found]


def _witnesses(columns: list[Column]) -> frozenset[str]:
    return frozenset().union(*(column.cells for column in columns))


def _last_part(run: tuple[str, list[Column], frozenset[str] | None]) -> int:
    return len(run[1]) if run[0] == MAJOR else PHRASE_MIN


def arrange(columns: list[Column], wids: tuple[str, ...], collation: Collation) -> tuple[str | VariationUnit, ...]:
    """Shared strings and variation units for these witnesses over these columns."""
    body: list[str | VariationUnit] = []
    in_work = tuple(sorted(wids, key=collation.place.__getitem__))
    tokens = collation.tokens
    for kind, run in segments(columns, wids, collation):
        if kind == AGREE:  # every witness reads the same here: the first one's text is the text
            shared = "".join(tokens[wids[0]][column.cells[wids[0]]].text for column in run)
            if body and isinstance(body[-1], str):
                body[-1] += shared
            else:
                body.append(shared)
        else:
            body.append(build_unit(run, wids, _readings(run, in_work, collation), collation, kind == PHRASE))
    return tuple(body)


@dataclass
class Family:
    """The witnesses that read one text in a unit: in the work's order (as @wit lists them), the earliest
    of them in the canonical order, and that witness's Text, which stands for them all (its tokens give
    the reading's type)."""

    witnesses: list[str]
    first: str
    text: Text = _EMPTY


def _readings(columns: list[Column], in_work: tuple[str, ...], collation: Collation) -> list[Family]:
    """The witnesses grouped by the exact text they read over these columns (one reading each), in the
    canonical order of their first witnesses; `in_work` gives the witnesses in the work's order. Only the
    first witness's tokens are looked at again, so for the others only their text is made."""
    tokens = collation.tokens
    groups: dict[str, list[str]] = {}
    if len(columns) == 1:  # most units: one token or none each
        cells = columns[0].cells
        for wid in in_work:
            index = cells.get(wid)
            if index is None:
                text = ""
            else:
                token = tokens[wid][index]
                text = token.surface + token.whitespace
            group = groups.get(text)
            if group is None:
                groups[text] = [wid]
            else:
                group.append(wid)
        found = {}
    else:
        found = {}
        for column in columns:
            for wid, index in column.cells.items():
                found.setdefault(wid, []).append(tokens[wid][index])
        for wid in in_work:
            own = found.get(wid)
            text = "".join([token.surface + token.whitespace for token in own]) if own else ""
            group = groups.get(text)
            if group is None:
                groups[text] = [wid]
            else:
                group.append(wid)
    rank = collation.rank.__getitem__
    families = sorted((Family(group, min(group, key=rank)) for group in groups.values()), key=lambda f: rank(f.first))
    for family in families:
        first = family.first
        if len(columns) == 1:
            if first in cells:
                family.text = Text((tokens[first][cells[first]],))
        elif first in found:
            family.text = Text(tuple(found[first]))
    return families


# --- reading types ----------------------------------------------------------------------------------


def reading_type(text: Text, reference: Text, profile: Profile) -> str:
    """The type of a reading relative to the reference reading, from the documented vocabulary."""
    mine, theirs = text.signature(), reference.signature()
    if mine == theirs or _spelling_variants(mine, theirs, profile):
        return _non_substantive_type(text, reference, profile)
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


def _non_substantive_type(text: Text, reference: Text, profile: Profile) -> str:
    mine, theirs = text.tokens, reference.tokens
    if [t.surface for t in mine] == [t.surface for t in theirs]:
        return "whitespace"
    # one formula vocalised or spelled otherwise (صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ / صلى الله عليه وسلم) is orthographic
    honorifics = [[profile.key(t.word) for t in side if _is_honorific(t)] for side in (mine, theirs)]
    if honorifics[0] != honorifics[1]:
        return "honorific"
    bare = [_PUNCTUATION.sub("", "".join(t.surface for t in side)) for side in (mine, theirs)]
    if bare[0] == bare[1]:
        return "punctuation"
    pairs = zip(mine, theirs) if len(mine) == len(theirs) else ()
    if any(not _is_honorific(a) and vocalisation_differs(a.surface, b.surface) for a, b in pairs):
        return "vocalisation"  # harakat that change the grammar (case ending, voice, mood), both written
    return "orthographic"


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
    columns: list[Column], wids: tuple[str, ...], families: list[Family], collation: Collation, phrase: bool = False
) -> VariationUnit:
    """One <app>: a reading per distinct text (`families`, in the canonical order), typed against the
    reference, grouped where only normalisation differs; in a phrase unit a substituted reading is a
    paraphrase."""
    unit_id = _unit_id(columns, [family.text for family in families], collation)
    for column in columns:
        collation.unit_of[id(column)] = unit_id
    transposed = any(id(c) in collation.moved for c in columns)
    rank = collation.rank
    base = collation.base if collation.base in wids else None
    reference = next((f for f in families if base in f.witnesses), None) or max(
        families, key=lambda f: (len(f.witnesses), -rank[f.first])
    )
    typed = [
        (f, _retyped(reading_type(f.text, reference.text, collation.profile), transposed, phrase))
        for f in families
        if f is not reference
    ]
    typed.sort(key=lambda pair: min(pair[0].witnesses))
    if base:
        lemma, grouped = Reading(tuple(reference.witnesses), _content(reference.text), None, True), []
    else:
        reference_type = _mirror(typed[0][1]) if typed else "substitution"
        lemma, grouped = None, [Reading(tuple(reference.witnesses), _content(reference.text), reference_type)]
    substantive: list[tuple[Family, Reading]] = []
    for family, kind in typed:
        reading = Reading(tuple(family.witnesses), _content(family.text), kind)
        if kind in NON_SUBSTANTIVE:
            grouped.append(reading)
        else:
            substantive.append((family, reading))
    entries: list[Reading | ReadingGroup] = []
    if any(r.type in NON_SUBSTANTIVE for r in grouped) and (base or len(grouped) > 1):
        entries.append(ReadingGroup(_most_significant(r.type for r in grouped), tuple(grouped)))
    else:
        entries.extend(grouped)
    entries.extend(_grouped_by_normalisation(substantive, collation.profile))
    return VariationUnit(unit_id, lemma, tuple(entries))


def _content(text: Text) -> tuple[str, ...]:
    return (text.text,) if text.text else ()


def _grouped_by_normalisation(substantive: list[tuple[Family, Reading]], profile) -> list[Reading | ReadingGroup]:
    """Substantive readings that differ among themselves only under normalisation share an rdgGrp."""
    clusters: list[list[tuple[Family, Reading]]] = []
    for family, reading in substantive:
        for cluster in clusters:
            if reading_type(family.text, cluster[0][0].text, profile) in NON_SUBSTANTIVE:
                cluster.append((family, reading))
                break
        else:
            clusters.append([(family, reading)])
    entries: list[Reading | ReadingGroup] = []
    for cluster in clusters:
        if len(cluster) == 1:
            entries.append(cluster[0][1])
            continue
        first = cluster[0][0].text
        kinds = (reading_type(family.text, first, profile) for family, _ in cluster[1:])
        entries.append(ReadingGroup(_most_significant(kinds), tuple(reading for _, reading in cluster)))
    return entries


def _most_significant(kinds) -> str:
    return min((k for k in kinds if k in NON_SUBSTANTIVE), key=NON_SUBSTANTIVE.index)


def _retyped(kind: str, transposed: bool, phrase: bool = False) -> str:
    if transposed and kind in ("addition", "omission"):
        return "transposition"
    return "paraphrase" if phrase and kind in ("substitution", "transposition") else kind


def _mirror(kind: str) -> str:
    return {"addition": "omission", "omission": "addition"}.get(kind, kind)


def _unit_id(columns: list[Column], texts: list[Text], collation: Collation) -> str:
    """An id from the unit's readings and the keys just before it: stable while they stay the same."""
    start = collation.position[id(columns[0])]
    context = "\x1f".join(c.key for c in collation.alignment.columns[max(0, start - CONTEXT) : start])
    readings = "\x1e".join(sorted({t.text for t in texts}))
    digest = hashlib.sha1(f"{context}\x1d{readings}".encode()).hexdigest()[:8]
    candidate, n = f"app-{digest}", 1
    while candidate in collation.taken:
        n += 1
        candidate = f"app-{digest}-{n}"
    collation.taken.add(candidate)
    return candidate


def _moved_pieces(columns: list[Column], collation: Collation) -> dict[int, int]:
    """id() of every column a moved block spans, where it stands and where it stood, -> its piece's number.

    A piece is a run of the block's matched words that stand one after the other in both places and
    within one agreement of the place it stood (segments, as anywhere: where the others divide differently,
    a new piece). The two places are cut alike, each word where the word it matched is cut; the words of
    either place that matched nothing are pieces of their own. A unit never runs across a piece's edge,
    so each piece is one unit in each place with the same words: the transposition links them piece by
    piece, and two linked readings correspond word for word."""
    pieces: dict[int, int] = {}
    order = collation.alignment.order
    number = 0
    for move in collation.alignment.moves:
        first, last = collation.position[id(move.original[0])], collation.position[id(move.original[-1])]
        stood: dict[int, int] = {}  # the agreement run of each column where the block stood
        for n, (_, run) in enumerate(segments(columns[first : last + 1], order, collation)):
            stood.update((id(column), n) for column in run)
        matched: dict[int, int] = {}
        before = None
        for moved, original in zip(move.moved, move.original):
            place = (collation.position[id(moved)], collation.position[id(original)], stood[id(original)])
            if before is None or place[:2] != (before[0] + 1, before[1] + 1) or place[2] != before[2]:
                number += 1
            before = place
            matched[id(moved)] = matched[id(original)] = number
        shared = set(matched.values())
        for part in (move.original, move.moved):
            first, last = collation.position[id(part[0])], collation.position[id(part[-1])]
            piece = None
            for column in columns[first : last + 1]:
                if id(column) in matched:
                    piece = matched[id(column)]
                elif piece is None or piece in shared:
                    number += 1  # words that matched nothing: a piece of their own
                    piece = number
                pieces.setdefault(id(column), piece)
    return pieces


def edition_body(
    collation: Collation, body_of=None
) -> tuple[tuple[str | VariationUnit, ...], tuple[Transposition, ...]]:
    """The edition's body (shared strings and units) and its transpositions; `body_of(collation)` builds
    the body instead of `arrange` over every column (tei.collate.clauses does, for paraphrases)."""
    columns = collation.alignment.columns
    collation.position = {id(c): n for n, c in enumerate(columns)}
    collation.moved = {}  # the pieces are cut by segments with no block known yet
    collation.moved = _moved_pieces(columns, collation)
    if body_of is None:
        body = arrange(columns, tuple(w for w in collation.alignment.order), collation)
    else:
        body = body_of(collation)
    transpositions: list[Transposition] = []
    for move in collation.alignment.moves:
        for original, moved in zip(move.original, move.moved):  # piece by piece (see _moved_pieces)
            pair = (collation.unit_of.get(id(original)), collation.unit_of.get(id(moved)))
            if None not in pair and pair[0] != pair[1] and Transposition(pair) not in transpositions:
                transpositions.append(Transposition(pair))
    return body, tuple(transpositions)
