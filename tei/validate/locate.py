"""Where jing reports a document's RELAX NG errors, and in its words: the document's events, each with the
line and column jing gives it (the end of the tag), run through the grammar's derivatives (relaxng.py),
recovering after each error so that the errors after the first are found too (an element that is not
allowed is skipped with its content, where jing checks that content against another pattern of its name,
so later errors may differ from jing's; the first never does).

jing reports a start tag's errors (element not allowed, attributes, missing attributes) at the end of
that start tag, text that is not allowed where it ends (at the next tag or comment), and an incomplete
element at its end tag.

The words are jing's too (its PatternMatcher): what was expected is what the pattern before the error
allows next - "the element end-tag", "text" (or "data") and the elements that could start, taken from
the current element's own content only; an element the grammar has nowhere is "not allowed anywhere",
one that would be allowed after elements still missing "not allowed yet" (with the required ones when
every way on needs them), a start tag without an attribute names the required ones. Names are written
as the document writes them: a prefix in scope, or one made up ("ns") and declared after the list. Two
differences are kept on purpose: a list of expected elements stops after a dozen ("or 40 more"), and an
attribute error names its element instead of listing the attributes that were allowed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from lxml import etree

from tei.validate.relaxng import Pattern, QName, is_whitespace
from tei.validate.relaxng_grammar import Grammar
from tei.xmlio import XML_NS

MAX_ERRORS = 200
SOURCE_CHUNK = 1 << 20  # bytes given to expat at a time
EXPECTED_NAMES_SHOWN = 12
_NOT_WHITE = re.compile(rb"[^ \t\n]")
_PIECE_END = re.compile(rb"[\n&]")  # where jing's parser ends a piece of text (a line end, a reference)
_TAG = re.compile(rb"""<[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>""")


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
    written: str  # the name as the document writes it (with its prefix), as jing quotes it
    had_child: bool = False
    skipped: bool = False  # not allowed where it is: its content is not checked


def errors(grammar: Grammar, tree: etree._ElementTree, limit: int = MAX_ERRORS) -> list[Located]:
    """The document's errors against the grammar, in document order, at jing's positions (the first `limit`)."""
    if grammar.start is grammar.patterns.not_allowed:  # jing says so before it reads the document
        return [Located(1, 1, "schema does not allow anything: it is equivalent to <notAllowed/>")]
    walk = _Walk(grammar)
    for event in _events(tree):
        if len(walk.found) >= limit:
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
        self.names = _Names()
        self.patterns.context = self.names.uri  # QName values are read in the namespaces in scope

    def take(self, event: tuple) -> None:
        kind = event[0]
        if kind == "ns" and event[2] is None:  # a namespace declaration goes out of scope
            self.names.undeclare(event[1])
        elif kind == "ns":
            self.names.declare(event[1], event[2])
        elif self.open and self.open[-1].skipped:
            if kind == "start":
                self.open.append(_Open(event[1], event[2], skipped=True))
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
                lambda: f"text not allowed here{self._expected(before)}",
            )

    def start(self, name: QName, written: str, attributes: list, line: int | None, column: int | None) -> None:
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
            lambda: self._not_allowed(before, name, written),
        ):
            self.open.append(_Open(name, written, skipped=True))
            return
        for attribute, attribute_written, value in attributes:
            opened = self.pattern
            self.step(
                patterns.attribute_value(opened, attribute, value),
                line,
                column,
                lambda opened=opened, attribute=attribute, shown=attribute_written: self._attribute_problem(
                    opened, attribute, shown, written
                ),
            )
        if not self.step(
            patterns.start_tag_close(self.pattern),
            line,
            column,
            lambda: self._missing_attributes(written),
        ):
            self.pattern = patterns.start_tag_close(self.pattern, missing_attributes_allowed=True)
        self.open.append(_Open(name, written))

    def end(self, line: int | None, column: int | None) -> None:
        patterns, element = self.patterns, self.open.pop()
        content, self.typed_text = "".join(self.typed_text), []
        if not element.had_child:  # an element without children matches its text, even "", as a whole
            typed = patterns.text_is_typed(self.pattern)
            derived = patterns.text_children(self.pattern, content)
            if typed and derived is not patterns.not_allowed and not patterns.allows_end_tag(derived):
                derived = patterns.not_allowed  # data that may not be empty (or white space): jing blames the text
            opened = self.pattern
            if (
                not self.step(
                    derived,
                    line,
                    column,
                    lambda: (
                        f"character content of element {_quoted(element.written)} invalid"
                        + _equal_to(patterns.values_allowed(opened))
                    ),
                )
                and typed
            ):
                self.pattern = patterns.end_tag_recovering(self.pattern)
                return
        before = self.pattern
        if not self.step(
            patterns.end_tag(before),
            line,
            column,
            lambda: f"element {_quoted(element.written)} incomplete{self._missing_or_expected(before)}",
        ):
            self.pattern = patterns.end_tag_recovering(before)

    def _not_allowed(self, before: Pattern, name: QName, written: str) -> str:
        """jing's words for an element that may not start here: "not allowed anywhere" when the grammar
        has no element of that name, "not allowed yet" when it would be allowed after elements still
        missing (and then which), else "not allowed here"; each with what was expected."""
        patterns = self.patterns
        if not self.grammar.allows_anywhere(name):
            return f"element {_quoted(written)} not allowed anywhere{self._expected(before)}"
        if patterns.start_tag_open_recovering(before, name) is not patterns.not_allowed:
            return f"element {_quoted(written)} not allowed yet{self._missing_or_expected(before)}"
        return f"element {_quoted(written)} not allowed here{self._expected(before)}"

    def _missing_attributes(self, written: str) -> str:
        """jing's words for a start tag that lacks an attribute: which, when it knows, else what may come."""
        missing = self.patterns.required_attributes(self.pattern)
        if missing:
            plural = "s" if len(missing) > 1 else ""
            listed = self.names.listed(missing, "and", attributes=True)
            return f"element {_quoted(written)} missing required attribute{plural} {listed}"
        possible, wildcard = self.patterns.possible_attributes(self.pattern)
        expected = f"; expected attribute {self.names.listed(possible, 'or', attributes=True)}" if possible else ""
        other = " or an attribute from another namespace" if possible and wildcard else ""
        return f"element {_quoted(written)} missing one or more required attributes{expected}{other}"

    def _attribute_problem(self, opened: Pattern, attribute: QName, written: str, element: str) -> str:
        """Whether the attribute may not stand here at all (and then, as jing says, which may), or only not
        with this value."""
        if self.patterns.attribute_value(opened, attribute, None) is self.patterns.not_allowed:
            possible, wildcard = self.patterns.possible_attributes(opened)
            if not possible:
                return f"attribute {_quoted(written)} not allowed here (element {_quoted(element)})"
            other = " or an attribute from another namespace" if wildcard else ""
            listed = self.names.listed(possible, "or", attributes=True)
            return f"attribute {_quoted(written)} not allowed here; expected attribute {listed}{other}"
        return f"value of attribute {_quoted(written)} is invalid (element {_quoted(element)})"

    def _missing_or_expected(self, pattern: Pattern) -> str:
        """'; missing required element "a"' (or elements "a" and "b") when jing knows which are required,
        else what could come."""
        missing = self.patterns.required_elements(pattern)
        if not missing:
            return self._expected(pattern)
        plural = "s" if len(missing) > 1 else ""
        return f"; missing required element{plural} {self.names.listed(missing, 'and')}"

    def _expected(self, pattern: Pattern) -> str:
        """'; expected the element end-tag, text or element "a", "b" or "c"' as jing words what could come
        next, the names cut short after a dozen."""
        patterns, expected = self.patterns, []
        if patterns.allows_end_tag(pattern):
            expected.append("the element end-tag")
        if patterns.text_is_typed(pattern):
            expected.append("data")
        elif patterns.allows_text(pattern):
            expected.append("text")
        names, wildcard = patterns.expected_elements(pattern)
        if names:
            expected.append(f"element {self.names.listed(names, 'or', shown=EXPECTED_NAMES_SHOWN)}")
            if wildcard:
                expected.append("an element from another namespace")
        return f"; expected {_listed(expected, 'or')}" if expected else ""


class _Names:
    """The namespace prefixes in scope, to write names as jing does: a name in the default namespace
    bare, one in a namespace with a prefix in scope with that prefix, any other with a prefix made up
    for the message ("ns") and declared after the list: '"a" or "ns:b" (with xmlns:ns="...")'."""

    MADE_UP = ("ns", "ns-", "ns_", "NS", "NS-", "NS_")

    def __init__(self):
        self.bindings: dict[str, list[str]] = {"xml": [XML_NS]}

    def declare(self, prefix: str, uri: str) -> None:
        self.bindings.setdefault(prefix, []).append(uri)

    def undeclare(self, prefix: str) -> None:
        self.bindings[prefix].pop()
        if not self.bindings[prefix]:
            del self.bindings[prefix]

    def uri(self, prefix: str) -> str | None:
        bound = self.bindings.get(prefix)
        return bound[-1] if bound else None

    def prefix(self, uri: str) -> str | None:
        """A prefix (never the empty one) bound to the namespace here."""
        return min((p for p, bound in self.bindings.items() if p and bound[-1] == uri), default=None)

    def listed(self, names, conjunction: str, attributes: bool = False, shown: int | None = None) -> str:
        """The names sorted as written and quoted, joined with ',' and the conjunction (cut after `shown`
        names: 'or 12 more'), then the declarations of any prefixes made up for them."""
        default = "" if attributes else self.uri("")
        declarations: dict[str, str] = {}  # namespace: prefix, for namespaces the document leaves undeclared
        if not attributes and any(namespace == "" for namespace, _local in names):
            if default is not None:
                declarations[""] = ""
            default = ""
        written, undeclared = [], []
        for namespace, local in names:
            prefix = "" if namespace == default else self.prefix(namespace)
            if prefix is None:
                undeclared.append((namespace, local))
            else:
                written.append(f"{prefix}:{local}" if prefix else local)
        namespaces = sorted({namespace for namespace, _local in undeclared})
        if len(namespaces) == 1 and default is None:
            declarations[namespaces[0]] = ""
        elif namespaces:
            declarations.update(zip(namespaces, self._made_up(len(namespaces))))
        written += [f"{declarations[ns]}:{local}" if declarations[ns] else local for ns, local in undeclared]
        quoted = [f'"{name}"' for name in sorted(written)]
        if shown is not None and len(quoted) > shown:
            quoted = quoted[:shown] + [f"{len(quoted) - shown} more"]
        result = _listed(quoted, conjunction)
        if declarations:
            declared = sorted(
                f'xmlns:{prefix}="{namespace}"' if prefix else f'xmlns="{namespace}"'
                for namespace, prefix in declarations.items()
            )
            result += f" (with {' '.join(declared)})"
        return result

    def _made_up(self, count: int) -> list[str]:
        """Prefixes for `count` undeclared namespaces, none bound in the document here: "ns" (or "ns1",
        "ns2", ...), else the next of MADE_UP, else underscores before "ns"."""
        attempt = 0
        while True:
            if attempt < len(self.MADE_UP):
                stem = self.MADE_UP[attempt]
            else:
                stem = "_ns"
                for _ in range(len(self.MADE_UP), attempt):
                    stem = "_" + stem
            prefixes = [stem] if count == 1 else [f"{stem}{i + 1}" for i in range(count)]
            if all(self.uri(prefix) is None for prefix in prefixes):
                return prefixes
            attempt += 1


def _equal_to(values: list[str] | None) -> str:
    """jing's '; must be equal to "a" or "b"' where only values may come."""
    return f"; must be equal to {_listed([_quoted(v) for v in values], 'or')}" if values else ""


def _listed(items: list[str], conjunction: str) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def _quoted(written: str) -> str:
    return f'"{written}"'


def _source_bytes(tree: etree._ElementTree) -> bytes | None:
    """The text the tree was parsed from as UTF-8 bytes (positions are counted in them), with every line end
    (CR LF, a lone CR) made LF as XML reads them, so that lines are counted as jing counts them. A file in
    another encoding (UTF-16, Latin-1, ...) is decoded by the encoding lxml read it in; None when there is no
    file or Python cannot decode it so (the tree's element lines are then used)."""
    url = tree.docinfo.URL
    try:
        data = Path(url).read_bytes() if url and url != "-" else None  # "-": it came from standard input
    except OSError:
        return None
    if data is None:
        return None
    encoding = (tree.docinfo.encoding or "UTF-8").lower()  # as declared (lxml says UTF-8 of an undeclared one)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):  # a byte order mark: UTF-16, whatever is declared
        encoding = "utf-16"
    if encoding not in ("utf-8", "utf8", "us-ascii", "ascii"):
        try:
            data = data.decode(encoding).lstrip("\ufeff").encode("utf-8")
        except (LookupError, UnicodeError):
            return None
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data


def start_tag_ends(path: Path) -> list[tuple[int, int]] | None:
    """Where each start tag of an XML file ends (line, column, as jing counts them), in document order;
    None if the file cannot be read so."""
    try:
        tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True))
        data = _source_bytes(tree)
        return None if data is None else [e[-2:] for e in _events_from_source(data) if e[0] == "start"]
    except (OSError, etree.XMLSyntaxError, expat.ExpatError):
        return None


