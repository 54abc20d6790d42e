"""Arabic word keys for recognising hadith structure: one folding for chains, Qur'an quotations, surah names and
the isnad diagram (tei.hadith), so that each compares words the same way.

`fold` is the hadith-ar profile's comparison key (tashkil, Qur'anic marks, tatweel, alif, ya, ta marbuta and
hamza forms, Persian letters, presentation forms, bidi controls folded); `letters_key` folds a word's letters
only (its punctuation, digits and brackets dropped); `without_conjunction` takes a leading و or ف off a key.
"""

from __future__ import annotations

import regex

from tei.text.normalize import PROFILES

CONJUNCTIONS = ("و", "ف")  # the conjunctions written joined to the next word
fold = PROFILES["hadith-ar"].key
_NOT_LETTER = regex.compile(r"[^\p{L}\p{M}]")


def letters_key(word: str) -> str:
    """The folded key of a word's letters alone: «زُهَيْرُ،» and «زهير» have one key."""
    return fold(_NOT_LETTER.sub("", word))


def without_conjunction(key: str, conjunctions: tuple[str, ...] = CONJUNCTIONS) -> str:
    """A folded key without a leading conjunction, when more than two letters remain («والليل» → «الليل»). A word
    whose first letter is و or ف anyway loses it too («وكيع» → «كيع»): harmless where both sides are keyed so."""
    return key[1:] if key[:1] in conjunctions and len(key) > 2 else key
