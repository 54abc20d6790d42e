"""The web edition in a real browser (Debian's Chromium, headless, through Playwright), opened from file://."""

from __future__ import annotations

import json
import re
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import SHARED

from tei.apparatus import Apparatus, readings
from tei.cli import main
from tei.collate import collate
from tei.errors import InvalidInputError
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_file

from .conftest import (
    ENTRY_WITNESSES,
    FIXTURES,
    MINI,
    Page,
    mini_variant,
    reader_entries,
    render_site,
    transposed_mini,
)

pytestmark = pytest.mark.browser

ALL_TYPES = ["substitution", "addition", "orthographic", "honorific"]  # the order of the taxonomy


def tei_readings(tree):
    """For each app id: the (words, sigla) of every reading, as the TEI gives them."""
    found = {}
    for app in tree.iter("{http://www.tei-c.org/ns/1.0}app"):
        found[app.get("{http://www.w3.org/XML/1998/namespace}id")] = sorted(
            (" ".join("".join(r.itertext()).split()) or "om.", " ".join(w.lstrip("#") for w in r.get("wit").split()))
            for r in readings(app)
        )
    return found


def test_activating_a_unit_shows_exactly_its_readings(open_page, mini_site, artifacts):
    page = open_page(mini_site)
    expected = tei_readings(parse_file(MINI))
    for unit_id, readings_in_tei in expected.items():
        page.page.click(f"#{unit_id}")
        shown = page.page.eval_on_selector_all(
            "#entry-panel .reading",
            """readings => readings.map(r => [
                r.querySelector(':scope > bdi').textContent.split(/\\s+/).filter(Boolean).join(' '),
                Array.from(r.querySelectorAll('.siglum')).map(s => s.textContent).join(' ')])""",
        )
        assert sorted(tuple(r) for r in shown) == readings_in_tei, unit_id
        assert page.page.get_attribute(f"#{unit_id}", "aria-expanded") == "true"
    assert page.page.evaluate(ENTRY_WITNESSES) == reader_entries(parse_file(MINI))
    page.page.screenshot(path=artifacts / "html-mini-unit.png", full_page=True)
    assert page.errors == []


def test_keyboard_enter_activates_a_unit_and_escape_closes_it(open_page, mini_site):
    page = open_page(mini_site)
    roles = page.page.eval_on_selector_all(".app", "units => units.map(u => [u.getAttribute('role'), u.tabIndex])")
    assert roles == [["button", 0]] * 5
    page.page.focus("#app-0004")
    page.page.keyboard.press("Enter")
    assert "Umar" in page.page.inner_text("#entry-panel")
    assert page.page.evaluate("location.hash") == "#app-0004"
    page.page.keyboard.press("Escape")
    assert page.page.get_attribute("#app-0004", "aria-expanded") == "false"
    assert page.errors == []


def test_switching_to_each_witness_shows_the_text_of_tei_witness(open_page, mini_site, artifacts):
    page = open_page(mini_site)
    page.shows_each_witness_as_tei_witness(MINI)
    page.page.screenshot(path=artifacts / "html-mini-witness-C.png", full_page=True)
    page.page.select_option("#witness-select", "")
    assert "Qibla." in page.visible_text("#reading-text")
    assert page.errors == []


def test_filters_hide_and_show_units_and_entries(open_page, mini_site, artifacts):
    page = open_page(mini_site)
    boxes = page.page.eval_on_selector_all(".filters input", "boxes => boxes.map(b => b.value)")
    assert boxes == ALL_TYPES
    page.page.click(".substantive-only")
    assert page.page.is_hidden("#entry-app-0001")  # honorific only
    assert page.page.is_hidden("#entry-app-0002")  # orthographic only
    assert page.page.is_visible("#entry-app-0003")  # addition
    assert page.page.is_visible("#entry-app-0005")  # substitution
    assert "filtered" in page.page.get_attribute("#app-0002", "class")
    assert page.page.get_attribute("#app-0002", "tabindex") == "-1"
    page.page.screenshot(path=artifacts / "html-mini-substantive-only.png", full_page=True)
    page.page.check('.filters input[value="orthographic"]')
    assert page.page.is_visible("#entry-app-0002")
    assert "filtered" not in page.page.get_attribute("#app-0002", "class")
    page.page.uncheck('.filters input[value="substitution"]')
    assert page.page.is_hidden("#entry-app-0005")
    assert page.errors == []


def test_permalink_opens_its_unit_and_entries_link_back(open_page, mini_site):
    page = open_page(mini_site, "#app-0003")
    assert page.page.get_attribute("#app-0003", "aria-expanded") == "true"
    assert "At that time" in page.page.inner_text("#entry-panel")
    page.page.click("#entry-app-0005 .unit-ref")
    page.page.wait_for_function("location.hash === '#app-0005'")
    assert page.page.get_attribute("#app-0005", "aria-expanded") == "true"
    assert page.page.get_attribute("#entry-panel .to-entry", "href") == "#entry-app-0005"
    assert page.errors == []


def test_synoptic_view_aligns_units_and_marks_differences(open_page, mini_site, artifacts):
    page = open_page(mini_site)
    page.page.click("#tab-synoptic")
    assert page.page.is_visible("#view-synoptic") and page.page.is_hidden("#view-text")
    headers = page.page.eval_on_selector_all("#synoptic thead th", "cells => cells.map(c => c.textContent)")
    assert headers == ["Unit", "A", "B", "C"]
    row = page.page.eval_on_selector_all(
        "#synoptic tbody tr:not(.shared)",
        "rows => rows.map(r => Array.from(r.cells).map(c => [c.textContent, c.className]))",
    )[4]
    assert row == [["5", ""], ["captives", "agrees"], ["prisoners", "differs"], ["prisoners", "differs"]]
    page.page.screenshot(path=artifacts / "html-mini-synoptic.png", full_page=True)
    assert page.errors == []


