"""ISO Schematron with XPath 2/3.1 through elementpath: standalone .sch files and rules embedded in RELAX NG.

lxml's own isoschematron runs XSLT 1.0 only, and the TEI's rules (and ours) need XPath 2. The schema is
first composed (sch_compose.py: includes, extends, abstract rules and patterns, Schematron 1.5 read as
ISO) and checked for the errors a processor must report (SCH011: a variable defined twice in one scope or
never defined). Each rule's context is then read as a widened XPath 1 path by lxml's C XPath (sch_paths.py):
when that finds nothing in a document, the rule cannot fire there and is neither compiled nor run, which is
so for most of the TEI's hundred rules on any one document. A rule whose context and tests have XPath 1
forms of the same value (xpath1.py) is run by lxml alone; any other rule that may fire is compiled by
elementpath the first time (elementpath is imported then).

Per document the patterns of the phase (--phase, else the schema's defaultPhase, else all) run in order;
a pattern with @documents runs on each document its expression names instead. The lets of the schema,
of the phase and of every pattern are bound once per document, at its root (a pattern's lets are global,
as in the XSLT implementations); a rule's lets per context node. Within a pattern a node is handled by the
first rule that matches it; contexts may be any node: the document (`/`), elements, attributes, text,
comments, processing instructions. The XSLT functions rules rely on (current(), generate-id(), key() of
the schema's xsl:key, document()) are provided (sch_functions.py). A let with element content is bound to
those elements (a copy, in a document of their own).

About 520 lines, over the usual 500: it is the engine alone (reading a schema into rules and running them
on a document), its other jobs already apart (sch_compose, sch_model, sch_paths, sch_functions).
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import InvalidInputError, UsageError
from tei.validate import sch_functions
from tei.validate.sch_compose import NS_ATTRIBUTE, SCH15_NS, SCH_NS, composed, sch, schema_error  # noqa: F401 - SCH_NS for schema.py
from tei.validate.sch_functions import string_value as _string
from tei.validate.sch_model import (
    NAME,
    Check,
    Content,
    Expression,
    NamePath,
    Phase,
    Rule,
    RulePattern,
    check_variables,
    content_value,
    included_namespaces,
    stylesheet_copy,
)
from tei.validate.sch_paths import balanced, prefilter, selector, true_value, xpath1
from tei.validate.sch_paths import prefilter as _prefilter  # noqa: F401 - the tests read these by their old names
from tei.validate.sch_paths import true_value as _true  # noqa: F401
from tei.validate.sch_paths import widened as _widened  # noqa: F401

WARNING_ROLES = frozenset({"warning", "warn", "info", "information", "nonfatal"})
XSL_NS = "http://www.w3.org/1999/XSL/Transform"
ALL_PATTERNS = "#ALL"
_CURRENT = re.compile(r"(?<![\w:.-])current\(\s*\)")


def has_rules(root: etree._Element) -> bool:
    """True if a schema document (Schematron, or RELAX NG with embedded rules) holds any sch:rule, or a pattern
    or an include that may bring some (ISO's namespace or Schematron 1.5's)."""
    names = [f"{{{namespace}}}{tag}" for namespace in (SCH_NS, SCH15_NS) for tag in ("rule", "pattern", "include")]
    return next(root.iter(*names), None) is not None


class SchematronSchema:
    """The patterns of one schema document; `check` runs those of the phase on a parsed document.

    Loading composes the schema, checks its variables (SCH011) and that each expression's brackets and
    quotes close (SCH001); elementpath compiles a rule when a document first needs it, and a compile error
    is then reported (SCH001) as the diagnostic of that document (`verify` compiles every one at once).
    """

    def __init__(self, root: etree._Element, source: Path):
        self.source = source
        root = composed(root, source)
        self.query_binding = root.get("queryBinding")
        self.namespaces = {prefix: uri for prefix, uri in root.nsmap.items() if prefix}
        self.namespaces.update({ns.get("prefix"): ns.get("uri") for ns in root.iter(sch("ns"))})
        self._compiled: dict[tuple, object] = {}
        self._element_lets: dict[Expression, etree.XPath | None] = {}  # lets that lxml binds (_elements)
        self._parsers: dict[tuple, object] = {}
        self.functions = sch_functions.Functions(self, root)
        self._diagnostics = {d.get("id"): d for d in root.iter(sch("diagnostic")) if d.get("id")}
        self.global_lets = self._lets(root, root.findall(sch("let")))
        self.phases = {
            phase.get("id"): Phase(
                self._lets(phase, phase.findall(sch("let"))),
                tuple(a.get("pattern") for a in phase.findall(sch("active"))),
            )
            for phase in root.findall(sch("phase"))
        }
        self.patterns = tuple(self._pattern(p) for p in root.iter(sch("pattern")))
        check_variables(self, root)
        self.phase = self._phase_named(root.get("defaultPhase"), "defaultPhase")

    def in_phase(self, phase: str | None) -> SchematronSchema:
        """The same schema (sharing its compiled rules) running the phase of that id; #ALL runs every pattern."""
        if phase is None:
            return self
        phased = copy.copy(self)
        phased.phase = self._phase_named(phase, "--phase")
        return phased

    def _phase_named(self, name: str | None, given_by: str) -> Phase | None:
        if name is None or name == ALL_PATTERNS:
            return None
        if name == "#DEFAULT":
            return self.phase
        if name not in self.phases:
            known = ", ".join(sorted(self.phases)) or "none"
            raise UsageError(
                error(
                    "SCH012",
                    f"{given_by} names the phase {name!r}, which the schema does not define",
                    self.source,
                    hint=f"phases of this schema: {known}",
                )
            )
        return self.phases[name]

    @property
    def active_patterns(self) -> tuple[RulePattern, ...]:
        if self.phase is None:
            return self.patterns
        return tuple(p for p in self.patterns if p.id in self.phase.active)

    def _parser(self, parser_class, namespaces: tuple = ()):
        """elementpath's parser of this class for the schema, made once (elementpath is imported then)."""
        key = (parser_class, namespaces)
        if key not in self._parsers:
            parser = self._parsers[key] = parser_class(namespaces={**self.namespaces, **dict(namespaces)})
            self.functions.register(parser)
        return self._parsers[key]

    def _expression(self, source: str, element: etree._Element) -> Expression:
        """An expression of the schema; one whose brackets or quotes do not close is refused at once (SCH001).
        Expressions with (: comments :), which nest, are left to elementpath."""
        if "(:" not in source and not balanced(source):
            raise self._compile_error(source, element.sourceline, "its brackets or quotes do not close")
        return Expression(source, element.sourceline, included_namespaces(element))

    def _compile_error(self, source: str, line: int | None, reason) -> InvalidInputError:
        return InvalidInputError(
            error("SCH001", f"the Schematron expression {source!r} cannot be compiled: {reason}", self.source, line)
        )

    def _token(self, expression: Expression):
        """The expression compiled by elementpath (current() read as $current), once per schema."""
        import elementpath

        key = (expression.source, expression.namespaces)
        if key not in self._compiled:
            source = self.functions.rewritten(_CURRENT.sub("$current", expression.source))
            for parser_class in _parser_classes(self.query_binding):
                try:
                    self._compiled[key] = self._parser(parser_class, expression.namespaces).parse(source)
                    break
                except (elementpath.ElementPathError, ArithmeticError, LookupError, TypeError, ValueError) as exc:
                    refusal = exc  # elementpath evaluates constant parts while it compiles
            else:
                raise self._compile_error(expression.source, expression.line, refusal) from None
        return self._compiled[key]

    def _lets(self, scope: etree._Element, elements) -> tuple[tuple[str, Expression | Content], ...]:
        """The lets of one scope; a name defined twice in it is refused (SCH011)."""
        lets: list[tuple[str, Expression | Content]] = []
        for element in elements:
            name = element.get("name")
            if name in (n for n, _value in lets):
                raise schema_error(
                    f"the variable ${name} is defined twice in one scope", self.source, element.sourceline
                )
            if element.get("value") is not None:
                lets.append((name, self._expression(element.get("value"), element)))
            else:
                nodes = tuple(stylesheet_copy(child) for child in element if isinstance(child.tag, str))
                lets.append((name, Content(nodes, "".join(element.itertext()))))
        return tuple(lets)

    def _pattern(self, pattern: etree._Element) -> RulePattern:
        rules = []
        for rule in pattern.findall(sch("rule")):
            context_selector = selector(rule.get("context", "/"))
            checks = tuple(self._check(c, pattern) for c in rule if c.tag in (sch("assert"), sch("report")))
            context = self._expression(context_selector, rule)
            namespaces = {**self.namespaces, **dict(context.namespaces)}
            may_match, exact = prefilter(context_selector, namespaces)
            rules.append(Rule(context, may_match, exact, self._lets(rule, rule.findall(sch("let"))), checks))
        documents = pattern.get("documents")
        return RulePattern(
            pattern.get("id"),
            self._lets(pattern, pattern.findall(sch("let"))),
            tuple(rules),
            None if documents is None else self._expression(documents, pattern),
        )

    def _check(self, element: etree._Element, pattern: etree._Element) -> Check:
        role = (element.get("role") or "").lower()
        test = self._expression(element.get("test", "true()"), element)
        return Check(
            is_report=element.tag == sch("report"),
            test=test,
            quick=xpath1(test.source, {**self.namespaces, **dict(test.namespaces)}),
            code=element.get("id") or pattern.get("id") or "SCH",
            severity=Severity.WARNING if role in WARNING_ROLES else Severity.ERROR,
            message=self._message_parts(element),
        )

    def _message_parts(self, element: etree._Element) -> tuple:
        """The assertion's text with its sch:name and sch:value-of, then the text of the sch:diagnostic
        elements its @diagnostics names; an assertion without any says its id, else what it tests."""
        parts = self._text_parts(element)
        said = "".join(p for p in parts if isinstance(p, str)).strip() or len(parts) > 1
        for name in (element.get("diagnostics") or "").split():
            diagnostic = self._diagnostics.get(name)
            found = self._text_parts(diagnostic) if diagnostic is not None else [""]
            if len(found) > 1 or found[0].strip():  # an empty sch:diagnostic adds nothing
                parts += [" (", *found, ")"] if said else [" ", *found]
                said = True
        if not "".join(p for p in parts if isinstance(p, str)).strip() and len(parts) == 1:
            kind = "report" if element.tag == sch("report") else "assert"
            verb = "is true" if kind == "report" else "failed"
            return (element.get("id") or f"{kind} {element.get('test', 'true()')!r} {verb}",)
        return tuple(parts)

    def _text_parts(self, element: etree._Element) -> list:
        parts: list = [element.text or ""]
        for child in element:
            if child.tag == sch("name"):
                parts.append(
                    NAME if child.get("path") is None else NamePath(self._expression(child.get("path"), child))
                )
            elif child.tag == sch("value-of"):
                parts.append(self._expression(child.get("select", "."), child))
            elif isinstance(child.tag, str):
                parts.append("".join(child.itertext()))
            parts.append(child.tail or "")
        return parts

    def verify(self) -> None:
        """Every expression compiled now; the first that does not compile is refused (SCH001). For a schema
        checked on its own (a schema test), where no document makes its rules run."""
        for expression in self._all_expressions():
            self._token(expression)

    def compile_rules(self) -> None:
        """Every rule that elementpath would run compiled now, not when a document first needs it (`tei build`
        does it for the project schema while the edition is collated: importing elementpath and compiling the
        rules took about 0.1 s of the validate stage of the seeds). A rule that does not compile is left to
        `check`, which reports it (SCH001)."""
        for expression in self._all_expressions():
            with contextlib.suppress(InvalidInputError):
                self._token(expression)

    def _all_expressions(self) -> Iterator[Expression]:
        lets = list(self.global_lets) + [let for phase in self.phases.values() for let in phase.lets]
        for pattern in self.patterns:
            lets += pattern.lets
            if pattern.documents is not None:
                yield pattern.documents
            for rule in pattern.rules:
                yield from rule.expressions()
        yield from (value for _name, value in lets if isinstance(value, Expression))
        yield from self.functions.expressions()

    def _compile(self, rule: Rule) -> None:
        """Every expression of the rule compiled, or SCH001 for the first that does not compile."""
        for expression in rule.expressions():
            self._token(expression)

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]:
        """The findings of the phase's patterns on one document (see the module's docstring)."""
        state = _Document(tree, name)
        for pattern in self.active_patterns:
            if pattern.documents is None:
                yield from self._run_pattern(pattern, state, state)
                continue
            try:
                subordinates = self._subordinates(pattern, state)
            except _RuleError as exc:
                yield self._skipped(pattern.documents.source, exc)
                continue
            for subordinate in subordinates:
                yield from self._run_pattern(pattern, subordinate, state)

    def _subordinates(self, pattern: RulePattern, state: _Document) -> list[_Document]:
        """The documents a pattern's @documents names (URIs relative to the document), read safely."""
        from tei.xmlio import parse_file

        document, variables = self._variables(state)
        value = self._guarded(lambda: self._evaluate(pattern.documents, document, document, variables))
        found = []
        base = Path(state.tree.docinfo.URL or state.name).parent
        for uri in value if isinstance(value, list) else [value]:
            path = base / _string(uri)
            try:
                found.append(_Document(parse_file(path), str(path)))
            except InvalidInputError as exc:
                raise _RuleError(f"the document {path} it names cannot be read: {exc.diagnostics[0].message}") from None
        return found

    def _run_pattern(self, pattern: RulePattern, state: _Document, primary: _Document) -> Iterator[Diagnostic]:
        handled: set = set()  # the nodes a rule of this pattern has fired on (elements as lxml's)
        for rule in pattern.rules:
            found = _prefiltered(rule, state.tree)
            if found is not None and not found:
                continue
            try:
                if rule.quick and found is not None and _elements_only(found):
                    findings = list(self._run_quickly(rule, found, handled, state))
                else:
                    self._compile(rule)
                    document, variables = self._variables(primary)
                    if state is not primary:
                        document = state.view()
                    findings = list(self._run(rule, found, document, variables, handled, state.name))
            except _RuleError as exc:
                findings = [self._skipped(rule.context.source, exc, state.name)]
            yield from findings

    def _skipped(self, context: str, exc: Exception, name: str | None = None) -> Diagnostic:
        return warning(
            "SCH009", f"a Schematron rule (context {context!r}) could not be evaluated and was skipped: {exc}", name
        )

    def _variables(self, state: _Document) -> tuple[object, dict]:
        """The document's node tree and the lets of the schema, the phase and every pattern bound on it."""
        if state.variables is None:
            document = state.view()
            self.functions.enter(state)
            lets = list(self.global_lets) + list(self.phase.lets if self.phase else ())
            for pattern in self.active_patterns:
                lets += pattern.lets
            state.variables = self._guarded(lambda: self._bind(lets, document, document, {}))
        return state.view(), state.variables

    def _guarded(self, evaluate):
        """evaluate(), its dynamic errors (elementpath's, and those of the functions it calls) as _RuleError."""
        import elementpath

        try:
            return evaluate()
        except (elementpath.ElementPathError, ArithmeticError, LookupError, TypeError, ValueError) as exc:
            raise _RuleError(str(exc)) from None

    def _run(self, rule: Rule, found: list | None, document, variables: dict, handled: set, name: str):
        """The diagnostics of one rule, on each of its context nodes that no earlier rule of the pattern handled."""
        contexts = self._guarded(lambda: list(self._contexts(rule, found, document, variables)))
        for node in contexts:
            identity = getattr(node, "elem", None)
            identity = identity if isinstance(identity, etree._Element) else id(node)
            if identity not in handled:
                handled.add(identity)
                yield from self._guarded(lambda node=node: list(self._fire(rule, node, document, variables, name)))

    def _run_quickly(self, rule: Rule, found: list, handled: set, state: _Document) -> Iterator[Diagnostic]:
        """A rule that lxml runs alone: elementpath is needed only for a failing check's sch:value-of."""
        for element in found:
            if element in handled:
                continue
            handled.add(element)
            for check in rule.checks:
                if true_value(check.quick(element)) == check.is_report:
                    yield Diagnostic(
                        check.code,
                        self._quick_message(check.message, element, state),
                        state.name,
                        element.sourceline,
                        None,
                        check.severity,
                    )

    def _quick_message(self, parts: tuple, element: etree._Element, state: _Document) -> str:
        if any(isinstance(part, (Expression, NamePath)) for part in parts):
            document, variables = self._variables(state)
            return self._message(parts, document.get_element_node(element), document, variables)
        text = "".join(etree.QName(element).localname if part is NAME else part for part in parts)
        return " ".join(text.split())

    def _contexts(self, rule: Rule, found: list | None, document, variables: dict):
        """The nodes a rule fires on: those lxml's C XPath found when the context is XPath 1 and selects
        elements only (ten times faster on an edition), otherwise those elementpath finds."""
        from elementpath import XPathContext

        if rule.exact and found is not None and _elements_only(found):
            return [document.get_element_node(element) for element in found]
        return self._token(rule.context).select(XPathContext(document, variables=variables))

    def _evaluate(self, expression: Expression, document, node, variables: dict):
        from elementpath import XPathContext

        return self._token(expression).evaluate(XPathContext(document, item=node, variables=variables))

    def _bind(self, lets, document, node, variables: dict) -> dict:
        bound = dict(variables)
        for let_name, value in lets:
            if isinstance(value, Content):
                bound[let_name] = content_value(value)
                continue
            elements = self._elements(value, document) if node is document else None
            bound[let_name] = elements if elements is not None else self._evaluate(value, document, node, bound)
        return bound

    def _elements(self, expression: Expression, document) -> list | None:
        """A let bound at the root whose XPath 1 form selects elements only (`//tei:app[@xml:id]`): the same
        nodes of elementpath's tree, found by lxml's C XPath (elementpath walked an edition for each such let
        in every document: 0.25 s of the seeds' 0.43 s of validation). None when lxml cannot say."""
        if expression not in self._element_lets:
            self._element_lets[expression] = xpath1(
                expression.source, {**self.namespaces, **dict(expression.namespaces)}
            )
        compiled = self._element_lets[expression]
        tree = getattr(document, "document", None)
        if compiled is None or not isinstance(tree, etree._ElementTree):
            return None
        try:
            found = compiled(tree)
        except etree.XPathEvalError:  # a variable only elementpath knows
            return None
        if not isinstance(found, list) or not _elements_only(found):
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
        """The message of a failing check; a value-of or name path that cannot be evaluated on the node is
        shown as its expression in braces (the finding stands)."""
        import elementpath

        rendered = []
        for part in parts:
            if isinstance(part, str):
                rendered.append(part)
            elif part is NAME:
                rendered.append(_node_name(node))
            else:
                expression = part.path if isinstance(part, NamePath) else part
                try:
                    value = self._evaluate(expression, document, node, variables)
                except (elementpath.ElementPathError, ArithmeticError, LookupError, TypeError, ValueError):
                    rendered.append(f"{{{expression.source}}}")
                    continue
                values = value if isinstance(value, list) else [value]
                if isinstance(part, NamePath):
                    rendered.append(" ".join(_node_name(v) if hasattr(v, "name") else _string(v) for v in values))
                else:
                    rendered.append(" ".join(_string(v) for v in values))
        return " ".join("".join(rendered).split())


