"""Qur'an citations: finding them in a text, their canonical reference (surah:verse), and range checks.

A citation is a bracketed or introduced reference such as `[al Anfal 8:9)`, `[Sūrat al-Anfāl: 9]`,
`[al Anfal 8:67-68]`, `[Al 'Imran 3:165]`, `(Qur'an 2:255, 257)`, `Surah al-Baqarah 2:255`,
`[Sura VIII, 9]` or `[2:255; 3:18]`. Its canonical reference lists its verse ranges as `S:V` or
`S:V-W`, joined with `;` (`8:67-68`, `2:255;2:257`); it is what `<ref cRef>` holds. A surah is found
by its number or, failing one, by its name: transliterated under a loose key (al-Anfāl = Anfal), or in
Arabic (`[الأنفال: 9]`, vowel signs and bidi marks ignored).
Parsing never rejects a surah or verse out of range: `problems` reports it, so that a validator can.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex as re

from tei.text.arabic import fold
from tei.text.normalize import LAYERS

# Verses per surah, in the Kufan count of the standard (Hafs) text: 6,236 in all.
VERSE_COUNTS = (
    7,
    286,
    200,
    176,
    120,
    165,
    206,
    75,
    129,
    109,
    123,
    111,
    43,
    52,
    99,
    128,
    111,
    110,
    98,
    135,
    112,
    78,
    118,
    64,
    77,
    227,
    93,
    88,
    69,
    60,
    34,
    30,
    73,
    54,
    45,
    83,
    182,
    88,
    75,
    85,
    54,
    53,
    89,
    59,
    37,
    35,
    38,
    29,
    18,
    45,
    60,
    49,
    62,
    55,
    78,
    96,
    29,
    22,
    24,
    13,
    14,
    11,
    11,
    18,
    12,
    12,
    30,
    52,
    52,
    44,
    28,
    28,
    20,
    56,
    40,
    31,
    50,
    40,
    46,
    42,
    29,
    19,
    36,
    25,
    22,
    17,
    19,
    26,
    30,
    20,
    15,
    21,
    11,
    8,
    8,
    19,
    5,
    8,
    8,
    11,
    11,
    8,
    3,
    9,
    5,
    4,
    7,
    3,
    6,
    3,
    5,
    4,
    5,
    6,
)
SURAHS = len(VERSE_COUNTS)

# Transliterated names, one entry per surah; '|' separates other names in common use.
SURAH_NAMES = (
    "al-Fatiha",
    "al-Baqara",
    "Al Imran",
    "an-Nisa",
    "al-Ma'ida",
    "al-An'am",
    "al-A'raf",
    "al-Anfal",
    "at-Tawba|Bara'a",
    "Yunus",
    "Hud",
    "Yusuf",
    "ar-Ra'd",
    "Ibrahim",
    "al-Hijr",
    "an-Nahl",
    "al-Isra|Bani Isra'il",
    "al-Kahf",
    "Maryam",
    "Ta Ha",
    "al-Anbiya",
    "al-Hajj",
    "al-Mu'minun",
    "an-Nur",
    "al-Furqan",
    "ash-Shu'ara",
    "an-Naml",
    "al-Qasas",
    "al-Ankabut",
    "ar-Rum",
    "Luqman",
    "as-Sajda",
    "al-Ahzab",
    "Saba",
    "Fatir|al-Mala'ika",
    "Ya Sin",
    "as-Saffat",
    "Sad",
    "az-Zumar",
    "Ghafir|al-Mu'min",
    "Fussilat|Ha Mim as-Sajda",
    "ash-Shura",
    "az-Zukhruf",
    "ad-Dukhan",
    "al-Jathiya",
    "al-Ahqaf",
    "Muhammad|al-Qital",
    "al-Fath",
    "al-Hujurat",
    "Qaf",
    "adh-Dhariyat",
    "at-Tur",
    "an-Najm",
    "al-Qamar",
    "ar-Rahman",
    "al-Waqi'a",
    "al-Hadid",
    "al-Mujadila",
    "al-Hashr",
    "al-Mumtahana",
    "as-Saff",
    "al-Jumu'a",
    "al-Munafiqun",
    "at-Taghabun",
    "at-Talaq",
    "at-Tahrim",
    "al-Mulk",
    "al-Qalam|Nun",
    "al-Haqqa",
    "al-Ma'arij",
    "Nuh",
    "al-Jinn",
    "al-Muzzammil",
    "al-Muddaththir",
    "al-Qiyama",
    "al-Insan|ad-Dahr",
    "al-Mursalat",
    "an-Naba",
    "an-Nazi'at",
    "Abasa",
    "at-Takwir",
    "al-Infitar",
    "al-Mutaffifin",
    "al-Inshiqaq",
    "al-Buruj",
    "at-Tariq",
    "al-A'la",
    "al-Ghashiya",
    "al-Fajr",
    "al-Balad",
    "ash-Shams",
    "al-Layl",
    "ad-Duha",
    "ash-Sharh|al-Inshirah",
    "at-Tin",
    "al-Alaq",
    "al-Qadr",
    "al-Bayyina",
    "az-Zalzala",
    "al-Adiyat",
    "al-Qari'a",
    "at-Takathur",
    "al-Asr",
    "al-Humaza",
    "al-Fil",
    "Quraysh",
    "al-Ma'un",
    "al-Kawthar",
    "al-Kafirun",
    "an-Nasr",
    "al-Masad|al-Lahab",
    "al-Ikhlas",
    "al-Falaq",
    "an-Nas",
)

# The same surahs by their Arabic names, in order.
ARABIC_SURAH_NAMES = [
    "الفاتحة",
    "البقرة",
    "آل_عمران",
    "النساء",
    "المائدة",
    "الأنعام",
    "الأعراف",
    "الأنفال",
    "التوبة",
    "يونس",
    "هود",
    "يوسف",
    "الرعد",
    "إبراهيم",
    "الحجر",
    "النحل",
    "الإسراء",
    "الكهف",
    "مريم",
    "طه",
    "الأنبياء",
    "الحج",
    "المؤمنون",
    "النور",
    "الفرقان",
    "الشعراء",
    "النمل",
    "القصص",
    "العنكبوت",
    "الروم",
    "لقمان",
    "السجدة",
    "الأحزاب",
    "سبأ",
    "فاطر",
    "يس",
    "الصافات",
    "ص",
    "الزمر",
    "غافر",
    "فصلت",
    "الشورى",
    "الزخرف",
    "الدخان",
    "الجاثية",
    "الأحقاف",
    "محمد",
    "الفتح",
    "الحجرات",
    "ق",
    "الذاريات",
    "الطور",
    "النجم",
    "القمر",
    "الرحمن",
    "الواقعة",
    "الحديد",
    "المجادلة",
    "الحشر",
    "الممتحنة",
    "الصف",
    "الجمعة",
    "المنافقون",
    "التغابن",
    "الطلاق",
    "التحريم",
    "الملك",
    "القلم",
    "الحاقة",
    "المعارج",
    "نوح",
    "الجن",
    "المزمل",
    "المدثر",
    "القيامة",
    "الإنسان",
    "المرسلات",
    "النبأ",
    "النازعات",
    "عبس",
    "التكوير",
    "الانفطار",
    "المطففين",
    "الانشقاق",
    "البروج",
    "الطارق",
    "الأعلى",
    "الغاشية",
    "الفجر",
    "البلد",
    "الشمس",
    "الليل",
    "الضحى",
    "الشرح",
    "التين",
    "العلق",
    "القدر",
    "البينة",
    "الزلزلة",
    "العاديات",
    "القارعة",
    "التكاثر",
    "العصر",
    "الهمزة",
    "الفيل",
    "قريش",
    "الماعون",
    "الكوثر",
    "الكافرون",
    "النصر",
    "المسد",
    "الإخلاص",
    "الفلق",
    "الناس",
]  # '_' stands for a space inside a name
_ARABIC_PREFIX = re.compile(r"^(?:سوره)?(?:ال)?")
_ARTICLE = re.compile(r"^(?:s[uū]ra[ht]?\s+)?(?:a[lnrstdz]|ash|adh)[\s\-]+", re.IGNORECASE)
_NOT_LETTER = re.compile(r"[^a-z]")
_ARABIC_LETTER = re.compile(r"\p{Arabic}")
_NOT_ARABIC = re.compile(r"[^\p{Arabic}\p{M}]")
_VERSES = r"\d{1,3}(?:\s*[-–—]\s*\d{1,3})?(?:\s*(?:,|&|\band\b)\s*\d{1,3}(?:\s*[-–—]\s*\d{1,3})?)*"
_PREFIX = r"(?:(?:the\s+)?(?:holy\s+)?(?:qur['’]?[aā]n|quran|koran|q\.?)\s*[,:.]?\s*)?(?:s[uū]ra[ht]?\s*[,:.]?\s*)?"
_PART = re.compile(
    rf"{_PREFIX}(?P<name>(?:[\p{{L}}\p{{M}}\p{{Cf}}]|['‘’ʿʾ`\-\s])*?)\s*[,،]?\s*"
    rf"(?:(?:(?P<number>\d{{1,3}})|\b(?P<roman>[ivxlc]+)\b)\s*[:.,]\s*|[:,]\s*)"
    rf"(?:(?:verses?|ayat|āyāt|ayah|āyah|v{{1,2}}\.)\s*)?(?P<verses>{_VERSES})",
    re.IGNORECASE,
)
_BRACKETED = re.compile(r"[\[({]\s*(?P<inner>[^\[\](){}\n]{1,80}?)\s*[\])}]")
_INTRODUCED = re.compile(
    rf"\b(?:qur['’]?[aā]n|quran|koran|s[uū]ra[ht]?)\b[^\[\](){{}}\n\d]{{0,40}}?"
    rf"(?:\d{{1,3}}|\b[ivxlc]+\b)\s*[:.,]\s*{_VERSES}",
    re.IGNORECASE,
)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


@dataclass(frozen=True, order=True)
class VerseRange:
    """Verses `first` to `last` (inclusive) of one surah."""

    surah: int
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.surah}:{self.first}" + (f"-{self.last}" if self.last != self.first else "")


@dataclass(frozen=True)
class Citation:
    """A Qur'an citation found in a text: where it stands (characters start..end) and what it cites."""

    start: int
    end: int
    ranges: tuple[VerseRange, ...]

    @property
    def reference(self) -> str:
        """The canonical reference, as `<ref cRef>` holds it."""
        return canonical(self.ranges)


