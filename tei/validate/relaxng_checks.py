"""The RELAX NG schema errors libxml2 lets pass, and where a schema error stands (line and column).

libxml2 compiles a schema and refuses most incorrect ones; two restrictions of the specification it does
not enforce are checked here on the schema's XML: a `datatypeLibrary` must be empty or an absolute URI
without a fragment (section 3: "foo:" is none, RFC 2396 wants something after the scheme), and an
`attribute` whose name class holds `anyName` or `nsName` (infinitely many names) must be repeated: inside
a `oneOrMore` (or `zeroOrMore`) before its element (section 7.3; one reached through a definition is not
held against the schema, since the reference may stand in a repetition).

A schema error is placed where jing places it: at the end of the start tag of the element at fault (the
element libxml2 names by its line: the first element starting on that line).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from tei.validate.prune import RNG_NS, rng

_ABSOLUTE_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^#\s]+")
_REPEATED = (rng("oneOrMore"), rng("zeroOrMore"))
_STOPS = (rng("element"), rng("define"), rng("start"), rng("grammar"))


def broken_restriction(schema: etree._Element) -> tuple[etree._Element, str] | None:
    """The first element breaking one of the two restrictions, and what it breaks; None if neither is."""
    for node in schema.iter(f"{{{RNG_NS}}}*"):
        library = node.get("datatypeLibrary")
        if library is not None and library != "" and not _ABSOLUTE_URI.fullmatch(library):
            return node, f'datatypeLibrary="{library}" is not an absolute URI without a fragment'
        if node.tag == rng("attribute") and _infinite(node) and not _repeated(node):
            return node, "an attribute whose name class allows any name (anyName, nsName) must be inside oneOrMore"
    return None


def _infinite(attribute: etree._Element) -> bool:
    if attribute.get("name") is not None:
        return False
    name_class = next((c for c in attribute if isinstance(c.tag, str) and c.tag.startswith(f"{{{RNG_NS}}}")), None)
    return name_class is not None and any(True for _ in name_class.iter(rng("anyName"), rng("nsName")))


def _repeated(attribute: etree._Element) -> bool:
    for holder in attribute.iterancestors():
        if holder.tag in _REPEATED:
            return True
        if holder.tag in _STOPS:
            return holder.tag == rng("define")
    return False


_QUOTED = re.compile(r"'([^']*)'")
_REFERENCE_WORDS = ("recursion", "include", "externalRef")


def _named_by(elements: list[etree._Element], message: str) -> etree._Element | None:
    """The element a libxml2 message without a line speaks of: the first whose attribute or text is the
    name it quotes (or uses the prefix it names), else for a reference loop the first include or
    externalRef, else for a misplaced element the first of that name."""
    quoted = _QUOTED.findall(message)
    prefix = re.search(r"no namespace for prefix (\S+)", message)
    for element in elements:
        values = [*element.attrib.values(), *element.attrib.keys(), (element.text or "").strip()]
        if quoted and any(quoted[0] in (v.strip(), v.partition(":")[2]) for v in values):
            return element
        if prefix and any(v.startswith(prefix.group(1) + ":") for v in values):
            return element
    if any(word in message for word in _REFERENCE_WORDS):
        return next((e for e in elements if e.tag in (rng("include"), rng("externalRef"))), None)
    unexpected = re.search(r"node (\w+) is not", message)
    if unexpected:
        return next((e for e in elements if etree.QName(e).localname == unexpected.group(1)), None)
    return None


def place(
    schema: etree._ElementTree,
    path: Path,
    element: etree._Element | None = None,
    line: int | None = None,
    message: str = "",
):
    """(line, column) of the end of the element's start tag in the schema file: the element given, or
    the first starting on `line`, or (no line) the one the message names; the line alone, or (None,
    None), when the file's positions cannot be read."""
    from tei.validate.locate import start_tag_ends

    elements = [e for e in schema.getroot().iter() if isinstance(e.tag, str)]
    if element is None:
        if line:
            element = next((e for e in elements if e.sourceline == line), None)
        else:
            element = _named_by(elements, message)
        if element is None:
            return line, None
    ends = start_tag_ends(path)
    index = next((i for i, e in enumerate(elements) if e is element), None)
    if ends is None or index is None or index >= len(ends):
        return element.sourceline, None
    return ends[index]
