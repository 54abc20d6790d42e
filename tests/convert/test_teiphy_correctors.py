"""Issue 32: teiphy reads an edition collated from transcriptions with hands (the W1/W2 fixture), and why
its --fill-correctors cannot fill them from an edition valid against tei_all.

teiphy (teiphy/witness.py, Witness.__init__) takes a witness's kind from its un-namespaced @type alone
(`xml.get("type")`, "manuscript" when absent), and --fill-correctors (Collation.parse_readings_by_witness)
fills only witnesses whose kind is "corrector", from the witnesses listed before them. In tei_all (P5 4.12.0)
`witness` has att.global and att.sortable only: no @type. So no encoding valid against tei_all makes teiphy
read a hand as a corrector; the tests pin each half of that, and what teiphy reads of the edition as written."""

from __future__ import annotations

import csv
import io
import subprocess

import pytest
from cli_runner import run
from latin_transcriptions import collated_latin
from system import program

HANDS = ("W1*", "W1C1", "W1C2")


@pytest.fixture(scope="module")
def teiphy() -> str:
    return program("teiphy", "pip install -e '.[test]'")


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    return collated_latin(tmp_path_factory.mktemp("latin"))


def matrix(teiphy, source, target) -> dict[str, dict[str, float]]:
    """teiphy's CSV with --fill-correctors: reading label -> witness id -> 1.0 where the witness reads it."""
    result = subprocess.run(
        [teiphy, "--format", "csv", "--fill-correctors", str(source), str(target)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = list(csv.reader(io.StringIO(target.read_text("utf-8-sig"))))
    return {row[0]: dict(zip(rows[0][1:], map(float, row[1:]))) for row in rows[1:]}


def typed_as_correctors(edition, target):
    """The edition with @type="corrector" on each hand's witness (teiphy's only hook), the first hand's too:
    untyped, its cells where it is not cited stay lacunose and teiphy fills the correctors after it from them."""
    text = edition.read_text("utf-8")
    for siglum in HANDS:
        text = text.replace(f'<witness n="{siglum}"', f'<witness type="corrector" n="{siglum}"', 1)
    target.write_text(text, encoding="utf-8")
    return target


def test_teiphy_reads_every_hand_as_a_taxon(teiphy, edition, tmp_path):
    read = matrix(teiphy, edition, tmp_path / "latin.csv")
    assert list(next(iter(read.values()))) == ["W1", "W1-1", "W1C1", "W1C2", "W2"]
    # Where a hand is cited it reads as cited: the first hand and the second corrector omit "deus".
    omitted = [label for label in read if label.startswith(next(iter(read)).split(",")[0]) and label.endswith(", ")]
    assert read[omitted[0]] == {"W1": 0.0, "W1-1": 1.0, "W1C1": 0.0, "W1C2": 1.0, "W2": 0.0}


def test_fill_correctors_leaves_the_hands_lacunose_where_they_are_not_cited(teiphy, edition, tmp_path):
    read = matrix(teiphy, edition, tmp_path / "latin.csv")
    erat = next(cells for label, cells in read.items() if label.endswith(", erat"))
    # "erat" is W1's and cites no hand (each reads it): teiphy types no hand "corrector", so fills none.
    assert erat == {"W1": 1.0, "W1-1": 0.0, "W1C1": 0.0, "W1C2": 0.0, "W2": 1.0}


def test_the_one_encoding_teiphy_fills_is_not_valid_against_tei_all(teiphy, edition, tei_all_rng, tmp_path):
    assert run("validate", "--schema", tei_all_rng, edition).exit_code == 0
    typed = typed_as_correctors(edition, tmp_path / "typed.xml")
    result = run("validate", "--schema", tei_all_rng, typed)
    assert result.exit_code != 0
    assert result.stdout.count('attribute "type" not allowed here') + result.stderr.count(
        'attribute "type" not allowed here'
    ) == len(HANDS)
    read = matrix(teiphy, typed, tmp_path / "typed.csv")
    erat = next(cells for label, cells in read.items() if label.endswith(", erat"))
    assert erat["W1-1"] == erat["W1C1"] == erat["W1C2"] == 1.0  # typed, the hands are filled
    # and filled cumulatively from the witnesses before them, which is not what a hand of this edition reads:
    # W1C1 is the first hand with m2's corrections only ("et deus"), teiphy gives it the first hand's omission.
    deus = next(cells for label, cells in read.items() if label.endswith(", deus"))
    assert "deus" in run("witness", edition, "--wit", "W1C1").stdout and deus["W1C1"] == 0.0
