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
    """`right` counts an uncertain detection (cert="low", every candidate verse) right when the labelled verse is
    among its candidates; `ambiguous` are the detections whose words the Qur'an has in several places, of which
    `resolved` were given the labelled verse by their context, `uncertain` its candidates with cert, and
    `confident_wrong` one wrong verse without cert (the target: none)."""

    labels: int
    detections: int
    right: int
    ambiguous: int = 0
    resolved: int = 0
    uncertain: int = 0
    confident_wrong: int = 0

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
    ambiguity: Counter = Counter()
    differences = []
    for record, expected in wanted.items():
        quotations = find_quotations(by_id[record]["arabic"])
        found = Counter(_labelled_verse(q, expected) for q in quotations)
        matched = sum((found & expected).values())
        total_labels += sum(expected.values())
        total_found += sum(found.values())
        right += matched
        for quotation in (q for q in quotations if q.places > 1):
            ambiguity["ambiguous"] += 1
            verse = _labelled_verse(quotation, expected)
            kind = "uncertain" if quotation.cert else "resolved" if verse in expected else "confident_wrong"
            ambiguity[kind] += 1
            if kind == "confident_wrong":
                differences.append(f"{record}: {quotation.reference} given without cert, labelled {dict(expected)}")
        if found != expected:
            differences.append(f"{record}: found {dict(found)}, labelled {dict(expected)}")
    return Score(total_labels, total_found, right, **ambiguity), differences


def _labelled_verse(quotation, expected: Counter) -> str:
    """The verse a detection counts as: its first, or for an uncertain one the candidate that is labelled."""
    if quotation.cert:
        candidates = [f"{r.surah}:{v}" for r in quotation.ranges for v in range(r.first, r.last + 1)]
        return next((verse for verse in candidates if verse in expected), first_verse(quotation.reference))
    return first_verse(quotation.reference)
