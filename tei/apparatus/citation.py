"""The citable passages of an edition: its `refsDecl/citeStructure`, resolved into a tree of citable units.

The toolkit's editions declare one citation structure (`TOOLKIT`, which tei.writers.edition writes into the
header): each passage, an `ab` of the body, cited by its `xml:id`, and in it each variation unit (`app`, at any
depth), cited by the passage's identifier, a dot and its own `xml:id` (`badr-text.app-42ae24c2`). Another
edition may declare its own (`div` by `@n`, then `l` by `@n`, say); the first `refsDecl` holding a
`citeStructure` is read, and an edition that declares none is read with the toolkit's.

The XPaths of `@match` and `@use` name TEI elements without a prefix, as the Guidelines write them: they are
evaluated with the TEI namespace as the default element namespace (by lxml on a copy without the namespace,
or by elementpath for XPath 2 and later: `_Selector`). A top-level
`@match` is absolute; a nested one is relative to each node its parent matched. A unit's identifier is its
parent's, then the nested structure's `@delim`, then its `@use` value (the TEI's rule), and the units come in
document order, each followed by the units nested in it (the order of DTS's Navigation). A node matched
twice under one parent, or a unit whose `@use` is empty, is left out; an identifier met twice keeps its first.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lxml import etree

from tei.xmlio import TEI_NS, tei

_TEI = f"{{{TEI_NS}}}"


@dataclass(frozen=True)
class CiteLevel:
    """One `citeStructure`: what its units are called, which nodes they are, how each is named."""

    unit: str
    match: str
    use: str
    delim: str = ""
    children: tuple[CiteLevel, ...] = ()


@dataclass(frozen=True)
class CitableUnit:
    identifier: str
    level: int  # 1 for the top
    parent: str | None
    cite_type: str
    element: etree._Element = field(compare=False, repr=False)


TOOLKIT = (
    CiteLevel("passage", "/TEI/text/body/ab", "@xml:id", children=(CiteLevel("unit", ".//app", "@xml:id", "."),)),
)


def refs_decl(structure: tuple[CiteLevel, ...] = TOOLKIT) -> etree._Element:
    """The `<refsDecl>` declaring `structure`, for an edition's `encodingDesc`."""
    element = etree.Element(tei("refsDecl"))
    element.set("n", "passages")

    def add(parent: etree._Element, level: CiteLevel) -> None:
        child = etree.SubElement(parent, tei("citeStructure"), unit=level.unit, match=level.match, use=level.use)
        if level.delim:
            child.set("delim", level.delim)
        for nested in level.children:
            add(child, nested)

    for level in structure:
        add(element, level)
    return element


def declared_structure(tree: etree._ElementTree) -> tuple[CiteLevel, ...]:
    """The citation structure the edition declares (its first refsDecl holding citeStructure), else TOOLKIT."""
    for decl in tree.getroot().iter(tei("refsDecl")):
        found = tuple(_level(c) for c in decl.findall(tei("citeStructure")))
        if found:
            return found
    return TOOLKIT


def _level(element: etree._Element) -> CiteLevel:
    return CiteLevel(
        element.get("unit") or "passage",
        element.get("match") or "",
        element.get("use") or "",
        element.get("delim") or "",
        tuple(_level(c) for c in element.findall(tei("citeStructure"))),
    )


def citable_units(tree: etree._ElementTree, structure: tuple[CiteLevel, ...] | None = None) -> list[CitableUnit]:
    """Every citable unit of the edition, in document order, each followed by those nested in it."""
    select = _Selector(tree)
    units: list[CitableUnit] = []
    seen: set[str] = set()
    order = {element: number for number, element in enumerate(tree.getroot().iter())}

    def visit(context, levels: tuple[CiteLevel, ...], depth: int, parent: CitableUnit | None) -> None:
        nodes, matched = [], set()
        for level in levels:
            if not level.match or not level.use:
                continue
            for node in select.nodes(context, level.match):
                if node not in matched:
                    matched.add(node)
                    nodes.append((node, level))
        nodes.sort(key=lambda pair: order.get(pair[0], 0))
        for node, level in nodes:
            value = select.string(node, level.use)
            if not value:
                continue
            identifier = (parent.identifier + level.delim if parent else "") + value
            if identifier in seen:
                continue
            seen.add(identifier)
            unit = CitableUnit(identifier, depth, parent.identifier if parent else None, level.unit, node)
            units.append(unit)
            if level.children:
                visit(node, level.children, depth + 1, unit)

    visit(None, structure or declared_structure(tree), 1, None)
    return units


class _Selector:
    """The XPaths of a citeStructure evaluated with the TEI namespace as the default element namespace.

    XPath 1.0 has no default element namespace, so lxml evaluates each expression on a copy of the edition
    whose TEI elements are in no namespace (made once; each copy's element maps back to its original): an
    unprefixed name then names a TEI element, as the Guidelines mean. An expression that is not XPath 1.0
    goes to elementpath (XPath 3.1, the TEI namespace as default), imported then: it costs 0.3-2 s to load
    and compiles at every call, which on the toolkit's own structure (the common case) would be most of the
    DTS stage's time.
    """

    def __init__(self, tree: etree._ElementTree):
        self.tree = tree
        plain = copy.deepcopy(tree.getroot())
        for element in plain.iter():
            if isinstance(element.tag, str) and element.tag.startswith(_TEI):
                element.tag = element.tag[len(_TEI) :]
        etree.cleanup_namespaces(plain)
        self.plain = etree.ElementTree(plain)
        originals = list(tree.getroot().iter())
        self.original = dict(zip(plain.iter(), originals, strict=True))
        self.copy_of = {o: c for c, o in self.original.items()}
        self.compiled: dict[str, etree.XPath | None] = {}

    def _lxml(self, path: str):
        if path not in self.compiled:
            try:
                self.compiled[path] = etree.XPath(path)
            except etree.XPathSyntaxError:
                self.compiled[path] = None
        return self.compiled[path]

    def _evaluate(self, context, path: str):
        compiled = self._lxml(path)
        if compiled is not None:
            try:
                return compiled(self.plain if context is None else self.copy_of[context]), True
            except etree.XPathEvalError:
                pass
        import elementpath

        namespaces = {"": TEI_NS, "xml": "http://www.w3.org/XML/1998/namespace"}
        return elementpath.select(self.tree if context is None else context, path, namespaces=namespaces), False

    def nodes(self, context, path: str) -> list[etree._Element]:
        found, plain = self._evaluate(context, path)
        found = found if isinstance(found, list) else [found]
        elements = [n for n in found if isinstance(n, etree._Element)]
        return [self.original[n] for n in elements] if plain else elements

    def string(self, context, path: str) -> str:
        found, _plain = self._evaluate(context, f"string({path})")
        if isinstance(found, list):
            found = "".join(str(v) for v in found)
        return str(found).strip()
