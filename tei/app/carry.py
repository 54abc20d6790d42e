"""`tei build --carry-decisions`: the editor's decisions in edition.xml carried into a fresh collation.

The decisions live in the TEI itself, where the editor made them; there is no side database. They are
found by comparing the edited edition with the edition the toolkit writes from the same witness texts
(the texts rebuilt from the edited edition, so corrected readings count as text, not as decisions):

- a lemma chosen from another witness than the base (`<lem wit="#D">`): the lemma choice;
- a lemma read by no witness (`<lem resp="#ed">` without @wit): a conjecture, carried whole;
- `@resp` and `@cause` on a reading (the toolkit writes neither);
- `<note>` and `<witDetail>` in a unit (the toolkit writes neither);
- what the editor added to the titleStmt (an `<editor xml:id="ed">` that `@resp="#ed"` points to);
- a reading type (@type) other than the one the toolkit gives the same reading.

Each is carried into the unit with the same id in the new collation (ids are anchored in content and
position: tei.collate.anchors), to the reading of the same witness. A decision whose unit is gone, or
whose witness reads something else there now, is reported (B004, a warning) and left out. A conjecture
whose unit now lies inside a reading that is not the lemma (the clauses were cut otherwise, and an outer
lemma was chosen from another witness) is carried, so nothing is lost, and reported too (B004): it is in
no printed text.

A transcription changed since the build wrote it (by `tei sync` after a reading was corrected, or by
hand) holds the editor's correction of that witness's text: it is collated instead of the manifest's
file (B005 says so), so the correction survives too.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from pathlib import Path

from lxml import etree

from tei.apparatus import APP, LEM, RDG, RDG_GRP, Witnesses, content_text, readings, transcription_text, witness_text
from tei.diagnostics import Diagnostic, info, warning
from tei.model import Work
from tei.outputs import sha256
from tei.xmlio import parse_bytes, parse_file, serialise, tei, xml

CARRIED_ATTRIBUTES = ("resp", "cause")  # on lem and rdg; the toolkit never writes them
CARRIED_ELEMENTS = (tei("note"), tei("witDetail"))  # in an app; the toolkit never writes them


@dataclass
class Decision:
    """One decision of the editor in one unit: what it is, and how to say it in a report."""

    app_id: str
    line: int | None
    kind: str  # lemma, conjecture, attribute, element, type
    witness: str | None = None  # whose reading it concerns
    element: etree._Element | None = None  # the conjecture's lem, or the note/witDetail
    name: str = ""  # the attribute's name (or the type's value)
    value: str = ""
    text: str = ""  # the reading's text when the decision was made (types)
    displaced_type: str | None = None  # the type the former lemma's reading had in the edited file
    carried: bool = False  # set by `carry`

    def described(self) -> str:
        if self.kind == "lemma":
            return f"the lemma taken from {self.witness}"
        if self.kind == "conjecture":
            return f"the conjecture {_text(self.element).strip()!r}"
        if self.kind == "attribute":
            return f"@{self.name}={self.value!r} on the reading of {self.witness}"
        if self.kind in ("element", "header"):
            return f"a <{etree.QName(self.element).localname}>"
        return f"the type {self.value!r} of the reading of {self.witness}"


@dataclass
class Carried:
    """What carrying did: the decisions found, and the reports of those that no longer apply."""

    found: list[Decision] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: Diagnostic | None = None  # B007: what was carried


def corrected_work(work: Work, output: Path, stamped: dict[str, str]) -> tuple[Work, list[Diagnostic]]:
    """The work with each witness whose transcription changed since the build wrote it (`stamped`: its
    path relative to the output -> the digest written) collated from that transcription's text."""
    notes, witnesses = [], []
    for witness in work.witnesses:
        relative = f"transcriptions/{witness.id}.xml"
        path = output / relative
        if relative in stamped and path.is_file() and sha256(path.read_bytes()) != stamped[relative]:
            text = transcription_text(parse_file(path), str(path))
            if text != witness.text:
                witness = replace(witness, text=text)
                notes.append(
                    warning(
                        "B005",
                        f"witness '{witness.id}' is collated from its corrected transcription, not from "
                        f"{witness.source}",
                        path,
                        hint="to make the correction permanent, correct the manifest's file too",
                    )
                )
        witnesses.append(witness)
    return replace(work, witnesses=tuple(witnesses)), notes


