"""A first validation of one document against tei_all in a fresh process: `tei validate` beside jing.

    python benchmarks/validate_tei_all.py [--runs 3] [--schema ../shared/corpora/tei-p5-schema/4.12.0/tei_all.rng]

Target: no slower than jing, under 1 s. Each row is the median wall time of --runs fresh processes per
document: jing (grammar only), `tei validate --no-schematron --no-apparatus-rules` (the same check as
jing), `tei validate --no-apparatus-rules` (TEI's own Schematron rules too, which jing does not run), and
the default `tei validate` (the apparatus rules too): the command the target is for.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import tei_script  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
DOCUMENTS = (
    "tei-apparatus/evt_pseudoEdition.xml",
    "tei-apparatus/open-cbgm_3_john_collation.xml",
    "collation-witnesses/stemmaweb_teiwit.xml",
    "tei-apparatus/evt_avicenna.xml",
    "tei-apparatus/teiphy_ubs_ephesians.xml",
    "tei-invalid/tei-detest/detest.xml",
)


def median_seconds(command: list[str], runs: int) -> tuple[float, int]:
    times, status = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--schema", type=Path, default=SHARED / "tei-p5-schema" / "4.12.0" / "tei_all.rng")
    arguments = parser.parse_args()
    jing, tei = shutil.which("jing"), tei_script()
    if not (jing and tei and arguments.schema.is_file()):
        sys.exit("needs jing, the tei console script and the tei_all schema (../shared/corpora)")
    print(f"{'document':34} {'verdict':>8} {'jing s':>7} {'tei grammar s':>14} {'+Schematron s':>14} {'default s':>10}")
    for name in DOCUMENTS:
        document = SHARED / name
        jing_time, jing_status = median_seconds([jing, str(arguments.schema), str(document)], arguments.runs)
        base = [tei, "validate", "--schema", str(arguments.schema)]
        grammar_time, status = median_seconds(
            [*base, "--no-schematron", "--no-apparatus-rules", str(document)], arguments.runs
        )
        schematron_time, _ = median_seconds([*base, "--no-apparatus-rules", str(document)], arguments.runs)
        default_time, _ = median_seconds([*base, str(document)], arguments.runs)
        verdict = "valid" if status == 0 else "invalid"
        agreement = "" if (status == 0) == (jing_status == 0) else "  (verdicts differ!)"
        print(
            f"{document.name:34} {verdict:>8} {jing_time:7.2f} {grammar_time:14.2f} {schematron_time:14.2f} "
            f"{default_time:10.2f}{agreement}"
        )


if __name__ == "__main__":
    main()
