"""CollateX alignment tables: real CollateX output read as an edition, and our writer's tables read back."""

from __future__ import annotations

import json

import pytest
from cli_runner import run
from paths import FIXTURES

from tei.apparatus import witness_text
from tei.convert.collatex import alignment_table, alignment_table_bytes
from tei.readers.collatex import read_alignment_table, read_witness_input
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes, parse_file

MINI = FIXTURES / "editions" / "mini.xml"


@pytest.fixture(scope="module")
def collatex_port():
    try:
        import collatex as port
    except ImportError:
        pytest.fail("CollateX (Python port) is not installed: pip install -e '.[test]'")
    return port


def texts_of(edition) -> dict[str, str]:
    tree = parse_bytes(edition_bytes(edition), "from-table.xml")
    return {w.id: witness_text(tree, w.id) for w in edition.work.witnesses}


def test_real_collatex_output_becomes_an_edition_with_the_same_witness_texts(collatex_port, tmp_path):
    witnesses = {"A": "The quick brown fox jumps over the dog.", "B": "The brown fox jumps over the lazy dog."}
    collation = collatex_port.Collation()
    for siglum, text in witnesses.items():
        collation.add_plain_witness(siglum, text)
    (tmp_path / "table.json").write_text(collatex_port.collate(collation, output="json"), "utf-8")
    edition = read_alignment_table(tmp_path / "table.json")
    assert texts_of(edition) == witnesses
    assert [reading.type for unit in edition.units() for reading in unit.readings()] == [
        "addition",
        "omission",
        "omission",
        "addition",
    ]


def test_real_collatex_output_of_a_shared_sample(collatex_port, shared_dir, tmp_path):
    (work,) = read_witness_input(shared_dir / "corpora" / "collation-witnesses" / "collatex_fixture_base-4w.json")
    collation = collatex_port.Collation()
    for witness in work.witnesses:
        collation.add_plain_witness(witness.id, witness.text)
    (tmp_path / "table.json").write_text(collatex_port.collate(collation, output="json"), "utf-8")
    edition = read_alignment_table(tmp_path / "table.json")
    assert texts_of(edition) == {w.id: w.text for w in work.witnesses}
    assert len(edition.units()) == 1


def test_the_java_layout_one_row_per_rank(tmp_path):
    table = {
        "sigils": ["A", "B"],
        "columns": 3,
        "rows": 2,
        "table": [[["a "], ["a "]], [["b "], None], [[{"t": "c"}], [{"t": "d"}]]],
    }
    (tmp_path / "java.json").write_text(json.dumps(table))
    assert texts_of(read_alignment_table(tmp_path / "java.json")) == {"A": "a b c", "B": "a d"}


def test_our_table_reads_back_to_the_same_witness_texts(tmp_path):
    tree = parse_file(MINI)
    (tmp_path / "mini.json").write_bytes(alignment_table_bytes(tree, "mini.xml"))
    assert texts_of(read_alignment_table(tmp_path / "mini.json")) == {w: witness_text(tree, w) for w in "ABC"}


def test_our_table_has_the_collatex_shape():
    table = alignment_table(parse_file(MINI), "mini.xml")
    assert table["witnesses"] == ["A", "B", "C"]
    rows = table["table"]
    assert len({len(row) for row in rows}) == 1
    assert rows[1][5][0]["t"] == " "  # B's addition " At that time ...", split after each space
    assert rows[1][5][1]["t"] == "At "
    assert rows[0][5] is None and rows[2][5] is None  # A and C have a gap there


def test_the_command_writes_a_table_and_reads_one(tmp_path):
    assert run("convert", MINI, "--alignment-table", "-o", tmp_path / "t.json").exit_code == 0
    result = run("convert", tmp_path / "t.json", "--method", "double-end-point", "-o", tmp_path / "t.xml")
    assert result.exit_code == 0, result.stderr
    assert run("witness", tmp_path / "t.xml", "--wit", "C").stdout == witness_text(parse_file(MINI), "C")


def test_a_table_with_ragged_rows_is_refused(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps({"witnesses": ["A", "B"], "table": [[["a"]], []]}))
    result = run("convert", tmp_path / "bad.json", "--method", "parallel-segmentation")
    assert result.exit_code == 1 and "[CX002]" in result.stderr