def test_tabs_are_keyboard_operable_and_conspectus_lists_witnesses(open_page, mini_site):
    page = open_page(mini_site)
    page.page.focus("#tab-text")
    page.page.keyboard.press("ArrowLeft")
    assert page.page.evaluate("document.activeElement.id") == "tab-witnesses"
    assert page.page.get_attribute("#tab-witnesses", "aria-selected") == "true"
    conspectus = page.page.inner_text("#view-witnesses dl")
    assert "Translation with an added clause." in conspectus
    assert page.errors == []


def test_arabic_is_right_to_left_and_isolated(open_page, mini_site):
    page = open_page(mini_site)
    page.page.select_option("#witness-select", "C")
    style = page.page.eval_on_selector(
        "#reading-text bdi[lang='ar']", "e => [getComputedStyle(e).direction, getComputedStyle(e).unicodeBidi]"
    )
    assert style == ["rtl", "isolate"]
    assert page.page.eval_on_selector("#entry-app-0004 bdi[lang='ar']", "e => getComputedStyle(e).direction") == "rtl"


def test_heat_map_has_a_cell_per_stretch_of_text_that_jumps_to_its_units(open_page, mini_site):
    page = open_page(mini_site)
    cells = page.page.query_selector_all("#heatmap .heat")
    assert len(cells) == 5
    levels = [c.get_attribute("data-level") for c in cells]
    assert set(levels) <= {"0", "1", "2", "3", "4", "5"} and "5" in levels
    page.page.click("#heatmap .heat >> nth=0")
    assert page.page.get_attribute("#app-0001", "aria-expanded") == "true"
    assert page.errors == []


@pytest.mark.parametrize("fixture", ["no-apparatus.xml", "unknown-witness.xml", "no-listwit.xml"])
def test_bad_input_shows_a_visible_warning_not_a_blank_page(open_page, tmp_path, fixture):

    page = open_page(render_site(FIXTURES / fixture, tmp_path))
    assert page.page.is_visible(".warnings")
    assert page.page.inner_text("#reading-text").strip()
    assert page.errors == []


def test_without_list_wit_the_witness_switch_uses_the_sigla_of_the_apparatus(open_page, tmp_path):

    edition = FIXTURES / "no-listwit.xml"
    page = open_page(render_site(edition, tmp_path))
    options = page.page.eval_on_selector_all("#witness-select option", "o => o.map(x => x.value)")
    assert options == ["", "A", "C", "B"]
    page.shows_each_witness_as_tei_witness(edition)


CONTRAST = """selectors => selectors.map(selector => {
    const element = document.querySelector(selector);
    const rgb = value => value.match(/[\\d.]+/g).map(Number);
    const luminance = ([r, g, b]) => [r, g, b].map(c => {
        c /= 255;
        return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    let background = element;
    while (background && rgb(getComputedStyle(background).backgroundColor).length === 4
           && rgb(getComputedStyle(background).backgroundColor)[3] === 0) {
        background = background.parentElement;
    }
    const back = background ? rgb(getComputedStyle(background).backgroundColor) : [255, 255, 255];
    const [light, dark] = [luminance(rgb(getComputedStyle(element).color)), luminance(back)].sort((a, b) => b - a);
    return [selector, Math.round((light + 0.05) / (dark + 0.05) * 100) / 100];
})"""


def test_text_and_marks_have_sufficient_contrast(open_page, tmp_path):

    page = open_page(render_site(FIXTURES / "unknown-witness.xml", tmp_path))
    page.page.click("#app-0002")
    page.page.click(".warnings summary")
    selectors = [
        "h1",
        "#app-0001 .rdg.shown",
        "#app-0002.active .rdg.shown",
        ".entry .type",
        ".entry .unit-ref",
        ".entry .siglum",
        ".filters legend",
        ".tabs [aria-selected=false]",
        ".warnings summary",
        ".warnings li",
        "#entry-panel .to-entry",
    ]
    ratios = page.page.evaluate(CONTRAST, selectors)
    assert [r for r in ratios if r[1] < 4.5] == []
    page.page.click("#tab-synoptic")
    assert [
        r for r in page.page.evaluate(CONTRAST, ["#synoptic td.differs", "#synoptic tr.shared td"]) if r[1] < 4.5
    ] == []


def test_heat_map_is_one_tab_stop_walked_with_arrow_keys(open_page, mini_site):
    page = open_page(mini_site)
    page.page.focus("#heatmap .heat >> nth=0")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    assert (
        page.page.evaluate("Array.from(document.querySelectorAll('#heatmap .heat')).indexOf(document.activeElement)")
        == 2
    )
    page.page.keyboard.press("Enter")
    assert page.page.get_attribute("#app-0003", "aria-expanded") == "true"
    assert page.page.eval_on_selector_all("#heatmap .heat", "c => c.filter(x => x.tabIndex === 0).length") == 1


def test_print_stylesheet_keeps_text_apparatus_and_conspectus_only(open_page, mini_site, artifacts):
    page = open_page(mini_site)
    page.page.emulate_media(media="print")
    for hidden in (".tabs", ".controls", "#heatmap", "#entry-panel", "#view-synoptic"):
        assert page.page.is_hidden(hidden), hidden
    for shown in ("#reading-text", ".apparatus", "#view-witnesses"):
        assert page.page.is_visible(shown), shown
    assert page.page.eval_on_selector("#app-0002", "u => getComputedStyle(u, '::after').content") == '"2"'
    page.page.screenshot(path=artifacts / "html-mini-print.png", full_page=True)


