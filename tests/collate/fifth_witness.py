"""A fifth witness for the seeds: a copy of one of them with a few words changed, as a scholar adds one more
manuscript or rendering to an edition. Shared by the unit-id test, the round-trip scenario and
benchmarks/unit_ids.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tei.model import Witness, Work
from tei.readers.manifest import read_manifest

# name -> (the seed witness it copies, its changes)
FIFTHS = {
    "A": ("A", (("Badr", "Bedr"), ("glance", "look"), ("one thousand", "a thousand"), ("weep", "cry"))),
    "B": ("B", (("Prophet", "Messenger"), ("reviewed", "counted"), ("Uhud", "Ohod"))),
    "C": ("C", (("Badr", "Bedr"), ("looked", "gazed"), ("Messenger", "Apostle"), ("Allah", "God"))),
}


def fifth_text(work: Work, name: str = "A") -> str:
    copied, changes = FIFTHS[name]
    text = work.witness(copied).text
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def with_fifth(work: Work, name: str = "A") -> Work:
    copied = work.witness(FIFTHS[name][0])
    fifth = Witness("E", "E", fifth_text(work, name), copied.language, f"a copy of {copied.id} with a few changes")
    return replace(work, witnesses=(*work.witnesses, fifth))


def add_to_manifest(folder: Path, name: str = "A") -> None:
    """Write the fifth witness's text into a copy of the seeds folder and declare it in its edition.toml."""
    (folder / "E.txt").write_text(fifth_text(read_manifest(folder), name), "utf-8")
    with (folder / "edition.toml").open("a", encoding="utf-8") as manifest:
        manifest.write('\n[[witness]]\nid = "E"\nsiglum = "E"\nfile = "E.txt"\nlanguage = "en"\n'
                       'description = "A copy of A with a few words changed."\n')  # fmt: skip


def ids_kept(before: list[str], after: list[str]) -> tuple[int, int]:
    """How many of the ids before are still there after, of how many."""
    remaining = set(after)
    return sum(1 for i in before if i in remaining), len(before)
