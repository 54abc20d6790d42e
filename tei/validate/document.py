"""Reading a document for validation: the safe parse, the refusals on top of it, and its <?xml-model?> schemas."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

from lxml import etree

from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import InvalidInputError
from tei.xmlio import XI_NS, parse_bytes, read_bytes

SCHEMATRON_TYPES = frozenset({"http://purl.oclc.org/dsdl/schematron", "http://www.ascc.net/xml/schematron"})
_DUPLICATE_ID = re.compile(r"ID (\S+) already defined")
_PSEUDO_ATTRIBUTE = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True)
class SchemaReference:
    """A local schema named by an <?xml-model?> processing instruction, and which of its parts to run."""

    path: Path
    grammar: bool
    rules: bool


def read_document(path: Path | str) -> etree._ElementTree:
    """Parse through tei.xmlio (no network, no DTD, no entities), then refuse external DTDs and remote XInclude."""
    data = read_bytes(path, "XML file")
    try:
        tree = parse_bytes(data, str(path))
    except InvalidInputError as exc:
        raise InvalidInputError(*(d for found in exc.diagnostics for d in _duplicate_id_as_rule(found, data))) from None
    refusal = _external_dtd(tree, str(path)) or _remote_xinclude(tree, str(path))
    if refusal:
        raise InvalidInputError(refusal)
    return tree


def _duplicate_id_as_rule(diagnostic: Diagnostic, data: bytes) -> list[Diagnostic]:
    """libxml2 refuses a second use of an xml:id while parsing; report it under its apparatus rule, APP009,
    at both places, each at the end of its start tag as jing does (the second use, then the first)."""
    duplicate = _DUPLICATE_ID.search(diagnostic.message)
    if diagnostic.code != "X001" or duplicate is None:
        return [diagnostic]
    identifier = duplicate.group(1)
    places = _start_tags_with_id(data, identifier)
    second = next((p for p in places[1:] if p[0] == diagnostic.line), places[1] if len(places) > 1 else None)
    line, column = second if second is not None else (diagnostic.line, None)
    found = [
        error(
            "APP009",
            f"the xml:id '{identifier}' is used twice"
            + (f" (first at line {places[0][0]}, column {places[0][1]})" if places else ""),
            diagnostic.file,
            line,
            column,
            hint="every xml:id in a document is unique; rename one of them",
        )
    ]
    if places and places[0] != second:
        found.append(
            Diagnostic(
                "APP009",
                f"first use of the xml:id '{identifier}'",
                diagnostic.file,
                places[0][0],
                places[0][1],
                Severity.INFO,
            )
        )
    return found


def _start_tags_with_id(data: bytes, identifier: str) -> list[tuple[int, int]]:
    """Line and column (just past the '>', as jing counts) of every start tag carrying this xml:id."""
    text = data.decode("utf-8", errors="replace")
    pattern = re.compile(r"""<[^<>!?/][^<>]*?\sxml:id\s*=\s*(["'])""" + re.escape(identifier) + r"""\1[^<>]*>""")
    places = []
    for match in pattern.finditer(text):
        end = match.end()
        line = text.count("\n", 0, end) + 1
        places.append((line, end - (text.rfind("\n", 0, end) + 1) + 1))
    return places


def unprocessed_xincludes(tree: etree._ElementTree, name: str) -> list[Diagnostic]:
    """Local XIncludes are left as they are (never read: a document may not make the validator open other
    files): a warning that their targets were not validated, or an error when the target does not exist
    and the include has no xi:fallback, for then the document is incomplete whoever reads it (jing, which
    Debian runs with Xerces's XInclude processing, stops there: "An 'include' failed")."""
    found = []
    for include in tree.getroot().iter(f"{{{XI_NS}}}include"):
        href = include.get("href", "")
        if _missing_local_target(include, href) and include.find(f"{{{XI_NS}}}fallback") is None:
            found.append(
                error(
                    "SEC003",
                    f"XInclude of {href!r}: the file does not exist and there is no xi:fallback, "
                    "so the document is incomplete",
                    name,
                    include.sourceline,
                    hint="correct the href, add an xi:fallback, or put the included content in the document",
                )
            )
        else:
            found.append(
                warning(
                    "SEC003",
                    f"XInclude of {href!r} is not processed; its content is not validated",
                    name,
                    include.sourceline,
                )
            )
    return found


def _missing_local_target(include: etree._Element, href: str) -> bool:
    """True if a local XInclude names a file that does not exist (resolved against the element's base URI,
    which xml:base may change); an empty href points into the document itself."""
    if not href or urlparse(href).scheme not in ("", "file"):
        return False
    base = include.base if include.base not in (None, "-") else str(Path.cwd() / "-")
    target = urlparse(urljoin(base, href))
    return target.scheme in ("", "file") and not Path(unquote(target.path)).exists()


def _external_dtd(tree: etree._ElementTree, name: str) -> Diagnostic | None:
    docinfo = tree.docinfo
    if docinfo.system_url or docinfo.public_id:
        return error(
            "SEC001",
            f"the document refers to the external DTD {docinfo.system_url or docinfo.public_id!r}; "
            "external DTDs are refused (they can read local files and the network)",
            name,
            1,
            hint="remove the DOCTYPE declaration; TEI documents are validated against a schema",
        )
    return None


def _remote_xinclude(tree: etree._ElementTree, name: str) -> Diagnostic | None:
    for include in tree.getroot().iter(f"{{{XI_NS}}}include"):
        if urlparse(include.get("href", "")).scheme not in ("", "file"):
            return error(
                "SEC002",
                f"the document XIncludes the remote resource {include.get('href')!r}; the validator never uses "
                "the network",
                name,
                include.sourceline,
                hint="copy the included file next to the document and point to it",
            )
    return None


def schema_references(tree: etree._ElementTree, document: Path) -> tuple[list[SchemaReference], list[Diagnostic]]:
    """The local schemas the document's <?xml-model?> instructions name; remote ones are reported, not fetched."""
    wanted: dict[Path, tuple[bool, bool]] = {}
    notes: list[Diagnostic] = []
    for instruction in _xml_model_instructions(tree):
        attributes = {
            m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in _PSEUDO_ATTRIBUTE.finditer(instruction.text or "")
        }
        href = attributes.get("href", "")
        location = urlparse(href)
        if location.scheme not in ("", "file"):
            notes.append(
                warning(
                    "SEC004",
                    f"the schema {href!r} is remote and was not fetched",
                    str(document),
                    instruction.sourceline,
                    hint="download it and pass it with --schema",
                )
            )
            continue
        path = (document.parent / unquote(location.path)).resolve()
        kind = attributes.get("schematypens")
        grammar, rules = wanted.get(path, (False, False))
        wanted[path] = (grammar or kind not in SCHEMATRON_TYPES, rules or kind in SCHEMATRON_TYPES or kind is None)
    return [SchemaReference(path, grammar, rules) for path, (grammar, rules) in wanted.items()], notes


def _xml_model_instructions(tree: etree._ElementTree) -> list[etree._ProcessingInstruction]:
    found = []
    node = tree.getroot().getprevious()
    while node is not None:
        if isinstance(node, etree._ProcessingInstruction) and node.target == "xml-model":
            found.append(node)
        node = node.getprevious()
    return list(reversed(found))