def test_the_page_requests_nothing_but_its_own_files(desk_context, mini_site):
    page = desk_context.new_page()
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(mini_site.as_uri())
    page.wait_for_selector("html.ready")
    page.close()
    assert requested and all(url.startswith(mini_site.parent.as_uri()) for url in requested)


def test_a_note_is_a_marker_that_shows_the_note_and_adds_no_witness_text(open_page, tmp_path):

    edition = mini_variant(tmp_path, "about the <app", "about the<note>Muslim 1763 has no article here.</note> <app")
    page = open_page(render_site(edition, tmp_path / "site"))
    page.shows_each_witness_as_tei_witness(edition)
    page.page.focus(".note-ref")
    page.page.keyboard.press("Enter")
    assert page.page.inner_text("#entry-panel h2") == "Note"
    assert page.page.inner_text("#entry-panel p").split() == ["Muslim", "1763", "has", "no", "article", "here."]
    assert page.errors == []


def test_filters_follow_the_taxonomy_and_show_its_descriptions(open_page, mini_site):
    page = open_page(mini_site)
    titles = page.page.eval_on_selector_all(".filters label", "labels => labels.map(l => l.title)")
    assert titles == [
        "different words in the same place",
        "the witness has words the others lack",
        "spelling, transliteration, case, quote marks",
        "a different eulogy formula",
    ]


def test_a_block_of_undeclared_language_takes_its_direction_from_its_text(open_page, tmp_path, artifacts):

    edition = FIXTURES / "arabic-undeclared.xml"
    page = open_page(render_site(edition, tmp_path))
    assert page.page.eval_on_selector("#reading-text .tei-ab", "b => getComputedStyle(b).direction") == "rtl"
    assert page.page.eval_on_selector("#reading-text", "t => getComputedStyle(t).direction") == "ltr"
    page.shows_each_witness_as_tei_witness(edition)
    page.page.screenshot(path=artifacts / "html-arabic-undeclared.png")
    assert page.errors == []


def test_following_a_transposition_activates_the_partner_unit(open_page, tmp_path):

    page = open_page(render_site(transposed_mini(tmp_path), tmp_path / "site"))
    page.page.click("#app-0002")
    page.page.click("#entry-panel a.transposed")
    page.page.wait_for_function("location.hash === '#app-0005'")
    assert page.page.get_attribute("#app-0005", "aria-expanded") == "true"
    assert page.errors == []


def test_a_character_xml_cannot_hold_is_restored_in_the_witness_view(open_page, tmp_path):

    edition = mini_variant(
        tmp_path, '<lem wit="#A">captives</lem>', '<lem wit="#A">captives<g type="char" n="U+0007"/></lem>'
    )
    page = open_page(render_site(edition, tmp_path / "site"))
    page.shows_each_witness_as_tei_witness(edition)
    assert "\x07" in page.page.evaluate("teiEdition.witnessText('A')")