def decisions(edited: etree._ElementTree, regenerated: etree._ElementTree | None) -> list[Decision]:
    """Every decision in the edited edition, against the edition the toolkit writes from the same texts."""
    root = edited.getroot()
    witnesses = Witnesses(edited)
    resolve = witnesses.resolve
    source = root.find(f".//{tei('variantEncoding')}")
    base = (source.get("source") or "").lstrip("#") if source is not None else ""
    toolkit = {a.get(xml("id")): a for a in regenerated.getroot().iter(APP)} if regenerated is not None else {}
    regenerated_witnesses = Witnesses(regenerated) if regenerated is not None else None
    found: list[Decision] = []
    title_stmt = root.find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('titleStmt')}")
    written = regenerated.getroot().find(f".//{tei('titleStmt')}") if regenerated is not None else None
    known = {_canonical(e) for e in written} if written is not None else set()
    for child in title_stmt if title_stmt is not None else ():
        if isinstance(child.tag, str) and child.tag != tei("title") and _canonical(child) not in known:
            kept = copy.deepcopy(child)
            kept.tail = None
            found.append(Decision("", child.sourceline, "header", element=kept))
    for app in root.iter(APP):
        app_id = app.get(xml("id"))
        if not app_id:
            continue
        readings = _readings(app)
        lem = next((r for r in readings if r.tag == LEM), None)
        displaced = next((r.get("type") for r in readings if base in _witnesses(r, resolve)), None)
        if lem is not None and lem.get("wit") is None:
            conjecture = copy.deepcopy(lem)
            conjecture.tail = None
            found.append(Decision(app_id, lem.sourceline, "conjecture", element=conjecture))
        elif lem is not None and base and base not in _witnesses(lem, resolve):
            witness = _witnesses(lem, resolve)[0]
            former = toolkit.get(app_id)
            former_lem = next((r for r in _readings(former) if r.tag == LEM), None) if former is not None else None
            kept = former_lem is not None and witness in _witnesses(former_lem, resolve)
            if not kept:
                found.append(Decision(app_id, lem.sourceline, "lemma", witness, displaced_type=displaced))
        lemma_decided = bool(found) and found[-1].app_id == app_id and found[-1].kind in ("lemma", "conjecture")
        for reading in readings:
            named = _witnesses(reading, resolve)
            if not named:
                continue
            for name in CARRIED_ATTRIBUTES:
                if reading.get(name) is not None:
                    found.append(Decision(app_id, reading.sourceline, "attribute", named[0], name=name,
                                          value=reading.get(name)))  # fmt: skip
            former = _reading_of(toolkit.get(app_id), named[0], resolve)
            demoted = lemma_decided and base in named  # its type goes with the lemma decision
            if reading.tag == RDG and former is not None and reading.get("type") != former.get("type") and not demoted:
                text = content_text(reading, named[0], witnesses)
                if _editors_type(reading.get("type"), text, former, named[0], regenerated_witnesses):
                    found.append(Decision(app_id, reading.sourceline, "type", named[0], value=reading.get("type") or "",
                                          text=text))  # fmt: skip
        for child in app.iter(*CARRIED_ELEMENTS):
            if _unit_of(child) is app:
                kept = copy.deepcopy(child)
                kept.tail = None
                found.append(Decision(app_id, child.sourceline, "element", element=kept))
    return found


def _editors_type(value: str | None, text: str, former: etree._Element, witness: str, known) -> bool:
    """Whether a reading's type that differs from the toolkit's is the editor's. A type the toolkit never
    writes is; one it writes is the editor's only on the same reading (the same words for the witness):
    where the toolkit cut the unit otherwise (near a reading the editor corrected, say), the old type is the
    toolkit's own for other words, and carrying or reporting it (B004) would put the toolkit's choice in the
    editor's name."""
    from tei.writers.edition import READING_TYPES

    if value not in {name for name, _ in READING_TYPES}:
        return True
    return known is None or content_text(former, witness, known) == text


