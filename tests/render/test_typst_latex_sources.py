"""The print sources without Python: xsltproc writes the same Typst and LaTeX source as `tei render --to typst|latex`."""

from __future__ import annotations

import subprocess

import pytest
from paths import FIXTURES

from tei.render import render
from tei.resources import resource

from .conftest import MINI


@pytest.mark.parametrize("format_name", ["typst", "latex"])
def test_xsltproc_writes_the_same_source(format_name, xsltproc, tmp_path):
    stylesheet = resource("xslt", f"{format_name}/edition.xsl")
    command = [xsltproc, "--nonet", "--stringparam", "series-b-types", "orthographic", str(stylesheet), str(MINI)]
    by_xsltproc = subprocess.run(command, check=True, capture_output=True).stdout
    by_tei = render(MINI, format_name, tmp_path / "out", {"series-b-types": "orthographic"}).files[tmp_path / "out"]
    assert by_xsltproc == by_tei


TRANSPOSITION = FIXTURES / "editions" / "transposition.xml"


@pytest.mark.parametrize("format_name", ["typst", "latex"])
def test_a_transposition_by_reference_prints_no_placeholder_and_one_entry(format_name, tmp_path):
    """teiphy's shape (tests/fixtures/editions/transposition.xml): the unit whose readings list other units by
    <ref> prints nothing in the text; its entry gives the moved units' base texts, C's in C's order."""
    source = render(TRANSPOSITION, format_name, tmp_path / "out", {}).files[tmp_path / "out"].decode()
    assert "[U1" not in source
    assert source.count("ινα παρρησιασωμαι εν αυτω") == 1
    if format_name == "typst":  # keyed with the first unit it moves: its keys open that unit's call
        assert '"U12-18/a": (lemma: [ινα εν αυτω παρρησιασωμαι]' in source
        assert '#tei-app("U12", ("U12-18/a", "U12/a", ), ' in source
    else:  # an \edtext around the first unit it moves
        assert "\\edtext{\\edtext{ινα}" in source
        assert "\\lemma{ινα εν αυτω παρρησιασωμαι" in source
