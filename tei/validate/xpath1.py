"""XPath 2 expressions that XPath 1 (lxml's C engine) evaluates to the same value, in their XPath 1 form.

Schematron rules are written in XPath 2, but most of the TEI's contexts and tests are plain paths joined
by `and`, `or` and `|`, with not() and counts. Such an expression goes to lxml when it uses only location
paths (name and node tests, predicates of the same kind), the functions in FUNCTIONS (whose XPath 1 and 2
forms agree on one node or string), `=` and `!=` beside a string literal, and comparisons of count() or
string-length() with a number, a sum or difference of counts included (integers, exact in both; XPath 2's
`eq`, `lt`, ... become `=`, `<`, ...), and an attribute `=` or `!=` an absolute path of such steps. Anything else -
variables, current(), sequences, other functions, comparisons whose XPath 1 and 2 meanings differ - is
left to elementpath. One difference remains: where XPath 2 raises an error (a function given several
nodes), XPath 1 gives a value.
"""

from __future__ import annotations

import regex

FUNCTIONS = frozenset(
    {
        "not",
        "boolean",
        "true",
        "false",
        "count",
        "string-length",
        "normalize-space",
        "contains",
        "starts-with",
        "node",
        "text",
        "comment",
    }
)
_OPERATORS = {"eq": "=", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_ARGUMENTS = r"""(?P<arguments>\((?:[^()'"]|'[^']*'|"[^"]*"|(?&arguments))*\))"""
# A count or string-length, or a sum or difference of counts (integers, exact in both), against a number.
_NUMERIC_COMPARISON = regex.compile(
    rf"""\b(?P<left>(?:count|string-length)\s*{_ARGUMENTS}(?:\s*[-+]\s*count\s*(?&arguments))*)\s*"""
    r"""(?P<operator>eq|ne|lt|le|gt|ge|!=|<=|>=|=|<|>)\s*"""
    r"""(?P<right>[0-9]+)(?![\w.])"""
)
_STRING_COMPARISON = regex.compile(
    rf"""(?P<left>@[\w.-]+(?::[\w.-]+)?|normalize-space\s*{_ARGUMENTS})\s*(?P<operator>eq|ne|!=|=)\s*"""
    r"""(?P<right>'[^']*'|"[^"]*")"""
)
# An attribute against the nodes of an absolute location path, by `=` or `!=`: without schema types both
# XPath 1 and 2 compare the string values, true when some pair compares so. The path is translated itself.
_PREDICATE = r"""(?P<predicate>\[(?:[^\[\]'"]|'[^']*'|"[^"]*"|(?&predicate))*\])"""
_PATH_COMPARISON = regex.compile(
    rf"""(?P<left>@[\w.-]+(?::[\w.-]+)?)\s*(?P<operator>!=|=)\s*(?P<right>/(?:[\w.:@*/-]|{_PREDICATE})+)"""
)
_LITERAL = regex.compile(r"""'[^']*'|"[^"]*" """.strip())
_FUNCTION_CALL = regex.compile(r"(?<![\w.:-])(?P<name>[A-Za-z_][\w.-]*(?::[\w.-]+)?)\s*\(")
_MINUS = regex.compile(r"(?<![\w.])-|-(?![\w.])")  # a '-' that is not inside a name
_MULTIPLY = regex.compile(r"(?<![/:@(\[|]\s*)(?<!^\s*)\*")  # a '*' that is not a name test
_ARITHMETIC_WORD = regex.compile(r"(?<![\w.:-])(?:div|mod)(?![\w.:-])")
_FORBIDDEN = ("$", "(:", "current(", "<<", ">>", "||", ":=", "{")


def xpath1_form(expression: str) -> str | None:
    """The XPath 1 form of an XPath 2 expression, when lxml gives it the same value; else None (the
    caller still compiles the form with lxml: what XPath 1 cannot parse, such as 'eq' left over or a
    sequence, fails there)."""
    if any(mark in expression for mark in _FORBIDDEN):
        return None
    translated = _PATH_COMPARISON.sub(_xpath1_path_comparison, expression)
    translated = _STRING_COMPARISON.sub(_xpath1_comparison, _NUMERIC_COMPARISON.sub(_xpath1_comparison, translated))
    checked = _PATH_COMPARISON.sub(_checked_path_comparison, expression)
    checked = _STRING_COMPARISON.sub("true()", _NUMERIC_COMPARISON.sub("true()", checked))
    return translated if _plain(checked) else None


def _xpath1_comparison(match) -> str:
    return f"{match['left']} {_OPERATORS.get(match['operator'], match['operator'])} {match['right']}"


def _xpath1_path_comparison(match) -> str:
    return f"{match['left']} {match['operator']} {xpath1_form(match['right']) or match['right']}"


def _checked_path_comparison(match) -> str:
    """true() when the path has an XPath 1 form; else a comparison left in place, which _plain refuses."""
    return "true()" if xpath1_form(match["right"]) is not None else "="


def _plain(expression: str) -> bool:
    """No comparison or arithmetic left, and no function outside FUNCTIONS."""
    bare = _LITERAL.sub("''", expression)
    if any(character in bare for character in "=<>!+"):
        return False
    if _MINUS.search(bare) or _MULTIPLY.search(bare) or _ARITHMETIC_WORD.search(bare):
        return False
    return all(call["name"] in FUNCTIONS or call["name"] in ("and", "or") for call in _FUNCTION_CALL.finditer(bare))
