"""Isnad/matn boundaries against hand-checked samples of Sahih Muslim records: exact-boundary accuracy.

The labels (tests/hadith/labels/isnad_boundary_*.tsv: record, words of the isnad, first words of the matn, why)
were checked record by record; the texts are read in place from ../shared/corpora/arabic-hadith. Two samples of
157 records each: `dev` (every 22nd record from the 12th, read while the rules were written) and `heldout`
(every 22nd from the 6th, labelled afterwards; its first figures were measured blind). Prints the accuracy per
sample and language (target: 95 % each) and, for every miss, the distance in words.

    python benchmarks/isnad_boundary.py [--shared PATH]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hadith.boundaries import measure  # noqa: E402  (the labels and the measure the tests use)

SHARED = Path(__file__).resolve().parents[2] / "shared"
NAMES = {"ar": "Arabic", "en": "English"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    results = measure(parser.parse_args().shared)
    for language in sorted({r.label.language for r in results}):
        mine = [r for r in results if r.label.language == language]
        exact = sum(r.exact for r in mine)
        print(f"{NAMES.get(language, language)}: {exact}/{len(mine)} exact ({100 * exact / len(mine):.1f} %)")
        for sample in sorted({r.label.sample for r in mine}):
            part = [r for r in mine if r.label.sample == sample]
            exact = sum(r.exact for r in part)
            print(f"  sample {sample}: {exact}/{len(part)} exact ({100 * exact / len(part):.1f} %)")
            for result in (r for r in part if not r.exact):
                label = result.label
                print(
                    f"    miss {label.record}: {result.distance} word(s) off "
                    f"(found {result.found_words}, true {label.isnad_words}: {label.why})"
                )


if __name__ == "__main__":
    main()
