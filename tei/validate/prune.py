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
    return Pruner(grammar).prune(names)


# What one <start> or <define> reaches: the definitions it refers to outside any element pattern of one name,
# and each such element pattern's name with what it reaches in turn.
Scope = tuple[frozenset[str], tuple[tuple[ElementName, "Scope"], ...]]


class Pruner:
    """A grammar read once, then pruned to many sets of names (tei_all: 16,000 nodes; pruning it by copying
    the whole and walking it three times took 0.1 s a document). Which definitions a set of names reaches is
    found from an index of the grammar; only those, and the start, are copied."""

    def __init__(self, grammar: etree._Element):
        self.bare = copy.deepcopy(grammar)
        _drop_foreign_elements(self.bare)
        self.scopes: dict[int, Scope] = {}  # id of a start or define of the bare grammar -> what it reaches
        self.pattern_names: dict[int, list[ElementName | None]] = {}  # -> its element patterns' names in order
        self.definitions: dict[str, list[etree._Element]] = {}
        self.starts: list[etree._Element] = []
        for node in self.bare.iter(rng("start"), rng("define")):
            if node.tag == rng("define"):
                self.definitions.setdefault(node.get("name"), []).append(node)
            else:
                self.starts.append(node)
            self.scopes[id(node)] = _scope(node)
            self.pattern_names[id(node)] = [_pattern_name(p) for p in node.iter(rng("element"))]

    def prune(self, names: frozenset[ElementName]) -> etree._Element:
        reached: set[str] = set()
        pending = [self.scopes[id(start)] for start in self.starts]
        while pending:
            refs, patterns = pending.pop()
            for name in refs:
                if name not in reached:
                    reached.add(name)
                    pending.extend(self.scopes[id(d)] for d in self.definitions.get(name, []))
            pending.extend(scope for pattern, scope in patterns if pattern in names)
        return self._copy(self.bare, reached, names)

    def _copy(self, node: etree._Element, reached: set[str], names: frozenset[ElementName]) -> etree._Element:
        """The grammar (or a div of it) without the definitions not reached, element patterns of a name
        not in `names` made <notAllowed/>."""
        copied = etree.Element(node.tag, dict(node.attrib), nsmap=node.nsmap)
        copied.text, copied.tail = node.text, node.tail
        for child in node:
            if child.tag == rng("define") and child.get("name") not in reached:
                continue
            if child.tag in (rng("start"), rng("define")):
                kept = copy.deepcopy(child)
                for pattern, name in zip(list(kept.iter(rng("element"))), self.pattern_names[id(child)], strict=True):
                    if name is not None and name not in names and pattern.getparent() is not None:
                        _replace_with_not_allowed(pattern)
                copied.append(kept)
            elif child.tag == rng("div"):
                copied.append(self._copy(child, reached, names))
            else:
                copied.append(copy.deepcopy(child))
        return copied


def _scope(node: etree._Element) -> Scope:
    refs: set[str] = set()
    patterns: list[tuple[ElementName, Scope]] = []
    for child in node:
        name = _pattern_name(child) if child.tag == rng("element") else None
        if name is not None:
            patterns.append((name, _scope(child)))
            continue
        if child.tag in (rng("ref"), rng("parentRef")):
            refs.add(child.get("name"))
        inner_refs, inner_patterns = _scope(child)
        refs |= inner_refs
        patterns.extend(inner_patterns)
    return frozenset(refs), tuple(patterns)


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
