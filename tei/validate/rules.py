"""The apparatus rules no schema expresses, each with a stable code (docs/validation.md lists them all).

They read any TEI edition, ours or anyone's, from the XML itself, through tei.apparatus, the one reader
of the apparatus: which witnesses a @wit stands for (groups, hands), which reading each witness takes in
each unit (negative apparatus, units without lem), where it is lacunose, and its rebuilt text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from tei.apparatus import APP, LEM, NOTHING, RDG, Apparatus, Witnesses, pointer_ids, transcription_text, witness_text
from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import TeiError
from tei.xmlio import parse_file, tei, xml

PLUGIN_GROUP = "tei.validate.rules"

# Attributes holding TEI pointers (teidata.pointer); only same-document pointers ('#id') are resolved.
# @wit is checked by APP001 against the witness list, so it is not repeated here.
POINTER_ATTRIBUTES = (
    "target",
    "corresp",
    "ana",
    "source",
    "resp",
    "ref",
    "who",
    "prev",
    "next",
    "sameAs",
    "copyOf",
    "synch",
    "select",
    "exclude",
    "hand",
    "decls",
    "spanTo",
    "from",
    "to",
    "facs",
    "scribeRef",
    "scriptRef",
    "ed",
)
WITNESS_DEFINING = (LEM, RDG, tei("witDetail"), tei("lacunaStart"), tei("lacunaEnd"), tei("witStart"), tei("witEnd"))
# The reader's findings about witnesses the validator passes on (A007, an undeclared siglum, is APP001 here).
READER_CODES = ("A005", "A006", "A008")


class ApparatusDocument:
    """What every rule needs to know about one document, computed once, all of it read by tei.apparatus."""

    def __init__(self, tree: etree._ElementTree, path: Path, own: bool = True):
        self.tree = tree
        self.root = tree.getroot()
        self.path = path
        self.name = str(path)
        self.own = own  # one of the toolkit's own editions: stricter (a lem-less unit must name everyone)
        self.witnesses = [w for w in self.root.iter(tei("witness")) if w.find(f".//{tei('witness')}") is None]
        self.known = Witnesses(tree, self.name)
        self.witness_ids = self.known.declared
        self.apps = list(self.root.iter(APP))
        self._apparatus: Apparatus | None = None
        self.refusal: list[Diagnostic] = []
        self.paths: dict = {}  # each declared witness's path through the units
        self.units: list = []
        if self.apps:
            try:
                self._apparatus = Apparatus(tree, self.name)
                if self._apparatus.folding_refused is None:
                    self.units = self._apparatus.units()
                    self.paths = {w: self._apparatus.path(w, marker="") for w in self.witness_ids}
            except TeiError as exc:  # the apparatus cannot be read: say why, check the rest
                self.refusal = exc.diagnostics

    def text(self, witness_id: str) -> str:
        """The witness's text rebuilt from the apparatus, lacunae unmarked; by the reader already built (the
        document read once for every witness), else by a reader of its own."""
        if self._apparatus is not None:
            return self._apparatus.text(witness_id, "")
        return witness_text(self.tree, witness_id, self.name, lacuna_marker="")

    def used(self) -> set[str]:
        """The witnesses some unit attests (a reading of theirs, named or as a lem without @wit)."""
        return {
            w
            for w, path in self.paths.items()
            if any(isinstance(p.reading, etree._Element) for p in path.passages)
            or any(w in unit.cited for unit in self.units)
        }


def reader_findings(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """What the apparatus reader found about witnesses (a group holding itself, hands, hands of no witness),
    and why it could not read the apparatus at all, if it could not."""
    yield from (d for d in edition.known.diagnostics if d.code in READER_CODES)
    yield from (d for d in edition.refusal if d.code not in READER_CODES)


def unknown_witnesses(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP001: every @wit points to a declared witness (or group of witnesses, or a hand of one)."""
    if not edition.witness_ids:
        return
    for element in edition.root.iter(*WITNESS_DEFINING):
        for pointer in pointer_ids(element.get("wit")):
            found = edition.known.by_id.get(pointer)
            if found is not None and found.kind == "undeclared":
                yield error(
                    "APP001",
                    f"@wit names the witness '{pointer}', which listWit does not declare",
                    edition.name,
                    element.sourceline,
                    hint=f'declare <witness xml:id="{pointer}"> in listWit or correct the siglum',
                )


