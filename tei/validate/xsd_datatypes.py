"""The datatypes a RELAX NG grammar names: RELAX NG's built-in string and token, and XML Schema 1.0's
(the library jing uses), with the facets grammars give as <param> (pattern, length, ranges)."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import cache

import regex

XSD_LIBRARY = "http://www.w3.org/2001/XMLSchema-datatypes"

_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_INTEGER = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN")
_NOT_SIMPLE = re.compile(r"\\[icwWIC]|-\[|\\[pP]\{Is")
_XML_SPACE = re.compile(r"[\t\r\n]")  # XML Schema's white space is these and the space only
_XML_SPACES = re.compile(r"[ \t\r\n]+")
_BOOLEAN = frozenset({"true", "false", "1", "0"})
_YEAR_ZERO = re.compile(r"-?0000(?!\d)")  # XML Schema 1.0 has no year zero
_INTEGER_RANGES = {
    "integer": (None, None),
    "nonNegativeInteger": (0, None),
    "positiveInteger": (1, None),
    "nonPositiveInteger": (None, 0),
    "negativeInteger": (None, -1),
    "long": (-(2**63), 2**63 - 1),
    "int": (-(2**31), 2**31 - 1),
    "short": (-(2**15), 2**15 - 1),
    "byte": (-128, 127),
    "unsignedLong": (0, 2**64 - 1),
    "unsignedInt": (0, 2**32 - 1),
    "unsignedShort": (0, 65535),
    "unsignedByte": (0, 255),
}
_TIMEZONE = r"(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
_YEAR = r"-?([1-9][0-9]{3,}|0[0-9]{3})"
_MONTH, _DAY = r"(0[1-9]|1[0-2])", r"(0[1-9]|[12][0-9]|3[01])"
_TIME = r"(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?|24:00:00(\.0+)?)"
_NAME_START = (
    "A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_NAME_CHAR = _NAME_START + "\\-.0-9\u00b7\u0300-\u036f\u203f\u2040"
_LEXICAL = {
    name: re.compile(expression)
    for name, expression in {  # XML Schema 1.0's lexical spaces
        "date": f"{_YEAR}-{_MONTH}-{_DAY}{_TIMEZONE}",
        "dateTime": f"{_YEAR}-{_MONTH}-{_DAY}T{_TIME}{_TIMEZONE}",
        "time": f"{_TIME}{_TIMEZONE}",
        "gYear": f"{_YEAR}{_TIMEZONE}",
        "gYearMonth": f"{_YEAR}-{_MONTH}{_TIMEZONE}",
        "gMonth": f"--{_MONTH}{_TIMEZONE}",
        "gDay": f"---{_DAY}{_TIMEZONE}",
        "gMonthDay": f"--{_MONTH}-{_DAY}{_TIMEZONE}",
        "duration": r"-?P(?=[0-9]|T[0-9])([0-9]+Y)?([0-9]+M)?([0-9]+D)?"
        r"(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+(\.[0-9]+)?S)?)?",
        "language": r"[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*",
        "NCName": f"[{_NAME_START}][{_NAME_CHAR}]*",
        "Name": f"[:{_NAME_START}][:{_NAME_CHAR}]*",
        "NMTOKEN": f"[:{_NAME_CHAR}]+",
        "anyURI": r"([^%#]|%[0-9A-Fa-f]{2})*(#([^%#]|%[0-9A-Fa-f]{2})*)?",
    }.items()
}
for _alias in ("ID", "IDREF", "ENTITY"):
    _LEXICAL[_alias] = _LEXICAL["NCName"]
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # 29: a leap year's February
_ELEMENTPATH_TYPES = {"QName": "QName", "base64Binary": "Base64Binary", "hexBinary": "HexBinary"}
_LISTS = {"IDREFS": "NCName", "ENTITIES": "NCName", "NMTOKENS": "NMTOKEN"}
_DATES = frozenset({"date", "dateTime", "gYear", "gYearMonth"})
_CONTEXT_DEPENDENT = frozenset({"QName", "NOTATION"})  # values read in the namespaces declared where they stand


class Datatype:
    """One datatype with its facets: `allows(text)` and `equal(value, text)` as jing applies them."""

    def __init__(self, library: str, name: str, params: tuple[tuple[str, str], ...]):
        self.library, self.name, self.params = library, name, params
        self.whitespace = "preserve" if name == "string" else "replace" if name == "normalizedString" else "collapse"
        self._patterns = [_pattern(value) for key, value in params if key == "pattern"]  # tests of whole values
        self.context_dependent = library == XSD_LIBRARY and name in _CONTEXT_DEPENDENT

    def __repr__(self) -> str:
        return f"<datatype {self.name}>"

    def normalise(self, text: str) -> str:
        if self.whitespace == "collapse":
            return _XML_SPACES.sub(" ", text).strip(" ")
        if self.whitespace == "replace":
            return _XML_SPACE.sub(" ", text)
        return text

    def allows(self, text: str, context: Callable[[str], str | None] | None = None) -> bool:
        """Whether the text is of this type; a QName's prefix must be declared in the `context` (prefix to
        namespace, where the text stands) when one is given."""
        value = self.normalise(text)
        if self.library == XSD_LIBRARY and not _lexically_valid(self.name, value):
            return False
        if self.context_dependent and context is not None and self.resolved(value, context) is None:
            return False
        return all(matches(value) for matches in self._patterns) and self._within_facets(value)

    def equal(self, value: str, text: str, context: Callable[[str], str | None] | None = None) -> bool:
        """Whether the text stands for the value (a QName: the same namespace and local name, each read in
        its own context; `value` was resolved in the schema's)."""
        if self.context_dependent and context is not None:
            return self.allows(text, context) and value == self.resolved(text, context)
        return self.allows(text) and value == self.normalise(text)

    def resolved(self, text: str, context: Callable[[str], str | None]) -> str | None:
        """A QName as "{namespace}local" read in the context (an unprefixed one in the default namespace,
        context("")); None if its prefix is not declared there."""
        value = self.normalise(text)
        prefix, _, local = value.rpartition(":")
        namespace = context(prefix)
        if namespace is None and prefix:
            return None
        return f"{{{namespace or ''}}}{local}"

    def _within_facets(self, value: str) -> bool:
        for key, limit in self.params:
            if key in ("length", "minLength", "maxLength"):
                size = len(value.split()) if self.name in _LISTS else len(value)
                if not {"length": size == int(limit), "minLength": size >= int(limit), "maxLength": size <= int(limit)}[
                    key
                ]:
                    return False
            elif key in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
                number, bound = _number(value), _number(limit)
                if number is None or bound is None or not _compare(key, number, bound):
                    return False
        return True


@cache
def datatype(library: str, name: str, params: tuple[tuple[str, str], ...]) -> Datatype:
    return Datatype(library, name, params)


def _lexically_valid(name: str, value: str) -> bool:
    if name in ("string", "normalizedString", "token"):
        return True
    if name == "boolean":
        return value in _BOOLEAN
    if name == "decimal":
        return bool(_DECIMAL.fullmatch(value))
    if name in ("double", "float"):
        return bool(_FLOAT.fullmatch(value))
    if name in _INTEGER_RANGES:
        low, high = _INTEGER_RANGES[name]
        return (
            bool(_INTEGER.fullmatch(value))
            and (low is None or int(value) >= low)
            and (high is None or int(value) <= high)
        )
    if name in _LISTS:
        words = value.split(" ")
        return bool(value) and all(_LEXICAL[_LISTS[name]].fullmatch(w) for w in words)
    if name in _LEXICAL:
        return bool(_LEXICAL[name].fullmatch(value)) and _real_date(name, value)
    if name in _ELEMENTPATH_TYPES:
        return bool(_elementpath_type(_ELEMENTPATH_TYPES[name]).is_valid(value))
    return True  # a type this library does not know is not held against the document


def _real_date(name: str, value: str) -> bool:
    """No year zero (XML Schema 1.0), and no day past the end of its month (February 29 only in leap years)."""
    if name in _DATES and _YEAR_ZERO.match(value):
        return False
    if name not in ("date", "dateTime", "gMonthDay"):
        return True
    numbers = [int(n) for n in re.findall(r"[0-9]+", value.lstrip("-"))]
    year, month, day = (None, *numbers[:2]) if name == "gMonthDay" else numbers[:3]
    if day > _DAYS_IN_MONTH[month - 1]:
        return False
    leap = year is None or (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0))
    return not (month == 2 and day == 29 and not leap)


