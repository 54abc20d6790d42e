"""The real parallel-segmentation editions of ../shared/corpora/tei-apparatus render, with correct witness texts."""

from __future__ import annotations

from copy import deepcopy

import pytest
from lxml import html
from paths import APPARATUS_SAMPLES

from tei.apparatus import readings, witness_ids, witness_text
from tei.diagnostics import Severity
from tei.outputs import write_files
from tei.render import render
from tei.render.entries import annotated
from tei.render.xslt import transform
from tei.xmlio import parse_file, tei

pytestmark = pytest.mark.needs_shared

SAMPLES = APPARATUS_SAMPLES
NS = {"t": "http://www.tei-c.org/ns/1.0"}
ALTERNATIVES = "//t:choice/t:reg | //t:choice/t:corr | //t:choice/t:expan | //t:w[t:orig]/t:reg"


@pytest.fixture(params=SAMPLES)
def sample(request, shared_dir):
    return shared_dir / "corpora" / "tei-apparatus" / request.param


def test_sample_renders_without_errors_and_every_unit_has_an_entry_with_all_its_readings(sample, tmp_path):
    rendered = render(sample, "html", tmp_path)
    assert not [d for d in rendered.diagnostics if d.severity is Severity.ERROR]
    page = html.fromstring(rendered.files[tmp_path / "index.html"])
    apps = list(parse_file(sample).getroot().iter(tei("app")))
    entries = page.xpath("//ol[@class='entries']/li")
    assert apps and len(entries) == len(apps) == len(page.xpath("//span[contains(concat(' ', @class, ' '), ' app ')]"))
    for app, entry in zip(apps, entries):
        shown = entry.xpath(".//span[contains(concat(' ', @class, ' '), ' reading ')]")
        assert len(shown) == len(readings(app)), entry.get("id")


@pytest.mark.browser
def test_sample_witness_texts_in_the_browser_equal_tei_witness(sample, tmp_path, open_page, artifacts):
    write_files(render(sample, "html", tmp_path).files)
    page = open_page(tmp_path / "index.html")
    tree = parse_file(sample)
    witnesses = witness_ids(tree)
    # The page and xslt/common/witness-text.xsl apply one rule (docs/edition-format.md); the stylesheet is
    # compared with the apparatus reader below.
    expected = [str(transform("common/witness-text.xsl", tree, str(sample), {"wit": w}).result) for w in witnesses]
    shown = page.page.evaluate("ids => ids.map(id => teiEdition.witnessText(id))", witnesses)
    assert shown == expected
    first = witnesses[0]
    page.page.select_option("#witness-select", first)
    # On screen, a choice shows one of its readings (orig, sic, abbr); the others are its tooltip.
    shown_tree = deepcopy(tree)
    for alternative in shown_tree.xpath(ALTERNATIVES, namespaces=NS):
        parent, before = alternative.getparent(), alternative.getprevious()
        if before is not None:
            before.tail = (before.tail or "") + (alternative.tail or "")
        else:
            parent.text = (parent.text or "") + (alternative.tail or "")
        parent.remove(alternative)
    on_screen = str(transform("common/witness-text.xsl", shown_tree, str(sample), {"wit": first}).result)
    assert page.visible_text("#reading-text") == on_screen
    page.page.screenshot(path=artifacts / f"html-{sample.stem}.png")
    assert page.errors == []


def test_sample_witness_texts_by_the_common_stylesheet_equal_tei_witness(sample):
    """The stylesheet prints the reader's text from the annotated copy the renderers hand it (TEI whitespace,
    <w> spacing, groups, hands and lacunae are the reader's, never the stylesheet's)."""
    tree = parse_file(sample)
    copy = annotated(tree, str(sample))
    for witness in witness_ids(tree):
        rebuilt = str(transform("common/witness-text.xsl", copy, str(sample), {"wit": witness}).result)
        assert rebuilt == witness_text(tree, witness), witness
