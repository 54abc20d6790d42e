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


# The harakat that carry grammar: the short vowels, tanwin, sukun and shadda (U+064B-U+0652)
HARAKAT = frozenset(chr(code) for code in range(0x064B, 0x0653))
_SUKUN = frozenset("\u0652")
_HELPING = frozenset("\u064e\u0650")  # fatha, kasra: a final sukun's place before hamzat al-wasl
_LETTER_AND_MARKS = regex.compile(r"(\p{L})(\p{M}*)")


def vocalisation_differs(first: str, second: str) -> bool:
    """Two spellings of one word (the same letters under the fold) whose harakat differ where both are written:
    a case ending (العصابةُ / العصابةَ), voice (تَهْلِكْ / تُهْلِكْ), mood. That is grammar, not spelling; a haraka
    one side leaves out (a partly vocalised copy: one letter's marks a part of the other's) is not a difference,
    nor are letter forms (hamza seats, alif), nor a final sukun against the fatha or kasra that joins a word to the
    next («عَنْ» / «عَنِ»)."""
    one, two = _LETTER_AND_MARKS.findall(first), _LETTER_AND_MARKS.findall(second)
    if len(one) != len(two) or any(fold(a) != fold(b) for (a, _), (b, _) in zip(one, two)):
        return False
    for n, ((_, marks_one), (_, marks_two)) in enumerate(zip(one, two)):
        vowels_one = frozenset(marks_one) & HARAKAT
        vowels_two = frozenset(marks_two) & HARAKAT
        if not vowels_one or not vowels_two or vowels_one <= vowels_two or vowels_two <= vowels_one:
            continue  # a mark left out («دَّ» / «دّ»)
        joining = vowels_two if vowels_one == _SUKUN else vowels_one if vowels_two == _SUKUN else None
        if n == len(one) - 1 and joining is not None and len(joining) == 1 and joining <= _HELPING:
            continue  # «عَنْ» / «عَنِ», «مِنْ» / «مِنَ»: the vowel that joins a word to the next, not grammar
        return True  # marks that contradict each other
    return False
