"""The only place that parses and serialises XML, and the one bounded reader of every input file.

A safe parser with located errors, stable output; read_bytes reads regular files (or stdin) up to a limit.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError, MissingResourceError

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XI_NS = "http://www.w3.org/2001/XInclude"
NSMAP = {"tei": TEI_NS}
MAX_INPUT_BYTES = 256 * 1024 * 1024  # a larger document is refused before parsing
# A character XML 1.0 cannot hold, in any text or attribute.
XML_ILLEGAL = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# A language tag as xml:lang takes it (BCP 47, RFC 5646: language, extlang, script, region, variants,
# extensions, private use; or private use alone), by its syntax, not its registry.
LANGUAGE_TAG = re.compile(
    r"(?:(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"
    r"(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*"
    r"(?:-[Xx](?:-[A-Za-z0-9]{1,8})+)?|[Xx](?:-[A-Za-z0-9]{1,8})+)\Z"
)
MAX_ENTITY_EXPANSION = 16 * 1024 * 1024  # characters all internal-entity references of a document may add


def tei(tag: str) -> str:
    """Clark name of a TEI element: tei('app') -> '{http://www.tei-c.org/ns/1.0}app'."""
    return f"{{{TEI_NS}}}{tag}"


def xml(attribute: str) -> str:
    """Clark name of an attribute in the XML namespace (xml:id, xml:lang, xml:space)."""
    return f"{{{XML_NS}}}{attribute}"


def _safe_parser(resolve_entities: bool = False) -> etree.XMLParser:
    # No network, no DTD loading, no entity expansion (only internal entities once bounded: see
    # _internal_entities); libxml2's default depth and size limits stay on.
    return etree.XMLParser(
        resolve_entities=resolve_entities,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
    )


def read_bytes(path: Path | str, what: str = "file", limit: int | None = None) -> bytes:
    """Read an input file (or stdin for '-') with one clear diagnostic for every way it can fail.

    The one bounded reader of the toolkit: only a regular file is read (a FIFO would wait for ever, a device
    such as /dev/zero never ends: IO006), and at most `limit` bytes (MAX_INPUT_BYTES) are taken, counted as
    they are read rather than trusted to `stat` (which a growing file or a special one misstates): one
    byte more is IO004. The file is opened without blocking, so even the check of a FIFO does not wait.
    """
    limit = MAX_INPUT_BYTES if limit is None else limit
    if str(path) == "-":
        import sys

        return _bounded(sys.stdin.buffer.read, limit, what, "-")
    path = Path(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise MissingResourceError(error("IO001", f"{what} does not exist", path)) from None
    except PermissionError:
        raise InvalidInputError(error("IO002", f"{what} cannot be read (permission denied)", path)) from None
    except IsADirectoryError:
        raise InvalidInputError(error("IO003", f"{what} is a directory, not a file", path)) from None
    except OSError as exc:
        raise InvalidInputError(error("IO005", f"{what} cannot be read: {exc.strerror}", path)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise InvalidInputError(error("IO003", f"{what} is a directory, not a file", path))
        if not stat.S_ISREG(mode):
            raise InvalidInputError(
                error("IO006", f"{what} is {_kind(mode)}, not a regular file; it is not read", path,
                      hint="give a file; standard input is '-'")
            )  # fmt: skip
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            return _bounded(stream.read, limit, what, path)
    except OSError as exc:
        raise InvalidInputError(error("IO005", f"{what} cannot be read: {exc.strerror}", path)) from None
    finally:
        os.close(descriptor)


def _bounded(read, limit: int, what: str, path: Path | str) -> bytes:
    """At most `limit` bytes from `read`, in pieces; IO004 as soon as there is one more."""
    pieces, total = [], 0
    while True:
        piece = read(min(1 << 20, limit + 1 - total))
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        total += len(piece)
        if total > limit:
            raise InvalidInputError(error("IO004", f"{what} is more than the limit of {limit} bytes", path))


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


# libxml2's words for the common well-formedness errors, and what they mean to a person editing the file.
PLAIN_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"xmlParseEntityRef: no name", "a bare '&': write &amp; for an ampersand"),
        (r"EntityRef: expecting ';'", "an entity reference is not closed with ';' (an ampersand is written &amp;)"),
        (r"Entity '(.+)' not defined", r"&\1; is not an XML entity (XML knows &amp; &lt; &gt; &quot; &apos;; "
         r"write other characters as themselves or as &#x...;)"),
        (r"Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)",
         r"the end tag </\3> does not close <\1>, opened on line \2"),
        (r"Premature end of data in tag (\S+) line (\d+)", r"the file ends before <\1> (line \2) is closed"),
        (r"Extra content at the end of the document", "there is more after the end tag of the root element"),
        (r"StartTag: invalid element name", "a '<' that starts no tag: write &lt; for a less-than sign"),
        (r"Attribute (\S+) redefined", r"the attribute \1 is given twice in this tag"),
        (r"AttValue: \\?\" or ' expected", "an attribute value must be in quotes"),
        (r"Couldn't find end of Start Tag (\S+)", r"the start tag <\1> is not closed with '>'"),
        (r"Document is empty", "the file holds no XML at all"),
        (r"Start tag expected, '<' not found", "the file does not start with an XML element"),
        (r"Input is not proper UTF-8", "the file is not UTF-8 here (save it as UTF-8)"),
        (r"Specification mandates value for attribute (\S+)", r"the attribute \1 has no value (write \1=\"...\")"),
    )
)  # fmt: skip


def plain_words(message: str) -> str:
    """A libxml2 well-formedness message in a person's words; the parser's own words where none fit."""
    for pattern, words in PLAIN_WORDS:
        found = pattern.search(message)
        if found:
            return found.expand(words)
    return message


def base_url(name: str) -> str:
    """A file's name as lxml takes it for a document's URL: as it is, or, when it is not UTF-8 (a name the
    file system gave in another encoding, which Python holds with surrogates), with those bytes written %XX
    as in a URL: lxml takes only UTF-8, and failed on it in every command."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return quote(os.fsencode(name), safe="/:")
    return name


