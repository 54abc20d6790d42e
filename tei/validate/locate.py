"""Where jing reports a document's RELAX NG errors, and in its words: the document's events, each with the
line and column jing gives it (the end of the tag), run through the grammar's derivatives (relaxng.py),
recovering after each error so that the errors after the first are found too (an element that is not
allowed is skipped with its content, where jing checks that content against another pattern of its name,
so later errors may differ from jing's; the first never does).

jing reports a start tag's errors (element not allowed, attributes, missing attributes) at the end of
that start tag, text that is not allowed where it ends (at the next tag or comment), and an incomplete
element at its end tag.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from lxml import etree

from tei.validate.relaxng import Grammar, Pattern, QName, is_whitespace
from tei.xmlio import XML_NS

MAX_ERRORS = 200
SOURCE_CHUNK = 1 << 20  # bytes given to expat at a time
EXPECTED_NAMES_SHOWN = 12
_TAG = re.compile(rb"""<[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>""")
_ENCODING = re.compile(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


@dataclass(frozen=True)
class Located:
    """One error as jing would place it."""

    line: int | None
    column: int | None
    message: str


@dataclass
class _Open:
    """An element whose end tag has not come yet."""

    name: QName
    had_child: bool = False
    skipped: bool = False  # not allowed where it is: its content is not checked


def errors(grammar: Grammar, tree: etree._ElementTree) -> list[Located]:
    """The document's errors against the grammar, in document order, at jing's positions."""
    walk = _Walk(grammar)
    for event in _events(tree):
        if len(walk.found) >= MAX_ERRORS:
            break
        walk.take(event)
    return walk.found


def _events(tree: etree._ElementTree) -> Iterator[tuple]:
    """The document's events, read from its bytes as they stream by (so a large document is never held
    as events), or from the tree when there are no bytes to read or expat refuses them at once."""
    source = _source_bytes(tree)
    if source is None:
        yield from _events_from_tree(tree)
        return
    started = False
    try:
        for event in _events_from_source(source):
            started = True
            yield event
    except expat.ExpatError:  # lxml read what expat will not (which no test has shown): what was found stands
        if not started:
            yield from _events_from_tree(tree)


class _Walk:
    """The derivative of the grammar by the events so far, and the errors met on the way."""

    def __init__(self, grammar: Grammar):
        self.grammar, self.patterns = grammar, grammar.patterns
        self.pattern = grammar.start
        self.open: list[_Open] = []
        self.typed_text: list[str] = []  # text of an element with data content, matched whole at its end
        self.found: list[Located] = []

    def take(self, event: tuple) -> None:
        kind = event[0]
        if self.open and self.open[-1].skipped:
            if kind == "start":
                self.open.append(_Open(event[1], skipped=True))
            elif kind == "end":
                self.open.pop()
        elif kind == "text":
            self.text(*event[1:])
        elif kind == "start":
            self.start(*event[1:])
        else:
            self.end(*event[1:])

    def step(self, derived: Pattern, line: int | None, column: int | None, describe: Callable[[], str]) -> bool:
        """Move on to the derived pattern; if it is notAllowed, record the error (described only then) and
        stay where it was, as jing recovers."""
        if derived is self.patterns.not_allowed:
            self.found.append(Located(line, column, describe()))
            return False
        self.pattern = derived
        return True

    def text(self, text: str, line: int | None, column: int | None) -> None:
        if self.open and self.patterns.text_is_typed(self.pattern):
            self.typed_text.append(text)
        elif not is_whitespace(text):
            before = self.pattern
            self.step(
                self.patterns.text_value(before, text),
                line,
                column,
                lambda: f"text not allowed here{_expected(self.patterns, _inner(before))}",
            )

    def start(self, name: QName, attributes: list, line: int | None, column: int | None) -> None:
        patterns = self.patterns
        if not is_whitespace("".join(self.typed_text)):  # data content may not hold elements
            self.found.append(Located(line, column, "text not allowed here"))
        self.typed_text = []
        if self.open:
            self.open[-1].had_child = True
        before = self.pattern
        if not self.step(
            patterns.start_tag_open(before, name),
            line,
            column,
            lambda: self._not_allowed(name) + _expected(patterns, before),
        ):
            self.open.append(_Open(name, skipped=True))
            return
        for attribute, value in attributes:
            opened = self.pattern
            self.step(
                patterns.attribute_value(opened, attribute, value),
                line,
                column,
                lambda opened=opened, attribute=attribute: (
                    f"{self._attribute_problem(opened, attribute)} (element {_show(name)})"
                ),
            )
        if not self.step(
            patterns.start_tag_close(self.pattern),
            line,
            column,
            lambda: f"element {_show(name)} missing a required attribute",
        ):
            self.pattern = patterns.start_tag_close(self.pattern, missing_attributes_allowed=True)
        self.open.append(_Open(name))

    def end(self, line: int | None, column: int | None) -> None:
        patterns, element = self.patterns, self.open.pop()
        content, self.typed_text = "".join(self.typed_text), []
        if not element.had_child:  # an element without children matches its text, even "", as a whole
            self.step(
                patterns.text_children(self.pattern, content),
                line,
                column,
                lambda: f"character content of element {_show(element.name)} invalid",
            )
        before = self.pattern
        if not self.step(
            patterns.end_tag(before),
            line,
            column,
            lambda: f"element {_show(element.name)} incomplete{_expected(patterns, _inner(before))}",
        ):
            self.pattern = patterns.end_tag_recovering(before)

    def _not_allowed(self, name: QName) -> str:
        known = self.grammar.element_names is None or name in self.grammar.element_names
        return f"element {_show(name)} not allowed {'here' if known else 'anywhere'}"

    def _attribute_problem(self, opened: Pattern, attribute: QName) -> str:
        """Whether the attribute may not stand here at all, or only not with this value."""
        if self.patterns.attribute_value(opened, attribute, None) is self.patterns.not_allowed:
            return f"attribute {_show(attribute)} not allowed here"
        return f"value of attribute {_show(attribute)} is invalid"


def _inner(pattern: Pattern) -> Pattern:
    """An element's own content pattern, from the 'after' patterns of where it stands."""
    members = pattern.first if pattern.kind == "choice" else (pattern,)
    inner = [m.first for m in members if m.kind == "after"]
    return inner[0] if len(inner) == 1 else pattern


