"""The print sources without Python: xsltproc writes the same Typst and LaTeX source as `tei render --to typst|latex`."""

from __future__ import annotations

import subprocess

import pytest

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
