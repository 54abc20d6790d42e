"""Running shipped XSLT 1.0 stylesheets: each compiled once, parameters quoted safely, xsl:message read as diagnostics.

A stylesheet reports a problem with `<xsl:message>SEVERITY CODE PATH : message</xsl:message>` (the template
`report` of xslt/common/apparatus.xsl writes exactly that); PATH is a '/*[n]' path to the node, which is
turned back into a line of the source document here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lxml import etree

from tei.diagnostics import Diagnostic, Severity, error
from tei.errors import InvalidInputError
from tei.resources import resource
from tei.xmlio import parse_file

MESSAGE = re.compile(r"^(ERROR|WARNING|INFO) ([A-Z]+[0-9]+) (/[^ ]*|) : (.*)$", re.DOTALL)
NO_NETWORK_NO_WRITING = etree.XSLTAccessControl(
    read_file=True, write_file=False, create_dir=False, read_network=False, write_network=False
)


@dataclass(frozen=True)
class Transformed:
    result: etree._XSLTResultTree
    diagnostics: list[Diagnostic]

    def __bytes__(self) -> bytes:
        return bytes(self.result)


def stylesheet(name: str) -> etree.XSLT:
    """The shipped stylesheet xslt/<name>, compiled once per process."""
    return compile_stylesheet(resource("xslt", name))


@cache
def compile_stylesheet(path: Path) -> etree.XSLT:
    """A stylesheet file compiled once per process: no network, no writing, imports resolved beside it."""
    tree = parse_file(path)
    tree.docinfo.URL = path.as_uri()  # so that xsl:import and xsl:include resolve next to it
    try:
        return etree.XSLT(tree, access_control=NO_NETWORK_NO_WRITING)
    except etree.XSLTParseError as exc:
        raise InvalidInputError(
            error("XS001", f"the stylesheet does not compile: {exc}", path, hint="this is a bug in the stylesheet")
        ) from None


def transform(name: str, document: etree._ElementTree, source: str, params: Mapping[str, str]) -> Transformed:
    """Apply the shipped stylesheet `name` to `document` (read from `source`)."""
    return apply(stylesheet(name), document, source, params)


def apply(compiled: etree.XSLT, document: etree._ElementTree, source: str, params: Mapping[str, str]) -> Transformed:
    """Apply a compiled stylesheet, with string parameters quoted by lxml; its messages become diagnostics."""
    quoted = {key: etree.XSLT.strparam(value) for key, value in params.items()}
    try:
        result = compiled(document, **quoted)
    except etree.XSLTApplyError as exc:
        reported = _diagnostics(compiled.error_log, document, source)
        if not any(d.severity is Severity.ERROR for d in reported):
            reported.append(error("XS002", f"the transformation stopped: {exc}", source))
        raise InvalidInputError(*reported) from None
    return Transformed(result, _diagnostics(compiled.error_log, document, source))


def _diagnostics(log: etree._ListErrorLog, document: etree._ElementTree, source: str) -> list[Diagnostic]:
    found = []
    for entry in log:
        match = MESSAGE.match(entry.message.strip())
        if match is None:
            found.append(Diagnostic("XS003", entry.message.strip(), source, severity=Severity.WARNING))
            continue
        severity, code, path, message = match.groups()
        found.append(Diagnostic(code, message, source, _line(document, path), None, Severity(severity.lower())))
    return found


def _line(document: etree._ElementTree, path: str) -> int | None:
    if not path:
        return None
    nodes = document.xpath(path)
    return nodes[0].sourceline if nodes else None