def canonical(ranges: tuple[VerseRange, ...]) -> str:
    return ";".join(str(r) for r in ranges)


def parse_canonical(reference: str) -> tuple[VerseRange, ...] | None:
    """The ranges of a canonical reference (`8:67-68`, `2:255;2:257`); None if it is not one."""
    ranges = []
    for part in reference.split(";"):
        match = re.fullmatch(r"\s*(\d+):(\d+)(?:-(\d+))?\s*", part)
        if not match:
            return None
        first = int(match[2])
        ranges.append(VerseRange(int(match[1]), first, int(match[3] or first)))
    return tuple(ranges)


def name_key(name: str) -> str:
    """A loose key for a surah name: article, marks, quotes, spelling variants folded; Arabic names
    keep their letters (under the hadith-ar key), without سورة and the article."""
    if _ARABIC_LETTER.search(name):
        return _ARABIC_PREFIX.sub("", fold(_NOT_ARABIC.sub("", name)))
    key = LAYERS["diacritics"].fold(LAYERS["case"].fold(name.strip()))
    key = _ARTICLE.sub("", key)
    for layer in ("quotes", "transliteration"):
        key = LAYERS[layer].fold(key)
    return _NOT_LETTER.sub("", key)


SURAH_BY_NAME = {
    **{name_key(name): number for number, names in enumerate(SURAH_NAMES, 1) for name in names.split("|")},
    **{name_key(name.replace("_", " ")): number for number, name in enumerate(ARABIC_SURAH_NAMES, 1)},
}


