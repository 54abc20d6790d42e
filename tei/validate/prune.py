"""Pruning a RELAX NG grammar to the element names a document uses, so that lxml compiles it in milliseconds.

RELAX NG validation only ever enters an element pattern for an element that is in the document. An
element pattern whose name the document never uses can match nothing, so replacing it by <notAllowed/>
leaves the verdict on that document unchanged (patterns named by name classes - anyName, nsName,
choice of names - are kept as they are). Definitions that are then unreachable from <start> are dropped,
with every annotation and embedded Schematron rule. tests/validate proves the verdicts equal to the full
grammar's and to jing's.
"""

from __future__ import annotations

import copy

from lxml import etree

RNG_NS = "http://relaxng.org/ns/structure/1.0"
ElementName = tuple[str, str]  # (namespace URI or "", local name)


def rng(tag: str) -> str:
    return f"{{{RNG_NS}}}{tag}"


def element_names(tree: etree._ElementTree) -> frozenset[ElementName]:
    """Every (namespace, local name) of an element in the document."""
    return frozenset(
        (etree.QName(e).namespace or "", etree.QName(e).localname) for e in tree.iter() if isinstance(e.tag, str)
    )


def is_self_contained(grammar: etree._Element) -> bool:
    """True if the grammar is one grammar in one file (no include, externalRef or nested grammar)."""
    nested = sum(1 for _ in grammar.iter(rng("grammar"))) > 1
    return not nested and next(grammar.iter(rng("include"), rng("externalRef")), None) is None


def prune(grammar: etree._Element, names: frozenset[ElementName]) -> etree._Element:
    """A copy of a self-contained grammar that gives the same verdict on any document using only `names`."""
    pruned = copy.deepcopy(grammar)
    for pattern in list(pruned.iter(rng("element"))):
        name = _pattern_name(pattern)
        if name is not None and name not in names and pattern.getparent() is not None:
            _replace_with_not_allowed(pattern)
    _drop_foreign_elements(pruned)
    _drop_unreachable_definitions(pruned)
    return pruned


def _pattern_name(pattern: etree._Element) -> ElementName | None:
    """The one name an <element name="..."> pattern matches; None for patterns using a name class."""
    qualified = pattern.get("name")
    if qualified is None:
        return None
    if ":" in qualified:
        prefix, local = qualified.split(":", 1)
        return pattern.nsmap.get(prefix, ""), local
    return inherited(pattern, "ns"), qualified


def inherited(node: etree._Element, attribute: str) -> str:
    """An attribute RELAX NG elements inherit (ns, datatypeLibrary): the nearest one on the node or above."""
    for holder in (node, *node.iterancestors()):
        if holder.get(attribute) is not None:
            return holder.get(attribute)
    return ""


def _replace_with_not_allowed(pattern: etree._Element) -> None:
    not_allowed = etree.Element(rng("notAllowed"))
    not_allowed.tail = pattern.tail
    pattern.getparent().replace(pattern, not_allowed)


def _drop_foreign_elements(grammar: etree._Element) -> None:
    """Annotations and embedded Schematron mean nothing to the RELAX NG compiler."""
    for node in list(grammar.iter()):
        foreign = not isinstance(node.tag, str) or not node.tag.startswith(f"{{{RNG_NS}}}")
        if foreign and node.getparent() is not None:
            node.getparent().remove(node)


def _drop_unreachable_definitions(grammar: etree._Element) -> None:
    definitions: dict[str, list[etree._Element]] = {}
    for definition in grammar.iter(rng("define")):
        definitions.setdefault(definition.get("name"), []).append(definition)
    reached: set[str] = set()
    pending = list(grammar.iter(rng("start")))
    while pending:
        for reference in pending.pop().iter(rng("ref"), rng("parentRef")):
            name = reference.get("name")
            if name not in reached:
                reached.add(name)
                pending.extend(definitions.get(name, []))
    for name, group in definitions.items():
        if name not in reached:
            for definition in group:
                definition.getparent().remove(definition)
