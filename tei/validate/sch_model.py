"""The parts of a Schematron schema as the engine (schematron.py) runs them: expressions, checks, rules,
patterns and phases, the values of lets with element content, and the check that every variable is defined
once in its scope (SCH011). Split from schematron.py, which reads a schema into these and runs them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from tei.diagnostics import Severity
from tei.validate.sch_compose import NS_ATTRIBUTE, schema_error
from tei.validate.sch_paths import variables

NAME = object()  # stands for sch:name without @path in a message


@dataclass(frozen=True)
class Expression:
    """An XPath expression of the schema, as written; elementpath compiles it the first time a rule needs it.
    namespaces: prefixes of the file it was included from, over the schema's (sch_compose.NS_ATTRIBUTE)."""

    source: str
    line: int | None
    namespaces: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Content:
    """The element content of a let: bound to a copy of those nodes (or to their text when there are none)."""

    nodes: tuple
    text: str


@dataclass(frozen=True)
class NamePath:
    """sch:name with @path: the name of the node the path selects."""

    path: Expression


@dataclass(frozen=True)
class Check:
    """One sch:assert (fails when false) or sch:report (fails when true)."""

    is_report: bool
    test: Expression
    quick: etree.XPath | None  # the test for lxml, when its XPath 1 form has the same value (xpath1.py)
    code: str
    severity: Severity
    message: tuple  # text, NAME, NamePath and sch:value-of expressions, rendered per failing node


@dataclass(frozen=True)
class Rule:
    context: Expression
    may_match: etree.XPath | None  # a fast lxml (XPath 1) test that is empty only when the context matches nothing
    exact: bool  # may_match is the context itself (valid XPath 1): its elements are the rule's contexts
    lets: tuple[tuple[str, Expression | Content], ...]
    checks: tuple[Check, ...]

    @property
    def quick(self) -> bool:
        """True if lxml alone can run the rule: its context and every test have XPath 1 forms, no lets."""
        return self.exact and not self.lets and all(check.quick is not None for check in self.checks)

    def expressions(self) -> Iterator[Expression]:
        yield self.context
        yield from (expression for _name, expression in self.lets if isinstance(expression, Expression))
        for check in self.checks:
            yield check.test
            for part in check.message:
                if isinstance(part, Expression):
                    yield part
                elif isinstance(part, NamePath):
                    yield part.path


@dataclass(frozen=True)
class RulePattern:
    id: str | None
    lets: tuple[tuple[str, Expression | Content], ...]  # bound once per document, at its root
    rules: tuple[Rule, ...]
    documents: Expression | None = None  # the subordinate documents the pattern runs on instead


@dataclass(frozen=True)
class Phase:
    lets: tuple[tuple[str, Expression | Content], ...]
    active: tuple[str, ...]


def check_variables(schema, root: etree._Element) -> None:
    """SCH011 for a pattern's let that a schema-level let already defines (both are global), and for a
    variable an expression refers to that no let in its scope defines."""
    known = {name for name, _v in schema.global_lets}
    pattern_names: set[str] = set()
    for pattern in schema.patterns:
        for name, value in pattern.lets:
            if name in known or name in pattern_names:
                line = value.line if isinstance(value, Expression) else root.sourceline
                raise schema_error(f"the variable ${name} is defined twice as a global", schema.source, line)
            pattern_names.add(name)
    globals_ = known | pattern_names | {n for phase in schema.phases.values() for n, _v in phase.lets}
    globals_ |= {"current"}
    scopes = [(globals_, [v for _n, v in schema.global_lets])]
    scopes += [(globals_, [v for _n, v in phase.lets]) for phase in schema.phases.values()]
    for pattern in schema.patterns:
        scopes.append((globals_, [v for _n, v in pattern.lets] + [pattern.documents]))
        for rule in pattern.rules:
            scopes.append((globals_ | {n for n, _v in rule.lets}, list(rule.expressions())))
    for defined, expressions in scopes:
        for expression in expressions:
            if isinstance(expression, Expression):
                undefined = sorted(variables(expression.source) - defined)
                if undefined:
                    raise schema_error(
                        f"${undefined[0]} in {expression.source!r} is not defined by any let in its scope",
                        schema.source,
                        expression.line,
                    )


def content_value(content: Content):
    """A let's element content as nodes of a document of their own (elementpath's), else its text."""
    if not content.nodes:
        return content.text
    import elementpath

    holder = etree.Element("let-content")
    holder.extend(copy.deepcopy(node) for node in content.nodes)
    tree = elementpath.get_node_tree(etree.ElementTree(holder))
    return list(tree.getroot().children) if hasattr(tree, "getroot") else list(tree.children[0].children)


def stylesheet_copy(element: etree._Element) -> etree._Element:
    """A copy of an element of the schema as XSLT reads it: whitespace-only text nodes dropped, no tail."""
    copied = copy.deepcopy(element)
    copied.tail = None
    for node in copied.iter():
        if node.text is not None and not node.text.strip():
            node.text = None
        if node is not copied and node.tail is not None and not node.tail.strip():
            node.tail = None
    return copied


def included_namespaces(element: etree._Element) -> tuple[tuple[str, str], ...]:
    """The namespaces of the file the element was included from (sch_compose marks it), if any."""
    for holder in (element, *element.iterancestors()):
        marked = holder.get(NS_ATTRIBUTE)
        if marked is not None:
            return tuple(sorted(json.loads(marked).items()))
    return ()
