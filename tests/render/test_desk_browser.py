"""`tei serve` in Chromium: the page follows edition.xml as it is edited on disk, shows the diagnostics of an
invalid edition over the last good build, and recovers; the web edition built by `tei build` works under a
sub-path."""

from __future__ import annotations

import re

import pytest
from paths import SEEDS
from serving import served

pytestmark = pytest.mark.browser

BOUND = 180_000  # ms: a bound for a page that never changes, not a figure of speed (benchmarks/serve.py times it)
# A unit whose lemma (witness A) is one plain word, in the middle of the edition.
SIMPLE_UNIT = re.compile(r'<app xml:id="(app-[0-9a-f]+)">(\s*)<lem wit="#A">([A-Za-z]+) </lem>')
PLACE = "id => Math.round(document.getElementById(id).getBoundingClientRect().top)"


def test_the_page_follows_edits_shows_diagnostics_over_the_last_good_build_and_recovers(browser, tmp_path, artifacts):
    output = tmp_path / "build"
    with served(SEEDS, "-o", output) as (url, _process, _lines):
        edition = output / "edition.xml"
        text = edition.read_text("utf-8")
        units = SIMPLE_UNIT.findall(text)
        unit, space, word = units[len(units) // 2]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda exception: errors.append(str(exception)))
        try:
            page.goto(url + "html/")
            page.wait_for_selector("#tei-desk")
            page.evaluate("id => document.getElementById(id).scrollIntoView({block: 'center'})", unit)
            before = page.evaluate(PLACE, unit)
            assert before > 200  # the unit is well down the screen, not at the top of a page scrolled to its start

            edition.write_text(
                text.replace(f'{space}<lem wit="#A">{word} </lem>', f'{space}<lem wit="#A">Zebrafish </lem>', 1),
                "utf-8",
            )
            page.wait_for_function(
                "id => (document.getElementById(id)?.textContent || '').includes('Zebrafish')", arg=unit, timeout=BOUND
            )
            page.wait_for_function("() => document.getElementById('tei-desk')", timeout=BOUND)
            assert abs(page.evaluate(PLACE, unit) - before) <= 40  # reloaded at the unit the editor was reading
            page.screenshot(path=artifacts / "serve-valid.png")

            good = edition.read_text("utf-8")
            edition.write_text(good.replace('wit="#B #C"', 'wit="#B #Zed"', 1), "utf-8")
            page.wait_for_selector("#tei-desk-problems:not([hidden])", timeout=BOUND)
            problems = page.inner_text("#tei-desk-problems")
            assert re.search(r"edition\.xml:\d+(:\d+)?: error: \[APP001\] @wit names the witness .Zed.", problems), (
                problems
            )
            assert "Zed" in problems
            assert "Zebrafish" in page.inner_text(f"#{unit}")  # the last good view is still there
            page.screenshot(path=artifacts / "serve-invalid.png")

            edition.write_text(good, "utf-8")
            page.wait_for_selector("#tei-desk-problems", state="hidden", timeout=BOUND)
            assert "Zebrafish" in page.inner_text(f"#{unit}")
            assert page.inner_text("#tei-desk").startswith("tei serve: live")
            assert errors == []
        finally:
            page.close()
