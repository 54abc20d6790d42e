"""Reading a RELAX NG grammar (XML syntax) into the patterns of relaxng.py, whatever its form: a `grammar`
root or any pattern as root, nested grammars with parentRef, include and externalRef of other files.

The reading does what RELAX NG's simplification (spec section 4) needs for validation, lazily: each
`grammar` element is a scope of definitions (its own, those of the grammars it includes, an include's own
start and defines overriding the included ones of the same name), a `ref` is looked up in the scope of its
nearest grammar and a `parentRef` in the one around it, an externalRef'd file's root is read as a pattern
where the externalRef stands (with the externalRef's `ns` if it has none). A schema whose root is not a
grammar is read as the start of one. Referenced files are read when the grammar is, once each reference;
an element's content is read the first time a document enters it. Value and data patterns whose type is
read in namespaces (QName, NOTATION) are given the namespaces declared where they stand.
"""

from __future__ import annotations

from urllib.parse import unquote, urljoin, urlparse

from lxml import etree

from tei.validate.prune import RNG_NS, inherited, rng
from tei.validate.relaxng import ElementPattern, Pattern, Patterns, QName, contains
from tei.validate.xsd_datatypes import datatype
from tei.xmlio import XML_NS

MAX_FILES = 500  # referenced files read for one grammar: more is a reference loop the schema check missed


class UnsupportedGrammar(Exception):
    """The grammar cannot be read so (a reference that leads nowhere, a file that cannot be read)."""


class _Scope:
    """The definitions and starts of one grammar element (with what it includes); the scope around it."""

    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.definitions: dict[str, list[etree._Element]] = {}
        self.starts: list[etree._Element] = []
        self.built: dict[str, Pattern] = {}


