"""The TEI apparatus elements and the small rules about them that every reader shares.

Element names, pointer lists (`@wit`), the readings of an app (through `rdgGrp`),
characters written as `<g type="char">`, and where a document's text is. No text is rebuilt here:
that is tei.apparatus.walk (parallel segmentation) and tei.apparatus.attached (base-text methods).
"""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import NSMAP, tei

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


def readings(app: etree._Element) -> list[etree._Element]:
    """The lem and rdg elements of an app, including those inside rdgGrp, in document order."""
    found = []
    for child in app:
        if child.tag in (LEM, RDG):
            found.append(child)
        elif child.tag == RDG_GRP:
            found.extend(readings(child))
    return found


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


def body(tree: etree._ElementTree, name: str = "<edition>") -> etree._Element:
    found = tree.getroot().xpath("//tei:text/tei:body", namespaces=NSMAP)
    if not found:
        raise InvalidInputError(error("A001", "the document has no text/body to read witnesses from", name))
    return found[0]
