"""Following one witness through a parallel-segmentation apparatus: the reading it takes in each unit, and where.

Used by the statistics and by the CollateX alignment-table writer.

This walks the document exactly as the rebuild rule of docs/edition-format.md does (tei.apparatus), but
reports what it passes instead of only the text; a test checks that the text it counts is the text
tei.apparatus rebuilds, for every witness.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from tei.apparatus import APP, ELEMENT_ONLY, NO_WITNESS_TEXT, reading_for
from tei.xmlio import tei


@dataclass(frozen=True)
class Passage:
    """A unit (app) on a witness's way through the text: the reading it takes there, and which characters."""

    app: etree._Element
    reading: etree._Element | None
    offset: int  # where the reading starts in the witness's text
    end: int  # and where it ends
    depth: int  # 0 for an app in the text, 1 for an app inside a reading of another, ...


class Path:
    def __init__(self, witness_id: str):
        self.witness_id = witness_id
        self.length = 0
        self.passages: list[Passage] = []
        self.parts: list[str] = []

    def add(self, text: str | None) -> None:
        if text:
            self.parts.append(text)
            self.length += len(text)


def follow(container: etree._Element, witness_id: str) -> Path:
    """Every unit the witness passes through, in order, and its full text (in `parts`)."""
    path = Path(witness_id)
    _walk(container, path, 0)
    return path


def _walk(element: etree._Element, path: Path, depth: int) -> None:
    layout_only = element.tag in ELEMENT_ONLY
    if not layout_only:
        path.add(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in NO_WITNESS_TEXT:
            if child.tag == APP:
                reading, index, start = reading_for(child, path.witness_id), len(path.passages), path.length
                path.passages.append(None)  # its place in document order, filled once the reading is read
                if reading is not None:
                    _walk(reading, path, depth + 1)
                path.passages[index] = Passage(child, reading, start, path.length, depth)
            elif child.tag == tei("g") and child.get("type") == "char" and child.get("n", "").startswith("U+"):
                path.add(chr(int(child.get("n")[2:], 16)))
            else:
                _walk(child, path, depth)
        if not layout_only:
            path.add(child.tail)