class Grammar:
    """A RELAX NG schema read into patterns; `start` is where validation begins."""

    def __init__(self, schema: etree._Element):
        self.patterns = Patterns()
        self._scope_of: dict[etree._Element, _Scope] = {}  # a grammar element (or an included file's root)
        self._loaded: dict[etree._Element, etree._Element] = {}  # an include or externalRef: its file's root
        self._files = 0
        self._load_references(schema)
        self._element_names: set[QName] | None = None  # see allows_anywhere
        self._element_name_classes: set[tuple] = set()
        self.context_dependent = any(
            node.get("type") in ("QName", "NOTATION")
            for root in (schema, *self._loaded.values())
            for node in root.iter(rng("data"), rng("value"))
        )
        self._root = schema
        self.start = self._pattern(schema)  # a grammar's start, or the root pattern as the start of one

    def _load_references(self, node: etree._Element) -> None:
        for reference in node.iter(rng("include"), rng("externalRef")):
            self._files += 1
            if self._files > MAX_FILES:
                raise UnsupportedGrammar("too many referenced files")
            root = self._read(reference)
            self._loaded[reference] = root
            self._load_references(root)

    def _read(self, reference: etree._Element) -> etree._Element:
        """The root of the file an include or externalRef names (href against its xml:base), given the
        reference's `ns` when it has none of its own."""
        address = urljoin(reference.base or "", (reference.get("href") or "").strip())
        parsed = urlparse(address)
        if parsed.scheme not in ("", "file") or parsed.fragment:
            raise UnsupportedGrammar(f"{address} is not a local file")
        try:
            root = etree.parse(unquote(parsed.path), etree.XMLParser(resolve_entities=False, no_network=True))
        except (OSError, etree.XMLSyntaxError) as exc:
            raise UnsupportedGrammar(f"{address} cannot be read: {exc}") from None
        root = root.getroot()
        if root.get("ns") is None and inherited(reference, "ns"):
            root.set("ns", inherited(reference, "ns"))
        return root

    # scopes

    def _scope(self, grammar: etree._Element, parent: _Scope | None) -> _Scope:
        if grammar not in self._scope_of:
            scope = self._scope_of[grammar] = _Scope(parent)
            self._collect(grammar, scope, frozenset(), False)
        return self._scope_of[grammar]

    def _collect(self, container: etree._Element, scope: _Scope, overridden: frozenset[str], no_start: bool) -> None:
        """The starts and defines of a grammar (or div, or included grammar) into its scope, those an
        include overrides left out."""
        for child in _patterns_in(container):
            if child.tag == rng("define"):
                if _name_of(child) not in overridden:
                    scope.definitions.setdefault(_name_of(child), []).append(child)
            elif child.tag == rng("start"):
                if not no_start:
                    scope.starts.append(child)
            elif child.tag == rng("div"):
                self._collect(child, scope, overridden, no_start)
            elif child.tag == rng("include"):
                included = self._loaded[child]
                if included.tag != rng("grammar"):
                    raise UnsupportedGrammar("an included file's root is not a grammar")
                self._scope_of[included] = scope
                own = {_name_of(d) for d in _components(child, rng("define"))}
                has_start = any(True for _ in _components(child, rng("start")))
                self._collect(included, scope, overridden | own, no_start or has_start)
                self._collect(child, scope, overridden, no_start)

    def _scope_around(self, node: etree._Element) -> _Scope | None:
        """The scope of the nearest grammar holding the node (in its file)."""
        for holder in node.iterancestors():
            if holder in self._scope_of:
                return self._scope_of[holder]
            if holder.tag == rng("grammar"):
                return self._scope(holder, self._scope_around(holder) if holder.getparent() is not None else None)
        return None

    def _reference(self, node: etree._Element) -> Pattern:
        scope = self._scope_around(node)
        if node.tag == rng("parentRef"):
            scope = scope.parent if scope is not None else None
        name = _name_of(node)
        if scope is None or name not in scope.definitions:
            raise UnsupportedGrammar(f"reference to the undefined {name}")
        if name not in scope.built:
            scope.built[name] = self.patterns.not_allowed  # a guard; references only recur through elements
            scope.built[name] = self._combined(scope.definitions[name])
        return scope.built[name]

    def _combined(self, nodes: list[etree._Element]) -> Pattern:
        """A define or start given more than once is combined by choice or interleave (its @combine)."""
        combine = next((n.get("combine") for n in nodes if n.get("combine")), "choice")
        join = self.patterns.interleave if combine == "interleave" else self.patterns.choice
        result = None
        for node in nodes:
            pattern = self._group(_patterns_in(node))
            result = pattern if result is None else join(result, pattern)
        return result

    # patterns

    def _group(self, nodes: list[etree._Element]) -> Pattern:
        result = self.patterns.empty
        for node in nodes:
            result = self.patterns.group(result, self._pattern(node))
        return result

    def _pattern(self, node: etree._Element) -> Pattern:
        p, tag = self.patterns, etree.QName(node).localname
        children = _patterns_in(node)
        if tag == "grammar":
            parent = self._scope_around(node) if node.getparent() is not None else self._scope_of.get(node)
            scope = self._scope(node, parent)
            if not scope.starts:
                raise UnsupportedGrammar("a grammar without a start")
            return self._combined(scope.starts)
        if tag == "externalRef":
            root = self._loaded[node]
            if root.tag == rng("grammar"):
                self._scope(root, self._scope_around(node))
            return self._pattern(root)
        if tag == "element":
            names, content = self._named(node, children, for_attribute=False)
            return ElementPattern(names, lambda: self._group(content))
        if tag == "attribute":
            names, content = self._named(node, children, for_attribute=True)
            return p.attribute(names, self._group(content) if content else p.text)
        if tag in ("group", "div"):
            return self._group(children)
        if tag == "interleave":
            result = p.empty
            for child in children:
                result = p.interleave(result, self._pattern(child))
            return result
        if tag == "choice":
            return self._choice_of(children)
        if tag == "optional":
            return p.choice(self._group(children), p.empty)
        if tag == "zeroOrMore":
            return p.choice(p.one_or_more(self._group(children)), p.empty)
        if tag == "oneOrMore":
            return p.one_or_more(self._group(children))
        if tag == "mixed":
            return p.interleave(self._group(children), p.text)
        if tag == "list":
            return p.list_of(self._group(children))
        if tag in ("ref", "parentRef"):
            return self._reference(node)
        if tag == "empty":
            return p.empty
        if tag == "text":
            return p.text
        if tag == "notAllowed":
            return p.not_allowed
        if tag == "data":
            excepted = node.find(rng("except"))
            params = tuple((param.get("name"), param.text or "") for param in node.iter(rng("param")))
            type_ = datatype(inherited(node, "datatypeLibrary"), node.get("type").strip(), params)
            return p.data(type_, None if excepted is None else self._choice_of(_patterns_in(excepted)))
        if tag == "value":  # without a type, RELAX NG's own token
            library = inherited(node, "datatypeLibrary") if node.get("type") else ""
            type_ = datatype(library, node.get("type", "token").strip(), ())  # attribute values are trimmed (4.2)
            return p.value(type_, node.text or "", _context(node))
        raise UnsupportedGrammar(f"{tag} is not followed")

    def _choice_of(self, nodes: list[etree._Element]) -> Pattern:
        return self.patterns.choice_of([self._pattern(node) for node in nodes])

    def _named(self, node, children, for_attribute: bool) -> tuple[tuple, list[etree._Element]]:
        """The name class of an element or attribute pattern, and the patterns of its content."""
        qualified = _name_of(node)
        if qualified is not None:
            default_ns = (node.get("ns") or "") if for_attribute else inherited(node, "ns")
            return ("name", *_resolve(qualified.strip(), node, default_ns)), children
        return _name_class(children[0]), children[1:]

    # what jing says of names

    def allows_anywhere(self, name: QName) -> bool:
        """True if an element pattern reachable from the start matches the name (jing's "not allowed
        anywhere" when none does: a define no reference reaches is no part of the simplified grammar). The
        name classes are read from the grammar's XML the first time it is asked (a document with an error)."""
        if self._element_names is None:
            names: set[QName] = set()
            classes: set[tuple] = set()
            seen: set[tuple[int, str]] = set()
            pending = [self._root]
            while pending:
                node = pending.pop()
                if node.tag in (rng("ref"), rng("parentRef")):
                    scope = self._scope_around(node)
                    if node.tag == rng("parentRef") and scope is not None:
                        scope = scope.parent
                    if scope is not None and (id(scope), _name_of(node)) not in seen:
                        seen.add((id(scope), _name_of(node)))
                        for define in scope.definitions.get(_name_of(node), []):
                            pending.extend(_patterns_in(define))
                    continue
                if node.tag == rng("grammar"):
                    parent = self._scope_around(node) if node.getparent() is not None else self._scope_of.get(node)
                    for start in self._scope(node, parent).starts:
                        pending.extend(_patterns_in(start))
                    continue
                if node.tag == rng("externalRef"):
                    pending.append(self._loaded[node])
                    continue
                if node.tag == rng("element") and _name_of(node) is not None:
                    names.add(_resolve(_name_of(node).strip(), node, inherited(node, "ns")))
                elif node.tag == rng("element"):
                    classes.add(_name_class(_patterns_in(node)[0]))
                pending.extend(c for c in _patterns_in(node) if c.tag not in (rng("define"), rng("start")))
            self._element_names, self._element_name_classes = names, classes
        return name in self._element_names or any(contains(names, name) for names in self._element_name_classes)


