"""The hand-checked isnad/matn boundaries of a sample of Sahih Muslim records (labels/isnad_boundary_*.tsv)
and how the recogniser is measured against them; shared by tests/hadith/test_isnad_labels.py and
benchmarks/isnad_boundary.py (benchmarks import from tests/, never the other way).

A label gives a record (`kitab:id` of ../shared/corpora/arabic-hadith/sahih-muslim/<kitab>.json), a language,
the number of whitespace-separated words of its isnad (0: no chain), the first words of its matn (to check
the count by eye) and why the boundary is there. The texts stay in ../shared. The English text of a record is
its `narrator` and its `text` joined by one space, as a witness made from the record would read.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from tei.hadith.isnad import recognise

LABELS = Path(__file__).resolve().parent / "labels"
KITABS = range(1, 17)


@dataclass(frozen=True)
class Label:
    sample: str  # "dev" (read while the rules were written) or "heldout"
    record: str
    language: str
    isnad_words: int
    matn_opens: str
    why: str


@dataclass(frozen=True)
class Result:
    label: Label
    found_words: int

    @property
    def exact(self) -> bool:
        return self.found_words == self.label.isnad_words

    @property
    def distance(self) -> int:
        return abs(self.found_words - self.label.isnad_words)


def labels() -> list[Label]:
    found = []
    for path in sorted(LABELS.glob("isnad_boundary_*.tsv")):
        sample = "heldout" if "heldout" in path.name else "dev"
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                words = int(row["isnad_words"])
                found.append(Label(sample, row["record"], row["language"], words, row["matn_opens"], row["why"]))
    return found


def records(shared: Path) -> dict[str, dict]:
    """Every record of kitabs 1-16 by `kitab:id`."""
    folder = shared / "corpora" / "arabic-hadith" / "sahih-muslim"
    by_id = {}
    for kitab in KITABS:
        for record in json.loads((folder / f"{kitab}.json").read_text(encoding="utf-8"))["hadiths"]:
            by_id[f"{kitab}:{record['id']}"] = record
    return by_id


def text_of(record: dict, language: str) -> str:
    if language == "ar":
        return record["arabic"]
    narrator, text = record["english"]["narrator"].strip(), record["english"]["text"].strip()
    return f"{narrator} {text}" if narrator else text


def measure(shared: Path) -> list[Result]:
    """The recogniser's boundary (in words) against every label."""
    by_id = records(shared)
    results = []
    for label in labels():
        text = text_of(by_id[label.record], label.language)
        end = recognise(text, label.language).isnad_end
        results.append(Result(label, len(text[:end].split())))
    return results
