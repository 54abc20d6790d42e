"""Reads a TEI transcription written by `tei encode` (or edited by hand) back into a Witness.

Its text is read by the same rule as an edition's (tei.apparatus): a transcription is an edition without apps.
"""

from __future__ import annotations

from pathlib import Path

from tei.apparatus import transcription_text
from tei.model import Witness
from tei.xmlio import parse_file, tei, xml

DIGEST_TYPE = "sha256"  # the idno holding the digest of the source, not a reference number


def read_transcription(path: Path | str) -> Witness:
    tree = parse_file(path)
    root = tree.getroot()
    text = transcription_text(tree, str(path))
    bibl = root.find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('sourceDesc')}/{tei('bibl')}")
    witness_id = bibl.get(xml("id")) if bibl is not None and bibl.get(xml("id")) else Path(str(path)).stem
    siglum = bibl.get("n") if bibl is not None and bibl.get("n") else witness_id
    note = bibl.find(tei("note")) if bibl is not None else None
    description = "".join(note.itertext()) if note is not None else ""
    language = root.get(xml("lang")) or "en"
    numbers = bibl.findall(tei("idno")) if bibl is not None else []
    references = tuple((n.get("type"), n.text or "") for n in numbers if n.get("type") not in (None, DIGEST_TYPE))
    return Witness(witness_id, siglum, text, language, description, source=str(path), references=references)