def _name_of(node: etree._Element) -> str | None:
    """A name attribute, white space trimmed (spec 4.2)."""
    name = node.get("name")
    return None if name is None else name.strip()


def _components(include: etree._Element, tag: str):
    """An include's own starts or defines (in its divs too)."""
    for child in _patterns_in(include):
        if child.tag == tag:
            yield child
        elif child.tag == rng("div"):
            yield from _components(child, tag)


def _context(node: etree._Element):
    """The namespaces a value is read in: those declared on it, the default one its `ns`."""
    default = inherited(node, "ns")
    nsmap = node.nsmap

    def uri(prefix: str) -> str | None:
        if not prefix:
            return default
        return XML_NS if prefix == "xml" else nsmap.get(prefix)

    return uri


def _patterns_in(node: etree._Element) -> list[etree._Element]:
    return [
        c
        for c in node
        if isinstance(c.tag, str)
        and c.tag.startswith(f"{{{RNG_NS}}}")
        and c.tag != rng("param")
        and c.tag != rng("except")
    ]


def _name_class(node: etree._Element) -> tuple:
    tag = etree.QName(node).localname
    excepted = node.find(rng("except"))
    if tag == "name":
        return ("name", *_resolve((node.text or "").strip(), node, inherited(node, "ns")))
    if tag == "anyName":
        return ("anyName", None if excepted is None else _choice_of_names(list(excepted)))
    if tag == "nsName":
        return ("nsName", inherited(node, "ns"), None if excepted is None else _choice_of_names(list(excepted)))
    if tag == "choice":
        return _choice_of_names(list(node))
    raise UnsupportedGrammar(f"{tag} is not a name class")


def _choice_of_names(nodes: list[etree._Element]) -> tuple:
    classes = [_name_class(n) for n in nodes if isinstance(n.tag, str) and n.tag.startswith(f"{{{RNG_NS}}}")]
    result = classes[0]
    for other in classes[1:]:
        result = ("choice", result, other)
    return result


def _resolve(qualified: str, node: etree._Element, default_ns: str) -> QName:
    if ":" in qualified:
        prefix, local = qualified.split(":", 1)
        return (XML_NS if prefix == "xml" else node.nsmap.get(prefix, "")), local
    return default_ns, qualified
