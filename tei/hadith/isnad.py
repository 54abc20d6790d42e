"""Isnad and matn: where a narration's chain of narrators ends and its text begins, in Arabic and in English.

Arabic: the chain is a run of transmission terms (حدثنا، أخبرنا، عن، سمعت، أن ...), each followed by a
narrator's name; `ح` switches to another chain. The chain ends with the name after the last such term
that stands before the first mention of the Prophet (a term followed by the Prophet himself, as in
`سمعت رسول الله`, belongs to the text), together with a eulogy and a pronoun verb (أخبره، أنه) right after
that name. English renderings: an opening "It is narrated from X (eulogy) that", "It is narrated on the
authority of X that", "X reported (on the authority of Y) that"; a chain inside the text, "... was narrated
to him by X who said:", is found by `embedded_chains`.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tei.text.normalize import HONORIFIC_FORMULAS, PROFILES

ARABIC = "ar"
ISNAD, MATN = "isnad", "matn"
_KEY = PROFILES["hadith-ar"].key  # letters only: vowel signs, tatweel, alef and hamza forms folded
TRANSMISSION_TERMS = frozenset(
    _KEY(term)
    for term in (
        "حدثنا",
        "حدثني",
        "أخبرنا",
        "أخبرني",
        "أنبأنا",
        "أنبأني",
        "سمعت",
        "سمع",
        "عن",
        "أن",
        "قرأت",
        "ح",
    )
)
PRONOUN_VERBS = frozenset(_KEY(term) for term in ("أخبره", "أخبرها", "حدثه", "حدثها", "أنه", "أنها"))
SAYING = frozenset(_KEY(term) for term in ("قال", "قالت", "قالا", "قالوا", "يقول"))
NAME_LINKS = frozenset(_KEY(term) for term in ("بن", "ابن", "بنت"))  # a name going on after a stray comma
CHAIN_SWITCH = "ح"
_CONJUNCTIONS = ("و", "ف")
_PROPHET = regex.compile(r"^[وفل]?(?:رسول|نبي|النبي)$")
_WORD = regex.compile(r"\S+")
_EULOGY_BETWEEN_DASHES = regex.compile(
    r"\s*-?\s*(?:" + "|".join(f"(?:{pattern})" for _, pattern in HONORIFIC_FORMULAS) + r")\s*-?\s*", regex.IGNORECASE
)
_NAME_WORDS = 8  # a narrator's name without a comma ends here at the latest

_NAME = (
    r"(?:(?:[\p{Lu}`'‘’ʿʾ][\p{L}\p{M}`'‘’ʿʾ.\-]*|b\.|bin|ibn|bint|al-[\p{L}\p{M}'‘’`ʿ]+|and)\s+){0,7}?"
    r"[\p{Lu}`'‘’ʿʾ][\p{L}\p{M}`'‘’ʿʾ.\-]*"
)
_EULOGY_AFTER = r"(?:\s*\([^()]{1,60}\))?"
_ENGLISH_OPENING = regex.compile(
    rf"\A\s*(?:(?:it\s+(?:is|was)|this\s+hadith\s+(?:is|was))\s+(?:narrated|reported|related|transmitted)\s+"
    rf"(?:from|on\s+the\s+authority\s+of|by)\s+{_NAME}|{_NAME}{_EULOGY_AFTER}\s+(?:reported|narrated)"
    rf"(?:\s+on\s+the\s+authority\s+of\s+{_NAME})?){_EULOGY_AFTER}\s+(?:that\s+|who\s+said\s*:\s*|:\s*)",
    regex.IGNORECASE,
)
_ENGLISH_EMBEDDED = regex.compile(
    rf"(?<=^|[.!?]\s+)[^.!?]*?\bnarrated\s+to\s+(?:him|her|me|us|them)\s+by\s+{_NAME}{_EULOGY_AFTER}"
    rf"\s+(?:who\s+said\s*:\s*|that\s+|saying\s*:\s*)",
    regex.IGNORECASE | regex.MULTILINE,
)


@dataclass(frozen=True)
class Structure:
    """A narration cut into its chain (characters 0..isnad_end) and its text (isnad_end..): offsets only.

    `chains` are the (start, end) spans of the chains the isnad holds, split at each `ح`.
    """

    isnad_end: int
    chains: tuple[tuple[int, int], ...] = ()


def recognise(text: str, language: str) -> Structure:
    """The isnad and matn of a narration in the given language (`ar`, or an English rendering)."""
    if language == ARABIC:
        return _arabic(text)
    return _english(text)


def _english(text: str) -> Structure:
    opening = _ENGLISH_OPENING.match(text)
    end = opening.end() if opening else 0
    return Structure(end, ((0, end),) if end else ())


def embedded_chains(text: str) -> list[tuple[int, int]]:
    """Chains reported inside an English text: "... was narrated to him by X who said:" (start, end)."""
    return [(m.start(), m.end()) for m in _ENGLISH_EMBEDDED.finditer(text)]


def _bare(word: str) -> str:
    """The key of an Arabic word, without a leading conjunction و or ف when what remains is a term."""
    key = _KEY(regex.sub(r"[^\p{L}\p{M}]", "", word))
    if key[:1] in _CONJUNCTIONS and key[1:] in TRANSMISSION_TERMS | PRONOUN_VERBS:
        return key[1:]
    return key


def _arabic(text: str) -> Structure:
    words = list(_WORD.finditer(text))
    keys = [_bare(w.group()) for w in words]
    prophet = next((n for n, key in enumerate(keys) if _PROPHET.match(key)), len(keys))
    last_name_end = None
    for n in range(min(prophet, len(keys))):
        if keys[n] not in TRANSMISSION_TERMS or keys[n] == CHAIN_SWITCH or n + 1 >= prophet:
            continue
        if keys[n + 1] in TRANSMISSION_TERMS:
            continue
        name_end = _name_end(words, keys, n + 1)
        if name_end < prophet:  # a name running into the Prophet's mention is the text's ("أن تلبية رسول الله")
            last_name_end = name_end
    if last_name_end is None:
        return Structure(0)
    end = _text_start(text, words, keys, last_name_end)
    switches = [w.start() for w, key in zip(words, keys) if key == CHAIN_SWITCH and w.start() < end]
    starts = [0, *switches]
    return Structure(end, tuple(zip(starts, [*switches, end])))


def _name_end(words: list[regex.Match], keys: list[str], first: int) -> int:
    """The index of the first word after the narrator's name that starts at word `first`."""
    n = first
    while n < len(words) and n - first < _NAME_WORDS:
        if n > first and (keys[n] in PRONOUN_VERBS or keys[n] in SAYING or words[n].group() == "-"):
            return n
        n += 1
        ends_clause = words[n - 1].group().endswith(("،", ","))
        if ends_clause and not (n < len(keys) and keys[n] in NAME_LINKS):
            return n
    return n


