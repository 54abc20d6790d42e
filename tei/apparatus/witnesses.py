"""The witnesses of a document: those its listWit declares, and those its @wit attributes merely name."""

from __future__ import annotations

from lxml import etree

from tei.apparatus.elements import LEM, RDG, pointer_ids
from tei.diagnostics import Diagnostic, warning
from tei.xmlio import tei, xml

WITNESS_REFERENCES = tuple(
    tei(t) for t in ("lem", "rdg", "rdgGrp", "witDetail", "witStart", "witEnd", "lacunaStart", "lacunaEnd")
)


def witness_ids(tree: etree._ElementTree) -> list[str]:
    """The declared witnesses (listWit/witness/@xml:id) in document order; groups are not witnesses.

    A document without listWit falls back to the ids its @wit attributes name, in order of appearance.
    """
    root = tree.getroot()
    declared = [
        w.get(xml("id"))
        for w in root.iter(tei("witness"))
        if w.get(xml("id")) and not w.findall(f".//{tei('witness')}")  # a witness holding witnesses is a group
    ]
    if declared:
        return declared
    seen: dict[str, None] = {}
    for reading in root.iter(LEM, RDG):
        for wid in pointer_ids(reading.get("wit")):
            seen.setdefault(wid)
    return list(seen)


def declared_witnesses(tree: etree._ElementTree) -> set[str]:
    """Ids and, for witnesses without an id, sigla (@n) of listWit entries, and ids of witness groups."""
    names = set()
    for element in tree.getroot().iter(tei("witness"), tei("listWit")):
        names.add(element.get(xml("id")) or (element.get("n") if element.tag == tei("witness") else None))
    return names - {None}


def referenced_witnesses(tree: etree._ElementTree) -> dict[str, int | None]:
    """Every witness named by a @wit, with the line where it is first named, in order of appearance."""
    found: dict[str, int | None] = {}
    for element in tree.getroot().iter(*WITNESS_REFERENCES):
        for witness in pointer_ids(element.get("wit")):
            found.setdefault(witness, element.sourceline)
    return found


def all_witnesses(tree: etree._ElementTree) -> list[str]:
    """The witnesses whose texts a conversion must keep: the declared ones, then any others named in @wit."""
    found = dict.fromkeys(witness_ids(tree))
    found.update(dict.fromkeys(referenced_witnesses(tree)))
    return list(found)


def undeclared_witnesses(tree: etree._ElementTree, name: str) -> list[Diagnostic]:
    """A warning for each witness a @wit names but listWit does not declare (only when listWit exists)."""
    declared = declared_witnesses(tree)
    if not declared:
        return []
    return [
        warning(
            "CV003",
            f"witness '{witness}' is named in @wit but not declared in listWit",
            name,
            line,
            hint="declare it in listWit/witness, or correct the @wit",
        )
        for witness, line in referenced_witnesses(tree).items()
        if witness not in declared
    ]
