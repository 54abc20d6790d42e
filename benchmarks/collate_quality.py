"""Alignment quality on synthetic witnesses with a known true alignment: F1 of aligned token pairs,
ours side by side with CollateX (benchmark-only dependency: pip install -e '.[bench]').

Both aligners get the same tokens and the same normalised comparison keys (the hadith-en profile's),
so the figures compare alignment alone. A predicted pair is two tokens of two witnesses placed in one
column (for us also: a moved block linked to its original place). Usage:

    python benchmarks/collate_quality.py [--words 400] [--sets 12] [--no-collatex]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_witnesses import SyntheticSet, generate  # noqa: E402

from tei.collate.align import align  # noqa: E402
from tei.collate.tokenize import tokenize  # noqa: E402
from tei.text.normalize import profile_named  # noqa: E402

PROFILE = profile_named("hadith-en")


def keys_of(sample: SyntheticSet) -> dict[str, list[str]]:
    keys = {}
    for wid, text in sample.texts.items():
        tokens = tokenize(text, PROFILE)
        assert len(tokens) == len(sample.origins[wid]), "one token per synthetic word"
        keys[wid] = [t.key for t in tokens]
    return keys


def our_pairs(sample: SyntheticSet) -> set[tuple[str, int, str, int]]:
    alignment = align(keys_of(sample))
    pairs = set()
    for column in alignment.columns:
        pairs.update(_column_pairs(column.cells))
    for move in alignment.moves:
        for moved, original in zip(move.moved, move.original):
            cells = dict(original.cells)
            cells[move.witness] = moved.cells[move.witness]
            pairs.update(_column_pairs(cells))
    return pairs


def collatex_pairs(sample: SyntheticSet) -> set[tuple[str, int, str, int]]:
    from collatex import Collation, collate

    keys = keys_of(sample)
    witnesses = [
        {
            "id": wid,
            "tokens": [
                {"t": word + " ", "n": key, "i": n} for n, (word, key) in enumerate(zip(text.split(" "), keys[wid]))
            ],
        }
        for wid, text in sample.texts.items()
    ]
    table = collate(Collation.create_from_dict({"witnesses": witnesses}), output="table", segmentation=False)
    columns: list[dict[str, int]] = []
    for row in table.rows:
        for number, cell in enumerate(row.cells):
            while len(columns) <= number:
                columns.append({})
            if cell:
                columns[number][row.header] = cell[0].token_data["i"]
    pairs = set()
    for cells in columns:
        pairs.update(_column_pairs(cells))
    return pairs


def _column_pairs(cells: dict[str, int]):
    for x, y in itertools.combinations(sorted(cells), 2):
        yield (x, cells[x], y, cells[y])


def f1(predicted: set, truth: set) -> tuple[float, float, float]:
    hits = len(predicted & truth)
    precision = hits / len(predicted) if predicted else 1.0
    recall = hits / len(truth) if truth else 1.0
    return precision, recall, (2 * precision * recall / (precision + recall) if hits else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=400)
    parser.add_argument("--sets", type=int, default=12)
    parser.add_argument("--no-collatex", action="store_true")
    arguments = parser.parse_args()
    print(f"4 witnesses x {arguments.words} words, {arguments.sets} synthetic sets (seeds 1..{arguments.sets})")
    print(f"{'set':>4} {'aligner':<9} {'precision':>9} {'recall':>7} {'F1':>7} {'seconds':>8}")
    totals: dict[str, list[float]] = {}
    for seed in range(1, arguments.sets + 1):
        sample = generate(arguments.words, 4, seed=seed)
        truth = sample.true_pairs()
        aligners = [("tei", our_pairs)] + ([] if arguments.no_collatex else [("CollateX", collatex_pairs)])
        for name, aligner in aligners:
            started = time.perf_counter()
            predicted = aligner(sample)
            seconds = time.perf_counter() - started
            precision, recall, score = f1(predicted, truth)
            totals.setdefault(name, []).append(score)
            print(f"{seed:>4} {name:<9} {precision:>9.4f} {recall:>7.4f} {score:>7.4f} {seconds:>8.2f}")
    for name, scores in totals.items():
        print(f"mean F1 {name}: {sum(scores) / len(scores):.4f}")


if __name__ == "__main__":
    main()
