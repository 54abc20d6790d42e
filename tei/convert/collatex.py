"""A CollateX-style JSON alignment table of an edition, read from the edition XML itself.

The layout is that of CollateX's Python port (`collate(..., output="json")`): `{"witnesses": [sigla],
"table": [one row per witness]}`, each row a list of cells, a cell null (the witness has nothing there)
or a list of tokens `{"t": text, "n": normalised}`. Text every witness shares is one column; each
variation unit in the text is one column, holding each witness's whole reading (nested units
included). The `t`s of a row concatenate to the witness's text exactly. What the table cannot hold,
and so loses: reading types, groups, lemmata, notes and all other markup.
"""

from __future__ import annotations

import json
import re

from lxml import etree

from tei.apparatus import Apparatus

LOSSY = True  # see the module docstring for what is lost
TOKEN = re.compile(r"\S+\s*|\s+")


def tokens(text: str) -> list[dict] | None:
    """A cell: the text split after each run of whitespace, or None for no text."""
    return [{"t": t, "n": t.strip()} for t in TOKEN.findall(text)] or None


def columns(apparatus: Apparatus, witnesses: list[str]) -> list[list[str]]:
    """Columns of the text, each one string per witness: shared runs, and the outer variation units."""
    rows = []
    for witness in witnesses:
        path = apparatus.path(witness)
        text, cells, position = path.text, [], 0
        for passage in (p for p in path.passages if p.depth == 0):
            cells += [text[position : passage.offset], text[passage.offset : passage.end]]
            position = passage.end
        rows.append([*cells, text[position:]])
    return [list(column) for column in zip(*rows) if any(column)]


def alignment_table(tree: etree._ElementTree, name: str) -> dict:
    """The table as a JSON-ready dict, read through tei.apparatus (any method; lacunae marked)."""
    apparatus = Apparatus(tree, name)
    witnesses = apparatus.ids
    table = columns(apparatus, witnesses)
    return {
        "witnesses": [apparatus.witnesses.siglum(w) for w in witnesses],
        "table": [[tokens(column[n]) for column in table] for n in range(len(witnesses))],
    }


def alignment_table_bytes(tree: etree._ElementTree, name: str) -> bytes:
    return (json.dumps(alignment_table(tree, name), ensure_ascii=False) + "\n").encode("utf-8")
