"""`tei sync`: bring each witness's transcription in line with an edition the editor has corrected by hand.

An edition links each witness to its transcription (`witness/ptr[@type='transcription']/@target`, relative
to the edition). When the editor corrects a reading in edition.xml (a typo in the apparatus, say), the
witness's text rebuilt from the apparatus no longer equals its transcription, and validation reports
APP007. For every linked witness whose rebuilt text differs, this writes the transcription anew with the
rebuilt text: its body is made again by the transcription writer (paragraphs, isnad and matn, eulogies,
citations), while its header and its <?xml-model?> are kept as they were, hand edits included. A
transcription that already agrees is left alone. Writing goes through tei.outputs, so a transcription
edited by hand since the toolkit wrote it is refused unless --force.

A sync changes a witness's text on the edition's word, so it runs only while that word can be trusted: while
the edition has any error besides APP007 (a typo in @wit makes a witness lose a reading, and its rebuilt
text a guess), nothing is written (S003, with those errors). Before writing, `changes` gives the exact
change to each file, as a unified diff; every file replaced is kept as a backup first (tei.outputs).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from tei.apparatus import transcription_text, witness_text
from tei.diagnostics import Diagnostic, Severity, error, warning
from tei.errors import InvalidInputError
from tei.model import Work
from tei.readers.transcription import read_transcription
from tei.writers.transcription import transcription_tree
from tei.xmlio import parse_file, serialise, tei, xml

HREF = re.compile(r"""href\s*=\s*(["'])(.*?)\1""")


def sync_files(edition: Path, only: tuple[str, ...] = ()) -> tuple[dict[Path, bytes], list[Diagnostic]]:
    """The transcriptions to write again (path -> bytes), and warnings for witnesses that cannot be synced."""
    tree = parse_file(edition)
    name = str(edition)
    links = _transcription_links(tree)
    unknown = [w for w in only if w not in links and w not in _declared(tree)]
    if unknown:
        raise InvalidInputError(
            error("A002", f"no witness '{unknown[0]}' in this edition", edition, hint=f"the witnesses are: "
                  f"{', '.join(_declared(tree)) or 'none'}")
        )  # fmt: skip
    files, notes = {}, []
    for witness_id, (target, line) in links.items():
        if only and witness_id not in only:
            continue
        parsed = urlparse(target)
        if parsed.scheme not in ("", "file"):
            notes.append(warning("S001", f"the transcription of '{witness_id}' is remote ({target}); left alone",
                                 edition, line))  # fmt: skip
            continue
        path = edition.parent / unquote(parsed.path)
        rebuilt = witness_text(tree, witness_id, name)
        old = parse_file(path)
        if transcription_text(old, str(path)) == rebuilt:
            continue
        files[path] = _rewritten(path, old, rebuilt)
    for witness_id in only:
        if witness_id not in links:
            notes.append(warning("S002", f"witness '{witness_id}' links no transcription; nothing to sync", edition))
    return files, notes


def refuse_untrusted(edition: Path) -> None:
    """S003 and the edition's errors other than APP007, if it has any: then its rebuilt texts are not to be
    written into the transcriptions."""
    from tei.validate import ValidationOptions, check_file

    others = [
        d for d in check_file(edition, ValidationOptions()) if d.severity is Severity.ERROR and d.code != "APP007"
    ]
    if others:
        raise InvalidInputError(
            error(
                "S003",
                f"the edition has {len(others)} error(s) besides APP007 (below), so the texts rebuilt from it may be "
                "wrong; no transcription was written",
                edition,
                hint="correct them (a @wit that names no witness drops that witness's reading) and sync again",
            ),
            *others,
        )


def changes(files: dict[Path, bytes]) -> str:
    """The exact change each file will undergo: a unified diff of its lines, old against new."""
    found = []
    for path, new in files.items():
        old = path.read_bytes() if path.is_file() else b""
        found.extend(
            difflib.unified_diff(
                old.decode("utf-8", "replace").splitlines(keepends=True),
                new.decode("utf-8", "replace").splitlines(keepends=True),
                f"{path} (now)",
                f"{path} (after sync)",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in found)


def _declared(tree: etree._ElementTree) -> list[str]:
    return [w.get(xml("id")) for w in tree.getroot().iter(tei("witness")) if w.get(xml("id"))]


def _transcription_links(tree: etree._ElementTree) -> dict[str, tuple[str, int | None]]:
    found = {}
    for witness in tree.getroot().iter(tei("witness")):
        link = witness.find(f"{tei('ptr')}[@type='transcription']")
        if witness.get(xml("id")) and link is not None and link.get("target"):
            found[witness.get(xml("id"))] = (link.get("target"), link.sourceline)
    return found


def _rewritten(path: Path, old: etree._ElementTree, text: str) -> bytes:
    """The transcription with a body made for `text` and the old header and <?xml-model?> kept."""
    facts = read_transcription(path)
    witness = replace(facts, text=text)
    fresh = transcription_tree(witness, Work(id="work", title="", language=witness.language), path).getroot()
    root = old.getroot()
    old_text, new_text = root.find(tei("text")), fresh.find(tei("text"))
    if old_text is None:
        root.append(new_text)
    else:
        old_text.getparent().replace(old_text, new_text)
        new_text.tail = old_text.tail
    return serialise(root, _schema_href(root))


def _schema_href(root: etree._Element) -> str | None:
    for node in root.itersiblings(preceding=True):
        if isinstance(node, etree._ProcessingInstruction) and node.target == "xml-model":
            found = HREF.search(node.text or "")
            if found:
                return found.group(2)
    return None
