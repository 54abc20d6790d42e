"""What a scholar's TEI transcription's header (and body) says about its witness: facts, hands, glyphs, images.

The witness list (tei.readers.scholarly) comes from here: the id, siglum, description, references and
language from `msDesc` (`msIdentifier`: settlement, repository, idno; `msName`; `origDate`) and
`xml:lang` (body, then text, then TEI); the hands from the `handNote`s and the manifest (a @hand that
names neither is T012); the character of each `g` from the `charDecl` (`mapping type="standard"`, else
the first); the image of each `surface` of the `facsimile`, which a `pb/@facs` pointing to it becomes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.model import Mark
from tei.xmlio import TEI_NS, tei, xml

CORRECTOR_NAME = re.compile(r"[cC]\d*\Z")
XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]")
FIRST_HAND = "*"  # the layer before any correction
CORRECTIONS = frozenset(("add", "del", "subst", "restore", "mod"))


def images(root) -> dict[str, str]:
    """facsimile: each surface's id -> the URL of its (first) graphic; a pb/@facs pointing to a surface
    is given that URL, so the edition links the image itself (issue 33 builds the image view on it)."""
    found = {}
    for surface in root.iter(tei("surface")):
        graphic = surface.find(tei("graphic"))
        if surface.get(xml("id")) and graphic is not None and graphic.get("url"):
            found[surface.get(xml("id"))] = graphic.get("url")
    return found


def linked(mark: Mark, images: dict[str, str]) -> Mark:
    facs = dict(mark.attributes).get("facs")
    if not facs or not any(f.lstrip("#") in images for f in facs.split() if f.startswith("#")):
        return mark
    linked = " ".join(images.get(f[1:], f) if f.startswith("#") else f for f in facs.split())
    return replace(mark, attributes=tuple((k, linked if k == "facs" else v) for k, v in mark.attributes))


def character_map(root) -> dict[str, str]:
    """charDecl: each glyph's (or char's) id -> its standard mapping (else its first)."""
    found = {}
    for glyph in root.iter(tei("glyph"), tei("char")):
        mappings = glyph.findall(tei("mapping"))
        chosen = next((m for m in mappings if m.get("type") == "standard"), mappings[0] if mappings else None)
        if glyph.get(xml("id")) and chosen is not None:
            found[glyph.get(xml("id"))] = chosen.text or ""
    return found


def hand_description(root, siglum: str, layer: str) -> str:
    """What the conspectus says of a hand layer: the first hand, or the corrector and its handNote."""
    if layer == FIRST_HAND:
        return f"{siglum}, first hand (before any correction)"
    note = next((n for n in root.iter(tei("handNote")) if n.get(xml("id")) == layer), None)
    said = " ".join("".join(note.itertext()).split()) if note is not None else ""
    return f"{siglum}, corrections of the hand {layer}" + (f": {said}" if said else "")


def declared_hands(root, body, name, named: dict[str, str]) -> dict[str, str]:
    """The hands (id -> siglum suffix) of the handNotes and of the manifest (`hands`); a @hand that
    names neither is an error, at its line."""
    declared = {}
    for index, note in enumerate(root.iter(tei("handNote")), 1):
        identifier = note.get(xml("id"))
        if identifier:
            label = note.get("n") or identifier
            declared[identifier] = label if CORRECTOR_NAME.match(label) else f"C{index}"
    declared.update(named)
    for element in body.iter():
        if not isinstance(element.tag, str) or not element.get("hand"):
            continue
        for token in element.get("hand").split():
            hand = token.lstrip("#")
            if hand in declared or hand in ("firsthand", "corrector"):  # the IGNTP's own names
                continue
            raise InvalidInputError(
                error(
                    "T012",
                    f'@hand="{element.get("hand")}" names the hand "{hand}", which the transcription never declares',
                    name,
                    element.sourceline,
                    hint=f'declare it in the header (<handNote xml:id="{hand}">), or name it in the manifest: '
                    f'transcription = {{ hands = {{ "{hand}" = "C1" }} }}',
                )
            )
    return declared


def correctors(body) -> list[str]:
    """The hands named by the corrections of a body, in order of first appearance. A correction that names
    no hand is read in the final text only."""
    found: dict[str, None] = {}
    for element in body.iter(*(tei(c) for c in (*CORRECTIONS, "rdg"))):
        for token in (element.get("hand") or "").split():
            if token.lstrip("#") != "firsthand":
                found.setdefault(token.lstrip("#"))
    return list(found)


def witness_facts(root, body, name) -> dict:
    """id, siglum, description, references and language from msDesc and xml:lang."""
    ns = {"tei": TEI_NS}
    ms = root.find(f".//{tei('sourceDesc')}//{tei('msDesc')}")

    def first(path):
        return " ".join(ms.xpath(f"string({path})", namespaces=ns).split()) if ms is not None else ""

    settlement = first("tei:msIdentifier/tei:settlement")
    repository = first("tei:msIdentifier/tei:repository")
    idno = first("tei:msIdentifier/tei:idno")
    ms_name = first("tei:msIdentifier/tei:msName")
    date = first(".//tei:origDate")
    description = ", ".join(p for p in (settlement, repository, idno) if p)
    if ms_name:
        description += f" ({ms_name})" if description else ms_name
    if date:
        description += f", {date}" if description else date
    bibl = root.find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('sourceDesc')}/{tei('bibl')}")
    named = [e.get(xml("id")) for e in (ms, bibl) if e is not None and e.get(xml("id"))]
    identifier = named[0] if named else Path(name).stem
    identifier = NOT_NAME.sub("-", identifier)
    if not XML_NAME.match(identifier):
        identifier = f"W{identifier}"
    siglum = first("tei:msIdentifier/tei:altIdentifier[@type='siglum']/tei:idno")
    siglum = siglum or (bibl.get("n") if bibl is not None and bibl.get("n") else identifier)
    text = root.find(tei("text"))
    language = next((e.get(xml("lang")) for e in (body, text, root) if e is not None and e.get(xml("lang"))), None)
    references = (("shelfmark", idno),) if idno else ()
    return {
        "id": identifier,
        "siglum": siglum,
        "description": description,
        "language": language,
        "references": references,
    }
