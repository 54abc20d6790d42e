"""Moving mixed content about in an lxml tree without losing or adding a character of text."""

from __future__ import annotations

import copy
from collections import Counter

from lxml import etree

from tei.xmlio import append_text, tei, xml

ANCHOR = tei("anchor")
# model.rdgPart: allowed only inside readings, so never copied into a base text.
READING_ONLY = frozenset(tei(t) for t in ("wit", "witStart", "witEnd", "lacunaStart", "lacunaEnd"))


def detach(element: etree._Element) -> None:
    """Remove an element, leaving its tail text where it was."""
    parent = element.getparent()
    append_text(parent, element.getprevious(), element.tail)
    parent.remove(element)


def insert_before(reference: etree._Element, text: str | None, elements: list[etree._Element]) -> None:
    """Put text and then elements (each keeping its tail) right before `reference`."""
    append_text(reference.getparent(), reference.getprevious(), text)
    for element in elements:
        reference.addprevious(element)


def take_between(start: etree._Element, end: etree._Element) -> tuple[str | None, list[etree._Element]]:
    """Cut out the content between two siblings: the start's tail and the nodes after it, up to `end`."""
    text, start.tail = start.tail, None
    taken = []
    node = start.getnext()
    while node is not end:
        following = node.getnext()
        start.getparent().remove(node)
        taken.append(node)
        node = following
    return text, taken


def base_copy(reading: etree._Element) -> tuple[str | None, list[etree._Element]]:
    """A reading's content as it may stand in a base text: ids dropped, reading-only elements left out."""
    duplicate = copy.deepcopy(reading)
    for element in list(duplicate.iter()):
        if not isinstance(element.tag, str):
            continue
        element.attrib.pop(xml("id"), None)
        if element.tag in READING_ONLY and element is not duplicate:
            detach(element)
    children = list(duplicate)
    for child in children:
        duplicate.remove(child)  # lxml keeps each child's tail with it
    return duplicate.text, children


def references(root: etree._Element) -> Counter:
    """How many times each id is pointed to ('#id' in any attribute) in the document.

    The values are taken by one XPath over the document (those holding a '#'): lxml's `attrib.values()` finds
    each value by a search through the element's attributes, quadratic in their number (100,000 attributes on
    one element: a minute), where the XPath walks them once."""
    counts: Counter = Counter()
    for value in root.xpath("descendant-or-self::*/@*[contains(., '#')]"):
        counts.update(token[1:] for token in value.split() if token.startswith("#"))
    return counts


def unique_id(wanted: str, taken: set[str]) -> str:
    candidate, number = wanted, 1
    while candidate in taken:
        number += 1
        candidate = f"{wanted}-{number}"
    taken.add(candidate)
    return candidate
