"""Reads a TEI transcription written by `tei encode` (or edited by hand) back into a Witness."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.model import Witness
from tei.xmlio import NSMAP, parse_file, tei, xml


def element_text(element: etree._Element) -> str:
    """The string value of an element, with <g type="char" n="U+XXXX"/> restored to its character."""
    parts = [element.text or ""]
    for child in element:
        if not isinstance(child.tag, str):
            pass  # comments and processing instructions carry no witness text
        elif child.tag == tei("g") and child.get("type") == "char":
            parts.append(chr(int(child.get("n", "U+FFFD")[2:], 16)))
        else:
            parts.append(element_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def read_transcription(path: Path | str) -> Witness:
    tree = parse_file(path)
    root = tree.getroot()
    if root.tag != tei("TEI"):
        raise InvalidInputError(error("T003", f"the root element is {root.tag}, not a TEI document", path, root.sourceline))
    body_paragraphs = root.xpath("tei:text/tei:body/tei:p", namespaces=NSMAP)
    text = "".join(element_text(p) for p in body_paragraphs)
    bibl = root.find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('sourceDesc')}/{tei('bibl')}")
    witness_id = bibl.get(xml("id")) if bibl is not None and bibl.get(xml("id")) else Path(str(path)).stem
    siglum = bibl.get("n") if bibl is not None and bibl.get("n") else witness_id
    note = bibl.find(tei("note")) if bibl is not None else None
    description = "".join(note.itertext()) if note is not None else ""
    language = root.get(xml("lang")) or "en"
    return Witness(witness_id, siglum, text, language, description, source=str(path))
