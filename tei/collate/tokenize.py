"""Cutting a witness text into tokens that keep every character: surface, following whitespace, comparison key.

A token is a word with the punctuation attached before and after it (`“(Remember)`, `Qibla.`), a run of
punctuation standing alone, or a whole honorific formula (`(peace and blessings be upon him)`) when the
profile recognises it. Whitespace before the first token becomes a token with an empty surface. Joined
again, `surface + whitespace` of all tokens is the text, byte for byte.
"""

from __future__ import annotations

import regex

from tei.model import Token
from tei.text.normalize import Profile, honorific_pattern

WORD = r"[\w\p{M}]+(?:['’ʼ`\-‐][\w\p{M}]+)*"
_LEADING_SPACE = regex.compile(r"\s+")


def _token_pattern(profile: Profile) -> regex.Pattern:
    honorific = honorific_pattern(profile)
    initials = regex.escape(profile.honorific_initials)
    marks = regex.escape("".join(c for c in profile.honorific_initials if not c.isalnum()))
    formula = (
        f"(?=[{initials}])(?P<formula>{honorific.pattern})(?P<formula_trail>[^\\w\\p{{M}}\\s]*)|" if honorific else ""
    )
    punctuation = (
        f"(?:(?![{initials}])[^\\w\\p{{M}}\\s]|(?!{honorific.pattern})[{marks}])" if honorific else "[^\\w\\p{M}\\s]"
    )
    return regex.compile(
        f"(?:{formula}(?P<lead>{punctuation}*)(?P<word>{WORD})(?P<trail>{punctuation}*)|(?P<alone>{punctuation}+))"
        r"(?P<space>\s*)",
        regex.IGNORECASE,
    )


_PATTERNS: dict[str, regex.Pattern] = {}


def token_pattern(profile: Profile) -> regex.Pattern:
    if profile.name not in _PATTERNS:
        _PATTERNS[profile.name] = _token_pattern(profile)
    return _PATTERNS[profile.name]


def tokenize(text: str, profile: Profile) -> list[Token]:
    """The tokens of a text under a profile; their surfaces and whitespace rebuild the text exactly."""
    tokens: list[Token] = []  # the pattern matches at every non-space character, so matches are contiguous
    position = 0
    leading = _LEADING_SPACE.match(text)
    if leading:
        tokens.append(Token("", leading.group(), "", ""))
        position = leading.end()
    pattern = token_pattern(profile)
    with_formulas = honorific_pattern(profile) is not None
    key = profile.key
    for match in pattern.finditer(text, position):
        lead, word, trail, space = match.group("lead", "word", "trail", "space")
        if word is not None:
            tokens.append(Token(lead + word + trail if lead or trail else word, space, key(word), word))
        elif with_formulas and match.group("formula") is not None:
            tokens.append(_formula(match, profile))
        else:
            alone = match.group("alone")
            tokens.append(Token(alone, space, key(alone), ""))
    return tokens


def _formula(match: regex.Match, profile: Profile) -> Token:
    honorific_class = next(
        name
        for name, value in match.groupdict().items()
        if value is not None and name not in ("formula", "formula_trail", "space")
    )
    surface = match.group("formula") + match.group("formula_trail")
    return Token(surface, match.group("space"), profile.honorific_key(honorific_class), match.group("formula"))
