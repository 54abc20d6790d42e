"""ISO Schematron with XPath 2/3.1 through elementpath: standalone .sch files and rules embedded in RELAX NG.

lxml's own isoschematron runs XSLT 1.0 only, and the TEI's rules (and ours) need XPath 2. Each rule's
context is first read as a widened XPath 1 path by lxml's C XPath (`_prefilter`): when that finds
nothing in a document, the rule cannot fire there and is neither compiled nor run, which is so for most
of the TEI's hundred rules on any one document. A rule whose context and tests have XPath 1 forms of the
same value (xpath1.py) is run by lxml alone; any other rule that may fire is compiled by elementpath the
first time (elementpath is imported then). Per document each pattern's rules fire in order (a node is
handled by the first rule of a pattern that matches it). The XSLT functions TEI rules rely on, current()
and generate-id(), are provided too.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import InvalidInputError
from tei.validate.xpath1 import xpath1_form

SCH_NS = "http://purl.oclc.org/dsdl/schematron"
WARNING_ROLES = frozenset({"warning", "warn", "info", "information", "nonfatal"})
NAME = object()  # stands for sch:name in a message
_CURRENT = re.compile(r"(?<![\w:.-])current\(\s*\)")
# An XPath expression as tokens: a string literal or a comment as one token, any other character alone.
_TOKEN = re.compile(r"""'[^']*'|"[^"]*"|\(:.*?:\)|.""", re.DOTALL)
_CLOSING = {"(": ")", "[": "]", "{": "}"}


def sch(tag: str) -> str:
    return f"{{{SCH_NS}}}{tag}"


@dataclass(frozen=True)
class Expression:
    """An XPath expression of the schema, as written; elementpath compiles it the first time a rule needs it."""

    source: str
    line: int | None


@dataclass(frozen=True)
class Check:
    """One sch:assert (fails when false) or sch:report (fails when true)."""

    is_report: bool
    test: Expression
    quick: etree.XPath | None  # the test for lxml, when its XPath 1 form has the same value (xpath1.py)
    code: str
    severity: Severity
    message: tuple  # text, NAME (sch:name) and sch:value-of expressions, rendered per failing node


@dataclass(frozen=True)
class Rule:
    context: Expression
    may_match: etree.XPath | None  # a fast lxml (XPath 1) test that is empty only when the context matches nothing
    exact: bool  # may_match is the context itself (valid XPath 1): its elements are the rule's contexts
    lets: tuple[tuple[str, Expression], ...]
    checks: tuple[Check, ...]

    @property
    def quick(self) -> bool:
        """True if lxml alone can run the rule: its context and every test have XPath 1 forms, no lets."""
        return self.exact and not self.lets and all(check.quick is not None for check in self.checks)

    def expressions(self) -> Iterator[Expression]:
        yield self.context
        yield from (expression for _name, expression in self.lets)
        for check in self.checks:
            yield check.test
            yield from (part for part in check.message if isinstance(part, Expression))


@dataclass(frozen=True)
class RulePattern:
    lets: tuple[tuple[str, Expression], ...]  # bound once per document, at its root
    rules: tuple[Rule, ...]


def has_rules(root: etree._Element) -> bool:
    """True if a schema document (Schematron, or RELAX NG with embedded rules) holds any sch:rule."""
    return next(root.iter(sch("rule")), None) is not None


