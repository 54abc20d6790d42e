"""Qur'an verses quoted in Arabic, found by their words: precision and recall on a hand-checked sample.

The labels (tests/hadith/labels/quran_quotations.tsv: record, first words, reference, why) cover every record of
Sahih Muslim kitabs 1-16 that quotes a verse between braces or where the detector finds one; the texts are read
in place from ../shared/corpora/arabic-hadith. Target: 0.95 each. Also prints the time of one pass over the
3,444 records (the Tanzil text indexed once first), and how the quotations whose words end several verses
(«إن الله على كل شيء قدير») fare: resolved by context, uncertain with every candidate, or confident and wrong.

    python benchmarks/quran_detection.py [--shared PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hadith.boundaries import records  # noqa: E402
from hadith.quotation_sample import measure  # noqa: E402  (the labels and the measure the tests use)

from tei.hadith.quotations import find_quotations, quran  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    shared = parser.parse_args().shared
    started = time.perf_counter()
    quran()
    indexed = time.perf_counter() - started
    score, differences = measure(shared)
    print(f"sample: {score.labels} labelled quotations, {score.detections} detections, {score.right} right")
    print(f"precision {score.precision:.3f}  recall {score.recall:.3f}")
    print(
        f"ambiguous (words the Qur'an has in several places): {score.ambiguous}; resolved by context "
        f"{score.resolved}, uncertain with every candidate (cert=low) {score.uncertain}, "
        f"confident and wrong {score.confident_wrong}"
    )
    for line in differences:
        print("  " + line)
    texts = [record["arabic"] for record in records(shared).values()]
    started = time.perf_counter()
    found = sum(len(find_quotations(text)) for text in texts)
    print(
        f"Tanzil text indexed in {indexed:.2f} s; {len(texts)} records searched in "
        f"{time.perf_counter() - started:.2f} s, {found} quotations found"
    )


if __name__ == "__main__":
    main()
