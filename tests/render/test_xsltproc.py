"""The stylesheets run without Python: xsltproc gives the same page as lxml and the same witness texts as `tei witness`."""

from __future__ import annotations

import subprocess

import pytest

from tei.apparatus import witness_ids, witness_text
from tei.render import render
from tei.render.entries import annotated
from tei.resources import resource
from tei.xmlio import parse_file

from .conftest import MINI
from .test_html import normalise


def xsltproc_run(xsltproc, stylesheet: str, edition, **params) -> bytes:
    command = [xsltproc, "--nonet"]
    for name, value in params.items():
        command += ["--stringparam", name, value]
    command += [str(resource("xslt", stylesheet)), str(edition)]
    return subprocess.run(command, check=True, capture_output=True).stdout


def annotated_file(edition, folder):
    """The copy of the edition that carries the apparatus reader's verdicts, as the renderers hand it over."""
    path = folder / f"{edition.stem}.annotated.xml"
    annotated(parse_file(edition), str(edition)).write(str(path), encoding="UTF-8", xml_declaration=True)
    return path


def test_xsltproc_page_equals_the_lxml_page(xsltproc, tmp_path):
    by_lxml = render(MINI, "html", tmp_path).files[tmp_path / "index.html"].decode()
    by_xsltproc = xsltproc_run(xsltproc, "html/edition.xsl", annotated_file(MINI, tmp_path)).decode()
    assert normalise(by_xsltproc) == normalise(by_lxml)


def test_xsltproc_makes_a_page_of_a_plain_edition_file_too(xsltproc):
    page = xsltproc_run(xsltproc, "html/edition.xsl", MINI).decode()
    assert page.count('class="entry"') == 5 and 'data-wit="#B #C"' in page  # @wit read as it stands


def test_xsltproc_witness_texts_equal_tei_witness(xsltproc, tmp_path):
    tree = parse_file(MINI)
    for edition in (MINI, annotated_file(MINI, tmp_path)):
        for witness in witness_ids(tree):
            assert xsltproc_run(xsltproc, "common/witness-text.xsl", edition, wit=witness).decode() == witness_text(
                tree, witness
            )


@pytest.mark.parametrize("sample", ["evt_pseudoEdition.xml", "stemmaweb_florilegium_tei_ps.xml"])
def test_xsltproc_witness_texts_of_shared_samples(xsltproc, shared_dir, sample, tmp_path):
    """On another project's edition, the reader's text (TEI whitespace, groups, hands, lacunae) comes through
    the annotated copy: the stylesheet prints it, it does not apply a rule of its own."""
    edition = shared_dir / "corpora" / "tei-apparatus" / sample
    tree = parse_file(edition)
    copy = annotated_file(edition, tmp_path)
    for witness in witness_ids(tree):
        assert xsltproc_run(xsltproc, "common/witness-text.xsl", copy, wit=witness).decode() == witness_text(
            tree, witness
        )


def test_xsltproc_reports_bad_input_on_stderr(xsltproc):
    from .conftest import FIXTURES

    result = subprocess.run(
        [xsltproc, "--nonet", str(resource("xslt", "html/edition.xsl")), str(FIXTURES / "unknown-witness.xml")],
        capture_output=True,
        check=True,
    )
    assert b"WARNING H004" in result.stderr
    assert b'data-code="H004"' in result.stdout
