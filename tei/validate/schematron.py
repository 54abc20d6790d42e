"""ISO Schematron with XPath 2/3.1 through elementpath: standalone .sch files and rules embedded in RELAX NG.

lxml's own isoschematron runs XSLT 1.0 only, and the TEI's rules (and ours) need XPath 2. This engine
compiles every context, let and test once, then per document builds one elementpath node tree and
fires each pattern's rules in order (a node is handled by the first rule of a pattern that matches it).
The XSLT functions TEI rules rely on, current() and generate-id(), are provided too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import elementpath
from elementpath import XPath2Parser, XPathContext
from lxml import etree

from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import InvalidInputError

SCH_NS = "http://purl.oclc.org/dsdl/schematron"
WARNING_ROLES = frozenset({"warning", "warn", "info", "information", "nonfatal"})
NAME = object()  # stands for sch:name in a compiled message
_CURRENT = re.compile(r"(?<![\w:.-])current\(\s*\)")


def sch(tag: str) -> str:
    return f"{{{SCH_NS}}}{tag}"


@dataclass(frozen=True)
class Check:
    """One sch:assert (fails when false) or sch:report (fails when true)."""

    is_report: bool
    test: object  # a compiled elementpath token
    code: str
    severity: Severity
    message: tuple  # text, NAME (sch:name) and compiled sch:value-of expressions, rendered per failing node


@dataclass(frozen=True)
class Rule:
    context: object
    may_match: etree.XPath | None  # a fast lxml (XPath 1) test that is empty only when the context matches nothing
    exact: bool  # may_match is the context itself (valid XPath 1): its elements are the rule's contexts
    lets: tuple[tuple[str, object], ...]
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Pattern:
    lets: tuple[tuple[str, object], ...]  # bound once per document, at its root
    rules: tuple[Rule, ...]


def has_rules(root: etree._Element) -> bool:
    """True if a schema document (Schematron, or RELAX NG with embedded rules) holds any sch:rule."""
    return next(root.iter(sch("rule")), None) is not None


class SchematronSchema:
    """The patterns of one schema document, compiled once; `check` runs them on a parsed document."""

    def __init__(self, root: etree._Element, source: Path):
        self.source = source
        namespaces = {prefix: uri for prefix, uri in root.nsmap.items() if prefix}
        namespaces.update({ns.get("prefix"): ns.get("uri") for ns in root.iter(sch("ns"))})
        self.parser = _parser_class(root.get("queryBinding"))(namespaces=namespaces)
        if "generate-id" not in self.parser.symbol_table:  # XPath 3 has it; XPath 2 gets XSLT's
            self.parser.external_function(_generate_id, name="generate-id", sequence_types=("node()", "xs:string"))
        self.global_lets = self._lets(root.findall(sch("let")))
        abstract = {r.get("id"): r for r in root.iter(sch("rule")) if r.get("abstract") == "true"}
        self.patterns = tuple(
            self._pattern(p, abstract) for p in root.iter(sch("pattern")) if p.get("abstract") != "true"
        )

    def _compile(self, expression: str, element: etree._Element):
        try:
            return self.parser.parse(_CURRENT.sub("$current", expression))
        except elementpath.ElementPathError as exc:
            raise InvalidInputError(
                error("SCH001", f"the Schematron expression {expression!r} cannot be compiled: {exc}",
                      self.source, element.sourceline)
            ) from None

    def _lets(self, elements) -> tuple[tuple[str, object], ...]:
        return tuple((e.get("name"), self._compile(e.get("value") or "()", e)) for e in elements)

    def _pattern(self, pattern: etree._Element, abstract: dict[str, etree._Element]) -> Pattern:
        rules = []
        for rule in pattern.findall(sch("rule")):
            if rule.get("abstract") == "true":
                continue
            selector = _selector(rule.get("context", "/"))
            parts = [rule] + [abstract[e.get("rule")] for e in rule.findall(sch("extends")) if e.get("rule") in abstract]
            checks = tuple(
                self._check(c, pattern) for part in parts for c in part if c.tag in (sch("assert"), sch("report"))
            )
            lets = self._lets(rule.findall(sch("let")))
            prefilter, exact = _prefilter(selector, self.parser.namespaces)
            rules.append(Rule(self._compile(selector, rule), prefilter, exact, lets, checks))
        return Pattern(self._lets(pattern.findall(sch("let"))), tuple(rules))

    def _check(self, element: etree._Element, pattern: etree._Element) -> Check:
        role = (element.get("role") or "").lower()
        return Check(
            is_report=element.tag == sch("report"),
            test=self._compile(element.get("test", "true()"), element),
            code=element.get("id") or pattern.get("id") or "SCH",
            severity=Severity.WARNING if role in WARNING_ROLES else Severity.ERROR,
            message=self._message_parts(element),
        )

    def _message_parts(self, element: etree._Element) -> tuple:
        parts: list = [element.text or ""]
        for child in element:
            if child.tag == sch("name"):
                parts.append(NAME)
            elif child.tag == sch("value-of"):
                parts.append(self._compile(child.get("select", "."), child))
            elif isinstance(child.tag, str):
                parts.append("".join(child.itertext()))
            parts.append(child.tail or "")
        return tuple(parts)

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]:
        document = elementpath.get_node_tree(tree)
        variables = self._bind(self.global_lets, document, document, {})
        for pattern in self.patterns:
            handled: set[int] = set()
            pattern_variables = None
            for rule in pattern.rules:
                if rule.may_match is not None and not rule.may_match(tree):
                    continue
                if pattern_variables is None:
                    pattern_variables = self._bind(pattern.lets, document, document, variables)
                try:
                    for node in self._contexts(rule, tree, document, pattern_variables):
                        if id(node) in handled:
                            continue
                        handled.add(id(node))
                        yield from self._fire(rule, node, document, pattern_variables, name)
                except elementpath.ElementPathError as exc:  # a dynamic error of the rule, not of the document
                    yield warning("SCH009", f"a Schematron rule (context {rule.context.source!r}) could not be "
                                  f"evaluated and was skipped: {exc}", name)

    def _contexts(self, rule: Rule, tree: etree._ElementTree, document, variables: dict):
        """The nodes a rule fires on: found by lxml's C XPath when the context is XPath 1 and selects
        elements only (ten times faster on an edition), otherwise by elementpath."""
        if rule.exact:
            try:
                found = rule.may_match(tree)
            except etree.XPathEvalError:  # e.g. a variable only elementpath knows
                found = None
            if found is not None and all(isinstance(item, etree._Element) for item in found):
                return [document.get_element_node(element) for element in found]
        return rule.context.select(XPathContext(document, variables=variables))

    def _bind(self, lets, document, node, variables: dict) -> dict:
        bound = dict(variables)
        for let_name, expression in lets:
            bound[let_name] = expression.evaluate(XPathContext(document, item=node, variables=bound))
        return bound

    def _fire(self, rule: Rule, node, document, variables: dict, name: str) -> Iterator[Diagnostic]:
        bound = self._bind(rule.lets, document, node, {**variables, "current": node})
        for check in rule.checks:
            result = check.test.evaluate(XPathContext(document, item=node, variables=bound))
            if check.test.boolean_value(result) == check.is_report:
                message = self._message(check.message, node, document, bound)
                yield Diagnostic(check.code, message, name, _line(node), None, check.severity)

    def _message(self, parts: tuple, node, document, variables: dict) -> str:
        rendered = []
        for part in parts:
            if isinstance(part, str):
                rendered.append(part)
            elif part is NAME:
                rendered.append(_node_name(node))
            else:
                value = part.evaluate(XPathContext(document, item=node, variables=variables))
                rendered.append(" ".join(_string(v) for v in (value if isinstance(value, list) else [value])))
        return " ".join("".join(rendered).split())


def _selector(context: str) -> str:
    """A select expression for a rule context (an XSLT match pattern): '//' before each branch of its union.

    `//a | //b` walks the tree once per branch; the literal `//(a | b)` would evaluate the pattern
    once per node, which is a hundred times slower on a large document.
    """
    return " | ".join(b if b.startswith("/") else f"//{b}" if b[0].isalpha() or b[0] in "*@" else f"//({b})"
                      for b in _top_level_branches(context))


def _prefilter(selector: str, namespaces: dict[str, str]) -> tuple[etree.XPath | None, bool]:
    """The selector for lxml's C XPath 1.0, with predicates dropped where XPath 1 cannot read them, and
    whether it is the selector itself (then it finds the rule's contexts exactly).

    Dropping a predicate only widens what is selected, so an empty result still proves that the rule
    cannot fire; most of the TEI's hundred rules are skipped this way on any one document.
    """
    for candidate in (selector, _without_predicates(selector)):
        try:
            return etree.XPath(candidate, namespaces=namespaces), candidate == selector
        except etree.XPathError:
            continue
    return None, False


def _without_predicates(expression: str) -> str:
    kept, depth = [], 0
    for character in expression:
        depth += character == "["
        if depth == 0:
            kept.append(character)
        depth -= character == "]"
    return "".join(kept)


def _top_level_branches(expression: str) -> list[str]:
    branches, depth, quote, start = [], 0, None, 0
    for index, character in enumerate(expression):
        if quote:
            quote = None if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character in "([":
            depth += 1
        elif character in ")]":
            depth -= 1
        elif character == "|" and depth == 0:
            branches.append(expression[start:index].strip())
            start = index + 1
    branches.append(expression[start:].strip())
    return [b for b in branches if b]


def _parser_class(query_binding: str | None):
    """XPath 3.1 for xslt3 bindings and for rules embedded in RELAX NG (the TEI's use ||); else XPath 2."""
    if query_binding is None or query_binding.lower() in {"xslt3", "xpath3", "xpath31", "xslt3.0"}:
        from elementpath.xpath31 import XPath31Parser

        return XPath31Parser
    return XPath2Parser  # XPath 2 also reads the XPath 1 of queryBinding="xslt"


def _generate_id(node) -> str:
    """XSLT's generate-id(node), which TEI rules use to compare node identity: unique per node of one tree."""
    return f"node{id(node)}"


def _line(node) -> int | None:
    element = getattr(node, "elem", None)
    if element is None and getattr(node, "parent", None) is not None:
        element = node.parent.elem
    return getattr(element, "sourceline", None)


def _node_name(node) -> str:
    qualified = getattr(node, "name", None) or ""
    return etree.QName(qualified).localname if qualified.startswith("{") else qualified


def _string(value) -> str:
    string_value = getattr(value, "string_value", None)
    return str(string_value if string_value is not None else value)
