"""Soak test of the whole pipeline: many random witness sets collated, written as TEI, parsed back, and every
witness rebuilt from the XML; any character lost or changed is reported. Usage:

    python benchmarks/soak.py [--sets 10000] [--seed 1]

The loop and the random sets are in tests/witness_sets.py; the test suite runs it on a few hundred sets.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from witness_sets import soak  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    start = time.perf_counter()
    result = soak(arguments.sets, arguments.seed)
    elapsed = time.perf_counter() - start
    print(
        f"sets {result.sets}, witnesses {result.witnesses}, characters {result.characters}, "
        f"characters lost {result.lost}, {elapsed:.1f} s ({result.sets / elapsed:.0f} sets/s)"
    )
    for failure in result.failures[:20]:
        print("  lost in", failure)
    sys.exit(1 if result.lost else 0)


if __name__ == "__main__":
    main()
