"""Apparatus quality on synthetic witnesses with a known true alignment: F1 of aligned token pairs as the
published TEI of each tool states them, ours side by side with CollateX 2.3 (pip install -e '.[bench]').

What is scored is the TEI a user gets (`tei collate`'s edition.xml, CollateX's `output="tei"`), not an
aligner's columns. The pairing rule (issue 15): two tokens of two witnesses are aligned when both stand
in shared text at the same place, or in one unit in readings of equal length at the same position;
within one unit, readings of unequal length pair every token with every token (the apparatus claims no
finer correspondence). A reading holding nested units counts as one reading of its witness's words.
Each witness is followed through the TEI by the toolkit's rebuild rule (tei.apparatus.follow).
Both tools get the same tokens and the same normalised comparison keys (the hadith-en profile's).

Two scores for each tool. `strict` is that rule as the issue words it. It cannot credit a moved block:
no TEI scores more than the `ceiling` row under it (see ceiling()), below 0.97 on some sets. `+transp.`
adds the pairs a TEI states with its own markup for a transposition (`listTranspose/transpose`, whose
`ptr`s name the units a block of words stands in, in one place and in the other): two witnesses that read
words in different units of one `transpose` are paired by the same rule (equal length: by position;
else every token with every token). CollateX 2.3's TEI has no such markup; its two scores are equal.

    python benchmarks/collate_quality.py [--words 300] [--sets 12] [--no-collatex]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from bisect import bisect_left, bisect_right
from pathlib import Path

import regex
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_witnesses import SyntheticSet, generate  # noqa: E402

from tei.apparatus import follow  # noqa: E402
from tei.collate import collate  # noqa: E402
from tei.collate.tokenize import tokenize  # noqa: E402
from tei.model import Witness, Work  # noqa: E402
from tei.text.normalize import profile_named  # noqa: E402
from tei.writers.edition import edition_bytes  # noqa: E402
from tei.xmlio import NSMAP  # noqa: E402

PROFILE = profile_named("hadith-en")
Pair = tuple[str, int, str, int]
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


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


def tei_pairs(document: bytes | etree._ElementTree, witnesses: list[str], transpositions: bool = False) -> set[Pair]:
    """The token pairs a parallel-segmentation TEI states, by the pairing rule of the module docstring.

    Each witness is followed through the document by the toolkit's rebuild rule (tei.apparatus.follow);
    its tokens are the whitespace-separated words of its text, numbered in reading order, each placed
    where its first character stands: in the reading of an outermost unit, or in the shared text after
    the k-th outermost unit (all witnesses pass the same units)."""
    tree = document if isinstance(document, etree._ElementTree) else etree.ElementTree(etree.fromstring(document))
    found = tree.getroot().find(".//tei:body", NSMAP)
    container = found if found is not None else tree.getroot()
    shared: dict[tuple[int, int], list[tuple[str, int]]] = {}
    units: dict[int, dict[str, list[int]]] = {}
    moved = _transposed_units(container) if transpositions else {}
    in_moved: dict[str, dict[str, list[int]]] = {}  # unit id -> witness -> its tokens there
    for wid in witnesses:
        path = follow(container, wid)
        text = "".join(path.parts)
        begins = [word.start() for word in regex.finditer(r"\S+", text)]  # each word's first character
        for passage in path.passages:
            if passage.app.get(XML_ID) in moved:
                unit = in_moved.setdefault(passage.app.get(XML_ID), {}).setdefault(wid, [])
                unit.extend(range(bisect_left(begins, passage.offset), bisect_left(begins, passage.end)))
        outer = [p for p in path.passages if p.depth == 0]
        starts = [p.offset for p in outer]
        gap_words: dict[int, int] = {}
        for number, begin in enumerate(begins):
            k = bisect_right(starts, begin) - 1  # the last unit starting at or before the word
            if k >= 0 and begin < outer[k].end:
                units.setdefault(k, {}).setdefault(wid, []).append(number)
            else:
                position = gap_words.get(k, 0)
                gap_words[k] = position + 1
                shared.setdefault((k, position), []).append((wid, number))
    pairs: set[Pair] = set()
    for tokens in shared.values():
        for (x, i), (y, j) in itertools.combinations(sorted(tokens), 2):
            pairs.add((x, i, y, j))
    for readings in units.values():
        for x, y in itertools.combinations(sorted(readings), 2):
            if len(readings[x]) == len(readings[y]):
                pairs.update((x, i, y, j) for i, j in zip(readings[x], readings[y]))
            else:
                pairs.update((x, i, y, j) for i in readings[x] for j in readings[y])
    for linked in set(moved.values()):
        places = {wid: [u for u in linked if in_moved.get(u, {}).get(wid)] for wid in witnesses}
        for x, y in itertools.combinations(sorted(witnesses), 2):
            if places[x] and places[y] and set(places[x]).isdisjoint(places[y]):
                read_x = [n for u in places[x] for n in in_moved[u][x]]
                read_y = [n for u in places[y] for n in in_moved[u][y]]
                if len(read_x) == len(read_y):
                    pairs.update((x, i, y, j) for i, j in zip(read_x, read_y))
                else:
                    pairs.update((x, i, y, j) for i in read_x for j in read_y)
    return pairs


def _transposed_units(container: etree._Element) -> dict[str, tuple[str, ...]]:
    """Each unit a `transpose` names -> the ids of all the units that transpose names, in document order
    of its pointers (a unit named by two transposes keeps the first)."""
    linked: dict[str, tuple[str, ...]] = {}
    for transpose in container.getroottree().iterfind(".//tei:transpose", NSMAP):
        ids = tuple(ptr.get("target", "").lstrip("#") for ptr in transpose.iterfind("tei:ptr", NSMAP))
        for unit in ids:
            linked.setdefault(unit, ids)
    return linked


def ceiling(truth: set[Pair]) -> float:
    """The highest F1 any TEI can score on this set under the pairing rule: the true pairs that one order
    of the text can hold (for each two witnesses, a longest chain of true pairs increasing in both token
    numbers), all found and nothing else claimed.

    Why it bounds every TEI: shared text and readings of equal length pair tokens in reading order, so
    what they credit is such a chain; a moved block's words cross it. Crediting them takes one unit
    holding both places (the block and the 5 to 40 words it moved over), where readings of unequal length
    pair every token with every token: of the p x q pairs claimed, at most min(p, q) are true, a precision
    of 1/6 or less, and pairs added at precision π raise F1 only while F1 is below 2π (here 1/3)."""
    chains: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for x, i, y, j in truth:
        chains.setdefault((x, y), []).append((i, j))
    kept = 0
    for pairs in chains.values():
        tails: list[int] = []
        for _, j in sorted(pairs, key=lambda pair: (pair[0], -pair[1])):
            place = bisect_left(tails, j)
            tails[place : place + 1] = [j]
        kept += len(tails)
    recall = kept / len(truth) if truth else 1.0
    return 2 * recall / (1 + recall)


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
    print("scored: the published TEI of each tool; strict: the pairing rule alone; +transp.: with its transpositions")
    print("ceiling: the best strict F1 any TEI can score on the set (moved blocks; see ceiling())")
    print(
        f"{'set':>4} {'tool':<9} {'precision':>9} {'recall':>7} {'strict':>7}   {'precision':>9} {'recall':>7} {'+transp.':>8} {'seconds':>8}"
    )
    totals: dict[str, list[float]] = {}
    for seed in range(1, arguments.sets + 1):
        sample = generate(arguments.words, 4, seed=seed)
        truth = sample.true_pairs()
        bound = ceiling(truth)
        totals.setdefault("ceiling", []).append(bound)
        print(f"{seed:>4} {'ceiling':<9} {'':>9} {'':>7} {bound:>7.4f}")
        tools = [("tei", our_tei)] + ([] if arguments.no_collatex else [("CollateX", collatex_tei)])
        for name, tool in tools:
            started = time.perf_counter()
            document = tool(sample)
            seconds = time.perf_counter() - started
            tree = etree.ElementTree(etree.fromstring(document))
            strict = f1(tei_pairs(tree, sorted(sample.texts)), truth)
            linked = f1(tei_pairs(tree, sorted(sample.texts), transpositions=True), truth)
            totals.setdefault(f"{name} strict", []).append(strict[2])
            totals.setdefault(f"{name} +transp.", []).append(linked[2])
            print(
                f"{seed:>4} {name:<9} {strict[0]:>9.4f} {strict[1]:>7.4f} {strict[2]:>7.4f}   "
                f"{linked[0]:>9.4f} {linked[1]:>7.4f} {linked[2]:>8.4f} {seconds:>8.2f}",
                flush=True,
            )
    for name, scores in totals.items():
        print(f"{name}: mean F1 {sum(scores) / len(scores):.4f}, lowest {min(scores):.4f}")


if __name__ == "__main__":
    main()
