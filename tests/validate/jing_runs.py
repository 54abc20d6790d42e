"""jing's first error for each of many documents, from as few jing runs as its fatal errors allow.

jing checks the documents given to one run in turn and stops the whole run at a fatal error: a document
that is not well-formed, an XInclude whose file is missing (Debian's jing wrapper turns Xerces's XInclude
processing on), a DTD it cannot load. Whatever came after that document would look valid. So a run that
ends in a fatal error is continued with a new run from the next document. A fatal error with no position
(a DTD that cannot be loaded stops jing before it reads the document's first element) names no file
either: the documents after the last one named are then run one at a time until one ends in it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lxml import etree
from validate.corpus_sweeps import swept_documents

_NAMES_A_DTD = re.compile(rb"<!DOCTYPE[^>\[]*\s(?:SYSTEM|PUBLIC)\s")
JING_LINE = re.compile(
    r"^(?:(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): )?(?P<kind>error|fatal|warning): (?P<message>.*)$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class JingError:
    """jing's first error (or fatal error) in one document; line and column are None for a fatal error
    jing gives no position (it could not load the document's DTD, so it never read the document)."""

    line: int | None
    column: int | None
    fatal: bool
    message: str


# The xdist group of the tests that ask jing about the corpus documents under tei_all (test_tei_all.py and
# test_cli.py): on one worker, jing reads each document once in the run (a run costs 2-3 s of JVM start and
# tei_all's compilation before the first document).
GROUP = "jing-tei-all"
_KNOWN: dict[tuple[str, Path, Path], JingError | None] = {}  # (jing, schema, document) -> its first error


def jing_first_errors(jing: str, schema: Path, documents: list[Path]) -> dict[Path, JingError | None]:
    """jing's first error in each document, None when jing finds the document valid. A document jing has
    read before in this process under the same schema is not read again: its first error does not depend
    on the documents read with it."""
    first: dict[Path, JingError | None] = {}
    remaining = sorted((d for d in documents if (jing, schema, d) not in _KNOWN), key=_may_stop_jing)
    while remaining:
        stopped_at = _run(jing, schema, remaining, first)
        if stopped_at is None:
            break
        remaining = remaining[stopped_at + 1 :]
    _KNOWN.update(((jing, schema, d), found) for d, found in first.items())
    return {d: _KNOWN[jing, schema, d] for d in documents}


def _may_stop_jing(document: Path) -> int:
    """A document that may end a run with a fatal error (it XIncludes a file, or it is not well-formed: 1; it
    names a DTD: 2) is read after the others, so that it ends a run with fewer documents after it. One that
    names a DTD comes last: a DTD jing cannot load stops the run before the document is named, and the
    documents after the last one named are then run one at a time (at the end, one run of it alone)."""
    data = document.read_bytes()
    if _NAMES_A_DTD.search(data):
        return 2
    if b"<!DOCTYPE" in data or b"http://www.w3.org/2001/XInclude" in data:
        return 1
    try:
        etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return 1
    return 0


def corpus_first_errors(jing: str, schema: Path, corpora: Path) -> dict[Path, JingError | None]:
    """jing's first error in every XML document of the TEI folders under `corpora` (corpus_sweeps.py; read
    in one set of runs, whichever test asks first)."""
    return jing_first_errors(jing, schema, swept_documents(corpora))


def _run(jing: str, schema: Path, documents: list[Path], first: dict[Path, JingError | None]) -> int | None:
    """One jing run over the documents, recording each one's first error; the index of the document a
    fatal error stopped jing at, or None when jing checked them all."""
    by_name = {str(d): index for index, d in enumerate(documents)}
    output = subprocess.run([jing, str(schema), *map(str, documents)], capture_output=True, text=True).stdout
    last_named = -1
    for match in JING_LINE.finditer(output):
        if match["kind"] == "warning":
            continue
        fatal = match["kind"] == "fatal"
        if match["file"] is None:  # a fatal error without a position: some document after the last one named
            assert fatal, match.group()
            if len(documents) > 1:
                return _find_unpositioned_fatal(jing, schema, documents, last_named + 1, first)
            first.setdefault(documents[0], JingError(None, None, True, match["message"]))
            return 0
        index = last_named = by_name[match["file"]]
        if first.get(documents[index]) is None:
            first[documents[index]] = JingError(int(match["line"]), int(match["column"]), fatal, match["message"])
        if fatal:
            _valid_up_to(documents, index, first)
            return index
    _valid_up_to(documents, len(documents), first)
    return None


def _find_unpositioned_fatal(
    jing: str, schema: Path, documents: list[Path], start: int, first: dict[Path, JingError | None]
) -> int:
    """Run the documents from start one at a time until jing stops at a fatal error without a position."""
    _valid_up_to(documents, start, first)
    for index in range(start, len(documents)):
        if _run(jing, schema, [documents[index]], first) is not None:
            return index
    raise AssertionError(f"no single document gives jing's fatal error without a position after {documents[start]}")


def _valid_up_to(documents: list[Path], end: int, first: dict[Path, JingError | None]) -> None:
    """The documents before `end` that jing has reported nothing for are valid."""
    for document in documents[:end]:
        first.setdefault(document, None)
