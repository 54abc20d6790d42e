"""Every witness of every edition in ../shared/corpora/tei-apparatus*/: `tei witness` equals the independent
extraction of tests/apparatus/guidelines.py (lacunae marked), and `tei stats` agreement equals its counts."""

from __future__ import annotations

import json

import pytest
from cli_runner import run
from paths import SHARED

from tei.apparatus import Apparatus
from tei.xmlio import parse_file

from . import guidelines

FOLDERS = ("tei-apparatus", "tei-apparatus-conventions")
FILES = sorted(
    f"{folder}/{path.name}" for folder in FOLDERS for path in (SHARED / "corpora" / folder).glob("*.xml")
) or ["(../shared/corpora absent)"]
NOT_A_TEI_DOCUMENT = "tei-apparatus/tei-guidelines_TC-CriticalApparatus.xml"  # a <div> of the Guidelines
EDITIONS = [f for f in FILES if f != NOT_A_TEI_DOCUMENT]

pytestmark = pytest.mark.needs_shared


@pytest.fixture(params=EDITIONS)
def edition(request, shared_dir):
    return shared_dir / "corpora" / request.param


@pytest.mark.slow
def test_every_witness_equals_the_independent_extraction(edition, tmp_path):
    tree = parse_file(edition)
    sigla = guidelines.Sigla(tree.getroot())
    listed = run("witness", edition, "--list")
    assert listed.exit_code == 0, listed.stderr
    assert {line.split("\t")[0] for line in listed.stdout.splitlines()} == set(sigla.order)
    # Every witness at once (one reading of the edition: 3 John has 140), then the first by itself.
    result = run("witness", edition, "--all", "-o", tmp_path, "--lacuna-marker", "<lacuna>")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == sorted(
        f"{w}.txt" for w in sigla.order
    )
    for witness in sigla.order:
        expected, _ = guidelines.witness_text(tree, witness, "<lacuna>")
        assert (tmp_path / f"{witness}.txt").read_text("utf-8") == expected, witness
        assert (f"[A010] witness '{witness}' is" in result.stderr) == ("<lacuna>" in expected), witness
    first = sigla.order[0]
    alone = run("witness", edition, "--wit", first, "--lacuna-marker", "<lacuna>")
    assert alone.exit_code == 0 and alone.stdout == (tmp_path / f"{first}.txt").read_text("utf-8"), alone.stderr


@pytest.mark.slow
def test_stats_agreement_equals_independent_counts(edition):
    result = run("stats", edition, "--table", "json")
    assert result.exit_code == 0, result.stderr
    found = {(p["first"], p["second"]): (p["agreeing"], p["compared"]) for p in json.loads(result.stdout)["agreement"]}
    assert found == guidelines.agreement(parse_file(edition))


def test_the_guidelines_chapter_is_refused_in_one_line(shared_dir):
    result = run("witness", shared_dir / "corpora" / NOT_A_TEI_DOCUMENT, "--list")
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert "[A001]" in line


def test_ephesians_transposition_by_reference_is_read_in_each_witness_order(shared_dir):
    """teiphy's Ephesians 6:20: the unit B10K6V20U12-18 lists the units U12, U14-16, U18 by <ref>; 01 and four
    others read them in the order U12, U18, U14-16, the others in document order; no placeholder is text."""
    apparatus = Apparatus(parse_file(shared_dir / "corpora" / "tei-apparatus" / "teiphy_ubs_ephesians.xml"), "e")
    texts = {w: apparatus.text(w) for w in apparatus.ids}
    assert not [w for w, text in texts.items() if "[B10K6V20" in text]
    assert texts["01"].endswith("του ευαγγελιου ινα παρρησιασωμαι εν αυτω")
    assert texts["UBS"].endswith("του ευαγγελιου ινα εν αυτω παρρησιασωμαι")
    assert texts["P46"].endswith(" ινα αυτο παρρησιασωμαι")  # its own reading of U14-16, in its place
