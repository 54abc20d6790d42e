"""How many unit ids of the four-witness seed edition survive adding a fifth witness (issue 16, point 5).

For each fifth witness of tests/collate/fifth_witness.py (a copy of A, B or C with a few words changed)
prints the ids kept out of the four-witness edition's, and how many units are still there as the four
witnesses read them (the most any id scheme could keep without giving a changed unit the old id).

    python benchmarks/unit_ids.py [--seeds seeds]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tei.collate import collate
from tei.readers.manifest import read_manifest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from collate.fifth_witness import FIFTHS, ids_kept, with_fifth  # noqa: E402
from collate.test_unit_ids import _what_it_says  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=Path(__file__).resolve().parent.parent / "seeds")
    arguments = parser.parse_args()
    work = read_manifest(arguments.seeds)
    four = collate(work)
    old = {w.id for w in work.witnesses}
    for name in sorted(FIFTHS):
        five = collate(with_fifth(work, name))
        kept, total = ids_kept([u.id for u in four.units()], [u.id for u in five.units()])
        there = {_what_it_says(u, old) for u in five.units()}
        still = sum(1 for u in four.units() if _what_it_says(u, old) in there)
        print(
            f"fifth witness a copy of {name}: {kept} of {total} ids kept ({kept / total:.1%}); "
            f"{still} units ({still / total:.1%}) still there as the four witnesses read them"
        )


if __name__ == "__main__":
    main()