def attestation(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP002/APP003/APP011: each witness takes exactly one reading in each unit it passes, unless it is
    lacunose there; a nested unit names only witnesses of the reading that holds it.

    Which reading a witness takes, and where it is lacunose, is the reader's answer (its path). A
    witness that no unit attests at all gets one APP005 instead of an APP003 in every unit.
    """
    unused = set(edition.witness_ids) - edition.used()
    passed = {w: {id(p.app) for p in path.passages} for w, path in edition.paths.items()}
    declared = set(edition.witness_ids)
    for unit in edition.units:
        label = _app_label(unit.app)
        if unit.depth:
            for witness_id in unit.cited:
                if witness_id in declared and id(unit.app) not in passed[witness_id]:
                    yield error(
                        "APP011",
                        f"witness '{witness_id}' is attested in {label}, nested in a reading that is not its own",
                        edition.name,
                        unit.app.sourceline,
                        hint="a nested app only distinguishes the witnesses of the reading that holds it",
                    )
        counts = Counter(  # token by token: a witness named twice in one @wit counts twice
            w
            for r in unit.readings
            for token in pointer_ids(r.element.get("wit"))
            for w in edition.known.resolve(token)
        )
        for witness_id, count in counts.items():
            if count > 1 and witness_id in declared:
                yield error(
                    "APP002",
                    f"witness '{witness_id}' is attested {count} times in {label}",
                    edition.name,
                    unit.app.sourceline,
                    hint="a witness has exactly one reading in each app",
                )
    for witness_id, path in edition.paths.items():
        if witness_id in unused:
            continue
        for passage in path.passages:
            if passage.reading is None or (edition.own and passage.reading is NOTHING):
                yield error(
                    "APP003",
                    f"witness '{witness_id}' has no reading in {_app_label(passage.app)}",
                    edition.name,
                    passage.app.sourceline,
                    hint="add it to the @wit of its reading (an empty <rdg> records an omission), or "
                    "mark a lacuna with <lacunaStart/> and <lacunaEnd/>",
                )


def sigla(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP004 duplicate sigla (two witnesses printed alike); APP005 sigla declared but used by no reading."""
    seen: dict[str, etree._Element] = {}
    for witness in edition.witnesses:
        siglum = witness.get("n") or witness.get(xml("id"))
        if siglum is None:
            continue
        if siglum in seen:
            yield error(
                "APP004",
                f"the siglum '{siglum}' is used by two witnesses (first at line {seen[siglum].sourceline})",
                edition.name,
                witness.sourceline,
                hint="give each witness its own @n",
            )
        seen.setdefault(siglum, witness)
    if not edition.apps or edition.refusal:
        return  # without a readable apparatus, which witnesses it uses is unknown
    used = edition.used()
    for witness in edition.witnesses:
        witness_id = witness.get(xml("id"))
        if witness_id and witness_id not in used:
            yield warning(
                "APP005",
                f"witness '{witness_id}' is declared but no reading attests it",
                edition.name,
                witness.sourceline,
                hint="remove it from listWit or add it to the apparatus",
            )


def base_witness(edition: ApparatusDocument) -> str | None:
    """The declared base witness: <variantEncoding source="#A"/> (the lemma is drawn from witness A)."""
    declaration = edition.root.find(f".//{tei('encodingDesc')}/{tei('variantEncoding')}")
    pointers = pointer_ids(declaration.get("source")) if declaration is not None else []
    return pointers[0] if pointers else None


def lemmata(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP006: the declared base witness is a witness; each lemma is read by a witness or claimed by someone.

    The lemma is the editor's choice: it may be any witness's reading (an eclectic text) or a conjecture,
    `<lem resp="#ed">` read by no witness. `<variantEncoding source="#A"/>` names the witness the lemmata
    are drawn from by default, not a rule every lemma must follow. What is refused is a lemma no witness
    reads (every witness is named in another reading of its unit) that no @resp claims either: a
    conjecture must say whose it is.
    """
    base = base_witness(edition)
    if base is not None and edition.witness_ids and base not in edition.witness_ids:
        yield error(
            "APP006",
            f"the declared base witness '{base}' is not a declared witness",
            edition.name,
            edition.root.find(f".//{tei('variantEncoding')}").sourceline,
            hint="correct variantEncoding/@source, or remove it: the lemmata need no base witness",
        )
    if edition.refusal or not edition.paths:
        return
    taken = {id(p.reading) for path in edition.paths.values() for p in path.passages}
    passed = {id(p.app) for path in edition.paths.values() for p in path.passages}
    for unit in edition.units:
        if id(unit.app) not in passed:
            continue  # nested in a reading no witness takes: not read at all
        for reading in unit.readings:
            lem = reading.element
            if lem.tag != LEM or lem.get("resp") or id(lem) in taken:
                continue
            yield error(
                "APP006",
                f"the lemma of {_app_label(unit.app)} is read by no witness and no @resp claims it",
                edition.name,
                lem.sourceline,
                hint='if it is a conjecture, say whose: <lem resp="#ed"> (with <editor xml:id="ed"> in the '
                "titleStmt); if witnesses read it, name them in its @wit",
            )


def transcriptions(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP007/APP008: a witness's text rebuilt from the apparatus equals its linked transcription file."""
    for witness in edition.witnesses:
        witness_id = witness.get(xml("id"))
        link = witness.find(f"{tei('ptr')}[@type='transcription']")
        if witness_id is None or link is None or not link.get("target"):
            continue
        target = urlparse(link.get("target"))
        if target.scheme not in ("", "file"):
            yield warning(
                "APP008",
                f"the transcription {link.get('target')!r} is remote and was not compared",
                edition.name,
                link.sourceline,
            )
            continue
        path = edition.path.parent / unquote(target.path)
        try:
            expected = _transcription_text(path)
        except TeiError as exc:
            yield error(
                "APP008",
                f"the transcription of witness '{witness_id}' cannot be read: {exc.diagnostics[0].message}",
                edition.name,
                link.sourceline,
                hint=str(path),
            )
            continue
        if edition.refusal:
            return  # the apparatus cannot be read (reader_findings says why): there is no text to compare
        rebuilt = edition.text(witness_id)
        if rebuilt != expected:
            at = _first_difference(rebuilt, expected)
            target = link.get("target")
            yield error(
                "APP007",
                f"witness '{witness_id}' reads {_around(rebuilt, at)!r} here, but its transcription {target} "
                f"has {_around(expected, at)!r}",
                edition.name,
                _line_at(edition, witness_id, at, witness.sourceline, _deleted_at(rebuilt, expected, at)),
                hint=f"if the edition is right, `tei sync {edition.path.name} --wit {witness_id}` writes {target} "
                "again from it (docs/diagnostics.md); if not, correct the reading",
            )


# The hint of APP007 while the document has other errors (tei.validate.check_file): the rebuilt text may be
# wrong because of them (a typo in @wit drops a witness's reading), and `tei sync` would write that guess into
# the transcription, so it is not proposed (and it refuses).
UNTRUSTED_TEXT = (
    "the edition has other errors, which may be why the texts differ: correct them first (`tei sync` refuses "
    "to write a transcription while they remain)"
)


def _transcription_text(path: Path) -> str:
    """The text of a linked transcription file, read by the same rule as the edition's."""
    return transcription_text(parse_file(path), str(path))


def _first_difference(rebuilt: str, expected: str) -> int:
    """The index of the first character where the two texts differ."""
    return next((i for i, (a, b) in enumerate(zip(rebuilt, expected)) if a != b), min(len(rebuilt), len(expected)))


def _around(text: str, at: int) -> str:
    """The words around a character: from the start of the word before it to a few words after."""
    start = text.rfind(" ", 0, max(0, text.rfind(" ", 0, at)))
    start = 0 if start < 0 else start + 1
    return text[start : at + 25]


def _deleted_at(rebuilt: str, expected: str, at: int) -> bool:
    """True when the rebuilt text is the transcription with characters taken out at `at` (and nothing else
    changed): they were cut from the end of the reading that ends there, not from the one that starts there."""
    cut = len(expected) - len(rebuilt)
    return cut > 0 and rebuilt[at:] == expected[at + cut :]


def _line_at(
    edition: ApparatusDocument, witness_id: str, at: int, fallback: int | None, deleted: bool = False
) -> int | None:
    """The line of the reading where the witness's text differs at its character `at`: the innermost reading
    holding it (a reading inside a unit inside an outer lemma, not that lemma); when characters were cut
    (`deleted`), a reading that ends just there is the one they were cut from. Else the line of the unit that
    follows in the text, else `fallback`."""
    path = edition.paths.get(witness_id)
    if path is None:
        return fallback
    holding = [
        p
        for p in path.passages
        if isinstance(p.reading, etree._Element)
        and p.offset <= at <= max(p.end, p.offset + 1)
        and (at < max(p.end, p.offset + 1) or (deleted and p.end > p.offset))
    ]
    if holding:
        return max(holding, key=lambda p: (p.depth, deleted and p.end == at)).reading.sourceline
    following = next((p for p in path.passages if p.offset >= at), None)
    return following.app.sourceline if following is not None else fallback


def pointers(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP010: same-document pointers ('#id') resolve to an element with that xml:id.

    (APP009, an xml:id used twice, is found while parsing: libxml2 refuses the document; see document.py.)
    """
    identifiers = {e.get(xml("id")) for e in edition.root.iter() if isinstance(e.tag, str) and e.get(xml("id"))}
    for element in edition.root.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute in POINTER_ATTRIBUTES:
            if attribute == "source" and element.tag == tei("variantEncoding"):
                continue  # the base witness: APP006 says what is wrong with it (one cause, one error)
            for token in (element.get(attribute) or "").split():
                if token.startswith("#") and token[1:] not in identifiers:
                    yield error(
                        "APP010",
                        f"@{attribute} points to '{token}', but no element has that xml:id",
                        edition.name,
                        element.sourceline,
                    )


def _app_label(app: etree._Element) -> str:
    return f"app '{app.get(xml('id'))}'" if app.get(xml("id")) else "this app"


RULES: tuple[Callable[[ApparatusDocument], Iterator[Diagnostic]], ...] = (
    reader_findings,
    unknown_witnesses,
    attestation,
    sigla,
    lemmata,
    transcriptions,
    pointers,
)


@lru_cache(maxsize=1)
def plugin_rules() -> tuple[Callable[[etree._Element, str], Iterable[Diagnostic]], ...]:
    """Rules other packages register under the entry-point group `tei.validate.rules` (tei.hadith's Qur'an
    references among them): each is called with a document's root element and name and yields diagnostics.
    The validator knows none of them by name; they are looked up once per process, on first use."""
    from importlib.metadata import entry_points  # its scan of installed packages is paid only when rules run

    return tuple(entry.load() for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name))


def check(tree: etree._ElementTree, path: Path, own: bool = True) -> Iterator[Diagnostic]:
    """Every apparatus rule on one document; a document without apparatus or witnesses passes trivially.

    On a document that is not one of the toolkit's own editions (`own` false) the apparatus findings are
    warnings: another project's conventions are reported, not held against the file (--strict fails them).
    """
    edition = ApparatusDocument(tree, path, own)
    for rule in RULES:
        for diagnostic in rule(edition):
            yield diagnostic if own else _as_warning(diagnostic)
    for plugin in plugin_rules():
        yield from plugin(edition.root, edition.name)


def _as_warning(diagnostic: Diagnostic) -> Diagnostic:
    return diagnostic if diagnostic.severity is not Severity.ERROR else replace(diagnostic, severity=Severity.WARNING)
