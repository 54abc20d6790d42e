"""How fast the web edition is made: the seed edition (target < 0.5 s), the largest shared sample
(142 KB, target < 2 s) and a 1,000-unit edition, by `tei render` and, beside it, by bare xsltproc.

    python benchmarks/render_html.py [--runs 5]

Figures are wall-clock seconds (median and max): of fresh processes, so including Python's start, and
of render() in this process. The machine's load average is printed, since a shared machine slows all.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import tei_script  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
SHARED_LARGEST = PROJECT.parent / "shared" / "corpora" / "tei-apparatus" / "open-cbgm_3_john_collation.xml"
TEI = "http://www.tei-c.org/ns/1.0"
WORDS = [
    "the",
    "prophet",
    "turned",
    "towards",
    "qibla",
    "consulted",
    "abu",
    "bakr",
    "umar",
    "about",
    "captives",
    "and",
    "said",
]
TYPES = ["substitution", "omission", "addition", "orthographic", "honorific", "punctuation"]


def element(parent, tag, text=None, **attributes):
    child = etree.SubElement(parent, f"{{{TEI}}}{tag}", {k.replace("_", "-"): v for k, v in attributes.items()})
    child.text = text
    return child


def synthetic_edition(units: int, witnesses: int = 4, seed: int = 1) -> bytes:
    """A parallel-segmentation edition with `units` apps over `witnesses` witnesses (deterministic)."""
    chance = random.Random(seed)
    ids = [chr(ord("A") + i) for i in range(witnesses)]
    root = etree.Element(f"{{{TEI}}}TEI", nsmap={None: TEI})
    file_desc = element(element(root, "teiHeader"), "fileDesc")
    element(element(file_desc, "titleStmt"), "title", f"Synthetic edition of {units} units")
    element(element(file_desc, "publicationStmt"), "p", "Benchmark input.")
    list_wit = element(element(file_desc, "sourceDesc"), "listWit")
    for wid in ids:
        element(list_wit, "witness", f"Witness {wid}.", n=wid).set("{http://www.w3.org/XML/1998/namespace}id", wid)
    ab = element(element(element(root, "text"), "body"), "ab")
    ab.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    ab.text = "Start. "
    for number in range(1, units + 1):
        app = element(ab, "app")
        app.set("{http://www.w3.org/XML/1998/namespace}id", f"app-{number:04d}")
        element(app, "lem", chance.choice(WORDS), wit=f"#{ids[0]} #{ids[1]}")
        for wid in ids[2:]:
            kind = chance.choice(TYPES)
            text = "" if kind == "omission" else chance.choice(WORDS) + ("رضي الله عنه" if kind == "honorific" else "")
            element(app, "rdg", text or None, wit=f"#{wid}", type=kind)
        app.tail = " " + " ".join(chance.choice(WORDS) for _ in range(6)) + " "
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def seed_edition(folder: Path) -> Path:
    edition = folder / "seed-edition.xml"
    subprocess.run(
        [tei_script(), "collate", "--manifest", str(PROJECT / "seeds" / "edition.toml"), "-o", str(edition)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return edition


def timed(command: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def timed_in_process(edition: Path, site: Path, runs: int) -> list[float]:
    """render() and the writes, in this process (the stylesheet is compiled by the first run)."""
    from tei.outputs import write_files
    from tei.render import render

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        write_files(render(edition, "html", site).files, force=True)
        times.append(time.perf_counter() - start)
    return times


def inputs(folder: Path) -> list[tuple[str, Path, str]]:
    """(label, edition, target) of every benchmark input."""
    synthetic = folder / "synthetic-1000.xml"
    synthetic.write_bytes(synthetic_edition(1000))
    rows = [("seed edition", seed_edition(folder), "< 0.5 s")]
    if SHARED_LARGEST.is_file():
        rows.append((f"{SHARED_LARGEST.name} ({SHARED_LARGEST.stat().st_size // 1024} KB)", SHARED_LARGEST, "< 2 s"))
    else:
        print(f"(skipped the shared sample: {SHARED_LARGEST} is absent)")
    rows.append(("synthetic, 1,000 units", synthetic, "-"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    tei = tei_script()
    xsltproc = shutil.which("xsltproc") or sys.exit("xsltproc is not installed (scripts/setup.sh)")
    stylesheet = PROJECT / "xslt" / "html" / "edition.xsl"
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        print(f"{'input':44} {'tool':10} {'median s':>9} {'max s':>9}  target   ({runs} runs each)")
        for label, edition, target in inputs(folder):
            site = folder / "site"
            rows = [
                ("tei render", [tei, "render", str(edition), "-o", str(site), "--force"]),
                ("xsltproc", [xsltproc, "--nonet", "-o", str(folder / "xsltproc.html"), str(stylesheet), str(edition)]),
            ]
            for tool, command in rows:
                times = timed(command, runs)
                print(
                    f"{label:44} {tool:10} {statistics.median(times):9.3f} {max(times):9.3f}  {target if tool == 'tei render' else ''}"
                )
            times = timed_in_process(edition, folder / "site-in-process", runs)
            print(
                f"{label:44} {'render()':10} {statistics.median(times):9.3f} {max(times):9.3f}  (in process: parse, XSLT, write)"
            )


if __name__ == "__main__":
    main()