def _events_from_source(data: bytes) -> Iterator[tuple]:
    """start/text/end events from the bytes by expat, a chunk at a time, each tag with jing's line and
    column; a text's position (where it ends) is known when the next tag comes."""
    events: list[tuple] = []
    line_starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    parser = expat.ParserCreate("UTF-8", namespace_separator=" ")  # the bytes are UTF-8, whatever they declare
    parser.namespace_prefixes = True  # names come as "uri local prefix": jing quotes them as written
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

    markup_end = [0]  # where the last tag ended (None after a comment, PI or CDATA mark: not known)

    def close_text(*markup) -> None:
        """A text is placed where the next markup begins (a tag, comment, processing instruction or CDATA),
        or, as jing's parser hands text over, where the piece holding its first character that is not white
        space ends: at the line end or the reference ('&') after it, when that comes first."""
        if events and len(events[-1]) == 2:
            end = parser.CurrentByteIndex
            if markup_end[0] is not None:
                words = _NOT_WHITE.search(data, markup_end[0], end)
                if words is not None:
                    piece_end = _PIECE_END.search(data, words.start(), end)
                    end = piece_end.start() if piece_end else end
            events[-1] = ("text", events[-1][1], *position(end))
        if markup:
            markup_end[0] = None

    def tag(event: tuple) -> None:
        close_text()
        events.append(event)
        markup_end[0] = tag_end()

    def start(name, attributes):
        named = [(*_qname(attributes[i]), attributes[i + 1]) for i in range(0, len(attributes), 2)]
        end = tag_end()
        if data[end - 2 : end] == b"/>":
            empty_element_end.append(position(end))
        tag(("start", *_qname(name), named, *position(end)))

    def declare(prefix, uri):
        close_text()
        events.append(("ns", prefix or "", uri or ""))

    def undeclare(prefix):
        events.append(("ns", prefix or "", None))

    def end(_name):
        tag(("end", *(empty_element_end.pop() if empty_element_end else position(tag_end()))))

    def text(characters: str) -> None:
        if events and len(events[-1]) == 2:  # expat may hand one text over in pieces
            events[-1] = ("text", events[-1][1] + characters)
        else:
            events.append(("text", characters))

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, text
    parser.StartNamespaceDeclHandler, parser.EndNamespaceDeclHandler = declare, undeclare
    parser.CommentHandler = parser.ProcessingInstructionHandler = close_text
    parser.StartCdataSectionHandler = parser.EndCdataSectionHandler = lambda: close_text("CDATA")
    for offset in range(0, len(data), SOURCE_CHUNK):
        parser.Parse(data[offset : offset + SOURCE_CHUNK], offset + SOURCE_CHUNK >= len(data))
        ready = len(events) - (1 if events and len(events[-1]) == 2 else 0)  # a text still open waits
        yield from events[:ready]
        del events[:ready]


