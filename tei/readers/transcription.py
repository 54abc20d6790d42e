"""Reads a TEI transcription into the witnesses it gives: one written by `tei encode` (or edited by hand)
back into its Witness, a scholar's transcription by the rules of tei.readers.scholarly.

The toolkit's own is read by the same rule as an edition's (tei.apparatus): a transcription is an edition
without apps. It is recognised by its header (tei.readers.scholarly.is_scholarly).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tei.apparatus import transcription_text
from tei.model import Witness
from tei.readers.scholarly import Policy, is_scholarly, read_scholarly
from tei.xmlio import parse_file, tei, xml

DIGEST_TYPE = "sha256"  # the idno holding the digest of the source, not a reference number


def read_transcription_witnesses(path: Path | str, policy: Policy | None = None, **facts) -> list[Witness]:
    """The witnesses a transcription gives: its own, or a scholar's final text and the hand layers the
    policy collates. `facts` (id, siglum, language, description, references, kind) override its own."""
    tree = parse_file(path)
    if is_scholarly(tree):
        return read_scholarly(tree, str(path), policy or Policy(), facts)
    witness = _own(tree, path)
    return [replace(witness, **{k: v for k, v in facts.items() if v is not None})]


def read_transcription(path: Path | str) -> Witness:
    """The witness of one transcription (a scholar's: its final text, by the default policy)."""
    return read_transcription_witnesses(path)[0]


def _own(tree, path: Path | str) -> Witness:
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
