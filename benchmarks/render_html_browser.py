"""How soon the web edition is interactive in Chromium (target < 0.5 s for a 1,000-unit edition),
and how long a witness switch, a unit's activation and a search take there: the seed edition, the largest
edition of ../shared/corpora/tei-apparatus*/ (by size), and synthetic editions of 1,000 and 5,000 units.

    python benchmarks/render_html_browser.py [--runs 5]

"Interactive" is the time from navigation start to the end of edition.js's start-up (its
performance mark tei-edition-ready), in Debian's Chromium, headless, page opened from file://.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/chromium.py: path and flags

from chromium import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from render_html import PROJECT, seed_edition, synthetic_edition  # noqa: E402

from tei.outputs import write_files  # noqa: E402
from tei.render import render  # noqa: E402

MEASURE = """() => {
    const ready = performance.getEntriesByName('tei-edition-ready')[0].startTime;
    const witness = document.querySelector('#witness-select option:last-child').value;
    let start = performance.now();
    teiEdition.showWitness(witness);
    const switched = performance.now() - start;
    const units = document.querySelectorAll('#reading-text .app');
    start = performance.now();
    teiEdition.activate(units[units.length - 1], {});
    const activated = performance.now() - start;
    document.getElementById('search-input').value = 'the';
    start = performance.now();
    teiEdition.search();
    const searched = performance.now() - start;
    return [ready, switched, activated, searched, units.length];
}"""
CORPORA = PROJECT.parent / "shared" / "corpora"


def largest_corpus_edition() -> Path | None:
    """The largest file of ../shared/corpora/tei-apparatus*/ that is a TEI document with a text."""
    files = [p for p in CORPORA.glob("tei-apparatus*/*.xml") if "TC-CriticalApparatus" not in p.name]
    return max(files, key=lambda p: p.stat().st_size) if files else None


def sites(folder: Path) -> list[tuple[str, Path]]:
    editions = [("seed edition", seed_edition(folder))]
    largest = largest_corpus_edition()
    if largest:
        editions.append((f"{largest.stem[:24]}", largest))
    for units in (1000, 5000):
        synthetic = folder / f"synthetic-{units}.xml"
        synthetic.write_bytes(synthetic_edition(units))
        editions.append((f"synthetic, {units:,} units", synthetic))
    found = []
    for label, edition in editions:
        site = folder / f"site-{len(found)}"
        write_files(render(edition, "html", site).files)
        found.append((label, site / "index.html"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as temporary, sync_playwright() as playwright:
        browser = launch(playwright)
        print(
            f"{'site':26} {'units':>5} {'interactive ms':>15} {'max':>6} {'witness switch ms':>18} {'activate ms':>12}"
            f" {'search ms':>10}   ({runs} loads, median)"
        )
        for label, page_path in sites(Path(temporary)):
            figures = []
            for _ in range(runs):
                page = browser.new_page()
                page.goto(page_path.as_uri())
                page.wait_for_selector("html.ready")
                figures.append(page.evaluate(MEASURE))
                page.close()
            ready, switched, activated, searched = ([f[i] for f in figures] for i in range(4))
            print(
                f"{label:26} {figures[0][4]:5d} {statistics.median(ready):15.0f} {max(ready):6.0f} "
                f"{statistics.median(switched):18.1f} {statistics.median(activated):12.1f} "
                f"{statistics.median(searched):10.1f}"
            )
        browser.close()


if __name__ == "__main__":
    main()