def _expected(patterns, pattern: Pattern) -> str:
    """'; expected element "a", "b" or "c"' as jing words it, the list cut short after a dozen names."""
    names = [f'"{name}"' for name in patterns.expected_elements(pattern)]
    if not names:
        return ""
    if len(names) > EXPECTED_NAMES_SHOWN:
        names = names[:EXPECTED_NAMES_SHOWN] + [f"{len(names) - EXPECTED_NAMES_SHOWN} more"]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"; expected element {listed}"


def _show(name: QName) -> str:
    return f'"xml:{name[1]}"' if name[0] == XML_NS else f'"{name[1]}"'


def _source_bytes(tree: etree._ElementTree) -> bytes | None:
    """The bytes the tree was parsed from, when they are a UTF-8 file (positions are counted in them)."""
    url = tree.docinfo.URL
    try:
        data = Path(url).read_bytes() if url and url != "-" else None  # "-": it came from standard input
    except OSError:
        return None
    declared = _ENCODING.match(data or b"")
    if (
        data is None
        or data.startswith((b"\xff\xfe", b"\xfe\xff"))
        or (declared and declared.group(1).lower() not in (b"utf-8", b"utf8", b"us-ascii", b"ascii"))
    ):
        return None
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _events_from_source(data: bytes) -> Iterator[tuple]:
    """start/text/end events from the bytes by expat, a chunk at a time, each tag with jing's line and
    column; a text's position (where it ends) is known when the next tag comes."""
    events: list[tuple] = []
    line_starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.ordered_attributes = True
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    empty_element_end: list[tuple[int, int]] = []  # where an empty-element tag's end event is reported

    def position(byte: int) -> tuple[int, int]:
        line = bisect.bisect_right(line_starts, max(byte - 1, 0))
        return line, len(data[line_starts[line - 1] : byte].decode("utf-8", "replace")) + 1

    def tag_end() -> int:
        found = _TAG.match(data, parser.CurrentByteIndex)
        return found.end() if found else parser.CurrentByteIndex

    def close_text(*_markup) -> None:
        """A text ends where the next markup begins (a tag, comment, processing instruction or CDATA)."""
        if events and len(events[-1]) == 2:
            events[-1] = ("text", events[-1][1], *position(parser.CurrentByteIndex))

    def tag(event: tuple) -> None:
        close_text()
        events.append(event)

    def start(name, attributes):
        pairs = [(_qname(attributes[i]), attributes[i + 1]) for i in range(0, len(attributes), 2)]
        end = tag_end()
        if data[end - 2 : end] == b"/>":
            empty_element_end.append(position(end))
        tag(("start", _qname(name), pairs, *position(end)))

    def end(_name):
        tag(("end", *(empty_element_end.pop() if empty_element_end else position(tag_end()))))

    def text(characters: str) -> None:
        if events and len(events[-1]) == 2:  # expat may hand one text over in pieces
            events[-1] = ("text", events[-1][1] + characters)
        else:
            events.append(("text", characters))

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, text
    parser.CommentHandler = parser.ProcessingInstructionHandler = close_text
    parser.StartCdataSectionHandler = parser.EndCdataSectionHandler = close_text
    for offset in range(0, len(data), SOURCE_CHUNK):
        parser.Parse(data[offset : offset + SOURCE_CHUNK], offset + SOURCE_CHUNK >= len(data))
        ready = len(events) - (1 if events and len(events[-1]) == 2 else 0)  # a text still open waits
        yield from events[:ready]
        del events[:ready]


def _qname(expat_name: str) -> QName:
    namespace, _, local = expat_name.rpartition(" ")
    return namespace, local


def _events_from_tree(tree: etree._ElementTree) -> Iterator[tuple]:
    """The same events from the parsed tree, each tag at its element's line (no column is known)."""

    def walk(element: etree._Element) -> Iterator[tuple]:
        name = etree.QName(element)
        attributes = [((etree.QName(k).namespace or "", etree.QName(k).localname), v) for k, v in element.items()]
        yield "start", (name.namespace or "", name.localname), attributes, element.sourceline, None
        if element.text:
            yield "text", element.text, element.sourceline, None
        for child in element:
            if isinstance(child.tag, str):
                yield from walk(child)
            if child.tail:
                yield "text", child.tail, child.sourceline, None
        yield "end", element.sourceline, None

    yield from walk(tree.getroot())