def _text_start(text: str, words: list[regex.Match], keys: list[str], n: int) -> int:
    """Where the text begins, after a name ending before word n: a eulogy and pronoun verbs still belong
    to the chain (`- رضى الله عنهما -`, `أخبره أنه`)."""
    position = words[n].start() if n < len(words) else len(text)
    eulogy = _EULOGY_BETWEEN_DASHES.match(text, position)
    if eulogy:
        position = eulogy.end()
        while n < len(words) and words[n].start() < position:
            n += 1
    while n < len(words) and keys[n] in PRONOUN_VERBS:
        n += 1
        position = words[n].start() if n < len(words) else len(text)
    return position


def isnad_and_matn(witnesses) -> list[tuple[str, dict[str, str]]] | None:
    """The witnesses' texts cut where each one's chain ends, as [(isnad, texts), (matn, texts)] by witness
    id, when at least two witnesses open with a chain (with one, there is no chain to compare); else None."""
    ends = {w.id: recognise(w.text, w.language).isnad_end for w in witnesses}
    if sum(1 for end in ends.values() if end) < 2:
        return None
    return [
        (ISNAD, {w.id: w.text[: ends[w.id]] for w in witnesses}),
        (MATN, {w.id: w.text[ends[w.id] :] for w in witnesses}),
    ]
