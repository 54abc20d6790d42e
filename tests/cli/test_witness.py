"""`tei witness`: exact text on stdout from any apparatus the toolkit reads, and clear refusals."""

import json

from cli_runner import one_error_line, run
from paths import FIXTURES

MINI = FIXTURES / "editions" / "mini.xml"


def test_prints_exactly_the_witness_text():
    result = run("witness", MINI, "--wit", "B")
    assert result.exit_code == 0
    assert result.stdout.startswith("The Prophet (peace and blessings be upon him) turned towards the Qiblah.")
    assert result.stdout.endswith("prisoners.\n")


def test_writes_to_a_file(tmp_path):
    assert run("witness", MINI, "--wit", "A", "-o", tmp_path / "a.txt").exit_code == 0
    assert (tmp_path / "a.txt").read_text().endswith("captives.\n")


def test_unknown_witness_lists_the_known_ones():
    result = run("witness", MINI, "--wit", "Z")
    assert result.exit_code == 1
    assert "the witnesses are: A, B, C" in one_error_line(result)


def test_undeclared_witnesses_named_in_wit_can_be_printed(shared_dir):
    avicenna = shared_dir / "corpora" / "tei-apparatus" / "evt_avicenna.xml"
    result = run("witness", avicenna, "--wit", "V2")
    assert result.exit_code == 0 and result.stdout.strip()


def test_collatex_json_input(tmp_path):
    source = tmp_path / "w.json"
    source.write_text(
        json.dumps({"witnesses": [{"id": "A", "content": "the black cat"}, {"id": "B", "content": "the white cat"}]})
    )
    assert run("witness", source, "--wit", "B").stdout == "the white cat"


def test_missing_edition(tmp_path):
    result = run("witness", tmp_path / "none.xml", "--wit", "A")
    assert result.exit_code == 3
    assert "none.xml" in one_error_line(result)
