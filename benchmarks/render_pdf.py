"""The print edition of the seeds and of every real edition of ../shared/corpora/tei-apparatus*/, with both engines.

    python benchmarks/render_pdf.py [--engines typst latex] [--only NAME ...] [--runs N]

For each edition and engine: the pages, the mean number of text lines and of apparatus lines on the pages
that hold text, the wall time of one fresh `tei render EDITION --to pdf` process (Python's start, the
XSLT and the engine; on a shared machine it also counts waiting for a core) and the CPU time it and its
children used (user + system: what the work costs, whatever the machine's load); with --runs N, the
median of N fresh processes (on this virtual machine one process's CPU time varies by half from run to
run, idle or not: the seeds' Typst print took 0.75 to 1.14 s in three runs in a row). Targets: Typst at most
1 s for the seeds; on A5 at least 15 text lines a page where the apparatus lets it (docs/print-edition.md).

Lines are read back from the PDF (pdftotext -bbox): words grouped into rows by their lower edge; a row
whose words are at least 0.9 of the body text's height is a text line, a smaller one an apparatus line;
the running head (the top tenth of the page) is left out.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import tei_script  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
CORPORA = PROJECT.parent / "shared" / "corpora"
NOT_TEI = "tei-guidelines_TC-CriticalApparatus.xml"
BOX = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">')
PAGE = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.DOTALL)


def seed_edition(folder: Path) -> Path:
    from tei.collate import collate
    from tei.readers.manifest import read_manifest
    from tei.writers.edition import EditionOptions, edition_bytes

    path = folder / "seeds.xml"
    path.write_bytes(
        edition_bytes(
            collate(read_manifest(PROJECT / "seeds" / "edition.toml")), EditionOptions("schemas/tei-edition.rng")
        )
    )
    return path


def line_counts(pdf: Path) -> tuple[int, float, float]:
    """Pages, and the mean text and apparatus lines of the pages that hold text."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    pages = []
    for height, body in PAGE.findall(out):
        words = [(float(y0), float(y1)) for y0, y1 in BOX.findall(body) if float(y1) > float(height) * 0.1]
        rows: list[list[float]] = []  # each row: heights of its words, keyed by the lower edge of the first
        bottoms: list[float] = []
        for y0, y1 in sorted(words, key=lambda word: word[1]):
            if bottoms and abs(bottoms[-1] - y1) < 1.5:
                rows[-1].append(y1 - y0)
            else:
                bottoms.append(y1)
                rows.append([y1 - y0])
        pages.append([statistics.median(row) for row in rows])
    heights = sorted(height for page in pages for height in page)
    body = heights[int(len(heights) * 0.9)] if heights else 0.0  # the body size: among the tallest rows
    text = [sum(1 for h in page if h >= 0.9 * body) for page in pages]
    apparatus = [sum(1 for h in page if h < 0.9 * body) for page in pages]
    with_text = [i for i, count in enumerate(text) if count]
    mean = lambda values: statistics.mean(values) if values else 0.0  # noqa: E731
    return len(pages), mean([text[i] for i in with_text]), mean([apparatus[i] for i in with_text])


def render(tei: str, edition: Path, engine: str, output: Path, params: tuple[str, ...] = ()) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh render process (its children, latexmk and XeLaTeX, included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    extra = [argument for param in params for argument in ("--param", param)]
    subprocess.run(
        [
            tei,
            "render",
            str(edition),
            "--to",
            "pdf",
            "--param",
            f"engine={engine}",
            *extra,
            "-o",
            str(output),
            "--force",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engines", nargs="+", default=["typst", "latex"])
    parser.add_argument("--only", nargs="*", help="edition file names (or 'seeds') to run alone")
    parser.add_argument("--runs", type=int, default=1, help="fresh processes per edition and engine (median)")
    arguments = parser.parse_args()
    tei = tei_script()
    with tempfile.TemporaryDirectory() as folder:
        seeds = seed_edition(Path(folder))
        # The seeds as `tei render` prints them by default, and as `tei build` does (the manifest's
        # [render.pdf] entries = "places": one entry for each place of variation).
        editions = [(seeds, "seeds.xml", ()), (seeds, "seeds.xml (places)", ("entries=places",))]
        for corpus in ("tei-apparatus", "tei-apparatus-conventions"):
            editions += [(p, p.name, ()) for p in sorted((CORPORA / corpus).glob("*.xml")) if p.name != NOT_TEI]
        if arguments.only:
            editions = [e for e in editions if e[0].stem in arguments.only or e[0].name in arguments.only]
        print(f"{'edition':38} {'engine':6} {'pages':>5} {'text/page':>9} {'app/page':>8} {'wall s':>7} {'CPU s':>6}")
        for edition, label, params in editions:
            for engine in arguments.engines:
                output = Path(folder) / f"{edition.stem}-{engine}.pdf"
                try:
                    times = [render(tei, edition, engine, output, params) for _ in range(arguments.runs)]
                except subprocess.CalledProcessError:
                    print(f"{label:38} {engine:6} failed")
                    continue
                wall = statistics.median(t[0] for t in times)
                cpu = statistics.median(t[1] for t in times)
                pages, text, apparatus = line_counts(output)
                print(
                    f"{label:38} {engine:6} {pages:5d} {text:9.1f} {apparatus:8.1f} {wall:7.2f} {cpu:6.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