def carry(
    new_edition: bytes,
    found: list[Decision],
    name: str,
    schema_href: str | None,
    edited: str | None = None,
    backup: Path | None = None,
) -> tuple[bytes, Carried]:
    """The new edition with every decision that still applies; the others reported (B004) at their line in
    the edited edition (`edited`: the file they were found in), whose copy is kept at `backup` (named in
    the report; the caller keeps it there)."""
    tree = parse_bytes(new_edition, name)
    witnesses = Witnesses(tree)
    apps = {a.get(xml("id")): a for a in tree.getroot().iter(APP)}
    result = Carried(found)
    dropped = 0
    for decision in found:
        if decision.kind == "header":
            _append(tree.getroot().find(f".//{tei('titleStmt')}"), copy.deepcopy(decision.element))
            decision.carried = True
            continue
        app = apps.get(decision.app_id)
        problem = "its unit is not in the new collation" if app is None else _apply(decision, app, witnesses)
        decision.carried = not problem
        if problem:
            dropped += 1
            result.diagnostics.append(
                warning(
                    "B004",
                    f"{decision.described()} in {decision.app_id} was not carried: {problem}",
                    edited or name,
                    decision.line,
                    hint=f"make the decision again in the new {Path(name).name}; the line is that of the edited "
                    + (f"file, kept as {backup}" if backup is not None else "file"),
                )
            )
    for decision in found:  # after every lemma choice is made: a conjecture inside a reading now rejected
        app = apps.get(decision.app_id) if decision.kind == "conjecture" else None
        outer = _rejected_reading(app) if app is not None else None
        if outer is not None:
            result.diagnostics.append(
                warning(
                    "B004",
                    f"{decision.described()} in {decision.app_id} was carried, but its unit now lies inside a "
                    f"reading that is not the text (the reading of {outer.get('wit') or '?'} in "
                    f"{_outer_id(outer)}, whose lemma is another): it is not part of the edited text",
                    edited or name,
                    decision.line,
                    hint="the witnesses' clauses are cut otherwise in the new collation: make the conjecture again "
                    f"where it belongs in the new {Path(name).name}",
                )
            )
    result.summary = _summary(found, name, dropped) if found else None
    return serialise(tree, schema_href), result


KIND_NAMES = {"lemma": "lemma choice", "conjecture": "conjecture", "attribute": "@resp or @cause",
              "header": "header entry", "type": "reading type"}  # fmt: skip


def _summary(found: list[Decision], name: str, dropped: int) -> Diagnostic:
    """B007: how many decisions were carried, of which kinds, into which units (a few named)."""
    by_kind: dict[str, list[str]] = {}
    for decision in found:
        if decision.carried:
            kind = KIND_NAMES.get(decision.kind) or etree.QName(decision.element).localname
            by_kind.setdefault(kind, []).append(decision.app_id)
    parts = []
    for kind, units in by_kind.items():
        named = sorted({u for u in units if u})
        shown = f" ({', '.join(named[:5])}{', …' if len(named) > 5 else ''})" if named else ""
        parts.append(f"{len(units)} {kind}{'s' if len(units) > 1 and not kind.startswith('@') else ''}{shown}")
    carried = len(found) - dropped
    return info(
        "B007",
        f"{carried} decision(s) of the editor carried into the new collation"
        + (f": {'; '.join(parts)}" if parts else "")
        + (f"; {dropped} not carried (B004)" if dropped else ""),
        name,
    )


def _outer_id(reading: etree._Element) -> str:
    unit = _unit_of(reading)
    return (unit.get(xml("id")) if unit is not None else None) or "an outer unit"


def _rejected_reading(app: etree._Element) -> etree._Element | None:
    """The outermost reading that is not a lemma among the elements holding this unit, if any: a unit inside
    it is not part of the edited text."""
    rejected = None
    for ancestor in app.iterancestors(RDG):
        rejected = ancestor
    return rejected