class _RuleError(Exception):
    """A dynamic error of a rule on one document (not of the document): the rule is skipped (SCH009)."""


@dataclass
class _Document:
    """One document being checked: its lxml tree, elementpath's node tree of it and the lets bound on it,
    both made when a rule first needs them."""

    tree: etree._ElementTree
    name: str
    variables: dict | None = None
    keys: dict = field(default_factory=dict)  # sch_functions' key() indexes of this document
    _view: object = None

    def view(self):
        if self._view is None:
            import elementpath

            self._view = elementpath.get_node_tree(self.tree)
        return self._view


def _elements_only(found) -> bool:
    """True if lxml found elements only (no text, attribute values, comments or processing instructions)."""
    return isinstance(found, list) and all(
        isinstance(item, etree._Element) and isinstance(item.tag, str) for item in found
    )


def _prefiltered(rule: Rule, tree: etree._ElementTree) -> list | None:
    """What the rule's XPath 1 prefilter finds in the document; None when it has none or lxml cannot run it
    (a variable or function only elementpath knows)."""
    if rule.may_match is None:
        return None
    try:
        return rule.may_match(tree)
    except etree.XPathEvalError:
        return None


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


def _line(node) -> int | None:
    element = getattr(node, "elem", None)
    if element is None and getattr(node, "parent", None) is not None:
        element = node.parent.elem
    return getattr(element, "sourceline", None)


def _node_name(node) -> str:
    qualified = getattr(node, "name", None) or ""
    return etree.QName(qualified).localname if qualified.startswith("{") else qualified
