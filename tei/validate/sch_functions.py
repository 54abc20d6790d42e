"""The XSLT functions Schematron rules may call, for elementpath: generate-id(), key(), document(), and the
schema's own xsl:function definitions whose body is one xsl:value-of or xsl:sequence.

current() is read as the variable $current (schematron.py binds it to the rule's context node). key(name,
value) looks the value up in an index of the document being checked, made the first time the key is used
there: each node its xsl:key's @match selects, under the string values of its @use (or of its text content,
as xsl:key's element content reads). document(uri) reads a local file relative to the schema, as XSLT
resolves a string against the stylesheet, safely (no network, no entities), once per run. xsl:function,
also from a stylesheet that xsl:include or xsl:import names, is supported when its result is one
expression of its parameters (which covers functions that compute a value); a function with any other
body is left undefined, so a rule calling it does not compile (SCH001).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from tei.errors import TeiError
from tei.validate.sch_paths import parenthesised_calls

XSL_NS = "http://www.w3.org/1999/XSL/Transform"
MANGLED = ".xsl-function"  # the suffix the schema's functions are registered under


def xsl(tag: str) -> str:
    return f"{{{XSL_NS}}}{tag}"


class Functions:
    def __init__(self, schema, root: etree._Element):
        """schema: the SchematronSchema whose expressions these are (it compiles and evaluates them)."""
        self.schema = schema
        self.keys: dict[str, list[tuple]] = {}  # name: (match, use expression or text) of each xsl:key
        for key in root.iter(xsl("key")):
            match = schema._expression(_match_selector(key.get("match", "node()")), key)
            use = key.get("use")
            value = schema._expression(use, key) if use is not None else _content_text(key)
            self.keys.setdefault(key.get("name"), []).append((match, value))
        self.definitions: list[tuple] = []  # (prefix, local name, parameters, select, namespace, as text)
        for stylesheet in _stylesheets(root, schema.source):
            for function in stylesheet.iter(xsl("function")):
                definition = self._definition(function)
                if definition is not None:
                    self.definitions.append(definition)
        self._documents: dict[Path, object] = {}
        self._state = None

    def _definition(self, function: etree._Element):
        body = [child for child in function if isinstance(child.tag, str) and child.tag != xsl("param")]
        if len(body) != 1 or body[0].tag not in (xsl("value-of"), xsl("sequence")) or body[0].get("select") is None:
            return None
        prefix, _, local = (function.get("name") or "").rpartition(":")
        parameters = tuple(p.get("name") for p in function.findall(xsl("param")))
        select = self.schema._expression(body[0].get("select"), body[0])
        uri = function.nsmap.get(prefix) if prefix else None
        return (prefix or None, local, parameters, select, uri, body[0].tag == xsl("value-of"))

    def expressions(self) -> Iterator:
        for entries in self.keys.values():
            for match, use in entries:
                yield match
                if not isinstance(use, str):
                    yield use
        for definition in self.definitions:
            yield definition[3]

    def rewritten(self, source: str) -> str:
        """An expression as elementpath is to read it: calls of document(), key() and the schema's functions
        in parentheses (elementpath takes no path step after an external function), and each of the schema's
        functions under a name of its own (elementpath reserves some, such as `function`)."""
        names = {"document", "key"} | {f"{d[0]}:{d[1]}" if d[0] else d[1] for d in self.definitions}
        if not any(name.rpartition(":")[2] + "(" in source.replace(" (", "(") for name in names):
            return source
        source = parenthesised_calls(source, names)
        for prefix, local, *_rest in self.definitions:
            name = f"{prefix}:{local}" if prefix else local
            source = re.sub(rf"(?<![\w.:$-]){re.escape(name)}(\s*\()", rf"{name}{MANGLED}\1", source)
        return source

    def enter(self, state) -> None:
        """The document key() looks in from now on."""
        self._state = state

    def register(self, parser) -> None:
        """generate-id() (XPath 3 has its own), key(), document() and the schema's functions on a parser."""
        if "generate-id" not in parser.symbol_table:
            parser.external_function(_generate_id, name="generate-id", sequence_types=("node()", "xs:string"))
        if self.keys:
            parser.external_function(lambda name, value: self._key(name, value), name="key")
        if "document" not in parser.symbol_table:
            parser.external_function(lambda uri: self._document(uri), name="document")
        for prefix, local, parameters, select, uri, is_text in self.definitions:
            if prefix and uri and parser.namespaces.get(prefix) != uri:
                continue

            def call(*arguments, _parameters=parameters, _select=select, _is_text=is_text):
                return self._call(_parameters, _select, _is_text, arguments)

            # elementpath reads a function's arity from its signature: one positional parameter per xsl:param
            call.__signature__ = inspect.Signature(
                [inspect.Parameter(f"p{i}", inspect.Parameter.POSITIONAL_OR_KEYWORD) for i in range(len(parameters))]
            )
            parser.external_function(call, name=local + MANGLED, prefix=prefix)

    def _call(self, parameters, select, is_text: bool, arguments):
        if self._state is None:  # elementpath calling it while it compiles the expression: no document yet
            return []
        document, variables = self.schema._variables(self._state)
        bound = {**variables, **dict(zip(parameters, arguments, strict=False))}
        value = self.schema._evaluate(select, document, None, bound)
        if is_text:
            return " ".join(string_value(v) for v in (value if isinstance(value, list) else [value]))
        return value

    def _key(self, name, value):
        from elementpath import XPathContext

        state = self._state
        if state is None:  # elementpath calling it while it compiles the expression: no document yet
            return []
        if name not in self.keys:
            raise ValueError(f"key() names {name!r}, which no xsl:key of the schema defines")
        if name not in state.keys:
            index: dict[str, list] = {}
            document = state.view()
            for match, use in self.keys[name]:
                for node in self.schema._token(match).select(XPathContext(document)):
                    if isinstance(use, str):
                        values = [use]
                    else:
                        found = self.schema._evaluate(use, document, node, {"current": node})
                        values = [string_value(v) for v in (found if isinstance(found, list) else [found])]
                    for key_value in values:
                        index.setdefault(key_value, []).append(node)
            state.keys[name] = index
        wanted = value if isinstance(value, list) else [value]
        return [node for v in wanted for node in state.keys[name].get(string_value(v), [])]

    def _document(self, uri):
        import elementpath

        from tei.xmlio import parse_file

        found = []
        for item in uri if isinstance(uri, list) else [uri]:
            path = (self.schema.source.parent / string_value(item)).resolve()
            if path not in self._documents:
                try:
                    self._documents[path] = elementpath.get_node_tree(parse_file(path))
                except TeiError as exc:  # reported as the rule's dynamic error (SCH009)
                    raise ValueError(f"document({string_value(item)!r}): {exc.diagnostics[0].message}") from None
            found.append(self._documents[path])
        return found


def _content_text(element: etree._Element) -> str:
    """The text of an XSLT element's content, as XSLT reads a stylesheet: whitespace-only text nodes dropped
    (but those of xsl:text)."""
    texts = []
    for node in element.iter():
        if node.text and (node.text.strip() or node.tag == xsl("text")):
            texts.append(node.text)
        if node is not element and node.tail and node.tail.strip():
            texts.append(node.tail)
    return "".join(texts)


def _match_selector(match: str) -> str:
    from tei.validate.sch_paths import selector

    return selector(match)


def _stylesheets(root: etree._Element, source: Path) -> Iterator[etree._Element]:
    """The schema itself, and the local stylesheets its xsl:include and xsl:import name (one level)."""
    yield root
    for reference in root.iter(xsl("include"), xsl("import")):
        path = source.parent / (reference.get("href") or "")
        try:
            yield etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
        except (OSError, etree.XMLSyntaxError):
            continue


def _generate_id(node) -> str:
    """XSLT's generate-id(node), which TEI rules use to compare node identity: unique per node of one tree."""
    return f"node{id(node)}"


def string_value(value) -> str:
    """The string value of an item elementpath returns (a node's string value, else the atomic value)."""
    string = getattr(value, "string_value", None)
    return str(string if string is not None else value)
