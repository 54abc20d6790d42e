"""Normalisation profiles: named, layered comparison keys for words, and the honorific formulas they recognise.

A profile never changes the printed text: it only computes the key by which tokens are compared.
Each layer is one small, documented folding; a profile is a list of layers plus, optionally, the
honorific formulas it treats as one class each and a fuzzy threshold for spelling variants.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import regex
from rapidfuzz import fuzz

from tei.diagnostics import error
from tei.errors import InvalidInputError

CLASS_MARK = "⟨"  # the first character of a class key (an honorific formula's key), never of a word's
QUOTE_MARKS = "'‘’`ʼʿʾ‛′\"“”„«»″"
_QUOTES = regex.compile(f"[{regex.escape(QUOTE_MARKS)}]")
_FORMAT = regex.compile(r"[\p{Cf}\u0640]")  # zero-width joiners, bidi marks, Arabic tatweel
_MARKS = regex.compile(r"[\p{M}\u06E5\u06E6]")  # combining marks; Arabic small waw and yeh (Qur'anic)
_DIGITS = regex.compile(r"\p{Nd}")
_ARABIC_LETTERS = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ٲ": "ا",
        "ٳ": "ا",  # alif forms (hamza, madda, wasla)
        "ى": "ي",
        "ی": "ي",
        "ې": "ي",  # alif maqsura and Persian yeh = ya
        "ة": "ه",
        "ۃ": "ه",
        "ۀ": "ه",
        "ھ": "ه",  # ta marbuta and heh forms = ha
        "ؤ": "و",
        "ئ": "ي",  # hamza carriers
        "ک": "ك",
        "ڪ": "ك",  # Persian kaf
    }
)
# Attached particles: a conjunction (و ف), then the article (ال, after ب or ك; لل after ل) leaving two
# letters at least, or a preposition alone (ب ك ل) leaving three (so كان is not ك + ان); لله is ل + الله.
ATTACHED_PARTICLES = regex.compile(
    r"^[وف]?(?:ل(?=له$)|[بك]?ال(?=\p{Arabic}{2})|لل(?=\p{Arabic}{2})|[بلك](?=\p{Arabic}{3}))?(?=\p{Arabic}{2})"
)
_TRANSLITERATION_RULES = (
    (regex.compile(r"ee"), "i"),
    (regex.compile(r"oo|ou"), "u"),
    (regex.compile(r"y"), "i"),
    (regex.compile(r"(?<=[aeiou])h\b"), ""),
    (regex.compile(r"(\p{L})\1+"), r"\1"),
)


def _compatibility(word: str) -> str:
    return _FORMAT.sub("", unicodedata.normalize("NFKC", word))


def _diacritics(word: str) -> str:
    return unicodedata.normalize("NFC", _MARKS.sub("", unicodedata.normalize("NFD", word)))


def _transliteration(word: str) -> str:
    for pattern, replacement in _TRANSLITERATION_RULES:
        word = pattern.sub(replacement, word)
    return word


def _numerals(word: str) -> str:
    return _DIGITS.sub(lambda m: str(unicodedata.digit(m.group())), word)


@dataclass(frozen=True)
class Layer:
    """One folding of the comparison key, applied in the order the profile lists them."""

    name: str
    description: str
    fold: Callable[[str], str]


LAYERS = {
    layer.name: layer
    for layer in (
        Layer(
            "unicode",
            "Unicode compatibility folding (NFKC: Arabic presentation forms = letters), format "
            "characters (bidi controls, joiners) and tatweel removed",
            _compatibility,
        ),
        Layer("case", "case folded", str.casefold),
        Layer("quotes", "quotation marks, apostrophes and ʿayn/hamza marks ignored", lambda w: _QUOTES.sub("", w)),
        Layer(
            "diacritics",
            "combining marks removed (ū = u; Arabic tashkil: harakat, shadda, sukun, tanwin, "
            "dagger alif and Qur'anic marks), so a partly vocalised word equals its fully vocalised form",
            _diacritics,
        ),
        Layer(
            "transliteration",
            "transliteration rules: ee = i, oo/ou = u, y = i, final h after a vowel "
            "dropped, doubled letters single (Qiblah = Qibla, Hayzum = Haizum, Aqeel = Aqil)",
            _transliteration,
        ),
        Layer(
            "arabic-letters",
            "Arabic letter variants: alif forms (hamza, madda, wasla) = alif, alif maqsura "
            "and Persian yeh = ya, ta marbuta = ha, hamza carriers (ؤ ئ) = their letter, Persian kaf = kaf",
            lambda w: w.translate(_ARABIC_LETTERS),
        ),
        Layer("numerals", "every decimal digit (Arabic-Indic, ...) read as its ASCII digit", _numerals),
    )
}

PROPHET = "prophet"  # the Prophet's eulogy: ﷺ, صلى الله عليه وسلم, (peace be upon him)
COMPANION = "companion"  # a Companion's: رضي الله عنه, (may Allah be pleased with him)
PEACE = "peace"  # another prophet's or an angel's: عليه السلام (Jibril, Musa)
GOD = "god"  # God's praise after His name: تعالى, عز وجل, سبحانه, تبارك وتعالى
ARABIC_MARKS = "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640"
_LETTER_VARIANTS = {"ا": "اأإآٱ", "ي": "يىی", "ى": "ىيی", "ه": "هة", "ة": "ةه", "ك": "كک"}


def arabic_formula(words: str) -> str:
    """A pattern for an Arabic formula written in bare letters, matching it in any vocalisation: tashkil,
    tatweel and Qur'anic marks after any letter, alif, ya and ha forms interchangeable, any run of
    spaces and bidi marks between words, and never inside a longer word."""

    def letter(char: str) -> str:
        variants = _LETTER_VARIANTS.get(char)
        return (f"[{variants}]" if variants else regex.escape(char)) + f"[{ARABIC_MARKS}]*"

    spelled = r"[\s\u200e\u200f]+".join("".join(letter(c) for c in word) for word in words.split())
    return rf"(?<![\p{{L}}\p{{M}}]){spelled}(?![\p{{L}}\p{{M}}])"


def _arabic_formulas(*formulas: str, bracketed: bool = True) -> str:
    """One pattern for several formulas, each optionally in parentheses, that matches what the alternation
    of their `arabic_formula`s, longest first, matches. The formulas share one trie of letters (a letter's
    variants are one letter), so a beginning common to several (`رضي الله`, ten formulas) is spelled once:
    the pattern is a third of the alternation's size, and so is the time to compile it (the `regex` module
    parses every character class anew), in every process that tokenizes with a hadith profile. At each
    branch the longer formulas are tried first and a formula that ends there last, so the first formula the
    trie matches is the longest one that matches, as in the alternation: two formulas that both match at
    one place cannot part at a letter, since no two branches of a node share a letter (checked here)."""
    trie: dict = {}
    for formula in formulas:
        node = trie
        for index, word in enumerate(formula.split()):
            if index:
                node = node.setdefault(_SPACE, {})
            for char in word:
                node = node.setdefault("".join(sorted(_LETTER_VARIANTS.get(char, char))), {})
        node[_END] = {}
    spelled = rf"(?<![\p{{L}}\p{{M}}]){_spelled(trie)}"
    return rf"\((?:{spelled})\)|(?:{spelled})" if bracketed else f"(?:{spelled})"


_SPACE, _END = " ", ""  # trie keys besides letters: the space between words, the end of a formula


def _spelled(node: dict) -> str:
    letters = [key for key in node if key not in (_SPACE, _END)]
    if len(set("".join(letters))) != sum(map(len, letters)):
        raise ValueError(f"formulas part at letters that share a variant: {letters}")
    keys = sorted((key for key in node if key != _END), key=lambda key: -_longest(node[key]))
    parts = [_piece(key) + _spelled(node[key]) for key in keys]
    if _END in node:
        parts.append(r"(?![\p{L}\p{M}])")
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def _piece(key: str) -> str:
    if key == _SPACE:
        return r"[\s\u200e\u200f]+"
    return (f"[{key}]" if len(key) > 1 else regex.escape(key)) + f"[{ARABIC_MARKS}]*"


def _longest(node: dict) -> int:
    return max((1 + _longest(child) for key, child in node.items() if key != _END), default=0)


# The Arabic formulas, written in bare letters (arabic_formula says how they are matched), by what they say.
ARABIC_FORMULAS = {
    "prophet": (
        "صلى الله عليه وسلم",
        "صلى الله عليه وآله وسلم",
        "صلى الله عليه وعلى آله وسلم",
        "صلى الله عليه وآله",
        "عليه الصلاة والسلام",
        "صلعم",
    ),
    "companion": (
        *(f"رضي الله {whom}" for whom in ("عنه", "عنها", "عنهما", "عنهم", "عنهن")),
        *(f"رضي الله تعالى {whom}" for whom in ("عنه", "عنها", "عنهما", "عنهم", "عنهن")),
    ),
    "peace": tuple(f"{on} السلام" for on in ("عليه", "عليها", "عليهما", "عليهم")),
    "god": ("عز وجل", "جل وعلا", "جل جلاله", "تبارك وتعالى", "سبحانه وتعالى"),
    "god-after-his-name": ("تعالى", "سبحانه"),  # only after one of the next
    "his-name": ("الله", "بالله", "لله", "والله", "ربه", "بربه", "ربي", "ربك", "ربكم", "ربنا"),
}
_EN_MAY = r"(?:(?:may|way)[\s,]+)?"  # "way" and "he" for "may" and "be": misprints of the English Sahih Muslim
_EN_BE = r"(?:be|he)[\s,]*"
_EN_UPON = r"(?:up\s*on|upom|on)[\s,]+"
_EN_WHOM = r"(?:him|her|them|both\s+of\s+them|all\s+of\s+them)"
HONORIFIC_FORMULAS = (
    (PROPHET, r"\(\s*ﷺ\s*\)|ﷺ"),
    (
        PROPHET,
        rf"\(\s*{_EN_MAY}(?:allah['’]s\s+)?peace[\s,]+(?:and[\s,]+blessings?[\s,]+|blessings[\s,]+)?"
        rf"(?:of\s+allah\s+)?(?:{_EN_BE})?{_EN_UPON}{_EN_WHOM}[\s.]*\)",
    ),
    (PROPHET, r"\((?:may\s+)?allah\s+bless\s+him\s+and\s+grant\s+him\s+peace\)|\(\s*pbuh\s*\)"),
    (PROPHET, _arabic_formulas(*ARABIC_FORMULAS["prophet"])),
    (COMPANION, rf"\(\s*{_EN_MAY}allah\s+{_EN_BE}pleased\s+with\s+{_EN_WHOM}\s*\)"),
    (COMPANION, _arabic_formulas(*ARABIC_FORMULAS["companion"])),
    (PEACE, _arabic_formulas(*ARABIC_FORMULAS["peace"])),
    (GOD, r"ﷻ"),
    (GOD, _arabic_formulas(*ARABIC_FORMULAS["god"], bracketed=False)),
    (
        GOD,
        rf"(?<={_arabic_formulas(*ARABIC_FORMULAS['his-name'], bracketed=False)}[\s\u200e\u200f]+)"
        + _arabic_formulas(*ARABIC_FORMULAS["god-after-his-name"], bracketed=False),
    ),
)


HONORIFIC_INITIALS = "(ﷺﷻصرعجتس"  # every formula above starts with one of these (the tokenizer's quick test)


@dataclass(frozen=True)
class Profile:
    """A named normalisation profile: the layers of the key, honorific classes, a fuzzy spelling threshold."""

    name: str
    description: str
    layers: tuple[str, ...]
    honorifics: tuple[tuple[str, str], ...] = ()  # (class, regular expression) pairs, matched case-insensitively
    honorific_initials: str = ""  # the characters any honorific formula can start with
    fuzzy_threshold: float | None = None  # rapidfuzz ratio (0-100) from which two keys are spelling variants
    fuzzy_min_length: int = 5  # shorter keys are never fuzzy variants ("their"/"there" stay apart)
    particles: bool = False  # Arabic attached particles (و ف ب ل ك ال) are a minor difference
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def key(self, word: str) -> str:
        """The comparison key of a word (a token without its attached punctuation)."""
        cached = self._cache.get(word)
        if cached is None:
            cached = word
            for name in self.layers:
                cached = LAYERS[name].fold(cached)
            self._cache[word] = cached
        return cached

    def honorific_key(self, honorific_class: str) -> str:
        """The key shared by every formula of one honorific class."""
        return f"{CLASS_MARK}{honorific_class}⟩"

    def particle_key(self, key: str) -> str:
        """The key without the attached particles in front of it, when the profile treats them as minor."""
        return ATTACHED_PARTICLES.sub("", key) if self.particles else key

    def spelling_variants(self, key: str, other: str) -> bool:
        """True when two different keys are close enough to be one word spelled two ways."""
        if self.fuzzy_threshold is None or min(len(key), len(other)) < self.fuzzy_min_length:
            return False
        return fuzz.ratio(key, other) >= self.fuzzy_threshold

    def summary(self) -> str:
        """What the profile does, in one paragraph for the TEI header."""
        parts = [LAYERS[name].description for name in self.layers]
        if self.honorifics:
            classes = sorted({name for name, _ in self.honorifics})
            parts.append("honorific formulas compared as one class each (" + ", ".join(classes) + ")")
        if self.particles:
            parts.append("words that differ only by attached particles (و ف ب ل ك ال) are a minor difference")
        if self.fuzzy_threshold is not None:
            parts.append(
                f"words of {self.fuzzy_min_length} letters or more with a similarity of at least "
                f"{self.fuzzy_threshold:g}% count as spelling variants"
            )
        return f"Profile {self.name}: {self.description} Layers: " + "; ".join(parts) + "."


PROFILES = {
    profile.name: profile
    for profile in (
        Profile("exact", "no normalisation; words compare as written.", ()),
        Profile("default", "general-purpose comparison.", ("unicode", "case", "quotes", "numerals")),
        Profile(
            "hadith-en",
            "English renderings of hadith with Arabic names and formulas.",
            ("unicode", "case", "quotes", "diacritics", "transliteration", "arabic-letters", "numerals"),
            HONORIFIC_FORMULAS,
            HONORIFIC_INITIALS,
            fuzzy_threshold=85,
        ),
        Profile(
            "hadith-ar",
            "Arabic hadith texts.",
            ("unicode", "diacritics", "arabic-letters", "numerals"),
            HONORIFIC_FORMULAS,
            HONORIFIC_INITIALS,
            particles=True,
        ),
    )
}


def profile_named(name: str, source: str | None = None) -> Profile:
    """The registered profile of that name, or one clear diagnostic listing the known names."""
    try:
        return PROFILES[name]
    except KeyError:
        raise InvalidInputError(
            error(
                "C001",
                f"unknown normalisation profile '{name}'",
                source,
                hint="use one of: " + ", ".join(sorted(PROFILES)),
            )
        ) from None


@cache
def honorific_pattern(profile: Profile) -> regex.Pattern | None:
    """One pattern matching any honorific formula of the profile; the group name is the class."""
    if not profile.honorifics:
        return None
    classes: dict[str, list[str]] = {}
    for name, pattern in profile.honorifics:
        classes.setdefault(name, []).append(pattern)
    return regex.compile(
        "|".join(f"(?P<{name}>{'|'.join(patterns)})" for name, patterns in classes.items()), regex.IGNORECASE
    )