class SchematronSchema:
    """The patterns of one schema document; `check` runs them on a parsed document.

    Loading only reads the rules and checks that each expression's brackets and quotes close (SCH001);
    elementpath compiles a rule when a document first needs it, and a compile error is then reported
    (SCH001) as the diagnostic of that document.
    """

    def __init__(self, root: etree._Element, source: Path):
        self.source = source
        self.query_binding = root.get("queryBinding")
        self.namespaces = {prefix: uri for prefix, uri in root.nsmap.items() if prefix}
        self.namespaces.update({ns.get("prefix"): ns.get("uri") for ns in root.iter(sch("ns"))})
        self._compiled: dict[str, object] = {}
        self._element_lets: dict[Expression, etree.XPath | None] = {}  # lets that lxml binds (_elements)
        self._parsers: dict[type, object] = {}
        self.global_lets = self._lets(root.findall(sch("let")))
        abstract = {r.get("id"): r for r in root.iter(sch("rule")) if r.get("abstract") == "true"}
        self.patterns = tuple(
            self._pattern(p, abstract) for p in root.iter(sch("pattern")) if p.get("abstract") != "true"
        )

    def _parser(self, parser_class):
        """elementpath's parser of this class for the schema, made once (elementpath is imported then)."""
        if parser_class not in self._parsers:
            parser = self._parsers[parser_class] = parser_class(namespaces=self.namespaces)
            if "generate-id" not in parser.symbol_table:  # XPath 3 has it; XPath 2 gets XSLT's
                parser.external_function(_generate_id, name="generate-id", sequence_types=("node()", "xs:string"))
        return self._parsers[parser_class]

    def _expression(self, source: str, element: etree._Element) -> Expression:
        """An expression of the schema; one whose brackets or quotes do not close is refused at once (SCH001).
        Expressions with (: comments :), which nest, are left to elementpath."""
        if "(:" not in source and not _balanced(source):
            raise self._compile_error(source, element.sourceline, "its brackets or quotes do not close")
        return Expression(source, element.sourceline)

    def _compile_error(self, source: str, line: int | None, reason) -> InvalidInputError:
        return InvalidInputError(
            error("SCH001", f"the Schematron expression {source!r} cannot be compiled: {reason}", self.source, line)
        )

    def _token(self, expression: Expression):
        """The expression compiled by elementpath (current() read as $current), once per schema."""
        import elementpath

        if expression.source not in self._compiled:
            source = _CURRENT.sub("$current", expression.source)
            for parser_class in _parser_classes(self.query_binding):
                try:
                    self._compiled[expression.source] = self._parser(parser_class).parse(source)
                    break
                except elementpath.ElementPathError as exc:
                    refusal = exc
            else:
                raise self._compile_error(expression.source, expression.line, refusal) from None
        return self._compiled[expression.source]

    def _lets(self, elements) -> tuple[tuple[str, Expression], ...]:
        return tuple((e.get("name"), self._expression(e.get("value") or "()", e)) for e in elements)

    def _pattern(self, pattern: etree._Element, abstract: dict[str, etree._Element]) -> RulePattern:
        rules = []
        for rule in pattern.findall(sch("rule")):
            if rule.get("abstract") == "true":
                continue
            selector = _selector(rule.get("context", "/"))
            parts = [rule] + [
                abstract[e.get("rule")] for e in rule.findall(sch("extends")) if e.get("rule") in abstract
            ]
            checks = tuple(
                self._check(c, pattern) for part in parts for c in part if c.tag in (sch("assert"), sch("report"))
            )
            context = self._expression(selector, rule)
            prefilter, exact = _prefilter(selector, self.namespaces)
            rules.append(Rule(context, prefilter, exact, self._lets(rule.findall(sch("let"))), checks))
        return RulePattern(self._lets(pattern.findall(sch("let"))), tuple(rules))

    def _check(self, element: etree._Element, pattern: etree._Element) -> Check:
        role = (element.get("role") or "").lower()
        return Check(
            is_report=element.tag == sch("report"),
            test=self._expression(element.get("test", "true()"), element),
            quick=_xpath1(element.get("test", "true()"), self.namespaces),
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
                parts.append(self._expression(child.get("select", "."), child))
            elif isinstance(child.tag, str):
                parts.append("".join(child.itertext()))
            parts.append(child.tail or "")
        return tuple(parts)

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]:
        views: list[tuple[object, dict]] = []

        def view() -> tuple[object, dict]:
            """elementpath's node tree and the global lets bound on it, made when a rule first needs them."""
            if not views:
                views.append(self._view(tree))
            return views[0]

        for pattern in self.patterns:
            handled: set = set()  # the nodes a rule of this pattern has fired on (elements as lxml's)
            variables = None
            for rule in pattern.rules:
                found = _prefiltered(rule, tree)
                if found is not None and not found:
                    continue
                if rule.quick and found is not None and all(isinstance(item, etree._Element) for item in found):
                    yield from self._run_quickly(rule, found, handled, name, view)
                    continue
                self._compile(rule)
                document, global_variables = view()
                if variables is None:
                    variables = self._bind(pattern.lets, document, document, global_variables)
                yield from self._run(rule, found, document, variables, handled, name)

    def compile_rules(self) -> None:
        """Every rule that elementpath would run compiled now, not when a document first needs it (`tei build`
        does it for the project schema while the edition is collated: importing elementpath and compiling the
        rules took about 0.1 s of the validate stage of the seeds). A rule that does not compile is left to
        `check`, which reports it (SCH001)."""
        lets = [expression for _name, expression in self.global_lets]
        for pattern in self.patterns:
            lets += [expression for _name, expression in pattern.lets]
            for rule in pattern.rules:
                with contextlib.suppress(InvalidInputError):
                    self._compile(rule)
        for expression in lets:
            with contextlib.suppress(InvalidInputError):
                self._token(expression)

    def _compile(self, rule: Rule) -> None:
        """Every expression of the rule compiled, or SCH001 for the first that does not compile."""
        for expression in rule.expressions():
            self._token(expression)

    def _view(self, tree: etree._ElementTree) -> tuple[object, dict]:
        """The document as elementpath's node tree, and the schema's global lets bound on it."""
        import elementpath

        document = elementpath.get_node_tree(tree)
        return document, self._bind(self.global_lets, document, document, {})

    def _run(
        self, rule: Rule, found: list | None, document, variables: dict, handled: set, name: str
    ) -> Iterator[Diagnostic]:
        """The diagnostics of one rule, on each of its context nodes that no earlier rule of the pattern handled."""
        import elementpath

        try:
            for node in self._contexts(rule, found, document, variables):
                identity = getattr(node, "elem", None)
                identity = identity if isinstance(identity, etree._Element) else id(node)
                if identity not in handled:
                    handled.add(identity)
                    yield from self._fire(rule, node, document, variables, name)
        except elementpath.ElementPathError as exc:  # a dynamic error of the rule, not of the document
            context = self._token(rule.context).source
            yield warning(
                "SCH009", f"a Schematron rule (context {context!r}) could not be evaluated and was skipped: {exc}", name
            )

    def _run_quickly(self, rule: Rule, found: list, handled: set, name: str, view) -> Iterator[Diagnostic]:
        """A rule that lxml runs alone: elementpath is needed only for a failing check's sch:value-of."""
        for element in found:
            if element in handled:
                continue
            handled.add(element)
            for check in rule.checks:
                if _true(check.quick(element)) == check.is_report:
                    yield Diagnostic(
                        check.code,
                        self._quick_message(check.message, element, view),
                        name,
                        element.sourceline,
                        None,
                        check.severity,
                    )

    def _quick_message(self, parts: tuple, element: etree._Element, view) -> str:
        if any(isinstance(part, Expression) for part in parts):
            document, variables = view()
            return self._message(parts, document.get_element_node(element), document, variables)
        text = "".join(etree.QName(element).localname if part is NAME else part for part in parts)
        return " ".join(text.split())

    def _contexts(self, rule: Rule, found: list | None, document, variables: dict):
        """The nodes a rule fires on: those lxml's C XPath found when the context is XPath 1 and selects
        elements only (ten times faster on an edition), otherwise those elementpath finds."""
        from elementpath import XPathContext

        if rule.exact and found is not None and all(isinstance(item, etree._Element) for item in found):
            return [document.get_element_node(element) for element in found]
        return self._token(rule.context).select(XPathContext(document, variables=variables))

    def _evaluate(self, expression: Expression, document, node, variables: dict):
        from elementpath import XPathContext

        return self._token(expression).evaluate(XPathContext(document, item=node, variables=variables))

    def _bind(self, lets, document, node, variables: dict) -> dict:
        bound = dict(variables)
        for let_name, expression in lets:
            elements = self._elements(expression, document) if node is document else None
            bound[let_name] = elements if elements is not None else self._evaluate(expression, document, node, bound)
        return bound

    def _elements(self, expression: Expression, document) -> list | None:
        """A let bound at the root whose XPath 1 form selects elements only (`//tei:app[@xml:id]`): the same
        nodes of elementpath's tree, found by lxml's C XPath (elementpath walked an edition for each such let
        in every document: 0.25 s of the seeds' 0.43 s of validation). None when lxml cannot say."""
        if expression not in self._element_lets:
            self._element_lets[expression] = _xpath1(expression.source, self.namespaces)
        compiled = self._element_lets[expression]
        tree = getattr(document, "document", None)
        if compiled is None or not isinstance(tree, etree._ElementTree):
            return None
        found = compiled(tree)
        if not isinstance(found, list) or not all(isinstance(item, etree._Element) for item in found):
            return None
        return [document.get_element_node(element) for element in found]

    def _fire(self, rule: Rule, node, document, variables: dict, name: str) -> Iterator[Diagnostic]:
        bound = self._bind(rule.lets, document, node, {**variables, "current": node})
        for check in rule.checks:
            result = self._evaluate(check.test, document, node, bound)
            if self._token(check.test).boolean_value(result) == check.is_report:
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
                value = self._evaluate(part, document, node, variables)
                rendered.append(" ".join(_string(v) for v in (value if isinstance(value, list) else [value])))
        return " ".join("".join(rendered).split())


