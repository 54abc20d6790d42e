"""Synthetic witness sets with a known true alignment, for measuring collation quality and speed.

A base text of pseudo-words (Zipf-distributed over at least 1,000 words, so that common words repeat as
in real prose; the commonest is about one word in eight) is copied
into each witness with edits: substitutions, insertions, deletions, spelling variants (of the kinds a
transliterated text shows: final h, doubled letters, ee/i, y/i, case, an ʿayn mark) and block
transpositions. Every token remembers the base position it descends from (None for inserted words),
so the true aligned pairs are known: two tokens of two witnesses descending from the same base word,
substituted, respelled or moved, belong together.

Run it to print a sample:  python benchmarks/synthetic_witnesses.py
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

SYLLABLES = [
    "ba",
    "ka",
    "ma",
    "sa",
    "ra",
    "qi",
    "bi",
    "li",
    "mu",
    "hu",
    "da",
    "zu",
    "ta",
    "ni",
    "ya",
    "fa",
    "'a",
    "sha",
    "kha",
    "dha",
    "wa",
    "la",
    "ha",
    "mi",
    "ru",
    "si",
    "ja",
    "ghu",
    "lo",
    "ne",
]


@dataclass(frozen=True)
class Rates:
    """Per-word probabilities of each edit, and how often a block of words moves."""

    substitution: float = 0.03
    insertion: float = 0.02
    deletion: float = 0.02
    spelling: float = 0.04
    transposition: float = 0.004  # per word: the chance that a block starting here moves
    block: tuple[int, int] = (4, 8)  # words in a moved block
    distance: tuple[int, int] = (5, 40)  # how far it moves


@dataclass
class SyntheticSet:
    texts: dict[str, str]
    origins: dict[str, list[int | None]]  # for each witness token, the base position it descends from
    moved: dict[str, int] = field(default_factory=dict)  # moved blocks per witness

    def true_pairs(self) -> set[tuple[str, int, str, int]]:
        """(witness, token, other witness, token) for every two tokens descending from one base word."""
        pairs = set()
        for x, y in itertools.combinations(sorted(self.origins), 2):
            where = {origin: n for n, origin in enumerate(self.origins[y]) if origin is not None}
            for n, origin in enumerate(self.origins[x]):
                if origin is not None and origin in where:
                    pairs.add((x, n, y, where[origin]))
        return pairs


def vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add(
            "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4)))).lstrip("'").replace("''", "'")
        )
    return sorted(words)


def respell(word: str, rng: random.Random) -> str:
    """A spelling variant of the kinds transliterations show."""
    options = [
        lambda w: w + "h" if w[-1] in "aiu" else w[:-1],
        lambda w: w.replace("i", "ee", 1) if "i" in w else w + "h",
        lambda w: w.replace("y", "i", 1) if "y" in w else w.capitalize(),
        lambda w: w.capitalize(),
        lambda w: "‘" + w.capitalize(),
        lambda w: w[:1] + w[1] + w[1:] if len(w) > 2 and w[1].isalpha() else w + "h",
    ]
    variant = rng.choice(options)(word)
    return variant if variant != word else word.upper()


def generate(words: int, witnesses: int = 4, seed: int = 1, rates: Rates = Rates()) -> SyntheticSet:
    rng = random.Random(seed)
    vocab = vocabulary(rng, max(1000, min(words // 3, 30000)))
    weights = [1 / (rank + 1) for rank in range(len(vocab))]  # Zipf's law: the commonest word ~ 1 in 8
    base = rng.choices(vocab, weights, k=words)
    texts, origins, moved = {}, {}, {}
    for number in range(witnesses):
        wid = chr(ord("A") + number) if number < 26 else f"W{number}"
        tokens: list[tuple[str, int | None]] = []
        for position, word in enumerate(base):
            roll = rng.random()
            if roll < rates.deletion:
                continue
            if roll < rates.deletion + rates.substitution:
                word = rng.choices(vocab, weights)[0]
            elif roll < rates.deletion + rates.substitution + rates.spelling:
                word = respell(word, rng)
            tokens.append((word, position))
            if rng.random() < rates.insertion:
                tokens.extend((w, None) for w in rng.choices(vocab, weights, k=rng.randint(1, 3)))
        moved[wid] = _move_blocks(tokens, rng, rates)
        texts[wid] = " ".join(word for word, _ in tokens)
        origins[wid] = [origin for _, origin in tokens]
    return SyntheticSet(texts, origins, moved)


def _move_blocks(tokens: list, rng: random.Random, rates: Rates) -> int:
    count, position = 0, 0
    while position < len(tokens):
        if rng.random() < rates.transposition:
            size = rng.randint(*rates.block)
            block = tokens[position : position + size]
            del tokens[position : position + size]
            target = min(len(tokens), position + rng.randint(*rates.distance))
            tokens[target:target] = block
            count += 1
            position = target + size
        position += 1
    return count


if __name__ == "__main__":
    sample = generate(60, 3, seed=7)
    for wid, text in sample.texts.items():
        print(f"{wid} (moved blocks: {sample.moved[wid]}): {text}\n")
    print(f"{len(sample.true_pairs())} true aligned pairs")
