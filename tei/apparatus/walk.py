"""The rebuild rule of parallel segmentation (docs/edition-format.md): one walk of one witness through the text.

A witness's text is the text of the element read in document order, where each `app` contributes the
content of the one reading that attests the witness (tei.apparatus.elements.reading_for; none: nothing),
`<g type="char" n="U+XXXX"/>` contributes the character it stands for, elements that carry no witness
text (`note`, `wit`, `witDetail`, `listTranspose`) contribute nothing, and whitespace directly inside
element-only containers (`body`, `div`, `app`, `rdgGrp`, ...) is layout. The walk also records each unit
it passes (`Passage`: the reading taken, where it starts and ends in the text, how deeply it is nested),
which is what the statistics and the CollateX alignment table need; `content_text` keeps only the text.
This is the only implementation of the rule: `tei witness`, the validator, stats and convert all call it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from tei.apparatus.elements import APP, ELEMENT_ONLY, NO_WITNESS_TEXT, G, mapped_character, reading_for


@dataclass(frozen=True)
class Passage:
    """A unit (app) on a witness's way through the text: the reading it takes there, and which characters."""

    app: etree._Element
    reading: etree._Element | None
    offset: int  # where the reading starts in the witness's text
    end: int  # and where it ends
    depth: int  # 0 for an app in the text, 1 for an app inside a reading of another, ...


class Path:
    """What one walk collects: the witness's text in parts, and the passages in document order."""

    def __init__(self, witness_id: str, record: bool = True):
        self.witness_id = witness_id
        self.record = record
        self.length = 0
        self.passages: list[Passage] = []
        self.parts: list[str] = []

    def add(self, text: str | None) -> None:
        if text:
            self.parts.append(text)
            self.length += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def follow(container: etree._Element, witness_id: str) -> Path:
    """Every unit the witness passes through, in order, and its full text (in `parts`)."""
    path = Path(witness_id)
    _walk(container, path, 0)
    return path


def content_text(element: etree._Element, witness_id: str) -> str:
    """The text one witness reads in an element (a reading, say, or the whole body)."""
    path = Path(witness_id, record=False)
    _walk(element, path, 0)
    return path.text


def _walk(element: etree._Element, path: Path, depth: int) -> None:
    layout_only = element.tag in ELEMENT_ONLY
    if not layout_only:
        path.add(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in NO_WITNESS_TEXT:
            if child.tag == APP:
                _pass(child, path, depth)
            elif child.tag == G and child.get("type") == "char":
                path.add(mapped_character(child))
            else:
                _walk(child, path, depth)
        if not layout_only:
            path.add(child.tail)


def _pass(app: etree._Element, path: Path, depth: int) -> None:
    reading = reading_for(app, path.witness_id)
    if not path.record:
        if reading is not None:
            _walk(reading, path, depth + 1)
        return
    index, start = len(path.passages), path.length
    path.passages.append(None)  # its place in document order, filled once the reading is read
    if reading is not None:
        _walk(reading, path, depth + 1)
    path.passages[index] = Passage(app, reading, start, path.length, depth)