def _prefiltered(rule: Rule, tree: etree._ElementTree) -> list | None:
    """What the rule's XPath 1 prefilter finds in the document; None when it has none or lxml cannot run it
    (a variable or function only elementpath knows)."""
    if rule.may_match is None:
        return None
    try:
        return rule.may_match(tree)
    except etree.XPathEvalError:
        return None


def _selector(context: str) -> str:
    """A select expression for a rule context (an XSLT match pattern): '//' before each branch of its union.

    `//a | //b` walks the tree once per branch; the literal `//(a | b)` would evaluate the pattern
    once per node, which is a hundred times slower on a large document.
    """
    return " | ".join(
        b if b.startswith("/") else f"//{b}" if b[0].isalpha() or b[0] in "*@" else f"//({b})"
        for b in _top_level_branches(context)
    )


def _prefilter(selector: str, namespaces: dict[str, str]) -> tuple[etree.XPath | None, bool]:
    """The selector for lxml's C XPath 1.0, else a widened form of it that XPath 1 can read (see `_widened`),
    and whether it is the selector itself (then it finds the rule's contexts exactly).

    The widened form selects at least what the selector does, so an empty result still proves that the
    rule cannot fire; most of the TEI's hundred rules are skipped this way on any one document.
    Expressions with (: comments :) are left to elementpath.
    """
    if "(:" in selector:
        return None, False
    exact = _xpath1(selector, namespaces)
    if exact is not None:
        return exact, True
    try:
        return etree.XPath(_widened(selector), namespaces=namespaces), False
    except etree.XPathError:
        return None, False


