"""How long the print edition of the seeds takes: Typst (target under 1 s) and reledmac via latexmk (under 20 s).

    python benchmarks/render_pdf.py [--runs 3] [--latex-runs 1]

The seed edition is collated once (not timed). Each figure is a fresh `tei render EDITION --to pdf` process,
so it includes Python's start, the XSLT and the engine; the Typst compile alone and the CPU time are shown
beside it (on a shared machine the wall time also counts waiting for a core).
"""

from __future__ import annotations

import argparse
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


def seed_edition(folder: Path) -> Path:
    from tei.collate import collate
    from tei.readers.manifest import read_manifest
    from tei.writers.edition import EditionOptions, edition_bytes

    path = folder / "edition.xml"
    path.write_bytes(
        edition_bytes(
            collate(read_manifest(PROJECT / "seeds" / "edition.toml")), EditionOptions("schemas/tei-edition.rng")
        )
    )
    return path


def timed_process(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (children included) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def typst_compile_alone(edition: Path) -> tuple[float, int]:
    """Seconds of the Typst compile alone, and the number of pages."""
    from tei.render import render
    from tei.render.typst_pdf import compile_pdf

    source = next(iter(render(edition, "typst", edition.with_suffix(".typ")).files.values()))
    start = time.perf_counter()
    pdf, _ = compile_pdf(source, str(edition))
    seconds = time.perf_counter() - start
    return seconds, pdf.count(b"/Type /Page\n") or pdf.count(b"/Type/Page")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latex-runs", type=int, default=1)
    arguments = parser.parse_args()
    tei = tei_script()
    with tempfile.TemporaryDirectory() as folder:
        edition = seed_edition(Path(folder))
        units = edition.read_text("utf-8").count("<app ")
        print(f"seed edition: {units} units, {edition.stat().st_size} bytes")
        print(f"{'engine':34} {'median wall s':>14} {'median cpu s':>13} {'target':>8}")
        rows = [
            ("typst (tei render --to pdf)", "typst", arguments.runs, 1.0),
            ("latex (reledmac, latexmk)", "latex", arguments.latex_runs, 20.0),
        ]
        for label, engine, runs, target in rows:
            times = [
                timed_process(
                    [
                        tei,
                        "render",
                        str(edition),
                        "--to",
                        "pdf",
                        "--param",
                        f"engine={engine}",
                        "-o",
                        str(Path(folder) / f"{engine}.pdf"),
                        "--force",
                    ]
                )
                for _ in range(runs)
            ]
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(f"{label:34} {wall:14.3f} {cpu:13.3f} {target:8.1f}")
        seconds, pages = typst_compile_alone(edition)
        print(f"{'typst compile alone (in process)':34} {seconds:14.3f} {'':13} {'':8}  ({pages} pages)")


if __name__ == "__main__":
    main()
