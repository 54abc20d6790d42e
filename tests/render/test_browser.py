"""The web edition in a real browser (Debian's Chromium, headless, through Playwright), opened from file://."""

from __future__ import annotations

import re

import pytest

from tei.apparatus import readings
from tei.xmlio import parse_file

from .conftest import FIXTURES, MINI, mini_variant, render_site, transposed_mini

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


def test_the_page_requests_nothing_but_its_own_files(browser, mini_site):
    page = browser.new_page()
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
    assert page.page.inner_text("#entry-panel .entry").split()[:3] == ["+", "Then", "C"]
    page.shows_each_witness_as_tei_witness(edition)
    assert page.errors == []