def _elementpath_type(name: str):
    import elementpath.datatypes

    return getattr(elementpath.datatypes, name)


@cache
def _pattern(xsd_regex: str) -> Callable[[str], bool]:
    """A test that a whole value matches an XML Schema regular expression."""
    translated = _simple_translation(xsd_regex)
    if translated is not None:
        return regex.compile(translated).fullmatch
    from elementpath.regex import translate_pattern  # complete, but slow to build Unicode classes

    return re.compile(translate_pattern(xsd_regex, anchors=False)).search


def _simple_translation(xsd_regex: str) -> str | None:
    """The expression for the `regex` module (which knows \\p{...} itself), for the usual XML Schema
    expressions; None for those using what differs more (\\i, \\c, \\w, class subtraction, block names)."""
    if _NOT_SIMPLE.search(xsd_regex):
        return None
    translated, in_class, index = [], False, 0
    while index < len(xsd_regex):
        character = xsd_regex[index]
        if character == "\\":
            escape = xsd_regex[index : index + 2]
            if escape in ("\\s", "\\S"):
                if in_class and escape == "\\S":
                    return None
                spaces = " \\t\\n\\r"
                translated.append(spaces if in_class else f"[{spaces}]" if escape == "\\s" else f"[^{spaces}]")
            else:
                translated.append(escape)
            index += 2
            continue
        if in_class:
            in_class = character != "]"
            translated.append("\\[" if character == "[" else character)
        elif character == "[":
            in_class = True
            translated.append(character)
            if xsd_regex[index + 1 : index + 2] == "]":  # a "]" first in a class is a character
                return None
        else:
            translated.append({".": "[^\\n\\r]", "^": "\\^", "$": "\\$"}.get(character, character))
        index += 1
    return "".join(translated)


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("INF", "Infinity"))
    except InvalidOperation:
        return None


def _compare(key: str, number: Decimal, bound: Decimal) -> bool:
    if number.is_nan():
        return False
    return {
        "minInclusive": number >= bound,
        "maxInclusive": number <= bound,
        "minExclusive": number > bound,
        "maxExclusive": number < bound,
    }[key]
