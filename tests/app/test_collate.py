"""`tei collate` writes the project schema beside the edition and names it relative to the edition file."""

from __future__ import annotations

import shutil

from cli_runner import run
from paths import SEEDS


def test_the_schema_goes_beside_the_edition_and_the_folder_can_move(tmp_path):
    output = tmp_path / "coll" / "x.xml"
    result = run("collate", *sorted(SEEDS.glob("*.txt")), "-o", output)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "coll" / "schemas" / "tei-edition.rng").is_file()
    head = output.read_bytes()[:400].decode()
    assert '<?xml-model href="schemas/tei-edition.rng"' in head and "site-packages" not in head
    shutil.move(tmp_path / "coll", tmp_path / "moved")
    result = run("validate", tmp_path / "moved" / "x.xml")
    assert result.exit_code == 0, result.stderr


def test_an_edition_on_stdout_names_no_schema():
    result = run("collate", *sorted(SEEDS.glob("*.txt"))[:2], "-o", "-")
    assert result.exit_code == 0 and "xml-model" not in result.stdout


def test_a_transcription_made_with_map_invalid_chars_collates_without_the_flag(tmp_path):
    """Point 8: collating a transcription made with --map-invalid-chars needed the flag again, and T002 gave
    the offset in the text where a line of the file belongs. The transcription holds the character as
    <g type="char">; it is collated as it is, and the witness rebuilds byte for byte."""
    (tmp_path / "f.txt").write_bytes(b"one\x0ctwo words")
    (tmp_path / "g.txt").write_bytes(b"one two words")
    assert run("encode", tmp_path / "f.txt", "-o", tmp_path / "f.xml", "--map-invalid-chars").exit_code == 0
    result = run("collate", tmp_path / "f.xml", tmp_path / "g.txt", "-o", tmp_path / "e" / "e.xml")
    assert result.exit_code == 0, result.stderr
    assert run("witness", tmp_path / "e" / "e.xml", "--wit", "A").stdout == "one\x0ctwo words"
    plain = run("collate", tmp_path / "f.txt", tmp_path / "g.txt", "-o", tmp_path / "p.xml")
    assert plain.exit_code == 1 and "[T002]" in plain.stderr  # a plain text still needs the flag
