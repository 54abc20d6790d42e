"""Reading a parallel-segmentation apparatus from the XML itself: its witnesses and each one's exact text.

This is the one implementation of the rebuild rule in docs/edition-format.md; `tei witness`, the validator's
apparatus rules and the tests all call it, so a hand-edited edition.xml is read exactly like a generated one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import NSMAP, tei, xml

APP, LEM, RDG, RDG_GRP, G = tei("app"), tei("lem"), tei("rdg"), tei("rdgGrp"), tei("g")
CODE_POINT = re.compile(r"U\+[0-9A-Fa-f]{4,6}")
NO_WITNESS_TEXT = frozenset(tei(t) for t in ("note", "wit", "witDetail", "listTranspose"))
# Elements whose content is element-only in TEI: whitespace directly inside them is layout, not text.
ELEMENT_ONLY = frozenset(
    tei(t)
    for t in (
        "text",
        "front",
        "body",
        "back",
        "group",
        "div",
        "div1",
        "div2",
        "div3",
        "div4",
        "div5",
        "div6",
        "div7",
        "lg",
        "app",
        "rdgGrp",
        "listTranspose",
        "transpose",
        "list",
        "table",
        "row",
        "listBibl",
    )
)


def pointer_ids(value: str | None) -> list[str]:
    """The ids a pointer list such as '#A #B' (or the non-conformant 'A B') points to."""
    return list(_pointer_tuple(value))


@lru_cache(maxsize=4096)
def _pointer_tuple(value: str | None) -> tuple[str, ...]:
    # Cached: a large tradition repeats the same long @wit lists in every app, for every witness rebuilt.
    return tuple(token.removeprefix("#") for token in (value or "").split())


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


def readings(app: etree._Element) -> list[etree._Element]:
    """The lem and rdg elements of an app, including those inside rdgGrp, in document order."""
    found = []
    for child in app:
        if child.tag in (LEM, RDG):
            found.append(child)
        elif child.tag == RDG_GRP:
            found.extend(readings(child))
    return found


def reading_for(app: etree._Element, witness_id: str) -> etree._Element | None:
    """The reading of `app` that attests the witness; a lem without @wit stands for every unnamed witness."""
    candidates = readings(app)
    for reading in candidates:
        if witness_id in pointer_ids(reading.get("wit")):
            return reading
    for reading in candidates:
        if reading.tag == LEM and reading.get("wit") is None:
            return reading
    return None


def mapped_character(g: etree._Element) -> str:
    """The character a <g type="char" n="U+XXXX"/> stands for (one that XML cannot hold)."""
    value = g.get("n") or ""
    if not CODE_POINT.fullmatch(value) or int(value[2:], 16) > 0x10FFFF:
        raise InvalidInputError(
            error(
                "A003",
                f'<g type="char"> has n="{value}", which is not a code point written U+XXXX',
                g.getroottree().docinfo.URL,
                g.sourceline,
            )
        )
    return chr(int(value[2:], 16))


def _append_content(element: etree._Element, witness_id: str, parts: list[str]) -> None:
    layout_only = element.tag in ELEMENT_ONLY
    if not layout_only:
        parts.append(element.text or "")
    for child in element:
        if isinstance(child.tag, str) and child.tag not in NO_WITNESS_TEXT:
            if child.tag == APP:
                reading = reading_for(child, witness_id)
                if reading is not None:
                    _append_content(reading, witness_id, parts)
            elif child.tag == G and child.get("type") == "char":
                parts.append(mapped_character(child))
            else:
                _append_content(child, witness_id, parts)
        if not layout_only:
            parts.append(child.tail or "")


def body(tree: etree._ElementTree, name: str = "<edition>") -> etree._Element:
    found = tree.getroot().xpath("//tei:text/tei:body", namespaces=NSMAP)
    if not found:
        raise InvalidInputError(error("A001", "the document has no text/body to read witnesses from", name))
    return found[0]


def content_text(element: etree._Element, witness_id: str) -> str:
    """The text one witness reads in an element (a reading, say), by the parallel-segmentation rule."""
    parts: list[str] = []
    _append_content(element, witness_id, parts)
    return "".join(parts)


def witness_text(tree: etree._ElementTree, witness_id: str, name: str = "<edition>") -> str:
    """The exact text of one witness, rebuilt from the apparatus (nothing added, nothing normalised).

    Parallel segmentation is read here; the methods that attach an apparatus to a base text
    (location-referenced, double end-point) are read by tei.convert.attached, after the method the
    document uses has been checked against the one its header declares.
    """
    from tei.convert.attached import attached_text
    from tei.convert.methods import PARALLEL_SEGMENTATION, apparatus_method

    method = apparatus_method(tree, name)
    if method != PARALLEL_SEGMENTATION:
        return attached_text(tree, witness_id, method, name)
    return content_text(body(tree, name), witness_id)