def _apply(decision: Decision, app: etree._Element, witnesses: Witnesses) -> str | None:
    """Carry one decision into the new unit; why it does not apply, if it does not."""
    resolve = witnesses.resolve
    if decision.kind == "element":
        _append(app, copy.deepcopy(decision.element))
        return None
    if decision.kind == "conjecture":
        current = next((r for r in _readings(app) if r.tag == LEM), None)
        if current is not None and current.get("wit") is None:
            return None  # carried already
        if current is not None:
            _demote(current, decision.displaced_type)
        _insert_first(app, copy.deepcopy(decision.element))
        return None
    reading = _reading_of(app, decision.witness, resolve)
    if reading is None:
        return f"witness {decision.witness} reads nothing in it"
    if decision.kind == "lemma":
        if reading.tag == LEM:
            return None
        current = next((r for r in _readings(app) if r.tag == LEM), None)
        if current is not None:
            _demote(current, decision.displaced_type)
        group = reading.getparent() if reading.getparent().tag == RDG_GRP else None
        reading.tag = LEM
        reading.attrib.pop("type", None)
        _insert_first(app, reading)
        if group is not None and not len(_readings(group)):
            group.getparent().remove(group)
        return None
    if decision.kind == "attribute":
        reading.set(decision.name, decision.value)
        return None
    if reading.tag == LEM:
        return f"the reading of {decision.witness} is the lemma now"
    now = content_text(reading, decision.witness, witnesses)
    if now != decision.text:
        return f"witness {decision.witness} reads {now.strip()[:60]!r} there now"
    reading.set("type", decision.value)
    return None


def _demote(lem: etree._Element, reading_type: str | None) -> None:
    lem.tag = RDG
    lem.set("type", reading_type or "substitution")


def _insert_first(app: etree._Element, element: etree._Element) -> None:
    parent = element.getparent()
    if parent is not None:
        _detach(element)
    element.tail = app.text
    app.insert(0, element)


def _append(app: etree._Element, element: etree._Element) -> None:
    last = app[-1] if len(app) else None
    element.tail = last.tail if last is not None else None
    if last is not None:
        last.tail = app.text
    app.append(element)


def _detach(element: etree._Element) -> None:
    """Take an element out of its parent, keeping the layout of what stays."""
    parent = element.getparent()
    previous = element.getprevious()
    if previous is not None:
        previous.tail = element.tail
    elif element.tail is not None:
        parent.text = element.tail
    parent.remove(element)


def _readings(container: etree._Element | None) -> list[etree._Element]:
    """The lem and rdg elements of an app (or rdgGrp) of its own, groups included, nested units not."""
    return [] if container is None else readings(container)


def _reading_of(app: etree._Element | None, witness: str, resolve) -> etree._Element | None:
    return next((r for r in _readings(app) if witness in _witnesses(r, resolve)), None)


def _witnesses(reading: etree._Element, resolve) -> list[str]:
    return list(resolve(reading.get("wit"))) if reading.get("wit") else []


def _unit_of(element: etree._Element) -> etree._Element | None:
    """The app an element belongs to: its nearest app ancestor, through readings and groups."""
    parent = element.getparent()
    while parent is not None and parent.tag != APP:
        parent = parent.getparent()
    return parent


def _canonical(element: etree._Element) -> bytes:
    return etree.tostring(element, method="c14n", with_tail=False)


def _text(element: etree._Element) -> str:
    return "".join(element.itertext())


def rebuilt_work(work: Work, edited: etree._ElementTree, name: str) -> Work:
    """The work as the edited edition has it: its witnesses (those the manifest still lists), with the
    texts rebuilt from its apparatus."""
    declared = {w.get(xml("id")) for w in edited.getroot().iter(tei("witness"))}
    witnesses = tuple(
        replace(w, text=witness_text(edited, w.id, name, lacuna_marker="")) for w in work.witnesses if w.id in declared
    )
    return replace(work, witnesses=witnesses)
