"""1,000 editions against the project schema, its Schematron rules and the apparatus rules, beside jing.

    python benchmarks/validate_editions.py [--editions 1000] [--jobs 2]

Target: under 10 s on 2 cores for `tei validate --jobs 2` (one fresh process, all files). The editions
are the hand-written fixture tests/fixtures/editions/mini.xml with its readings reworded (all valid,
3 witnesses, 5 apps, 3 kB each). jing checks the grammar only (no Schematron, no apparatus rules),
in one process over the same files.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import tei_script  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
MINI = PROJECT / "tests" / "fixtures" / "editions" / "mini.xml"
WORDS = ("captives", "prisoners", "Qibla", "Qiblah", "cloak", "mantle", "Umar", "Abu Bakr", "companions")


def write_editions(folder: Path, count: int) -> list[Path]:
    text, rng, paths = MINI.read_text("utf-8"), random.Random(7), []
    for number in range(count):
        edition = text.replace(">captives<", f">{rng.choice(WORDS)}<").replace(">prisoners<", f">{rng.choice(WORDS)}<")
        path = folder / f"edition-{number:04}.xml"
        path.write_text(edition, "utf-8")
        paths.append(path)
    return paths


def timed(command: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.perf_counter() - start, status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--editions", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    tei, jing = tei_script(), shutil.which("jing")
    if not (tei and jing):
        sys.exit("needs the tei console script and jing")
    with tempfile.TemporaryDirectory() as scratch:
        paths = [str(p) for p in write_editions(Path(scratch), arguments.editions)]
        rows = [
            (
                f"tei validate --jobs {arguments.jobs} (grammar + Schematron + apparatus rules)",
                [tei, "validate", "--jobs", str(arguments.jobs), *paths],
            ),
            ("tei validate --jobs 1 (grammar + Schematron + apparatus rules)", [tei, "validate", *paths]),
            (
                "jing schemas/tei-edition.rng (grammar only)",
                [jing, str(PROJECT / "schemas" / "tei-edition.rng"), *paths],
            ),
        ]
        print(f"{arguments.editions} editions of {Path(paths[0]).stat().st_size} bytes")
        for label, command in rows:
            seconds, status = timed(command)
            print(f"{label:70} {seconds:7.2f} s  exit {status}")


if __name__ == "__main__":
    main()
