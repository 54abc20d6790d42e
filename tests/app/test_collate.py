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
