"""Random witness sets and the soak loop: sets collated, written as TEI, parsed back, every witness rebuilt.

Shared by tests/test_soak.py (a few hundred sets) and benchmarks/soak.py (ten thousand), and its random
edits by benchmarks/corpus_build.py: the tests never import from benchmarks/, benchmarks may import this.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tei.apparatus import witness_text
from tei.collate import collate
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes

WORDS = [
    "the",
    "Messenger",
    "of",
    "Allah",
    "turned",
    "towards",
    "Qibla",
    "Qiblah",
    "Umar",
    "‘Umar",
    "`Umar",
    "Hayzūm",
    "Haizum",
    "and",
    "he",
    "said",
    "O",
    "prisoners",
    "captives",
    "ransom",
    "Badr",
    "Uhud",
    "seventy",
    "thousand",
    "angels",
    "verse",
    "Lord",
    "promise",
    "قال",
    "حدثنا",
    "عن",
    "رسول",
    "الله",
    "صلى",
    "الله",
    "عليه",
    "وسلم",
    "يوم",
    "بدر",
    "القبلة",
    "فِدَاء",
    "الأَسْرَى",
    "café",
    "naïve",
    "é",
    "ﷺ",
    "(ﷺ)",
    "(peace",
    "and",
    "blessings",
    "be",
    "upon",
    "him)",
    "رضي",
    "الله",
    "عنهم",
]
PUNCTUATION = ["", "", "", ",", ".", ";", ":", "!", "?", "\u201d", "\u2019", ")", "...", " \u2014"]
SPACES = [" ", " ", " ", " ", "  ", "\n", "\n\n", "\t", "\u00a0", " \r\n"]


@dataclass
class SoakResult:
    sets: int = 0
    witnesses: int = 0
    characters: int = 0
    lost: int = 0  # characters of witness text not given back exactly (counted over the longer side)
    failures: list[str] = None


def random_text(rng: random.Random, words: int) -> str:
    return "".join(rng.choice(WORDS) + rng.choice(PUNCTUATION) + rng.choice(SPACES) for _ in range(words))


def variant(rng: random.Random, text: str) -> str:
    """A witness made from another by random edits: words replaced, added, dropped, moved, respaced."""
    pieces = text.split(" ")
    for _ in range(rng.randint(0, max(1, len(pieces) // 4))):
        position = rng.randrange(len(pieces)) if pieces else 0
        edit = rng.choice(("replace", "add", "drop", "move", "space"))
        if edit == "replace" and pieces:
            pieces[position] = rng.choice(WORDS)
        elif edit == "add":
            pieces.insert(position, rng.choice(WORDS) + rng.choice(PUNCTUATION))
        elif edit == "drop" and pieces:
            pieces.pop(position)
        elif edit == "move" and len(pieces) > 3:
            block = pieces[position : position + rng.randint(1, 3)]
            del pieces[position : position + len(block)]
            target = rng.randrange(len(pieces) + 1)
            pieces[target:target] = block
        elif edit == "space" and pieces:
            pieces[position] += rng.choice(SPACES)
    return " ".join(pieces)


def witness_set(rng: random.Random) -> Work:
    base = random_text(rng, rng.randint(0, 60))
    texts = [base] + [variant(rng, base) for _ in range(rng.randint(1, 4))]
    witnesses = tuple(Witness(f"W{n}", f"W{n}", text) for n, text in enumerate(texts))
    return Work(
        "soak", "Soak", base=rng.choice([None, "W0"]), profile=rng.choice(["default", "hadith-en"]), witnesses=witnesses
    )


def soak(sets: int, seed: int = 1) -> SoakResult:
    rng = random.Random(seed)
    result = SoakResult(failures=[])
    for number in range(sets):
        work = witness_set(rng)
        tree = parse_bytes(edition_bytes(collate(work)), f"set {number}")
        for witness in work.witnesses:
            rebuilt = witness_text(tree, witness.id)
            result.witnesses += 1
            result.characters += len(witness.text)
            if rebuilt != witness.text:
                result.lost += max(len(witness.text), len(rebuilt)) - _common_prefix(witness.text, rebuilt)
                result.failures.append(f"set {number} (seed {seed}) witness {witness.id}")
        result.sets += 1
    return result


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n