def readable(name: str) -> str:
    """A file's name as text an XML document can hold: a byte that is not UTF-8 (held by Python as a
    surrogate) becomes U+FFFD; any other name is itself."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def parse_bytes(data: bytes, name: str) -> etree._ElementTree:
    """Parse XML safely; read internal entities within bounds, refuse external ones; report the first error
    with its line and column.

    The error is said in plain words, with libxml2's own words as the hint. (The last entry of the log is
    taken: a parser is reused, and its log can still hold entries of an earlier document.)
    """
    try:
        tree = etree.ElementTree(etree.fromstring(data, _safe_parser(), base_url=base_url(name)))
    except etree.XMLSyntaxError as exc:
        entry = exc.error_log.last_error if exc.error_log else None
        line, column = (entry.line, entry.column) if entry else exc.position
        message = (entry.message if entry else str(exc)).strip()
        raise InvalidInputError(
            error(
                "X001",
                f"not well-formed XML: {plain_words(message)}",
                name,
                line,
                column,
                hint=f"the parser: {message}",
            )
        ) from None
    if _internal_entities(tree, data, name):  # bounded: parse again, libxml2 expanding them
        tree = etree.ElementTree(etree.fromstring(data, _safe_parser(resolve_entities=True), base_url=base_url(name)))
    return tree


def parse_file(path: Path | str) -> etree._ElementTree:
    return parse_bytes(read_bytes(path, "XML file"), str(path))


def _internal_entities(tree: etree._ElementTree, data: bytes, name: str) -> bool:
    """Whether the internal DTD subset declares entities that may be expanded; refuses what may not.

    An external entity (SYSTEM or PUBLIC) is refused (X002): no file or network is ever read. Internal
    ones (`<!ENTITY gd "&#x1E0D;">`, as older projects declare special characters) are measured before
    anything is expanded: each one's expanded length, entities inside it counted (memoised, a cycle
    refused), times the references to it in the document; more than MAX_ENTITY_EXPANSION characters in
    all (billion laughs, quadratic blow-up) is X003. Time and memory stay linear in the document.
    """
    dtd = tree.docinfo.internalDTD
    declared = {d.name: d for d in dtd.iterentities()} if dtd is not None else {}
    if not declared:
        return False
    for declaration in declared.values():
        if declaration.system_url is not None or declaration.content is None:
            raise InvalidInputError(
                error(
                    "X002",
                    f"the document declares the entity '{declaration.name}' as an external one; external "
                    "entities are refused (they read files or the network)",
                    name,
                    hint="replace the entity with the characters it stands for",
                )
            )
    lengths: dict[str, int] = {}

    def length(entity: str, path: tuple[str, ...]) -> int:
        if entity in lengths:
            return lengths[entity]
        if entity in path:
            raise InvalidInputError(error("X003", f"the entity '{entity}' refers to itself", name))
        content = declared[entity].content
        total = len(content)
        for inner, count in _references(content.encode("utf-8"), declared).items():
            total += count * (length(inner, (*path, entity)) - len(inner) - 2)
            if total > MAX_ENTITY_EXPANSION:
                break
        lengths[entity] = total
        return total

    subset_end = data.find(b"]>")
    expansion = 0
    for entity, count in _references(data[subset_end + 2 :], declared).items():
        expansion += count * length(entity, ())
        if expansion > MAX_ENTITY_EXPANSION:
            raise InvalidInputError(
                error(
                    "X003",
                    f"the document's entities would expand to more than {MAX_ENTITY_EXPANSION} characters "
                    "(an entity-expansion attack, or a document to split)",
                    name,
                    hint="replace the entities with the characters they stand for",
                )
            )
    return True


def _references(data: bytes, declared: dict) -> dict[str, int]:
    """How often each declared entity is referred to (`&name;`) in some XML."""
    found: dict[str, int] = {}
    for match in re.finditer(rb"&([^;&<>\s#]+);", data):
        entity = match.group(1).decode("utf-8", "replace")
        if entity in declared:
            found[entity] = found.get(entity, 0) + 1
    return found


def serialise(tree: etree._ElementTree | etree._Element, schema_href: str | None = None) -> bytes:
    """UTF-8 bytes with an XML declaration; the caller decides the indentation.

    With `schema_href` (a path relative to the written file), two <?xml-model?> lines follow the
    declaration, so that editors and `tei validate` find the schema's grammar and its Schematron rules.
    """
    data = etree.tostring(tree, xml_declaration=True, encoding="UTF-8") + b"\n"
    if schema_href is None:
        return data
    declaration, document = data.split(b"\n", 1)
    return b"\n".join([declaration, *xml_model_instructions(schema_href), document])


RELAX_NG_NS = "http://relaxng.org/ns/structure/1.0"
SCHEMATRON_NS = "http://purl.oclc.org/dsdl/schematron"


def xml_model_instructions(href: str) -> list[bytes]:
    """<?xml-model?> for a RELAX NG schema with embedded Schematron: one for the grammar, one for the rules."""
    attribute = etree.Element("model", href=href)  # lxml escapes the value as an attribute
    quoted = etree.tostring(attribute, encoding="unicode")[len("<model ") : -len("/>")]
    return [
        f'<?xml-model {quoted} type="application/xml" schematypens="{ns}"?>'.encode()
        for ns in (RELAX_NG_NS, SCHEMATRON_NS)
    ]


def indent(element: etree._Element, keep: frozenset[str], level: int = 0, space: str = "  ") -> None:
    """Indent element-only content for people; never enter an element whose tag is in `keep`.

    Text containers (p, ab, rdg, ...) hold witness text, where every space counts, so they and
    their descendants are left exactly as they are.
    """
    children = list(element)
    if not children or element.tag in keep:
        return
    inner = "\n" + space * (level + 1)
    element.text = inner
    for child in children:
        indent(child, keep, level + 1, space)
        child.tail = inner
    children[-1].tail = "\n" + space * level


def append_text(parent: etree._Element, after: etree._Element | None, text: str | None) -> None:
    """Add text inside `parent` just after its child `after` (at the start when None), keeping what is there."""
    if not text:
        return
    if after is None:
        parent.text = (parent.text or "") + text
    else:
        after.tail = (after.tail or "") + text
