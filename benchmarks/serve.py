"""How soon `tei serve` shows an edit: from writing edition.xml to the open page showing the new reading, in
Chromium (median of 5 edits, the issue's target 2 s), beside the time of a full `tei build` of the same edition.

    python benchmarks/serve.py [--edits 5] [--builds 3]

Each edit changes the lemma of a different unit of the seeds' edition.xml (witness A's one-word reading), as an
editor correcting a reading does: the desk validates, finds the transcription differing (APP007), writes it
again as `tei sync` does, validates and renders the web edition again, and the page reloads at the unit. The
clock starts before the file is written and stops when the page's unit holds the new word. A full build is
`tei build seeds -o NEW` (every stage, the PDF too) in a fresh folder, as a process.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/chromium.py, tests/serving.py

from chromium import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from serving import served  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
SEEDS = PROJECT / "seeds"
SIMPLE_UNIT = re.compile(r'<app xml:id="(app-[0-9a-f]+)">(\s*)<lem wit="#A">([A-Za-z]+) </lem>')


def edits(count: int, folder: Path) -> list[float]:
    seconds = []
    with served(SEEDS, "-o", folder / "build") as (url, _process, _lines), sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + "html/")
        page.wait_for_selector("#tei-desk")
        edition = folder / "build" / "edition.xml"
        units = SIMPLE_UNIT.findall(edition.read_text("utf-8"))
        for number in range(count):
            unit, space, word = units[(number + 1) * len(units) // (count + 1)]
            page.evaluate("id => document.getElementById(id).scrollIntoView({block: 'center'})", unit)
            text = edition.read_text("utf-8")
            new = f"Zebra{number}"
            started = time.perf_counter()
            edition.write_text(
                text.replace(f'{space}<lem wit="#A">{word} </lem>', f'{space}<lem wit="#A">{new} </lem>', 1), "utf-8"
            )
            page.wait_for_function(
                "([id, word]) => (document.getElementById(id)?.textContent || '').includes(word)",
                arg=[unit, new],
                timeout=300_000,
                polling=20,
            )
            seconds.append(time.perf_counter() - started)
            page.wait_for_selector("#tei-desk")
            time.sleep(0.5)  # let the desk settle (the transcription it wrote is seen, nothing to build)
        browser.close()
    return seconds


def builds(count: int, folder: Path) -> list[float]:
    seconds = []
    for number in range(count):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tei", "build", str(SEEDS), "-o", str(folder / f"full{number}")],
            check=True,
            capture_output=True,
        )
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--builds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        shown = edits(args.edits, Path(folder))
        full = builds(args.builds, Path(folder))
    print(f"tei serve, edit of edition.xml to the page showing it: median {statistics.median(shown):.2f} s "
          f"of {len(shown)} edits ({', '.join(f'{s:.2f}' for s in shown)})")  # fmt: skip
    print(f"tei build seeds, every stage, fresh folder:        median {statistics.median(full):.2f} s "
          f"of {len(full)} builds ({', '.join(f'{s:.2f}' for s in full)})")  # fmt: skip


if __name__ == "__main__":
    main()
