"""The real parallel-segmentation editions of ../shared/corpora/tei-apparatus render, with correct witness texts."""

from __future__ import annotations

import pytest
from lxml import html
from paths import APPARATUS_SAMPLES

from tei.apparatus import Apparatus, readings, witness_ids
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


@pytest.mark.browser
@pytest.mark.parametrize(
    "sample",
    SAMPLES,
    indirect=True,
)
def test_sample_witness_texts_in_the_browser_equal_tei_witness(sample, tmp_path, open_page, artifacts):
    write_files(render(sample, "html", tmp_path).files)
    page = open_page(tmp_path / "index.html")
    tree = parse_file(sample)
    witnesses = witness_ids(tree)
    apparatus = Apparatus(tree, str(sample))  # the document read once for all its witnesses
    # The page chooses each unit's reading by the reader's verdict (data-wit, data-lacunose) and draws TEI's
    # whitespace with CSS: the text it draws, each run of whitespace one space, is the reader's.
    expected = [" ".join(apparatus.text(w).split()) for w in witnesses]
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
    apparatus = Apparatus(tree, str(sample))
    for witness in witness_ids(tree):
        rebuilt = str(transform("common/witness-text.xsl", copy, str(sample), {"wit": witness}).result)
        assert rebuilt == apparatus.text(witness), witness


# Drawn on screen: text nodes under no display:none, and of CSS-generated content the lacuna marker and the
# space between <w> elements (the page's other generated marks, + ° * ‸, are signs, not witness text).
DRAWN_TEXT = """() => {
    const parts = [];
    const drawn = (element, which) => {
        const content = getComputedStyle(element, which).content;
        if (content === '"[…]"' || content === '" "') parts.push(JSON.parse(content));
    };
    (function walk(node) {
        if (node.nodeType === Node.TEXT_NODE) { parts.push(node.data); return; }
        if (node.nodeType !== Node.ELEMENT_NODE || getComputedStyle(node).display === "none") return;
        drawn(node, "::before");
        for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
        drawn(node, "::after");
    })(document.getElementById("reading-text"));
    return parts.join("");
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize(
    "sample", ["evt_avicenna.xml", "evt_pseudoEdition.xml", "stemmaweb_florilegium_tei_ps.xml"], indirect=True
)
def test_a_witness_chosen_on_screen_lacks_the_text_a_lacuna_element_hides(sample, width, tmp_path, browser, artifacts):
    """Lacunae opened and closed by elements (lacunaStart/lacunaEnd, witEnd/witStart): with a witness chosen,
    the page draws the reader's words, the lacuna markers where they stand, and hides the text it lacks
    (compared without whitespace: how a block or an element spaces the words is the page's layout)."""
    write_files(render(sample, "html", tmp_path).files)
    page = browser.new_page(viewport={"width": width, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exception: errors.append(str(exception)))
    page.goto((tmp_path / "index.html").as_uri())
    page.wait_for_selector("html.ready")
    tree = parse_file(sample)
    apparatus = Apparatus(tree, str(sample))
    lacking = [w for w in witness_ids(tree) if page.evaluate(f"!!document.querySelector('[data-lacking~=\"{w}\"]')")]
    assert lacking, "no witness is inside a lacuna opened by an element"
    for witness in lacking:
        page.select_option("#witness-select", witness)
        drawn = "".join(page.evaluate(DRAWN_TEXT).split())
        assert drawn == "".join(apparatus.text(witness).split()), witness
    hidden = page.evaluate("document.querySelectorAll('#reading-text .lacking.absent').length")
    assert hidden > 0
    page.evaluate("document.querySelector('.lacuna-opens, .lacunose').scrollIntoView({block: 'center'})")
    page.screenshot(path=artifacts / f"lacuna-{sample.stem}-{width}-{lacking[-1]}.png")
    page.select_option("#witness-select", "")
    assert page.evaluate("document.querySelectorAll('#reading-text .absent, #reading-text .lacuna-opens').length") == 0
    assert errors == []
    page.close()
