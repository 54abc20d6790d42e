"""The only place that parses and serialises XML: a safe parser with located errors, stable output."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError, MissingResourceError

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XI_NS = "http://www.w3.org/2001/XInclude"
NSMAP = {"tei": TEI_NS}
MAX_INPUT_BYTES = 256 * 1024 * 1024  # a larger document is refused before parsing


def tei(tag: str) -> str:
    """Clark name of a TEI element: tei('app') -> '{http://www.tei-c.org/ns/1.0}app'."""
    return f"{{{TEI_NS}}}{tag}"


def xml(attribute: str) -> str:
    """Clark name of an attribute in the XML namespace (xml:id, xml:lang, xml:space)."""
    return f"{{{XML_NS}}}{attribute}"


def _safe_parser() -> etree.XMLParser:
    # No network, no DTD loading, no entity expansion; libxml2's default depth and size limits stay on.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
    )


def read_bytes(path: Path | str, what: str = "file") -> bytes:
    """Read an input file (or stdin for '-') with one clear diagnostic for every way it can fail."""
    if str(path) == "-":
        import sys

        return sys.stdin.buffer.read()
    path = Path(path)
    try:
        if path.is_dir():
            raise InvalidInputError(error("IO003", f"{what} is a directory, not a file", path))
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise InvalidInputError(
                error("IO004", f"{what} is {size} bytes, more than the limit of {MAX_INPUT_BYTES}", path)
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise MissingResourceError(error("IO001", f"{what} does not exist", path)) from None
    except PermissionError:
        raise InvalidInputError(error("IO002", f"{what} cannot be read (permission denied)", path)) from None
    except OSError as exc:
        raise InvalidInputError(error("IO005", f"{what} cannot be read: {exc.strerror}", path)) from None


def parse_bytes(data: bytes, name: str) -> etree._ElementTree:
    """Parse XML safely; refuse entity declarations; report the first error with its line and column."""
    try:
        tree = etree.ElementTree(etree.fromstring(data, _safe_parser(), base_url=name))
    except etree.XMLSyntaxError as exc:
        entry = exc.error_log.last_error if exc.error_log else None
        line, column = (entry.line, entry.column) if entry else exc.position
        message = entry.message if entry else str(exc)
        raise InvalidInputError(error("X001", f"not well-formed XML: {message}", name, line, column)) from None
    _refuse_entity_declarations(tree, name)
    return tree


def parse_file(path: Path | str) -> etree._ElementTree:
    return parse_bytes(read_bytes(path, "XML file"), str(path))


def _refuse_entity_declarations(tree: etree._ElementTree, name: str) -> None:
    dtd = tree.docinfo.internalDTD
    if dtd is None:
        return
    for declaration in dtd.iterentities():
        raise InvalidInputError(
            error(
                "X002",
                f"the document declares the entity '{declaration.name}'; entity declarations are refused "
                "(they allow entity-expansion and external-file attacks)",
                name,
                hint="replace entities with the characters they stand for",
            )
        )


def serialise(tree: etree._ElementTree | etree._Element) -> bytes:
    """UTF-8 bytes with an XML declaration; the caller decides the indentation."""
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8") + b"\n"


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
