"""How fast `tei convert` converts the largest shared apparatus sample (target: under 1 s), checks included.

Each figure is one whole checked conversion as the command does it: parse, convert, serialise, and
rebuild every witness's text from input and result to compare them. Parsing is timed apart.

    python benchmarks/convert_speed.py [--runs 5] [--sample PATH]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tei.apparatus import all_witnesses
from tei.convert import METHODS, convert, convert_checked
from tei.xmlio import parse_bytes, parse_file

SAMPLE = Path(__file__).resolve().parents[1].parent / "shared/corpora/tei-apparatus/open-cbgm_3_john_collation.xml"


def timed(action, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sample", type=Path, default=SAMPLE)
    arguments = parser.parse_args()
    path, runs = arguments.sample, arguments.runs
    tree = parse_file(path)
    print(
        f"{path.name}: {path.stat().st_size / 1024:.0f} KB, {len(tree.getroot().findall('.//{*}app'))} apps, "
        f"{len(all_witnesses(tree))} witnesses; median and max of {runs} runs, seconds"
    )
    print(f"{'step':56} {'median':>8} {'max':>8}")
    rows = [("parse", lambda: parse_file(path))]
    for method in METHODS:
        converted = convert(tree, method, path.name)
        rows.append((f"convert to {method} (unchecked)", lambda m=method: convert(tree, m, path.name)))
        rows.append(
            (f"convert to {method} (checked, as tei convert)", lambda m=method: convert_checked(tree, m, path.name))
        )
        if method != "parallel-segmentation":
            back = parse_bytes(convert_checked(converted, method, path.name)[0], path.name)
            rows.append(
                (
                    f"  and back from {method} (checked)",
                    lambda b=back: convert_checked(b, "parallel-segmentation", path.name),
                )
            )
    for label, action in rows:
        times = timed(action, runs)
        print(f"{label:56} {statistics.median(times):8.3f} {max(times):8.3f}")


if __name__ == "__main__":
    main()
