"""XPath text of Schematron schemas, read without an XPath engine: rule contexts as select expressions, their
widened XPath 1 prefilters for lxml, bracket and quote balance, and the variables an expression refers to.

Split from schematron.py (the engine), which imports these; they work on the expression's text only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from tei.validate.xpath1 import xpath1_form

# An XPath expression as tokens: a string literal or a comment as one token, any other character alone.
_TOKEN = re.compile(r"""'[^']*'|"[^"]*"|\(:.*?:\)|.""", re.DOTALL)
_LITERAL_OR_COMMENT = re.compile(r"""'[^']*'|"[^"]*"|\(:.*?:\)""", re.DOTALL)
_CLOSING = {"(": ")", "[": "]", "{": "}"}
_VARIABLE = re.compile(r"\$((?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*)")
_CALL = re.compile(r"((?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*)\s*\(")
_NAME_CHAR = re.compile(r"[\w.:$-]")
_BOUND = re.compile(r"(?:\bfor|\bsome|\bevery|\blet|,)\s*\$((?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*)\s*(?:in\b|:=)")


def selector(context: str) -> str:
    """A select expression for a rule context (an XSLT match pattern): '//' before each branch of its union.

    `//a | //b` walks the tree once per branch; the literal `//(a | b)` would evaluate the pattern
    once per node, which is a hundred times slower on a large document.
    """
    return " | ".join(
        b if b.startswith("/") else f"//{b}" if b[0].isalpha() or b[0] in "*@" else f"//({b})"
        for b in _top_level_branches(context)
    )


def prefilter(selector: str, namespaces: dict[str, str]) -> tuple[etree.XPath | None, bool]:
    """The selector for lxml's C XPath 1.0, else a widened form of it that XPath 1 can read (see `_widened`),
    and whether it is the selector itself (then it finds the rule's contexts exactly).

    The widened form selects at least what the selector does, so an empty result still proves that the
    rule cannot fire; most of the TEI's hundred rules are skipped this way on any one document.
    Expressions with (: comments :) are left to elementpath.
    """
    if "(:" in selector or any(_is_root(branch) for branch in _top_level_branches(selector)):
        return None, False  # lxml finds no document node: `/` would look as if it matched nothing
    exact = xpath1(selector, namespaces)
    if exact is not None:
        return exact, True
    try:
        return etree.XPath(widened(selector), namespaces=namespaces), False
    except etree.XPathError:
        return None, False


def _is_root(path: str) -> bool:
    """True if a path selects the document node (`/`, `/.`, `(/)`)."""
    return path.strip().strip("()").strip() in ("/", "/.", "/self::node()")


def xpath1(expression: str, namespaces: dict[str, str]) -> etree.XPath | None:
    """The expression compiled by lxml, when its XPath 1 form has the same value (xpath1.py)."""
    form = xpath1_form(expression)
    try:
        return None if form is None else etree.XPath(form, namespaces=namespaces)
    except etree.XPathError:
        return None


def true_value(value) -> bool:
    """XPath's effective boolean value of what lxml returns (a node list, boolean, number or string)."""
    if isinstance(value, float):
        return value == value and value != 0
    return bool(value)


def widened(selector: str) -> str:
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


def balanced(expression: str) -> bool:
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


def variables(expression: str) -> set[str]:
    """The names of the variables an expression refers to and does not bind itself (by for, some, every, let):
    string literals and comments are skipped."""
    if "$" not in expression:
        return set()
    code = _LITERAL_OR_COMMENT.sub(" ", expression)
    bound = set(_BOUND.findall(code))
    return {name for name in _VARIABLE.findall(code) if name not in bound}


def parenthesised_calls(expression: str, names: set[str]) -> str:
    """Each call of a function of `names` wrapped in parentheses: `document('a.xml')//x` as
    `(document('a.xml'))//x`, which elementpath reads (it takes no path step after an external function)."""
    out, index = [], 0
    tokens = list(_tokens(expression))
    position = 0
    while position < len(tokens):
        start, token = tokens[position]
        match = _CALL.match(expression, start) if (token[0].isalpha() or token == "_") else None
        if match and match.group(1) in names and (start == 0 or not _NAME_CHAR.match(expression[start - 1])):
            depth, end = 0, None
            for offset, inner in _tokens(expression[match.end() - 1 :]):
                depth += inner == "("
                depth -= inner == ")"
                if depth == 0:
                    end = match.end() - 1 + offset + 1
                    break
            if end is not None:
                out.append(expression[index:start] + "(" + parenthesised_calls(expression[start:end], set()) + ")")
                index = end
                while position < len(tokens) and tokens[position][0] < end:
                    position += 1
                continue
        position += 1
    out.append(expression[index:])
    return "".join(out)
