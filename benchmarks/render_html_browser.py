"""How soon the web edition is interactive in Chromium (target < 0.5 s for a 1,000-unit edition),
and how long a witness switch and a unit's activation take there.

    python benchmarks/render_html_browser.py [--runs 5]

"Interactive" is the time from navigation start to the end of edition.js's start-up (its
performance mark tei-edition-ready), in Debian's Chromium, headless, page opened from file://.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from render_html import seed_edition, synthetic_edition

from tei.outputs import write_files
from tei.render import render

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
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
    return [ready, switched, activated, units.length];
}"""


def sites(folder: Path) -> list[tuple[str, Path]]:
    synthetic = folder / "synthetic-1000.xml"
    synthetic.write_bytes(synthetic_edition(1000))
    found = []
    for label, edition in (("seed edition", seed_edition(folder)), ("synthetic, 1,000 units", synthetic)):
        site = folder / edition.stem
        write_files(render(edition, "html", site).files)
        found.append((label, site / "index.html"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as temporary, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_FLAGS)
        print(
            f"{'site':26} {'units':>5} {'interactive ms':>15} {'max':>6} {'witness switch ms':>18} {'activate ms':>12}"
            f"   ({runs} loads, median)"
        )
        for label, page_path in sites(Path(temporary)):
            figures = []
            for _ in range(runs):
                page = browser.new_page()
                page.goto(page_path.as_uri())
                page.wait_for_selector("html.ready")
                figures.append(page.evaluate(MEASURE))
                page.close()
            ready, switched, activated = ([f[i] for f in figures] for i in range(3))
            print(
                f"{label:26} {figures[0][3]:5d} {statistics.median(ready):15.0f} {max(ready):6.0f} "
                f"{statistics.median(switched):18.1f} {statistics.median(activated):12.1f}"
            )
        browser.close()


if __name__ == "__main__":
    main()
