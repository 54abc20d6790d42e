"""The real parallel-segmentation editions of ../shared/corpora/tei-apparatus render, with correct witness texts."""

from __future__ import annotations

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


# Known gap, kept visible (strict: it fails the day it is closed): a lacuna opened and closed by elements
# (lacunaStart/lacunaEnd, witEnd/witStart) hides shared text from one witness only; the page marks units
# where a witness is lacunose, but draws the text outside units for every witness alike.
LACUNA_ELEMENTS = pytest.mark.xfail(
    reason="the page does not yet hide the shared text inside a lacuna opened by lacunaStart/witEnd",
    strict=True,
)


@pytest.mark.browser
@pytest.mark.parametrize(
    "sample",
    [
        pytest.param(name, marks=LACUNA_ELEMENTS)
        if name in ("evt_avicenna.xml", "evt_pseudoEdition.xml", "stemmaweb_florilegium_tei_ps.xml")
        else name
        for name in SAMPLES
    ],
    indirect=True,
)
def test_sample_witness_texts_in_the_browser_equal_tei_witness(sample, tmp_path, open_page, artifacts):
    write_files(render(sample, "html", tmp_path).files)
    page = open_page(tmp_path / "index.html")
    tree = parse_file(sample)
    witnesses = witness_ids(tree)
    # The page chooses each unit's reading by the reader's verdict (data-wit, data-lacunose) and draws TEI's
    # whitespace with CSS: the text it draws, each run of whitespace one space, is the reader's.
    expected = [" ".join(witness_text(tree, w).split()) for w in witnesses]
    shown = page.page.evaluate("ids => ids.map(id => teiEdition.displayedText(id))", witnesses)
    assert [(w, s) for w, s, e in zip(witnesses, shown, expected) if s != e] == []
    first = witnesses[0]
    page.page.select_option("#witness-select", first)
    # On screen, each unit shows the reading the reader gives the witness, or none (lacunose, not cited).
    wrong = page.page.evaluate(
        """w => Array.from(document.querySelectorAll('#reading-text .app')).filter(u => {
            const shown = Array.from(u.children).filter(r => r.classList.contains('rdg') && r.classList.contains('shown'));
            const reads = Array.from(u.children).filter(r => r.classList.contains('rdg')
                && (r.dataset.wit || '').split(' ').includes(w));
            return shown.length !== reads.slice(0, 1).length || (shown[0] && shown[0] !== reads[0]);
        }).map(u => u.id)""",
        first,
    )
    assert wrong == []
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
