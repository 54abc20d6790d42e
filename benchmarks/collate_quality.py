"""Apparatus quality on synthetic witnesses with a known true alignment: F1 of aligned token pairs as the
published TEI of each tool states them, ours side by side with CollateX 2.3 (pip install -e '.[bench]').

What is scored is the TEI a user gets (`tei collate`'s edition.xml, CollateX's `output="tei"`), not an
aligner's columns. The pairing rule (issue 15): two tokens of two witnesses are aligned when both stand
in shared text at the same place, or in one unit in readings of equal length at the same position;
within one unit, readings of unequal length pair every token with every token (the apparatus claims no
finer correspondence). A reading holding nested units counts as one reading of its witness's words.
Both tools get the same tokens and the same normalised comparison keys (the hadith-en profile's).

    python benchmarks/collate_quality.py [--words 300] [--sets 12] [--no-collatex]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_witnesses import SyntheticSet, generate  # noqa: E402

from tei.apparatus import APP, LEM, RDG, RDG_GRP, content_text  # noqa: E402
from tei.collate import collate  # noqa: E402
from tei.collate.tokenize import tokenize  # noqa: E402
from tei.model import Witness, Work  # noqa: E402
from tei.text.normalize import profile_named  # noqa: E402
from tei.writers.edition import edition_bytes  # noqa: E402
from tei.xmlio import NSMAP  # noqa: E402

PROFILE = profile_named("hadith-en")
Pair = tuple[str, int, str, int]


def keys_of(sample: SyntheticSet) -> dict[str, list[str]]:
    keys = {}
    for wid, text in sample.texts.items():
        tokens = tokenize(text, PROFILE)
        assert len(tokens) == len(sample.origins[wid]), "one token per synthetic word"
        keys[wid] = [t.key for t in tokens]
    return keys


def our_tei(sample: SyntheticSet) -> bytes:
    witnesses = tuple(Witness(wid, wid, text) for wid, text in sample.texts.items())
    return edition_bytes(collate(Work("synthetic", "Synthetic", profile="hadith-en", witnesses=witnesses)))


def collatex_tei(sample: SyntheticSet) -> bytes:
    from collatex import Collation
    from collatex import collate as collatex_collate

    keys = keys_of(sample)
    witnesses = [
        {"id": wid, "tokens": [{"t": word + " ", "n": key} for word, key in zip(text.split(" "), keys[wid])]}
        for wid, text in sample.texts.items()
    ]
    return collatex_collate(Collation.create_from_dict({"witnesses": witnesses}), output="tei").encode()


def tei_pairs(document: bytes, witnesses: list[str]) -> set[Pair]:
    """The token pairs a parallel-segmentation TEI states, by the pairing rule of the module docstring.
    Tokens are whitespace-separated words, numbered per witness in reading order."""
    root = etree.fromstring(document)
    container = root.find(".//tei:body", NSMAP)
    blocks = list(container) if container is not None else [root]
    counters = dict.fromkeys(witnesses, 0)
    pairs: set[Pair] = set()
    for block in blocks:
        for part in _parts(block):
            if isinstance(part, str):
                words = len(part.split())
                for x, y in itertools.combinations(sorted(witnesses), 2):
                    pairs.update((x, counters[x] + n, y, counters[y] + n) for n in range(words))
                for wid in witnesses:
                    counters[wid] += words
                continue
            read = {}
            for wid in witnesses:
                reading = _reading_of(part, wid)
                words = len(content_text(reading, wid).split()) if reading is not None else 0
                read[wid] = range(counters[wid], counters[wid] + words)
                counters[wid] += words
            for x, y in itertools.combinations(sorted(witnesses), 2):
                if len(read[x]) == len(read[y]):
                    pairs.update((x, i, y, j) for i, j in zip(read[x], read[y]))
                else:
                    pairs.update((x, i, y, j) for i in read[x] for j in read[y])
    return pairs


def _parts(element: etree._Element):
    """The shared texts and apps of a block, in order (texts split at word boundaries the way they stand)."""
    if element.text:
        yield element.text
    for child in element:
        if child.tag == APP:
            yield child
        elif isinstance(child.tag, str):
            yield from _parts(child)
        if child.tail:
            yield child.tail


def _reading_of(app: etree._Element, wid: str) -> etree._Element | None:
    """The reading of this app (directly in it or in one of its rdgGrps) whose @wit names the witness."""
    for reading in app.iter(LEM, RDG):
        parent = reading.getparent()
        directly = parent is app or (parent.tag == RDG_GRP and parent.getparent() is app)
        if directly and f"#{wid}" in (reading.get("wit") or "").split():
            return reading
    return None


def f1(predicted: set, truth: set) -> tuple[float, float, float]:
    hits = len(predicted & truth)
    precision = hits / len(predicted) if predicted else 1.0
    recall = hits / len(truth) if truth else 1.0
    return precision, recall, (2 * precision * recall / (precision + recall) if hits else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--sets", type=int, default=12)
    parser.add_argument("--no-collatex", action="store_true")
    arguments = parser.parse_args()
    print(f"4 witnesses x {arguments.words} words, {arguments.sets} synthetic sets (seeds 1..{arguments.sets})")
    print("scored: the published TEI of each tool, strict pairing rule")
    print(f"{'set':>4} {'tool':<9} {'precision':>9} {'recall':>7} {'F1':>7} {'seconds':>8}")
    totals: dict[str, list[float]] = {}
    for seed in range(1, arguments.sets + 1):
        sample = generate(arguments.words, 4, seed=seed)
        truth = sample.true_pairs()
        tools = [("tei", our_tei)] + ([] if arguments.no_collatex else [("CollateX", collatex_tei)])
        for name, tool in tools:
            started = time.perf_counter()
            document = tool(sample)
            seconds = time.perf_counter() - started
            precision, recall, score = f1(tei_pairs(document, sorted(sample.texts)), truth)
            totals.setdefault(name, []).append(score)
            print(f"{seed:>4} {name:<9} {precision:>9.4f} {recall:>7.4f} {score:>7.4f} {seconds:>8.2f}", flush=True)
    for name, scores in totals.items():
        print(f"{name}: mean F1 {sum(scores) / len(scores):.4f}, lowest {min(scores):.4f}")


if __name__ == "__main__":
    main()
