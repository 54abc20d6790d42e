"""Normalising and collating the 16 pairs of parallel Arabic narrations of the shared corpus: time and figures.

For each pair: every word's comparison key under the hadith-ar profile (tashkil, tatweel, letter forms,
bidi controls folded), then the collation (isnad and matn as separate sections) and the TEI edition
written. Prints the wall-clock and CPU time of the whole run (imports and reading the corpus excluded;
the target is under 2 s), and per pair the tokens, units, and units with an orthographic or a particle
reading. Reads the corpus
in place (../shared/corpora/arabic-hadith); nothing is copied.

    python benchmarks/arabic_collate.py [--corpus PATH] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tei.collate import collate
from tei.collate.tokenize import tokenize
from tei.model import Witness, Work
from tei.text.normalize import PROFILES
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hadith.names import split_names as names_split  # noqa: E402  (the measure the corpus test uses)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "arabic-hadith" / "muslim_parallel_pairs.json"
PROFILE = "hadith-ar"


def pair_works(corpus: Path) -> list[Work]:
    works = []
    for entry in json.loads(corpus.read_text(encoding="utf-8")):
        first, second = entry["narrations"]
        witnesses = tuple(Witness(f"M{n['idInBook']}", str(n["idInBook"]), n["arabic"], "ar") for n in (first, second))
        works.append(
            Work(
                f"pair-{first['idInBook']}",
                entry["chapter"]["english"],
                language="ar",
                base=witnesses[0].id,
                profile=PROFILE,
                witnesses=witnesses,
            )
        )
    return works


def run(works: list[Work]) -> list[tuple[str, int, int, int, int]]:
    """Normalise and collate every pair; (pair, tokens, units, orthographic units, particle units) for each."""
    profile = PROFILES[PROFILE]
    figures = []
    for work in works:
        words = sum(len(tokenize(w.text, profile)) for w in work.witnesses)
        edition = collate(work)
        edition_bytes(edition)
        units = edition.units()
        figures.append((work.id, words, len(units), _typed(units, "orthographic"), _typed(units, "particle")))
    return figures


def split_names(works: list[Work]) -> tuple[int, int, list[str]]:
    """How many narrators' names (tei.hadith.isnad.chain_links) of the witnesses' chains the edition splits
    across units (part in shared text, part in a unit, or in two units), of how many; and the split ones."""
    total, examples = 0, []
    for work in works:
        names, split = names_split(work, parse_bytes(edition_bytes(collate(work)), work.id))
        total += names
        examples += split
    return total, len(examples), examples


def _typed(units, kind: str) -> int:
    """How many units hold a reading (or a group) of that type."""
    return sum(1 for unit in units if any(entry.type == kind for entry in unit.entries))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the first and the best are reported")
    arguments = parser.parse_args()
    works = pair_works(arguments.corpus)
    timings = []
    for _ in range(arguments.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        figures = run(works)
        timings.append((time.perf_counter() - wall, time.process_time() - cpu))
    print(f"{'pair':<12} {'tokens':>6} {'units':>5} {'orthographic':>12} {'particle':>8}")
    for name, words, units, orthographic, particle in figures:
        print(f"{name:<12} {words:>6} {units:>5} {orthographic:>12} {particle:>8}")
    print(f"\n{len(works)} pairs normalised and collated (target < 2 s):")
    print(f"  first run (patterns compiled, no key cached): {timings[0][0]:.3f} s wall, {timings[0][1]:.3f} s CPU")
    print(f"  best of {arguments.repeat}: {min(timings)[0]:.3f} s wall, {min(timings)[1]:.3f} s CPU")
    total, split, examples = split_names(works)
    print(f"\nnarrators' names split across units (a name is one token of the chain's collation): {split} of {total}")
    for example in examples[:10]:
        print(f"  {example}")


if __name__ == "__main__":
    main()
