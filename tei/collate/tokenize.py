"""Cutting a witness text into tokens that keep every character: surface, following whitespace, comparison key.

A token is a word with the punctuation attached before and after it (`“(Remember)`, `Qibla.`), a run of
punctuation standing alone, or a whole honorific formula (`(peace and blessings be upon him)`) when the
profile recognises it. Whitespace before the first token becomes a token with an empty surface. Joined
again, `surface + whitespace` of all tokens is the text, byte for byte.
"""

from __future__ import annotations

import regex

from tei.collate.normalize import Profile, honorific_pattern
from tei.model import Token

WORD = r"[\w\p{M}]+(?:['’ʼ`\-‐][\w\p{M}]+)*"
_LEADING_SPACE = regex.compile(r"\s+")


def _token_pattern(profile: Profile) -> regex.Pattern:
    honorific = honorific_pattern(profile)
    not_formula = f"(?!{honorific.pattern})" if honorific else ""
    formula = f"(?P<formula>{honorific.pattern})(?P<formula_trail>[^\\w\\p{{M}}\\s]*)|" if honorific else ""
    punctuation = f"(?:{not_formula}[^\\w\\p{{M}}\\s])"
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
    tokens: list[Token] = []
    position = 0
    leading = _LEADING_SPACE.match(text)
    if leading:
        tokens.append(Token("", leading.group(), "", ""))
        position = leading.end()
    pattern = token_pattern(profile)
    while position < len(text):
        match = pattern.match(text, position)
        tokens.append(_token(match, profile))
        position = match.end()
    return tokens


def _token(match: regex.Match, profile: Profile) -> Token:
    space = match.group("space")
    if match.groupdict().get("formula") is not None:
        surface = match.group("formula") + match.group("formula_trail")
        honorific_class = next(name for name, value in match.groupdict().items()
                               if value is not None and name not in ("formula", "formula_trail", "space"))
        return Token(surface, space, profile.honorific_key(honorific_class), match.group("formula"))
    if match.group("word") is not None:
        word = match.group("word")
        return Token(match.group("lead") + word + match.group("trail"), space, profile.key(word), word)
    alone = match.group("alone")
    return Token(alone, space, profile.key(alone), "")
