"""RELAX NG by derivatives, the algorithm jing implements (James Clark, "An algorithm for RELAX NG
validation"): interned patterns (relaxng_grammar.py reads a grammar into them), and the derivative of a
pattern by each event of a document (start tag, attribute, end of start tag, text, end tag).

Patterns are interned (one object per distinct pattern), so equality is identity and derivatives can be
memoised; choices are kept flat and free of duplicates, which keeps their size bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tei.validate.xsd_datatypes import Datatype

QName = tuple[str, str]  # (namespace URI or "", local name)
_WORDS = re.compile(r"[^ \t\r\n]+")  # a list's items are separated by XML white space


class Pattern:
    """One interned pattern: `kind` and its operands; `nullable` if it matches the empty sequence."""

    __slots__ = ("kind", "first", "second", "nullable", "__weakref__")

    def __init__(self, kind: str, first=None, second=None, nullable: bool = False):
        self.kind, self.first, self.second, self.nullable = kind, first, second, nullable

    def __repr__(self) -> str:
        return f"<{self.kind}>"


class ElementPattern(Pattern):
    """An element pattern; its content is read from the grammar the first time a document enters it."""

    __slots__ = ("_build",)

    def __init__(self, names, build: Callable[[], Pattern]):
        super().__init__("element", names)
        self._build = build

    @property
    def content(self) -> Pattern:
        if self.second is None:
            self.second = self._build()
        return self.second


class Patterns:
    """The pattern algebra: interning constructors (which apply RELAX NG's simplifications) and derivatives."""

    def __init__(self):
        self._interned: dict[tuple, Pattern] = {}
        self.empty = self._intern(("empty",), nullable=True)
        self.not_allowed = self._intern(("notAllowed",))
        self.text = self._intern(("text",), nullable=True)
        self._open: dict[tuple[Pattern, QName], Pattern] = {}
        self._close: dict[Pattern, Pattern] = {}
        self._end: dict[Pattern, Pattern] = {}
        self._attribute_values: dict[tuple[Pattern, QName], frozenset[Pattern]] = {}
        self._attribute: dict[tuple[Pattern, QName, frozenset[Pattern] | None], Pattern] = {}
        self._attribute_by_value: dict[tuple[Pattern, QName, str], Pattern] = {}
        self._possible_attributes: dict[Pattern, tuple[frozenset[QName], bool]] = {}
        self._typed: dict[Pattern, bool] = {}
        self._accepts_text: dict[Pattern, bool] = {}
        self._text_members: dict[Pattern, tuple[Pattern, ...]] = {}
        self._untyped_text: dict[Pattern, Pattern] = {}
        self._open_recovering: dict[tuple[Pattern, QName], Pattern] = {}
        self._expected: dict[Pattern, tuple[frozenset[QName], bool]] = {}
        # The namespaces in scope where the document's text is (QName values are read in them): set by the
        # reader of the document's events; no namespace at all until it is.
        self.context: Callable[[str], str | None] = lambda _prefix: None

    def _intern(self, key: tuple, nullable: bool = False) -> Pattern:
        found = self._interned.get(key)
        if found is None:
            found = self._interned[key] = Pattern(key[0], *key[1:], nullable=nullable)
        return found

    # constructors

    def choice(self, first: Pattern, second: Pattern) -> Pattern:
        if first is self.not_allowed or first is second:
            return second
        if second is self.not_allowed:
            return first
        return self.choice_of((first, second))

    def choice_of(self, alternatives) -> Pattern:
        """One choice of all the alternatives, flat and without duplicates (notAllowed ones dropped)."""
        members: set[Pattern] = set()
        for alternative in alternatives:
            if alternative.kind == "choice":
                members.update(alternative.first)
            elif alternative is not self.not_allowed:
                members.add(alternative)
        if len(members) <= 1:
            return members.pop() if members else self.not_allowed
        key = ("choice", frozenset(members))
        found = self._interned.get(key)
        if found is None:
            found = self._interned[key] = Pattern("choice", key[1], nullable=any(m.nullable for m in members))
        return found

    def group(self, first: Pattern, second: Pattern) -> Pattern:
        return self._both("group", first, second)

    def interleave(self, first: Pattern, second: Pattern) -> Pattern:
        return self._both("interleave", first, second)

    def _both(self, kind: str, first: Pattern, second: Pattern) -> Pattern:
        """A group or interleave: notAllowed if either part is, the other part if one is empty."""
        if self.not_allowed in (first, second):
            return self.not_allowed
        if first is self.empty:
            return second
        if second is self.empty:
            return first
        return self._intern((kind, first, second), nullable=first.nullable and second.nullable)

    def one_or_more(self, pattern: Pattern) -> Pattern:
        if pattern in (self.not_allowed, self.empty):
            return pattern
        return self._intern(("oneOrMore", pattern), nullable=pattern.nullable)

    def after(self, first: Pattern, second: Pattern) -> Pattern:
        if self.not_allowed in (first, second):
            return self.not_allowed
        return self._intern(("after", first, second))

    def list_of(self, pattern: Pattern) -> Pattern:
        return self.not_allowed if pattern is self.not_allowed else self._intern(("list", pattern))

    def data(self, type_: Datatype, excepted: Pattern | None) -> Pattern:
        return self._intern(("data", type_, excepted))

    def value(self, type_: Datatype, value: str, context: Callable[[str], str | None] | None = None) -> Pattern:
        """A value pattern; a value whose meaning depends on namespaces (a QName) read in the schema's
        `context` once, here."""
        if type_.context_dependent and context is not None:
            return self._intern(("value", type_, type_.resolved(value, context)))
        return self._intern(("value", type_, type_.normalise(value)))

    def attribute(self, names, pattern: Pattern) -> Pattern:
        return self.not_allowed if pattern is self.not_allowed else self._intern(("attribute", names, pattern))

    # derivatives

    def start_tag_open(self, pattern: Pattern, name: QName) -> Pattern:
        key = (pattern, name)
        if key not in self._open:
            self._open[key] = self._start_tag_open(pattern, name)
        return self._open[key]

    def _start_tag_open(self, p: Pattern, name: QName) -> Pattern:
        kind = p.kind
        if kind == "choice":
            return self.choice_of(self.start_tag_open(member, name) for member in p.first)
        if kind == "element":
            return self.after(p.content, self.empty) if contains(p.first, name) else self.not_allowed
        if kind == "interleave":
            left = self.apply_after(lambda x: self.interleave(x, p.second), self.start_tag_open(p.first, name))
            right = self.apply_after(lambda x: self.interleave(p.first, x), self.start_tag_open(p.second, name))
            return self.choice(left, right)
        if kind == "oneOrMore":
            rest = self.choice(p, self.empty)
            return self.apply_after(lambda x: self.group(x, rest), self.start_tag_open(p.first, name))
        if kind == "group":
            derived = self.apply_after(lambda x: self.group(x, p.second), self.start_tag_open(p.first, name))
            return self.choice(derived, self.start_tag_open(p.second, name)) if p.first.nullable else derived
        if kind == "after":
            return self.apply_after(lambda x: self.after(x, p.second), self.start_tag_open(p.first, name))
        return self.not_allowed

    def apply_after(self, function: Callable[[Pattern], Pattern], p: Pattern) -> Pattern:
        if p.kind == "after":
            return self.after(p.first, function(p.second))
        if p.kind == "choice":
            return self.choice_of(self.apply_after(function, member) for member in p.first)
        return self.not_allowed

    def attribute_value(self, p: Pattern, name: QName, value: str | None) -> Pattern:
        """The derivative by one attribute; with value None, by its name alone (to tell the two errors apart).

        The value matters only through which of the attribute patterns of that name in p it matches, so
        the derivative is memoised by that set (an xml:id, unique in each document, is then derived once
        for all of them)."""
        if value is None:
            return self._attribute_derivative(p, name, None)
        key = (p, name, value)
        found = self._attribute_by_value.get(key)
        if found is None:
            values = self.attribute_values(p, name)
            matched = frozenset(v for v in values if self.value_matches(v, value))
            found = self._attribute_derivative(p, name, matched)
            if not any(self.text_is_context_dependent(v) for v in values):  # else it holds in this context only
                self._attribute_by_value[key] = found
        return found

    def text_is_context_dependent(self, p: Pattern) -> bool:
        """True if the pattern's values may mean something else under other namespace declarations."""
        if p.kind in ("value", "data"):
            return p.first.context_dependent
        if p.kind in ("choice",):
            return any(self.text_is_context_dependent(m) for m in p.first)
        if p.kind in ("group", "interleave"):
            return self.text_is_context_dependent(p.first) or self.text_is_context_dependent(p.second)
        return p.kind in ("oneOrMore", "list", "after") and self.text_is_context_dependent(p.first)

    def _attribute_derivative(self, p: Pattern, name: QName, matched: frozenset[Pattern] | None) -> Pattern:
        """The derivative by an attribute whose value matches the value patterns in `matched` (None: any)."""
        key = (p, name, matched)
        found = self._attribute.get(key)
        if found is None:
            found = self._attribute[key] = self._attribute_step(p, name, matched)
        return found

    def _attribute_step(self, p: Pattern, name: QName, matched: frozenset[Pattern] | None) -> Pattern:
        if not self.attribute_values(p, name):
            return self.not_allowed
        kind, derive = p.kind, self._attribute_derivative
        if kind == "after":
            return self.after(derive(p.first, name, matched), p.second)
        if kind == "choice":
            return self.choice_of(derive(member, name, matched) for member in p.first)
        if kind == "group":
            return self.choice(
                self.group(derive(p.first, name, matched), p.second),
                self.group(p.first, derive(p.second, name, matched)),
            )
        if kind == "interleave":
            return self.choice(
                self.interleave(derive(p.first, name, matched), p.second),
                self.interleave(p.first, derive(p.second, name, matched)),
            )
        if kind == "oneOrMore":
            return self.group(derive(p.first, name, matched), self.choice(p, self.empty))
        if kind == "attribute" and contains(p.first, name):
            return self.empty if matched is None or p.second in matched else self.not_allowed
        return self.not_allowed

    def attribute_values(self, p: Pattern, name: QName) -> frozenset[Pattern]:
        """The value patterns of the attribute patterns of this name standing in p (outside its elements);
        none: the derivative by that attribute is notAllowed without looking further."""
        key = (p, name)
        found = self._attribute_values.get(key)
        if found is None:
            kind = p.kind
            if kind == "attribute":
                found = frozenset((p.second,)) if contains(p.first, name) else frozenset()
            elif kind == "choice":
                found = frozenset().union(*(self.attribute_values(member, name) for member in p.first))
            elif kind in ("group", "interleave"):
                found = self.attribute_values(p.first, name) | self.attribute_values(p.second, name)
            elif kind in ("after", "oneOrMore"):
                found = self.attribute_values(p.first, name)
            else:
                found = frozenset()
            self._attribute_values[key] = found
        return found

    def value_matches(self, p: Pattern, value: str) -> bool:
        return (p.nullable and is_whitespace(value)) or self.text_value(p, value).nullable

    def start_tag_close(self, p: Pattern, missing_attributes_allowed: bool = False) -> Pattern:
        """After the last attribute; with missing_attributes_allowed (error recovery), as if they were there."""
        key = (p, missing_attributes_allowed)
        if key not in self._close:
            self._close[key] = self._start_tag_close(p, missing_attributes_allowed)
        return self._close[key]

    def _start_tag_close(self, p: Pattern, lenient: bool) -> Pattern:
        kind = p.kind
        if kind == "after":
            return self.after(self.start_tag_close(p.first, lenient), p.second)
        if kind == "choice":
            return self.choice_of(self.start_tag_close(member, lenient) for member in p.first)
        if kind == "group":
            return self.group(self.start_tag_close(p.first, lenient), self.start_tag_close(p.second, lenient))
        if kind == "interleave":
            return self.interleave(self.start_tag_close(p.first, lenient), self.start_tag_close(p.second, lenient))
        if kind == "oneOrMore":
            return self.one_or_more(self.start_tag_close(p.first, lenient))
        if kind == "attribute":
            return self.empty if lenient else self.not_allowed
        return p

    def text_value(self, p: Pattern, text: str) -> Pattern:
        """The derivative by a text. Where no data, value or list can match it (text_is_typed), the text's
        content does not matter: that derivative is computed once for the pattern."""
        if not self.accepts_text(p):
            return self.not_allowed
        if self.text_is_typed(p):
            return self._text_value(p, text)
        found = self._untyped_text.get(p)
        if found is None:
            found = self._untyped_text[p] = self._text_value(p, text)
        return found

    def _text_value(self, p: Pattern, text: str) -> Pattern:
        kind = p.kind
        if kind == "choice":
            return self.choice_of(self.text_value(member, text) for member in self._text_members[p])
        if kind == "interleave":
            return self.choice(
                self.interleave(self.text_value(p.first, text), p.second),
                self.interleave(p.first, self.text_value(p.second, text)),
            )
        if kind == "group":
            derived = self.group(self.text_value(p.first, text), p.second)
            return self.choice(derived, self.text_value(p.second, text)) if p.first.nullable else derived
        if kind == "after":
            return self.after(self.text_value(p.first, text), p.second)
        if kind == "oneOrMore":
            return self.group(self.text_value(p.first, text), self.choice(p, self.empty))
        if kind == "text":
            return p
        if kind == "value":
            return self.empty if p.first.equal(p.second, text, self.context) else self.not_allowed
        if kind == "data":
            allowed = p.first.allows(text, self.context) and not (
                p.second is not None and self.text_value(p.second, text).nullable
            )
            return self.empty if allowed else self.not_allowed
        if kind == "list":
            derived = p.first
            for word in _WORDS.findall(text):
                derived = self.text_value(derived, word)
            return self.empty if derived.nullable else self.not_allowed
        return self.not_allowed

    def text_children(self, p: Pattern, text: str) -> Pattern:
        """Text between tags: whitespace only may also be ignored (RELAX NG strips it between elements)."""
        derived = self.text_value(p, text)
        return self.choice(p, derived) if is_whitespace(text) else derived

    def end_tag(self, p: Pattern) -> Pattern:
        if p not in self._end:
            if p.kind == "choice":
                result = self.choice_of(self.end_tag(member) for member in p.first)
            else:
                result = p.second if p.kind == "after" and p.first.nullable else self.not_allowed
            self._end[p] = result
        return self._end[p]

    def end_tag_recovering(self, p: Pattern) -> Pattern:
        """After an incomplete element (error recovery): carry on as if its content had been complete."""
        if p.kind == "choice":
            return self.choice_of(self.end_tag_recovering(member) for member in p.first)
        return p.second if p.kind == "after" else self.not_allowed

    def accepts_text(self, p: Pattern) -> bool:
        """False when no text can be matched at the start of p (most members of a large choice are elements)."""
        if p not in self._accepts_text:
            kind = p.kind
            if kind == "choice":
                self._text_members[p] = tuple(m for m in p.first if self.accepts_text(m))
                accepts = bool(self._text_members[p])
            elif kind == "group":
                accepts = self.accepts_text(p.first) or (p.first.nullable and self.accepts_text(p.second))
            elif kind == "interleave":
                accepts = self.accepts_text(p.first) or self.accepts_text(p.second)
            else:
                accepts = kind in ("text", "data", "value", "list") or (
                    kind in ("after", "oneOrMore") and self.accepts_text(p.first)
                )
            self._accepts_text[p] = accepts
        return self._accepts_text[p]

    def text_is_typed(self, p: Pattern) -> bool:
        """True where the content allows data or values (jing checks such text whole, at the end tag;
        other text it checks as it comes)."""
        if p not in self._typed:
            kind = p.kind
            if kind in ("data", "value", "list"):
                typed = True
            elif kind == "choice":
                typed = any(self.text_is_typed(member) for member in p.first)
            elif kind in ("group", "interleave"):
                typed = self.text_is_typed(p.first) or self.text_is_typed(p.second)
            else:
                typed = kind in ("after", "oneOrMore") and self.text_is_typed(p.first)
            self._typed[p] = typed
        return self._typed[p]

    def start_tag_open_recovering(self, p: Pattern, name: QName) -> Pattern:
        """jing's derivative for an element that is not allowed here: as start_tag_open, but a group may
        also begin with its second part although its first part is required. Not notAllowed when the
        element would be allowed after elements still missing ("not allowed yet")."""
        key = (p, name)
        if key not in self._open_recovering:
            self._open_recovering[key] = self._start_tag_open_recovering(p, name)
        return self._open_recovering[key]

    def _start_tag_open_recovering(self, p: Pattern, name: QName) -> Pattern:
        kind = p.kind
        if kind == "choice":
            return self.choice_of(self.start_tag_open_recovering(member, name) for member in p.first)
        if kind == "interleave":
            left = self.apply_after(
                lambda x: self.interleave(x, p.second), self.start_tag_open_recovering(p.first, name)
            )
            right = self.apply_after(
                lambda x: self.interleave(p.first, x), self.start_tag_open_recovering(p.second, name)
            )
            return self.choice(left, right)
        if kind == "oneOrMore":
            rest = self.choice(p, self.empty)
            return self.apply_after(lambda x: self.group(x, rest), self.start_tag_open_recovering(p.first, name))
        if kind == "group":
            derived = self.apply_after(lambda x: self.group(x, p.second), self.start_tag_open_recovering(p.first, name))
            return self.choice(derived, self.start_tag_open_recovering(p.second, name))
        if kind == "after":
            return self.apply_after(lambda x: self.after(x, p.second), self.start_tag_open_recovering(p.first, name))
        return self.start_tag_open(p, name)

    def expected_elements(self, p: Pattern) -> tuple[frozenset[QName], bool]:
        """Names of the elements that could start here (jing's possible start-tag names: an element's own
        content only, never what may follow it), and whether an element of another namespace could."""
        if p not in self._expected:
            names: set[QName] = set()
            wildcard = self._collect_names(p, names, set())
            self._expected[p] = frozenset(names), wildcard
        return self._expected[p]

    def _collect_names(self, p: Pattern, names: set[QName], seen: set[int]) -> bool:
        if id(p) in seen or p.kind in ("empty", "notAllowed", "text", "data", "value", "list", "attribute"):
            return False
        seen.add(id(p))
        if p.kind == "element":
            listed = name_class_names(p.first)
            names.update(n for n in listed if n is not None)
            return None in listed
        if p.kind == "choice":
            return any([self._collect_names(member, names, seen) for member in p.first])
        if p.kind == "interleave" or (p.kind == "group" and p.first.nullable):
            return any([self._collect_names(p.first, names, seen), self._collect_names(p.second, names, seen)])
        return self._collect_names(p.first, names, seen)  # group, after (its first only), oneOrMore

    def required_elements(self, p: Pattern) -> set[QName]:
        """jing's required element names: those every way through p must start (a choice: what all its
        members require; a group: its first part's, or its second's when the first may be empty)."""
        kind = p.kind
        if kind == "element":
            return {(p.first[1], p.first[2])} if p.first[0] == "name" else set()
        if kind == "choice":
            required = [self.required_elements(member) for member in p.first]
            return set.intersection(*required) if all(required) else set()
        if kind == "group":
            return self.required_elements(p.second if p.first.nullable else p.first)
        if kind == "interleave":
            return self.required_elements(p.first) | self.required_elements(p.second)
        if kind in ("after", "oneOrMore"):
            return self.required_elements(p.first)
        return set()

    def required_attributes(self, p: Pattern) -> set[QName]:
        """jing's required attribute names: those every choice of p still has to have (a choice: what
        all its members require; a group or interleave: what either part does)."""
        kind = p.kind
        if kind == "attribute":
            return {(p.first[1], p.first[2])} if p.first[0] == "name" else set()
        if kind == "choice":
            required = [self.required_attributes(member) for member in p.first]
            return set.intersection(*required) if all(required) else set()
        if kind in ("group", "interleave"):
            return self.required_attributes(p.first) | self.required_attributes(p.second)
        if kind in ("after", "oneOrMore"):
            return self.required_attributes(p.first)
        return set()

    def possible_attributes(self, p: Pattern) -> tuple[frozenset[QName], bool]:
        """Names of the attributes that may still come, and whether any of a name class (a wildcard) may."""
        if p in self._possible_attributes:
            return self._possible_attributes[p]
        kind = p.kind
        if kind == "attribute":
            result = (frozenset({(p.first[1], p.first[2])}), False) if p.first[0] == "name" else (frozenset(), True)
        elif kind in ("choice", "group", "interleave"):
            members = p.first if kind == "choice" else (p.first, p.second)
            found = [self.possible_attributes(member) for member in members]
            result = frozenset().union(*(names for names, _ in found)), any(wildcard for _, wildcard in found)
        elif kind in ("after", "oneOrMore"):
            result = self.possible_attributes(p.first)
        else:
            result = frozenset(), False
        self._possible_attributes[p] = result
        return result

    def values_allowed(self, p: Pattern) -> list[str] | None:
        """The values that may come here (sorted, as jing lists them in the cases compared), when nothing but values of
        a datatype read without namespaces may (else None)."""
        if p.kind == "after":
            return self.values_allowed(p.first)
        if p.kind == "value" and not p.first.context_dependent:
            return [p.second]
        if p.kind == "choice":
            found = [self.values_allowed(member) for member in p.first]
            if any(values is None for values in found):
                return None
            return sorted({value for values in found for value in values})
        return None

    def allows_end_tag(self, p: Pattern) -> bool:
        return self.end_tag(p) is not self.not_allowed

    def allows_text(self, p: Pattern) -> bool:
        """True where text that is not white space may come next (mixed content, not data)."""
        return not self.text_is_typed(p) and self.text_value(p, "x") is not self.not_allowed


def is_whitespace(text: str) -> bool:
    return not text.strip(" \t\r\n")


# name classes: ("name", ns, local), ("anyName", except), ("nsName", ns, except), ("choice", a, b)


def contains(names: tuple, name: QName) -> bool:
    kind = names[0]
    if kind == "name":
        return (names[1], names[2]) == name
    if kind == "anyName":
        return names[1] is None or not contains(names[1], name)
    if kind == "nsName":
        return names[1] == name[0] and (names[2] is None or not contains(names[2], name))
    return contains(names[1], name) or contains(names[2], name)


def name_class_names(names: tuple) -> list[QName | None]:
    """The names of a name class; None stands for any name (of a namespace, or any at all)."""
    if names[0] == "name":
        return [(names[1], names[2])]
    if names[0] == "choice":
        return name_class_names(names[1]) + name_class_names(names[2])
    return [None]