def test_without_javascript_the_page_is_the_text_its_apparatus_and_the_conspectus(browser, mini_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(mini_site.as_uri())
    for shown in ("#reading-text", ".apparatus", "#view-witnesses"):
        assert page.is_visible(shown), shown
    for hidden in (".tabs", ".controls", "#view-synoptic", "#heatmap", "#entry-panel"):
        assert page.is_hidden(hidden), hidden
    assert page.eval_on_selector_all(".app[role], .app[tabindex]", "units => units.length") == 0
    context.close()


def test_a_lem_without_wit_is_the_text_of_every_witness_no_reading_names(open_page, tmp_path):

    edition = mini_variant(tmp_path, '<lem wit="#A">captives</lem>', "<lem>captives</lem>")
    page = open_page(render_site(edition, tmp_path / "site"))
    page.shows_each_witness_as_tei_witness(edition)


# ---------------------------------------------------------------------------------------------- a calm reading view

TRANSPARENT = "rgba(0, 0, 0, 0)"
LOOK = """u => [getComputedStyle(u).backgroundColor, getComputedStyle(u).textDecorationLine,
                getComputedStyle(u).textDecorationStyle]"""


def test_units_are_marked_by_a_fine_line_and_light_up_only_on_hover_focus_and_selection(open_page, mini_site):
    page = open_page(mini_site)
    background, line, style = page.page.eval_on_selector("#app-0005", LOOK)
    assert (background, line, style) == (TRANSPARENT, "underline", "solid")  # substitution: substantive
    assert page.page.eval_on_selector("#app-0002", LOOK)[1:] == ["underline", "dotted"]  # orthographic only
    page.page.hover("#app-0005")
    assert page.page.eval_on_selector("#app-0005", LOOK)[0] == "rgb(253, 241, 199)"
    page.page.focus("#app-0002")
    page.page.mouse.move(0, 0)
    assert page.page.eval_on_selector("#app-0002", LOOK)[0] == "rgb(253, 241, 199)"
    page.page.click("#app-0004")
    assert page.page.eval_on_selector("#app-0004", LOOK)[0] == "rgb(255, 212, 94)"
    page.page.mouse.move(0, 0)
    assert page.page.eval_on_selector("#app-0005", LOOK)[0] == TRANSPARENT
    assert page.errors == []


def test_marks_can_be_unit_numbers_or_nothing(open_page, mini_site):
    page = open_page(mini_site)
    page.page.select_option("#marks-select", "number")
    assert page.page.eval_on_selector("#app-0003", "u => getComputedStyle(u, '::after').content") == '"3"'
    assert page.page.eval_on_selector("#app-0003", LOOK)[1] == "none"
    page.page.select_option("#marks-select", "none")
    assert page.page.eval_on_selector("#app-0003", "u => getComputedStyle(u, '::after').content") == "none"
    assert page.page.eval_on_selector("#app-0005", LOOK)[:2] == [TRANSPARENT, "none"]
    page.page.focus("#app-0005")
    assert page.page.eval_on_selector("#app-0005", LOOK)[:2] == ["rgb(253, 241, 199)", "underline"]


def test_the_heat_map_has_a_legend(open_page, mini_site):
    page = open_page(mini_site)
    legend = page.page.inner_text(".heat-legend")
    assert "darker where more variant readings fall" in legend and "fewer" in legend and "more" in legend
    swatches = page.page.eval_on_selector_all(".heat-scale i", "s => s.map(x => getComputedStyle(x).backgroundColor)")
    cells = page.page.eval_on_selector_all("#heatmap .heat", "c => c.map(x => getComputedStyle(x).backgroundColor)")
    assert len(set(swatches)) == 6 and set(cells) <= set(swatches)


def test_substantive_only_leaves_no_dangling_separator(open_page, tmp_path):
    # unit 4 has two orthographic readings; make the second substantive: hiding the first must drop one "; "
    edition = mini_variant(
        tmp_path, '<rdg wit="#C" type="orthographic">\'Umar', '<rdg wit="#C" type="substitution">\'Umar'
    )
    page = open_page(render_site(edition, tmp_path / "site"))
    page.page.click(".substantive-only")
    entries = page.page.eval_on_selector_all(
        ".entries .entry:not([hidden])", "es => es.map(e => e.innerText.replace(/\\s+/g, ' ').trim())"
    )
    assert entries and all(not re.search(r"\]\s*;|;\s*;|;\s*¶|;\s*$", e) for e in entries), entries
    assert any(e.startswith("4 `Umar A] 'Umar") for e in entries), entries
    page.page.click("#app-0004")
    assert not re.search(r"\]\s*;", page.page.inner_text("#entry-panel .entry"))
    assert page.errors == []


def test_search_finds_words_in_the_text_and_the_apparatus(open_page, mini_site):
    page = open_page(mini_site)
    page.page.fill("#search-input", "qiblah")
    page.page.press("#search-input", "Enter")
    assert page.page.inner_text("#search-status") == "1 of 1 (apparatus)"
    assert page.page.evaluate("CSS.highlights.get('search').size") == 1
    page.page.select_option("#witness-select", "B")  # the text now reads Qiblah
    assert page.page.inner_text("#search-status") == "1 in the text, 1 in the apparatus"
    page.page.fill("#search-input", "Abu  Bakr")  # whitespace runs are one space
    page.page.wait_for_function("document.querySelector('#search-status').textContent.startsWith('1 in')")
    page.page.fill("#search-input", "رضى")  # without vowels, and alif maqsura for ya: not found, a different letter
    page.page.wait_for_function("document.querySelector('#search-status').textContent === 'not found'")
    page.page.fill("#search-input", "الله عنهم")
    page.page.wait_for_function(
        "document.querySelector('#search-status').textContent === '0 in the text, 1 in the apparatus'"
    )
    page.page.fill("#search-input", "")
    page.page.wait_for_function("document.querySelector('#search-status').textContent === ''")
    assert page.page.evaluate("CSS.highlights.get('search').size") == 0
    assert page.errors == []


def test_a_unit_without_lem_in_an_edition_with_lemmata_is_an_addition_not_in_the_text(open_page, tmp_path):
    edition = mini_variant(
        tmp_path, "He consulted Abu Bakr", '<app xml:id="app-0009"><rdg wit="#C">Then</rdg></app> He consulted Abu Bakr'
    )
    page = open_page(render_site(edition, tmp_path / "site"))
    assert "Then" not in page.visible_text("#reading-text")
    assert page.page.eval_on_selector("#app-0009", "u => getComputedStyle(u, '::before').content") == '"+"'
    page.page.click("#app-0009")
    # keyed to the word before it in the text of the witnesses without it (A's "Qibla.", as the reader gives it)
    assert page.page.inner_text("#entry-panel .entry").split()[:4] == ["Qibla.]", "+", "Then", "C"]
    page.shows_each_witness_as_tei_witness(edition)
    assert page.errors == []


# ---------------------------------------------------------------------------------------------- every edition, phone and desk

WIDTHS = {"phone": (390, 844), "desk": (1280, 900)}
CORPORA = ("tei-apparatus", "tei-apparatus-conventions")
SEEDS = Path(__file__).resolve().parents[2] / "seeds"
NOT_TEI = "tei-apparatus/tei-guidelines_TC-CriticalApparatus.xml"  # a <div> of the Guidelines: refused (H001)


def corpus_files() -> list[str]:
    """Every file of ../shared/corpora/tei-apparatus*/ (names relative to corpora/; none when it is absent)."""
    root = SHARED / "corpora"
    return sorted(f"{c}/{p.name}" for c in CORPORA for p in (root / c).glob("*.xml") if (root / c).is_dir())


def seed_edition(folder: Path) -> Path:
    edition = folder / "edition.xml"
    result = CliRunner().invoke(main, ["collate", "--manifest", str(SEEDS / "edition.toml"), "-o", str(edition)])
    assert result.exit_code == 0, result.output
    return edition


def arabic_edition(folder: Path) -> Path:
    """The first pair of narrations of the shared Arabic corpus collated (as tests/render/test_hadith.py does)."""
    path = SHARED / "corpora" / "arabic-hadith" / "muslim_parallel_pairs.json"
    first, second = json.loads(path.read_text(encoding="utf-8"))[0]["narrations"]
    witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in (("A", first), ("B", second)))
    work = Work(
        "pair", "Sahih Muslim, two narrations", language="ar", base="A", profile="hadith-ar", witnesses=witnesses
    )
    edition = folder / "edition.xml"
    edition.write_bytes(edition_bytes(collate(work)))
    return edition


