"""The hand-checked Qur'an quotations of a sample of Sahih Muslim records (labels/quran_quotations.tsv) and how
verse detection is measured against them; shared by tests/hadith/test_quotations.py and
benchmarks/quran_detection.py (benchmarks import from tests/, never the other way).

A label gives a record (`kitab:id`), the first words of the quotation, its reference (S:V or S:V-W; `-` for
words that only look like a quotation) and why.
The sample is every record of kitabs 1-16 that quotes a verse between braces (the texts' own mark for a verse)
or in which the detector finds a verse; each was checked against the Tanzil text. A detection counts as
right when its record has a label whose reference starts with the same verse.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hadith.boundaries import records

from tei.hadith.quotations import find_quotations

LABELS = Path(__file__).resolve().parent / "labels" / "quran_quotations.tsv"


@dataclass(frozen=True)
class Score:
    labels: int
    detections: int
    right: int

    @property
    def precision(self) -> float:
        return self.right / self.detections if self.detections else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.labels if self.labels else 1.0


def labels() -> list[dict]:
    with LABELS.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def first_verse(reference: str) -> str:
    return reference.split(";")[0].split("-")[0]


def measure(shared: Path) -> tuple[Score, list[str]]:
    """The score on the sample, and a line for every record where detections and labels differ."""
    wanted: dict[str, Counter] = {}
    for label in labels():
        counts = wanted.setdefault(label["record"], Counter())
        if label["reference"] != "-":  # "-": a record of the sample that quotes no verse where one is found
            counts[first_verse(label["reference"])] += 1
    by_id = records(shared)
    total_labels = total_found = right = 0
    differences = []
    for record, expected in wanted.items():
        found = Counter(first_verse(q.reference) for q in find_quotations(by_id[record]["arabic"]))
        matched = sum((found & expected).values())
        total_labels += sum(expected.values())
        total_found += sum(found.values())
        right += matched
        if found != expected:
            differences.append(f"{record}: found {dict(found)}, labelled {dict(expected)}")
    return Score(total_labels, total_found, right), differences