def _qname(expat_name: str) -> tuple[QName, str]:
    """The (namespace, local name) of an expat name ("uri local prefix", "uri local" or "local") and the
    name as the document writes it."""
    parts = expat_name.split(" ")
    if len(parts) == 1:
        return ("", parts[0]), parts[0]
    return (parts[0], parts[1]), f"{parts[2]}:{parts[1]}" if len(parts) == 3 else parts[1]


def _events_from_tree(tree: etree._ElementTree) -> Iterator[tuple]:
    """The same events from the parsed tree, each tag at its element's line (no column is known)."""

    def written(name: etree.QName, element: etree._Element, attribute: bool) -> str:
        if not name.namespace:
            return name.localname
        if name.namespace == XML_NS:
            return f"xml:{name.localname}"
        prefixes = [p for p, uri in element.nsmap.items() if uri == name.namespace and (p or not attribute)]
        prefix = element.prefix if not attribute and element.prefix in prefixes else min(prefixes or [""], key=str)
        return f"{prefix}:{name.localname}" if prefix else name.localname

    def walk(element: etree._Element, inherited: dict) -> Iterator[tuple]:
        declared = {p or "": uri for p, uri in element.nsmap.items() if inherited.get(p) != uri}
        for prefix, uri in declared.items():
            yield "ns", prefix, uri
        name = etree.QName(element)
        attributes = [
            ((etree.QName(k).namespace or "", etree.QName(k).localname), written(etree.QName(k), element, True), v)
            for k, v in element.items()
        ]
        qname = (name.namespace or "", name.localname)
        yield "start", qname, written(name, element, False), attributes, element.sourceline, None
        if element.text:
            yield "text", element.text, element.sourceline, None
        for child in element:
            if isinstance(child.tag, str):
                yield from walk(child, element.nsmap)
            if child.tail:
                yield "text", child.tail, child.sourceline, None
        yield "end", element.sourceline, None
        for prefix in declared:
            yield "ns", prefix, None

    yield from walk(tree.getroot(), {})
