"""The apparatus rules no schema expresses, each with a stable code (docs/validation.md lists them all).

They read any TEI edition in parallel segmentation, ours or anyone's, from the XML itself; every
witness text is rebuilt by tei.apparatus, the one implementation of the rebuild rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from tei.apparatus import APP, LEM, RDG, pointer_ids, readings, transcription_text, witness_text
from tei.diagnostics import Diagnostic, error, warning
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
LACUNA_OPENERS = (tei("lacunaStart"), tei("witEnd"))
LACUNA_CLOSERS = (tei("lacunaEnd"), tei("witStart"))
WITNESS_DEFINING = (LEM, RDG, tei("witDetail"), tei("lacunaStart"), tei("lacunaEnd"), tei("witStart"), tei("witEnd"))


class ApparatusDocument:
    """What every rule needs to know about one document, computed once."""

    def __init__(self, tree: etree._ElementTree, path: Path):
        self.tree = tree
        self.root = tree.getroot()
        self.path = path
        self.name = str(path)
        self.witnesses = [w for w in self.root.iter(tei("witness")) if w.find(tei("witness")) is None]
        self.witness_ids = [w.get(xml("id")) for w in self.witnesses if w.get(xml("id"))]
        self.groups = self._groups()
        self.apps = list(self.root.iter(APP))
        self._scopes: dict[etree._Element, list[str]] = {}
        self._attested: dict[etree._Element, Counter] = {}

    def _groups(self) -> dict[str, list[str]]:
        """Group sigla (a listWit or witness with an id that holds witnesses) -> the witnesses they stand for."""
        groups = {}
        for group in self.root.iter(tei("listWit"), tei("witness")):
            members = [w.get(xml("id")) for w in group.iter(tei("witness")) if w is not group and w.get(xml("id"))]
            if group.get(xml("id")) and members:
                groups[group.get(xml("id"))] = members
        return groups

    def expand(self, pointer: str) -> list[str]:
        return self.groups.get(pointer, [pointer])

    def scope(self, app: etree._Element) -> list[str]:
        """The witnesses an app must attest: all of them, or for an app nested in a reading, that reading's."""
        if app not in self._scopes:
            holder = next(app.iterancestors(LEM, RDG), None)
            outer = next(app.iterancestors(APP), None)
            if holder is None or outer is None:
                self._scopes[app] = list(self.witness_ids)
            else:
                holds = self.reading_witnesses(outer, holder)
                self._scopes[app] = [w for w in self.scope(outer) if w in holds]
        return self._scopes[app]

    def reading_witnesses(self, app: etree._Element, reading: etree._Element) -> set[str]:
        """The witnesses a reading of the app stands for; a lem without @wit stands for every unnamed one."""
        if reading.get("wit") is not None:
            return {w for p in pointer_ids(reading.get("wit")) for w in self.expand(p)}
        named = {w for r in readings(app) for p in pointer_ids(r.get("wit")) for w in self.expand(p)}
        return set(self.scope(app)) - named

    def used(self) -> set[str]:
        """The witnesses some app attests."""
        return {w for app in self.apps for w, count in self.attested(app).items() if count}

    def attested(self, app: etree._Element) -> Counter:
        """How many readings of the app name each witness; a lem without @wit names every unnamed one."""
        if app not in self._attested:
            counts: Counter = Counter()
            for reading in readings(app):
                if reading.get("wit") is not None:
                    counts.update(w for p in pointer_ids(reading.get("wit")) for w in self.expand(p))
            for reading in readings(app):
                if reading.tag == LEM and reading.get("wit") is None:
                    counts.update(w for w in self.scope(app) if counts[w] == 0)
            self._attested[app] = counts
        return self._attested[app]


