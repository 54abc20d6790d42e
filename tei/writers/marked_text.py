"""Writes witness text into a TEI element, marking what the TEI marks inside a text without changing it.

Arabic runs inside a text of another language become <foreign xml:lang="ar">; the spans a finder
reports (eulogies, Qur'an citations, chains: tei.hadith.markup) become their elements; a character
XML cannot hold becomes <g type="char" n="U+XXXX"/>. The string value of what is written is the text,
so a witness rebuilds byte for byte (tei.apparatus reads <g> back as its character).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from tei.hadith.markup import Span
from tei.text.scripts import ARABIC_LETTER
from tei.xmlio import XML_ILLEGAL, append_text, tei, xml

_ARABIC_WORD = rf"{ARABIC_LETTER.pattern}[\u064B-\u065F\u0670]*"
ARABIC_RUN = re.compile(rf"{_ARABIC_WORD}(?:[ \u00A0]*{_ARABIC_WORD})*")
ARABIC = "ar"


def _nothing(text: str) -> list[Span]:
    return []


def write_marked(
    parent: etree._Element,
    after: etree._Element | None,
    text: str,
    language: str,
    find: Callable[[str], list[Span]] = _nothing,
) -> etree._Element | None:
    """Append text inside `parent` after its last child `after` (None: no child yet), marked; the new last
    child. Where two marks start together the longer one (and then a found span) is outside."""
    last = after
    position = 0
    pieces = [(start, end, "span", (name, attributes)) for start, end, name, attributes in find(text)]
    if language != ARABIC:
        pieces += [(m.start(), m.end(), "foreign", None) for m in ARABIC_RUN.finditer(text)]
    pieces += [(m.start(), m.end(), "g", None) for m in XML_ILLEGAL.finditer(text)]
    for start, end, kind, details in sorted(pieces, key=lambda p: (p[0], -p[1], p[2] != "span")):
        if start < position:
            continue  # a piece inside another one is handled there
        append_text(parent, last, text[position:start])
        if kind == "span":
            name, attributes = details
            last = etree.SubElement(parent, tei(name), attributes)
            write_marked(last, None, text[start:end], language)
        elif kind == "foreign":
            last = etree.SubElement(parent, tei("foreign"))
            last.set(xml("lang"), ARABIC)
            write_marked(last, None, text[start:end], ARABIC, find)
        else:
            last = etree.SubElement(parent, tei("g"), type="char", n=f"U+{ord(text[start]):04X}")
        position = end
    append_text(parent, last, text[position:])
    return last
