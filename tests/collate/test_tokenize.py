"""The tokenizer against its definition: one regular expression per profile, the alternation of a whole
formula (the profile's honorific pattern, then punctuation) | punctuation, a word, punctuation |
punctuation alone, where punctuation stops at a formula's initial unless it is `(` and no formula starts
there. tei.collate.tokenize takes the same tokens without compiling that pattern (it holds the honorific
pattern four times: 74 kB, 0.6 s to compile in every process); these tests compile it once and compare,
over the seeds, the formulas' corpora in ../shared and random pieces of the formulas."""

from __future__ import annotations

import json

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import SEEDS

from tei.collate.tokenize import WORD, tokenize
from tei.model import Token
from tei.text.normalize import PROFILES, Profile, honorific_pattern

_DEFINITIONS: dict[str, regex.Pattern] = {}


def definition(profile: Profile) -> regex.Pattern:
    """The token pattern of a profile, written as one regular expression."""
    if profile.name in _DEFINITIONS:
        return _DEFINITIONS[profile.name]
    honorific = honorific_pattern(profile)
    initials = regex.escape(profile.honorific_initials)
    marks = regex.escape("".join(c for c in profile.honorific_initials if not c.isalnum()))
    formula = (
        f"(?=[{initials}])(?P<formula>{honorific.pattern})(?P<formula_trail>[^\\w\\p{{M}}\\s]*)|" if honorific else ""
    )
    punctuation = (
        f"(?:(?![{initials}])[^\\w\\p{{M}}\\s]|(?!{honorific.pattern})[{marks}])" if honorific else "[^\\w\\p{M}\\s]"
    )
    _DEFINITIONS[profile.name] = regex.compile(
        f"(?:{formula}(?P<lead>{punctuation}*)(?P<word>{WORD})(?P<trail>{punctuation}*)|(?P<alone>{punctuation}+))"
        r"(?P<space>\s*)",
        regex.IGNORECASE,
    )
    return _DEFINITIONS[profile.name]


def defined_tokens(text: str, profile: Profile) -> list[Token]:
    """The tokens as the definition's finditer gives them."""
    leading = regex.match(r"\s+", text)
    tokens = [Token("", leading.group(), "", "")] if leading else []
    for match in definition(profile).finditer(text, leading.end() if leading else 0):
        lead, word, trail, space = match.group("lead", "word", "trail", "space")
        if word is not None:
            tokens.append(Token(lead + word + trail, space, profile.key(word), word))
        elif match.group("alone") is not None:
            tokens.append(Token(match.group("alone"), space, profile.key(match.group("alone")), ""))
        else:
            name = next(
                name
                for name, value in match.groupdict().items()
                if value is not None and name not in ("formula", "formula_trail", "space")
            )
            formula = match.group("formula")
            surface = formula + match.group("formula_trail")
            tokens.append(Token(surface, space, profile.honorific_key(name), formula))
    return tokens


FORMULAS = (
    "(ﷺ)",
    "( ﷺ )",
    "ﷺ",
    "ﷻ",
    "(peace be upon him)",
    "(may Allah's peace and blessings be upon him)",
    "(peace and blessings of Allah be upon him)",
    "(Way Allah’s peace, he upon them.)",
    "(Allah bless him and grant him peace)",
    "(pbuh)",
    "(may Allah be pleased with both of them)",
    "(May Allah be pleased with him)",
    "صلى الله عليه وسلم",
    "(صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ)",
    "صلى الله عليه وعلى آله وسلم",
    "صلعم",
    "رضي الله عنه",
    "(رَضِيَ اللهُ تَعَالَى عَنْهُمَا)",
    "عليه السلام",
    "عز وجل",
    "سبحانه وتعالى",
    "الله تعالى",
    "ربنا\u200f سبحانه",
    "تعالى",
)
PIECES = " \n\t.,;:()[]'’-\u200e\u200fabAلهـًّ"
fragments = st.sampled_from(FORMULAS).flatmap(
    lambda f: st.tuples(st.integers(0, len(f)), st.integers(0, len(f))).map(lambda ij: f[min(ij) : max(ij)])
)
texts = st.lists(
    st.one_of(st.sampled_from(FORMULAS), fragments, st.text(alphabet=PIECES, max_size=3)), max_size=12
).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(sorted(PROFILES)))
def test_random_pieces_of_formulas_are_tokenized_as_the_definition_says(text, name):
    profile = PROFILES[name]
    assert tokenize(text, profile) == defined_tokens(text, profile)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_seeds_are_tokenized_as_the_definition_says(name):
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert tokenize(text, PROFILES[name]) == defined_tokens(text, PROFILES[name]), path.name


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.mark.parametrize("name", ["hadith-en", "hadith-ar"])
def test_the_shared_hadith_corpus_is_tokenized_as_the_definition_says(shared_dir, name):
    """Sahih Muslim in Arabic and English (books 8, 9, 14: every formula class, about 60,000 tokens)."""
    profile = PROFILES[name]
    folder = shared_dir / "corpora" / "arabic-hadith" / "sahih-muslim"
    for book in ("8", "9", "14"):
        for text in strings(json.loads((folder / f"{book}.json").read_text(encoding="utf-8"))):
            assert tokenize(text, profile) == defined_tokens(text, profile), (book, text[:80])