def unknown_witnesses(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP001: every @wit points to a declared witness (or group of witnesses)."""
    if not edition.witness_ids:
        return
    known = set(edition.witness_ids) | set(edition.groups)
    for element in edition.root.iter(*WITNESS_DEFINING):
        for pointer in pointer_ids(element.get("wit")):
            if pointer not in known:
                yield error(
                    "APP001",
                    f"@wit names the witness '{pointer}', which listWit does not declare",
                    edition.name,
                    element.sourceline,
                    hint=f'declare <witness xml:id="{pointer}"> in listWit or correct the siglum',
                )


def attestation(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP002/APP003: each witness is attested exactly once in each app, unless it is lacunose there.

    A witness that no app attests at all gets one APP005 instead of an APP003 in every app.
    """
    lacunose_at = _lacunose_witnesses(edition)
    unused = set(edition.witness_ids) - edition.used()
    for app in edition.apps:
        counts = edition.attested(app)
        scope = edition.scope(app)
        label = _app_label(app)
        for witness_id in counts:
            if witness_id not in scope and witness_id in edition.witness_ids:
                yield error(
                    "APP011",
                    f"witness '{witness_id}' is attested in {label}, nested in a reading that is not its own",
                    edition.name,
                    app.sourceline,
                    hint="a nested app only distinguishes the witnesses of the reading that holds it",
                )
        for witness_id in scope:
            if counts[witness_id] > 1:
                yield error(
                    "APP002",
                    f"witness '{witness_id}' is attested {counts[witness_id]} times in {label}",
                    edition.name,
                    app.sourceline,
                    hint="a witness has exactly one reading in each app",
                )
            elif counts[witness_id] == 0 and witness_id not in lacunose_at[app] and witness_id not in unused:
                yield error(
                    "APP003",
                    f"witness '{witness_id}' has no reading in {label}",
                    edition.name,
                    app.sourceline,
                    hint="add it to the @wit of its reading (an empty <rdg> records an omission), or "
                    "mark a lacuna with <lacunaStart/> and <lacunaEnd/>",
                )


def _lacunose_witnesses(edition: ApparatusDocument) -> dict[etree._Element, set[str]]:
    """For each app, the witnesses inside a lacuna there (after lacunaStart/witEnd, before lacunaEnd/witStart)."""
    starts_later = {w for e in edition.root.iter(tei("witStart")) for w in _marker_witnesses(edition, e)}
    open_lacunae = set(starts_later)
    lacunose: dict[etree._Element, set[str]] = {}
    for element in edition.root.iter(APP, *LACUNA_OPENERS, *LACUNA_CLOSERS):
        if element.tag == APP:
            lacunose[element] = set(open_lacunae)
        elif element.tag in LACUNA_OPENERS:
            open_lacunae.update(_marker_witnesses(edition, element))
        else:
            open_lacunae.difference_update(_marker_witnesses(edition, element))
    return lacunose


def _marker_witnesses(edition: ApparatusDocument, marker: etree._Element) -> list[str]:
    """A lacuna marker's witnesses: its own @wit, or else the @wit of the reading it stands in."""
    holder = marker if marker.get("wit") else next((a for a in marker.iterancestors(LEM, RDG) if a.get("wit")), None)
    pointers = pointer_ids(holder.get("wit")) if holder is not None else []
    return [w for p in pointers for w in edition.expand(p)]


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
    if not edition.apps:
        return
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


def lemma_follows_base(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP006: when a base witness is declared, each lem carries it (a lem without @wit stands for it too)."""
    base = base_witness(edition)
    if base is None:
        return
    if edition.witness_ids and base not in edition.witness_ids:
        yield error(
            "APP006",
            f"the declared base witness '{base}' is not a declared witness",
            edition.name,
            edition.root.find(f".//{tei('variantEncoding')}").sourceline,
        )
        return
    for lem in edition.root.iter(LEM):
        named = [w for p in pointer_ids(lem.get("wit")) for w in edition.expand(p)]
        if lem.get("wit") is not None and base not in named:
            yield error(
                "APP006",
                f"the lemma does not carry the base witness '{base}' (it has {lem.get('wit')!r})",
                edition.name,
                lem.sourceline,
                hint=f"the lem holds the reading of '{base}'; move the other reading to a rdg",
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
        rebuilt = witness_text(edition.tree, witness_id, edition.name)
        if rebuilt != expected:
            yield error(
                "APP007",
                f"the text of witness '{witness_id}' rebuilt from the apparatus differs from "
                f"its transcription {link.get('target')}: {_first_difference(rebuilt, expected)}",
                edition.name,
                witness.sourceline,
                hint=f"compare `tei witness {edition.path.name} --wit {witness_id}` with the transcription",
            )


def _transcription_text(path: Path) -> str:
    """The text of a linked transcription file, read by the same rule as the edition's."""
    return transcription_text(parse_file(path), str(path))


def _first_difference(rebuilt: str, expected: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(rebuilt, expected)) if a != b), min(len(rebuilt), len(expected)))
    return (
        f"at character {at + 1} the apparatus gives {rebuilt[at : at + 30]!r} "
        f"where the transcription has {expected[at : at + 30]!r}"
    )


def pointers(edition: ApparatusDocument) -> Iterator[Diagnostic]:
    """APP010: same-document pointers ('#id') resolve to an element with that xml:id.

    (APP009, an xml:id used twice, is found while parsing: libxml2 refuses the document; see document.py.)
    """
    identifiers = {e.get(xml("id")) for e in edition.root.iter() if isinstance(e.tag, str) and e.get(xml("id"))}
    for element in edition.root.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute in POINTER_ATTRIBUTES:
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
    unknown_witnesses,
    attestation,
    sigla,
    lemma_follows_base,
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


def check(tree: etree._ElementTree, path: Path) -> Iterator[Diagnostic]:
    """Every apparatus rule on one document; a document without apparatus or witnesses passes trivially."""
    edition = ApparatusDocument(tree, path)
    for rule in RULES:
        yield from rule(edition)
    for plugin in plugin_rules():
        yield from plugin(edition.root, edition.name)
