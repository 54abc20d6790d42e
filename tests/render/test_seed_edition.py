"""The seed edition (the Badr narrations collated by `tei collate`) as a web edition, in the browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tei.apparatus import readings, witness_ids, witness_text
from tei.cli import main
from tei.xmlio import parse_file, tei, xml

from .conftest import reader_entries, render_site

pytestmark = pytest.mark.browser

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def squeeze(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def seed_edition(tmp_path_factory) -> Path:
    edition = tmp_path_factory.mktemp("seed") / "edition.xml"
    result = CliRunner().invoke(main, ["collate", "--manifest", str(SEEDS / "edition.toml"), "-o", str(edition)])
    assert result.exit_code == 0, result.output
    return edition


@pytest.fixture(scope="module")
def seed_site(seed_edition) -> Path:
    return render_site(seed_edition, seed_edition.parent / "html")


def test_every_witness_of_the_seed_edition_shows_its_tei_witness_text(seed_edition, seed_site, open_page, artifacts):
    page = open_page(seed_site)
    page.shows_each_witness_as_tei_witness(seed_edition)
    page.page.screenshot(path=artifacts / "html-seed-witness-D.png")
    assert page.errors == []


def test_every_seed_unit_shows_exactly_its_readings(seed_edition, seed_site, open_page):
    page = open_page(seed_site)
    tree = parse_file(seed_edition)
    # each reading's @wit, but of a paraphrase's container only the witnesses that read its printed words
    # (reader_entries; issue 41: the seeds' sigla are their ids)
    expected = {
        app.get(xml("id")): entry["readings"] for app, entry in zip(tree.iter(tei("app")), reader_entries(tree))
    }
    assert all(
        expected[app.get(xml("id"))] == sorted(" ".join(r.get("wit").replace("#", "").split()) for r in readings(app))
        for app in tree.iter(tei("app"))
        if app.get("type") != "paraphrase"
    )
    shown = page.page.evaluate(
        """ids => ids.map(id => {
            teiEdition.activate(document.getElementById(id), {});
            return Array.from(document.querySelectorAll('#entry-panel .reading')).map(
                r => Array.from(r.querySelectorAll('.siglum')).map(s => s.textContent).join(' ')).sort();
        })""",
        list(expected),
    )
    assert dict(zip(expected, shown)) == expected
    assert page.errors == []


def test_the_arabic_formula_of_witness_c_is_right_to_left_and_isolated(seed_site, open_page, artifacts):
    page = open_page(seed_site)
    page.page.select_option("#witness-select", "C")
    runs = page.page.eval_on_selector_all(
        "#reading-text bdi.rtl-run, #reading-text bdi[lang='ar']",  # found by the script, or tagged in the TEI
        """runs => runs.filter(r => r.checkVisibility()).map(r =>
            [r.textContent, getComputedStyle(r).direction, getComputedStyle(r).unicodeBidi])""",
    )
    assert ["رضي الله عنهم", "rtl", "isolate"] in runs
    page.page.locator("#reading-text bdi", has_text="رضي").first.scroll_into_view_if_needed()
    page.page.screenshot(path=artifacts / "html-seed-arabic.png")


def test_substantive_only_hides_every_orthographic_and_honorific_only_unit(seed_site, open_page, artifacts):
    page = open_page(seed_site)
    page.page.click(".substantive-only")
    states = page.page.eval_on_selector_all(
        "#reading-text .app",
        "units => units.map(u => [u.dataset.types, u.classList.contains('filtered'), document.getElementById('entry-' + u.id).hidden])",
    )
    non_substantive = {"orthographic", "honorific", "punctuation", "whitespace"}
    for types, filtered, entry_hidden in states:
        expected = set(types.split()) <= non_substantive
        assert filtered == expected and entry_hidden == expected, types
    assert any(filtered for _, filtered, _ in states) and not all(filtered for _, filtered, _ in states)
    page.page.screenshot(path=artifacts / "html-seed-substantive-only.png")
    assert page.errors == []


def test_each_synoptic_column_reads_as_its_witness(seed_edition, seed_site, open_page, artifacts):
    page = open_page(seed_site)
    page.page.click("#tab-synoptic")
    columns = page.page.evaluate(
        """() => {
            const sigla = Array.from(document.querySelectorAll('#synoptic thead th')).slice(1).map(th => th.textContent);
            return sigla.map((siglum, column) => [siglum, Array.from(document.querySelectorAll('#synoptic tbody tr')).map(
                row => row.classList.contains('shared') ? row.cells[1].textContent : row.cells[column + 1].textContent
            ).join('')]);
        }"""
    )
    tree = parse_file(seed_edition)
    # The table shows TEI's whitespace rule (a run of whitespace is one space; no blank rows).
    assert [[w, squeeze(text)] for w, text in columns] == [
        [w, squeeze(witness_text(tree, w))] for w in witness_ids(tree)
    ]
    page.page.screenshot(path=artifacts / "html-seed-synoptic.png")
    assert page.errors == []
