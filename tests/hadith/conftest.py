"""The shared corpus of parallel Arabic narrations (read in place, never copied into the project)."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from tei.collate import collate
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes


@pytest.fixture(scope="session")
def arabic_pairs(shared_dir) -> list[tuple[dict, dict]]:
    """The 16 pairs of parallel narrations of Sahih Muslim (../shared/corpora/arabic-hadith)."""
    path = shared_dir / "corpora" / "arabic-hadith" / "muslim_parallel_pairs.json"
    return [tuple(entry["narrations"]) for entry in json.loads(path.read_text(encoding="utf-8"))]


@pytest.fixture(scope="session")
def muslim_records(shared_dir) -> list[dict]:
    """The 3,444 records of kitabs 1-16 of Sahih Muslim (../shared/corpora/arabic-hadith/sahih-muslim), in order."""
    folder = shared_dir / "corpora" / "arabic-hadith" / "sahih-muslim"
    records = []
    for number in range(1, 17):
        records += json.loads((folder / f"{number}.json").read_text(encoding="utf-8"))["hadiths"]
    return records


@pytest.fixture(scope="session")
def arabic_pair_editions(arabic_pairs) -> list[tuple[tuple[Witness, ...], etree._ElementTree]]:
    """Each pair collated into an edition (A the base, profile hadith-ar): its witnesses and the parsed TEI,
    made once for the tests of the chain markup that the edition carries."""
    editions = []
    for number, pair in enumerate(arabic_pairs):
        witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in zip("AB", pair, strict=True))
        work = Work(f"pair{number}", "pair", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
        editions.append((witnesses, etree.ElementTree(etree.fromstring(edition_bytes(collate(work))))))
    return editions