def surah_named(name: str) -> int | None:
    return SURAH_BY_NAME.get(name_key(name)) if name.strip() else None


def roman_value(numeral: str) -> int:
    values = [_ROMAN[c] for c in numeral.lower()]
    return sum(-v if n + 1 < len(values) and v < values[n + 1] else v for n, v in enumerate(values))


def parse_reference(text: str) -> tuple[VerseRange, ...] | None:
    """The verse ranges a reference names (`al Anfal 8:9`, `Sūrat al-Anfāl: 9`, `2:255; 3:18`), or None."""
    ranges: list[VerseRange] = []
    for part in text.split(";"):
        match = _PART.fullmatch(part.strip())
        if not match:
            return None
        if match["number"]:
            surah = int(match["number"])
        elif match["roman"]:
            surah = roman_value(match["roman"])
        else:
            surah = surah_named(match["name"])
        if surah is None:
            return None
        ranges.extend(_verse_ranges(surah, match["verses"]))
    return tuple(ranges)


def _verse_ranges(surah: int, verses: str) -> list[VerseRange]:
    found = []
    for item in re.split(r"\s*(?:,|&|\band\b)\s*", verses.strip()):
        bounds = [int(n) for n in re.split(r"\s*[-–—]\s*", item)]
        found.append(VerseRange(surah, bounds[0], bounds[-1]))
    return found


def find_citations(text: str) -> list[Citation]:
    """Every Qur'an citation in a text, in order: bracketed references, then introduced ones elsewhere."""
    found = []
    for match in _BRACKETED.finditer(text):
        ranges = parse_reference(match["inner"])
        if ranges:
            found.append(Citation(match.start(), match.end(), ranges))
    for match in _INTRODUCED.finditer(text):
        if any(c.start <= match.start() < c.end for c in found):
            continue
        ranges = parse_reference(match.group())
        if ranges:
            found.append(Citation(match.start(), match.end(), ranges))
    return sorted(found, key=lambda c: c.start)


def problems(ranges: tuple[VerseRange, ...]) -> list[str]:
    """What is out of range in these verse ranges: a surah above 114, a verse beyond its surah's count."""
    found = []
    for verse_range in ranges:
        if not 1 <= verse_range.surah <= SURAHS:
            found.append(f"surah {verse_range.surah} does not exist (the Qur'an has {SURAHS})")
        elif not 1 <= verse_range.first <= verse_range.last <= VERSE_COUNTS[verse_range.surah - 1]:
            count = VERSE_COUNTS[verse_range.surah - 1]
            found.append(f"{verse_range} is out of range: surah {verse_range.surah} has {count} verses")
    return found
