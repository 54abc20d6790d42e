"""What `tei convert` reads, by file suffix: TEI XML, or CollateX JSON made into a TEI edition first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lxml import etree

from tei.apparatus import assume_tei_namespace
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import parse_file


def collatex_tree(path: Path) -> etree._ElementTree:
    """A CollateX alignment table as it stands, or CollateX witness input collated by the toolkit."""
    from tei.collate import collate
    from tei.readers.collatex import alignment_table_edition, is_alignment_table, load_json, witness_input_works
    from tei.writers.edition import edition_tree

    data = load_json(path)
    if is_alignment_table(data):
        return edition_tree(alignment_table_edition(data, path))
    works = witness_input_works(data, path)
    if len(works) != 1:
        raise InvalidInputError(
            error(
                "CX003",
                f"this file holds {len(works)} collations; tei convert takes one at a time",
                path,
                hint="split the JSON list into one file per collation",
            )
        )
    return edition_tree(collate(works[0]))


INPUTS: dict[str, Callable[[Path], etree._ElementTree]] = {".json": collatex_tree}


def read_apparatus(path: Path, assume_tei: bool = False) -> etree._ElementTree:
    """The document to read an apparatus from; with `assume_tei`, elements in no namespace are read as TEI's."""
    tree = INPUTS.get(Path(path).suffix.lower(), parse_file)(path)
    return assume_tei_namespace(tree) if assume_tei else tree


def transcription_witness(tree: etree._ElementTree, name: str) -> tuple[str, str] | None:
    """A transcription (a TEI document with no apparatus, no listWit and a sourceDesc/bibl describing its one
    source, as `tei encode` and `tei build` write them) read as the one witness it is: its id (the bibl's
    xml:id, else the file's name) and its text, by the one rule of tei.apparatus; None for any other document."""
    from tei.apparatus import transcription_text
    from tei.xmlio import tei, xml

    root = tree.getroot()
    bibl = root.find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('sourceDesc')}/{tei('bibl')}")
    if bibl is None or root.find(tei("text")) is None:
        return None
    if next(root.iter(tei("app"), tei("witness"), tei("listWit")), None) is not None:
        return None
    witness_id = (bibl.get(xml("id")) if bibl is not None else None) or Path(name).stem or "witness"
    return witness_id, transcription_text(tree, name)