@pytest.fixture(scope="module")
def site_of(tmp_path_factory):
    """name -> the page of that edition, rendered once: 'seeds', 'arabic' or a corpus file."""
    made = {}

    def make(name: str) -> Path:
        if name not in made:
            folder = tmp_path_factory.mktemp(re.sub(r"\W", "-", name))
            if name == "seeds":
                edition = seed_edition(folder)
            elif name == "arabic":
                edition = arabic_edition(folder)
            else:
                edition = SHARED / "corpora" / name
            made[name] = render_site(edition, folder / "site")
        return made[name]

    return make


@pytest.fixture(scope="module")
def screens(browser):
    """width -> the tab of that screen (a phone: touch, a mobile viewport), in a context of its own."""
    contexts = {
        width: browser.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=width == "phone", is_mobile=width == "phone"
        )
        for width, size in WIDTHS.items()
    }
    yield {width: Page(context) for width, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.fixture(scope="module")
def edition_page(site_of, screens):
    """(name, width) -> the screen's tab showing that edition's page. The tests that read one page run one after
    another (tests/render/conftest.py orders them), and the page is loaded once for them: the first is given it
    as loaded, each next one restore()d (or loaded again if it cannot be). as_loaded=True: loaded again if an
    earlier test used it."""

    def show(name: str, width: str, as_loaded: bool = False) -> Page:
        tab, site = screens[width], site_of(name)
        if tab.loaded != site.as_uri() or (not tab.fresh and (as_loaded or not tab.restore())):
            tab.open(site)
        tab.fresh = False
        return tab

    return show


def needs(name: str, shared_dir_request) -> None:
    if name != "seeds":
        shared_dir_request.getfixturevalue("shared_dir")  # skips with the reason when ../shared is absent


EDITIONS = ["seeds", "arabic", *[f for f in corpus_files() if f != NOT_TEI]]

OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const clipped = new Map();  // element -> whether it or an ancestor below body scrolls or clips sideways
    const scrolls = e => {
        const p = e.parentElement;
        if (!p || p === document.body) return false;
        if (!clipped.has(p)) clipped.set(p, ['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) || scrolls(p));
        return clipped.get(p);
    };
    const out = [];
    for (const e of document.body.querySelectorAll('*')) {
        if (e.closest('.skip-link') || !e.checkVisibility()) continue;
        const box = e.getBoundingClientRect();
        if (box.width && (box.right > width + 1 || box.left < -1) && !scrolls(e))
            out.push(`${e.tagName.toLowerCase()}.${e.className} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    return {scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 5)};
}"""


@contextmanager
def every_part_rendered(page, site: Path):
    """The page with every element its CSS renders only near the screen (content-visibility: auto: the entries of
    the apparatus) rendered as it is on screen: content-visibility visible with the layout, style and paint
    containment that auto keeps, so each has the geometry a reader sees on scrolling to it. Off screen such an
    element is a placeholder, and a script that asks for the geometry inside it makes Chromium lay it out alone:
    one layout per entry (the seeds: 540 layouts, OVERFLOW 0.88 s where it takes 0.10 s without them, an axe run
    about 3 s more), and axe, finding an entry's content over the next one's placeholder, leaves its colours
    undecided (bgOverlap). Here it is one layout of the whole page; axe gives the same verdicts and decides those
    too (measured on the seeds, Ephesians and arabic at both widths: no verdict lost, none changed)."""
    css = (site.parent / "edition.css").read_text("utf-8")
    selectors = [s.strip() for s in re.findall(r"([^{}]+)\{[^}]*content-visibility:\s*auto", css)]
    sheet = page.add_style_tag(
        content="".join(f"{s} {{ content-visibility: visible; contain: layout style paint; }}\n" for s in selectors)
    )
    try:
        yield
    finally:
        sheet.evaluate("sheet => sheet.remove()")


PICK_UNIT = """() => {
    const units = Array.from(document.querySelectorAll('#reading-text .app:not(.filtered)'))
        .filter(u => !u.querySelector('.app') && u.getClientRects().length && u.getClientRects()[0].width > 2);
    const unit = units[Math.floor(units.length / 2)];
    unit.scrollIntoView({block: 'start'});
    window.scrollBy(0, -40);
    const box = unit.getClientRects()[0];
    return {id: unit.id, x: box.left + Math.min(box.width / 2, 6), y: box.top + box.height / 2};
}"""

AFTER_TAP = """() => {
    const active = document.querySelector('#reading-text .app.active');
    const panel = document.getElementById('entry-panel').getBoundingClientRect();
    const unit = active && active.getClientRects()[0];
    return {active: active && active.id, panel: [panel.top, panel.bottom, panel.left, panel.right],
            unit: unit && [unit.top, unit.bottom], height: innerHeight, width: innerWidth,
            visible: document.getElementById('entry-panel').checkVisibility(),
            entry: document.querySelector('#entry-panel .entry') !== null};
}"""


# Corpus editions whose containers (a reading holding units of its own) the page's sigla and reader_entries
# judge by two rules since issue 41: the page (tei.render.entries) names the witnesses whose text of the whole
# reading is the printed words; reader_entries, those that take at every unit inside the reading the one the
# entry prints there. They differ where a witness is lacunose inside a container, or reads a unit's words
# otherwise than the reading it is cited for; every siglum the page prints is true (test_truthful_sigla.py),
# which of the two lists is complete is open.
CONTAINER_SIGLA_DIFFER = {
    "tei-apparatus/evt_avicenna.xml",
    "tei-apparatus-conventions/alea_Bisharah.xml",
    "tei-apparatus-conventions/calpurnius_poem7-listapp.xml",
    "tei-apparatus-conventions/dll_propertius-1-15.xml",
}


@pytest.mark.needs_shared
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", EDITIONS)
def test_every_edition_fits_the_screen_and_a_tap_shows_the_entry_in_view(
    name, width, site_of, edition_page, artifacts, request
):
    needs(name, request)
    site = site_of(name)
    size = WIDTHS[width]
    shown = edition_page(name, width, as_loaded=True)
    page = shown.page
    stem = re.sub(r"\W", "-", Path(name).stem)
    page.screenshot(path=artifacts / f"layout-{stem}-{size[0]}.png")
    with every_part_rendered(page, site):
        overflow = page.evaluate(OVERFLOW)
    assert overflow["scrollWidth"] <= overflow["width"] and overflow["out"] == [], overflow

    if width == "desk":  # each entry's readings are the apparatus reader's (the same page at both widths)
        edition = site.parent.parent / "edition.xml" if name in ("seeds", "arabic") else SHARED / "corpora" / name
        entries, expected = page.evaluate(ENTRY_WITNESSES), reader_entries(parse_file(edition))
        if name in CONTAINER_SIGLA_DIFFER:  # open (issue 41): fails once the two rules agree, to be taken out
            assert entries != expected, f"{name}: the page's container sigla now agree with the reader's"
        else:
            assert entries == expected

    target = page.evaluate(PICK_UNIT)
    if width == "phone":
        page.touchscreen.tap(target["x"], target["y"])
    else:
        page.mouse.click(target["x"], target["y"])
    state = page.evaluate(AFTER_TAP)
    page.screenshot(path=artifacts / f"layout-{stem}-{size[0]}-tap.png")
    assert state["active"] == target["id"] and state["visible"] and state["entry"], state
    top, bottom, left, right = state["panel"]
    assert 0 <= top < bottom <= state["height"] + 1 and 0 <= left < right <= state["width"] + 1, state
    assert state["unit"][0] >= 0 and state["unit"][1] <= (top if width == "phone" else state["height"]), state

    page.click("#tab-synoptic")
    page.wait_for_selector("#synoptic table")
    raw = page.eval_on_selector_all(
        "#synoptic td",
        "cells => cells.filter(c => /\\s{2}|\\n/.test(c.textContent) || (c.parentElement.classList.contains('shared')"
        " && !c.textContent.trim())).map(c => c.textContent)",
    )
    assert raw == [], raw[:3]  # no raw indentation, line breaks or blank rows
    overflow = page.evaluate(OVERFLOW)
    assert overflow["scrollWidth"] <= overflow["width"] and overflow["out"] == [], overflow
    assert shown.errors == []


def test_the_guidelines_chapter_is_refused_not_drawn(shared_dir, tmp_path):
    with pytest.raises(InvalidInputError) as caught:
        render_site(shared_dir / "corpora" / NOT_TEI, tmp_path)
    assert caught.value.diagnostics[0].code == "H001"


RIGHT_TO_LEFT = [
    "arabic",
    "tei-apparatus-conventions/alea_BAlam52.xml",
    "tei-apparatus-conventions/alea_Bisharah.xml",
    "tei-apparatus-conventions/solidrock_obadiah-collation.xml",  # Hebrew
]


@pytest.mark.needs_shared
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", RIGHT_TO_LEFT)
def test_a_right_to_left_edition_has_its_entries_right_to_left(name, width, edition_page, shared_dir, artifacts):
    size = WIDTHS[width]
    page = edition_page(name, width).page
    page.click("#reading-text .app >> nth=3")
    direction = "e => getComputedStyle(e).direction"
    assert page.eval_on_selector("#entry-panel .entry", direction) == "rtl"
    assert set(page.eval_on_selector_all(".entries .entry", f"all => all.map({direction})")) == {"rtl"}
    isolation = page.eval_on_selector_all(
        "#entry-panel .siglum, #entry-panel .reading > bdi.words",
        "all => all.map(e => getComputedStyle(e).unicodeBidi)",
    )
    assert isolation and set(isolation) == {"isolate"}
    stem = re.sub(r"\W", "-", Path(name).stem)
    page.screenshot(path=artifacts / f"layout-{stem}-entry-{size[0]}.png")


@pytest.mark.parametrize(("name", "width"), [("seeds", "phone")])
def test_on_a_phone_the_synoptic_table_scrolls_sideways_with_a_cue_and_keeps_its_unit_column(
    name, width, edition_page, artifacts
):
    page = edition_page(name, width).page
    page.click("#tab-synoptic")
    assert page.is_visible(".synoptic-cue")
    holder = "#synoptic"
    assert page.eval_on_selector(holder, "h => h.scrollWidth > h.clientWidth && h.tabIndex === 0")
    column = (
        "h => h.querySelector('tbody tr:not(.shared) th').getBoundingClientRect().left - h.getBoundingClientRect().left"
    )
    before = page.eval_on_selector(holder, column)
    page.eval_on_selector(holder, "h => { h.scrollLeft = h.scrollWidth; }")
    assert page.eval_on_selector(holder, "h => h.scrollLeft") > 50
    assert abs(page.eval_on_selector(holder, column) - before) < 1  # the unit column stays
    cells = page.eval_on_selector_all("#synoptic td", "cells => cells.map(c => [c.className, c.textContent])")
    assert cells and not [text for _, text in cells if re.search(r"\s{2}|\n", text)]  # no raw indentation
    assert not [text for kind, text in cells if not kind and not text.strip()]  # no blank shared rows
    page.screenshot(path=artifacts / "layout-seeds-390-synoptic.png")


def test_a_long_word_wraps_and_words_in_w_are_spaced(screens, tmp_path, artifacts):
    words = "".join(f"<w>word{n}</w>" for n in range(400))
    edition = mini_variant(
        tmp_path, "He consulted Abu Bakr", f"{words} Hippopotomonstrosesquippedaliophobia{'x' * 200}"
    )
    page = screens["phone"].open(render_site(edition, tmp_path / "site")).page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    widths = page.eval_on_selector_all("#reading-text .tei-w", "ws => ws.map(w => w.getBoundingClientRect().width)")
    assert len(widths) == 400 and max(widths) < 120
    gaps = page.eval_on_selector_all(
        "#reading-text .tei-w",
        """ws => ws.slice(1).map((w, i) => [w.getBoundingClientRect(), ws[i].getBoundingClientRect()])
            .filter(([here, before]) => Math.abs(here.top - before.top) < 2).map(([here, before]) => here.left - before.right)""",
    )
    assert len(gaps) > 300 and min(gaps) > 2  # a space between every two words of a line


DRAMA = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">
  <teiHeader><fileDesc>
    <titleStmt><title>Hamlet III.iv, two witnesses (test edition)</title></titleStmt>
    <publicationStmt><p>Written for the web-edition tests.</p></publicationStmt>
    <sourceDesc><listWit><witness xml:id="Q2">Second quarto</witness><witness xml:id="F">First folio</witness></listWit></sourceDesc>
  </fileDesc></teiHeader>
  <text><body><div type="scene">
    <head>Scene IV. The Queen's closet.</head>
    <stage type="entrance">Enter the <app><lem wit="#Q2">Queene</lem><rdg wit="#F">Queen</rdg></app> and her sonne.</stage>
    <sp who="#queen"><speaker>Queene</speaker>
      <lg><l n="1">Hamlet, thou hast thy father much offended.</l></lg>
    </sp>
    <sp who="#hamlet"><speaker>Ham.</speaker>
      <lg><l n="2">Mother, you have my <app><lem wit="#Q2">father</lem><rdg wit="#F">Father</rdg></app> much offended.</l></lg>
      <stage>Draws.</stage>
    </sp>
  </div></body></text>
</TEI>
"""


def test_a_play_shows_speakers_stage_directions_and_verse_lines_apart(screens, tmp_path, artifacts):
    edition = tmp_path / "hamlet.xml"
    edition.write_text(DRAMA, encoding="utf-8")
    page = screens["phone"].open(render_site(edition, tmp_path / "site")).page
    style = "e => [getComputedStyle(e).display, getComputedStyle(e).fontStyle, getComputedStyle(e).fontVariantCaps]"
    assert page.eval_on_selector(".tei-speaker", style) == ["block", "normal", "small-caps"]
    assert page.eval_on_selector("div.tei-stage", style)[:2] == ["block", "italic"]
    lines = page.eval_on_selector_all(".tei-l", "ls => ls.map(l => [l.dataset.line, getComputedStyle(l).display])")
    assert lines == [["1", "block"], ["2", "block"]]
    text = page.inner_text("#reading-text")
    assert "her sonne.\nQueene\n" in text  # never "sonne. Queene" run together
    page.screenshot(path=artifacts / "layout-drama-390.png", full_page=True)


# ---------------------------------------------------------------------------------------------- fonts

SYSTEM_FONTS = ("DejaVu Serif", "DejaVu Sans")  # named by edition.css before the generic families


def cmap_of(path) -> set[int]:
    from fontTools.ttLib import TTFont

    return set(TTFont(path).getBestCmap())


def system_font(family: str) -> Path:
    found = subprocess.run(["fc-match", "-f", "%{file}|%{family}", family], capture_output=True, text=True, check=True)
    path, families = found.stdout.split("|", 1)
    assert family in families.split(","), f"{family} is not installed (fonts-dejavu-core): fc-match gave {families}"
    return Path(path)


@pytest.mark.parametrize("name", EDITIONS)
def test_every_character_has_a_glyph_in_a_font_the_page_names(name, site_of, edition_page, request):
    """No character can fall to a missing-glyph box: each one of the page (every reading of every witness,
    and the page's own labels) is in a font the site ships or in a system font its CSS names; the shipped
    fonts the page needs are loaded by document.fonts, never in error."""
    needs(name, request)
    site = site_of(name)
    covered = set().union(*(cmap_of(p) for p in (site.parent / "fonts").glob("*.woff")))
    covered |= set().union(*(cmap_of(system_font(f)) for f in SYSTEM_FONTS))
    page = edition_page(name, "desk").page
    if name == "seeds":  # each witness's readings drawn once, so that the fonts they need are loaded
        for witness in page.eval_on_selector_all("#witness-select option", "os => os.map(o => o.value)"):
            page.select_option("#witness-select", witness)
    faces = page.evaluate(
        """async () => { await document.fonts.ready;
            return Array.from(document.fonts).map(f => [f.family.replace(/"/g, ''), f.status]); }"""
    )
    characters = page.evaluate("document.body.textContent + document.title")
    missing = sorted({c for c in characters if not c.isspace() and ord(c) not in covered and ord(c) >= 0x20})
    assert missing == [], [f"U+{ord(c):04X}" for c in missing]
    assert all(status != "error" for _, status in faces), faces
    if name == "seeds":  # seed D's first line has "＋" (U+FF0B): drawn by the shipped symbol font
        assert ["TEI Edition Symbols", "loaded"] in faces
        assert page.evaluate("document.fonts.check('16px \"TEI Edition Symbols\"', '\\uFF0B')")
    if name == "arabic":
        assert ["Amiri Arabic Web", "loaded"] in faces


# ---------------------------------------------------------------------------------------------- accessibility

AXE = Path(__file__).resolve().parents[2] / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"


# One run of every rule over the whole page, in its fullest state: the entry panel open beside (desk) or over
# (phone) the text, which holds every element of the page as loaded, with one unit's look changed to active.
# A run costs seconds on a large page (the seeds: 11,000 elements; color-contrast and target-size take most),
# so the synoptic view is checked where it changes the page: its own section and the tabs. On a phone the
# sheet covers the foot of the screen, where axe cannot tell a background; the colours there are the desk
# run's, since the phone's media rules change the layout only.
AXE_RUN = """async include => (await axe.run(include ? {include} : document, {resultTypes: ['violations'], noHtml: true}))
    .violations.filter(v => ['serious', 'critical'].includes(v.impact))
    .map(v => [v.id, v.nodes.length, v.nodes[0].target.join(' ')])"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["seeds", "arabic", "tei-apparatus/teiphy_ubs_ephesians.xml"])
def test_axe_finds_no_serious_or_critical_violation(name, width, site_of, edition_page, request):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run scripts/setup.sh --test (npm package axe-core)")
    needs(name, request)
    page = edition_page(name, width).page
    page.add_script_tag(path=str(AXE))
    page.click("#reading-text .app >> nth=2")  # the whole page, with the entry panel open and a unit active
    with every_part_rendered(page, site_of(name)):
        found = page.evaluate(AXE_RUN, None)
    page.click("#tab-synoptic")  # what the synoptic tab shows and changes; the rest is as checked above, or hidden
    found += page.evaluate(AXE_RUN, [["#view-synoptic"], [".tabs"]])
    assert found == [], "\n".join(map(str, found))


@pytest.mark.needs_shared
@pytest.mark.parametrize("name", ["tei-apparatus-conventions/alea_Bisharah.xml"])
def test_an_anchored_unit_lights_up_the_passage_it_points_to(name, edition_page, shared_dir):
    """alea_Bisharah is double-end-point: <anchor xml:id="X"/>words<app from="#X">, the lemma between them."""
    page = edition_page(name, "desk").page
    unit = page.eval_on_selector("#reading-text .app.anchored[data-from]", "u => u.id")
    page.click(f"[id='{unit}']")
    lemma = page.evaluate("Array.from(CSS.highlights.get('lemma')).map(r => r.toString().trim())")
    anchor = page.eval_on_selector(
        f"[id='{unit}']",
        """u => { const a = document.querySelector(`[data-xml-id="${u.dataset.from}"]`);
                  const r = document.createRange(); r.setStartAfter(a); r.setEndBefore(u); return r.toString().trim(); }""",
    )
    assert lemma == [anchor] and anchor
    page.keyboard.press("Escape")
    assert page.evaluate("CSS.highlights.has('lemma')") is False


def test_the_witness_menu_lists_groups_and_a_group_shows_where_its_members_agree(open_page, tmp_path, artifacts):
    """A group of listWit is in the menu, last, with its members' sigla; chosen, each unit shows the reading
    all its members take (by the reader: Apparatus.attestations, computed here), and a unit where they
    divide shows the edition's reading, marked, and counted in the status line."""
    edition = mini_variant(
        tmp_path,
        '<witness xml:id="B" n="B">Translation with an added clause.</witness>\n'
        '          <witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness>',
        '<listWit xml:id="BC" n="β"><witness xml:id="B" n="B">Translation with an added clause.</witness>\n'
        '          <witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness></listWit>',
    )
    page = open_page(render_site(edition, tmp_path / "site"))
    options = page.page.eval_on_selector_all(
        "#witness-select option", "os => os.map(o => [o.value, o.textContent, o.parentElement.label || ''])"
    )
    assert options[-1] == ["BC", "β = B C", "groups: the text where all members agree"]
    assert [value for value, *_ in options[:-1]] == ["", "A", "B", "C"]
    synoptic = page.page.eval_on_selector_all(".synoptic-witnesses input", "bs => bs.map(b => b.value)")
    assert synoptic == ["A", "B", "C"]  # a group is no column of its own
    tree = parse_file(edition)
    agreed = {}
    for app, taken in Apparatus(tree).attestations().items():
        members = {w: r for r, ws in taken.items() for w in ws if w in ("B", "C")}
        agreed[app.get("{http://www.w3.org/XML/1998/namespace}id")] = (
            members["B"].get("wit") if members["B"] is members["C"] else None
        )
    page.page.select_option("#witness-select", "BC")
    shown = page.page.evaluate(
        """() => Array.from(document.querySelectorAll('#reading-text .app')).map(u => [u.id,
            u.classList.contains('divided'),
            Array.from(u.children).filter(r => r.classList.contains('shown')).map(r => r.classList.contains('base')
                ? 'base' : r.dataset.wit)])"""
    )
    divided = [unit for unit, split, _ in shown if split]
    assert divided == [unit for unit, wit in agreed.items() if wit is None] == ["app-0001", "app-0003", "app-0004"]
    assert all(readings_shown == ["base"] for _, split, readings_shown in shown if split)
    assert {unit: r for unit, split, r in shown if not split} == {"app-0002": ["B C"], "app-0005": ["B C"]}
    assert page.page.inner_text("#witness-status") == (
        "β = B C: 3 units where the members divide (wavy underline; the edition's reading shown)"
    )
    page.page.screenshot(path=artifacts / "html-group-BC.png")
    page.page.select_option("#witness-select", "B")
    assert page.page.evaluate("document.querySelectorAll('#reading-text .divided').length") == 0
    assert page.page.inner_text("#witness-status") == ""
    assert page.errors == []