def _xpath1(expression: str, namespaces: dict[str, str]) -> etree.XPath | None:
    """The expression compiled by lxml, when its XPath 1 form has the same value (xpath1.py)."""
    form = xpath1_form(expression)
    try:
        return None if form is None else etree.XPath(form, namespaces=namespaces)
    except etree.XPathError:
        return None


def _true(value) -> bool:
    """XPath's effective boolean value of what lxml returns (a node list, boolean, number or string)."""
    if isinstance(value, float):
        return value == value and value != 0
    return bool(value)


def _widened(selector: str) -> str:
    """A union of paths that holds every node the selector selects: predicates dropped, and '//' carried
    into parenthesised unions, so that `//((a | b)[p]/c)` becomes `//a/c | //b/c`."""
    return " | ".join(path for branch in _top_level_branches(selector) for path in _widened_paths(branch, ""))


def _widened_paths(branch: str, prefix: str) -> list[str]:
    """Paths without predicates whose union holds what `prefix + branch` selects (prefix: "" or "//")."""
    if branch.startswith("//("):
        return _widened_paths(branch[2:], "//")
    if branch.startswith("("):
        inner, rest = _parenthesised(branch)
        return [
            path + _without_predicates(rest)
            for part in _top_level_branches(inner)
            for path in _widened_paths(part, prefix)
        ]
    return [_without_predicates(branch if branch.startswith("/") else prefix + branch)]


def _parenthesised(expression: str) -> tuple[str, str]:
    """An expression that opens with '(' split into what those parentheses hold and what follows them."""
    depth = 0
    for index, token in _tokens(expression):
        depth += (token in "([") - (token in ")]")
        if depth == 0:
            return expression[1:index], expression[index + 1 :]
    return expression[1:], ""


def _without_predicates(expression: str) -> str:
    kept, depth = [], 0
    for _index, token in _tokens(expression):
        depth += token == "["
        if depth == 0:
            kept.append(token)
        depth -= token == "]"
    return "".join(kept)


def _top_level_branches(expression: str) -> list[str]:
    branches, depth, start = [], 0, 0
    for index, token in _tokens(expression):
        if token in "([":
            depth += 1
        elif token in ")]":
            depth -= 1
        elif token == "|" and depth == 0:
            branches.append(expression[start:index].strip())
            start = index + 1
    branches.append(expression[start:].strip())
    return [b for b in branches if b]


def _balanced(expression: str) -> bool:
    """True if every bracket of the expression closes in order and every string literal and comment ends."""
    opened = []
    for _index, token in _tokens(expression):
        if token in _CLOSING:
            opened.append(_CLOSING[token])
        elif token in ")]}" and (not opened or opened.pop() != token) or token in ("'", '"'):
            return False
    return not opened


def _tokens(expression: str) -> Iterator[tuple[int, str]]:
    """(index, token) of each token: a string literal, a comment, or one other character."""
    return ((match.start(), match.group()) for match in _TOKEN.finditer(expression))


def _parser_classes(query_binding: str | None):
    """elementpath's parsers to read an expression with, in turn: XPath 2 (which also reads the XPath 1 of
    queryBinding="xslt"), then XPath 3.1 for xslt3 bindings and for rules embedded in RELAX NG (the TEI's
    use || here and there). XPath 3.1 reads XPath 2 with the same meaning but takes twice as long to
    import, so it is loaded only for an expression XPath 2 cannot read."""
    from elementpath import XPath2Parser

    yield XPath2Parser
    if query_binding is None or query_binding.lower() in {"xslt3", "xpath3", "xpath31", "xslt3.0"}:
        from elementpath.xpath31 import XPath31Parser

        yield XPath31Parser


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
