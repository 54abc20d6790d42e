"""Cutting a witness text into tokens that keep every character: surface, following whitespace, comparison key.

A token is a word with the punctuation attached before and after it (`“(Remember)`, `Qibla.`), a run of
punctuation standing alone, or a whole honorific formula (`(peace and blessings be upon him)`) when the
profile recognises it. Whitespace before the first token becomes a token with an empty surface. Joined
again, `surface + whitespace` of all tokens is the text, byte for byte.

Speed: the token pattern of a profile with formulas holds every formula pattern (tens of kilobytes, some
hundred groups), and the regex engine pays for that size at every match, formulas or not (about 12 µs a
token). So each token is first matched by the plain pattern (the same pattern without formulas), which
gives exactly the same match wherever no formula can play a part: where the token does not start with
one of the profile's honorific initials, and its span holds none of the initials that are punctuation
(`(`, which the full pattern takes as punctuation only where no formula starts). Elsewhere the full
pattern decides. The plain matches come from one finditer, as long as each starts where the last ended;
the places of `(` are found once. Tokenizing 500 witnesses x 1,000 words went from about 10 s to about
3 s of CPU; 3 million tokens of every profile over the seeds and ../shared/corpora come out the same.
"""

from __future__ import annotations

import regex

from tei.model import Token
from tei.text.normalize import Profile, honorific_pattern

WORD = r"[\w\p{M}]+(?:['’ʼ`\-‐][\w\p{M}]+)*"
_LEADING_SPACE = regex.compile(r"\s+")
_PUNCTUATION = r"[^\w\p{M}\s]"
_PLAIN = regex.compile(
    f"(?:(?P<lead>{_PUNCTUATION}*)(?P<word>{WORD})(?P<trail>{_PUNCTUATION}*)|(?P<alone>{_PUNCTUATION}+))"
    r"(?P<space>\s*)",
    regex.IGNORECASE,
)  # the token pattern of a profile without formulas


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
    key = profile.key
    for match in _token_matches(text, position, profile):
        lead, word, trail, space = match.group("lead", "word", "trail", "space")
        if word is not None:
            tokens.append(Token(lead + word + trail if lead or trail else word, space, key(word), word))
        elif match.group("alone") is not None:
            alone = match.group("alone")
            tokens.append(Token(alone, space, key(alone), ""))
        else:
            tokens.append(_formula(match, profile))
    return tokens


def _token_matches(text: str, position: int, profile: Profile):
    """The matches of the profile's token pattern from `position` on, as its finditer gives them; the plain
    pattern's matches stand in for them where no formula can play a part (see the module's docstring):
    they are taken as the plain pattern's finditer gives them while each starts where the last ended,
    not at a formula's initial, and holds no careful mark (their places found once, beforehand)."""
    pattern = token_pattern(profile)
    if honorific_pattern(profile) is None:
        yield from pattern.finditer(text, position)
        return
    initials = profile.honorific_initials
    careful = _careful(profile)
    marks = [mark.start() for mark in careful.finditer(text, position)] if careful is not None else []
    marks.append(len(text))  # past every token
    next_mark = 0  # the first mark not before the current token
    while position < len(text):
        for match in _PLAIN.finditer(text, position):
            start, end = match.span()
            while marks[next_mark] < start:
                next_mark += 1
            if start != position or text[start] in initials or marks[next_mark] < end:
                break  # the full pattern decides this token
            yield match
            position = end
        if position >= len(text):
            return
        match = pattern.search(text, position)
        if match is None:
            return
        yield match
        position = match.end()


_CAREFUL: dict[str, regex.Pattern | None] = {}


def _careful(profile: Profile) -> regex.Pattern | None:
    """The profile's honorific initials that the plain pattern takes as punctuation (`(`), as a class."""
    if profile.name not in _CAREFUL:
        marks = "".join(c for c in profile.honorific_initials if regex.fullmatch(_PUNCTUATION, c))
        _CAREFUL[profile.name] = regex.compile(f"[{regex.escape(marks)}]") if marks else None
    return _CAREFUL[profile.name]


def _formula(match: regex.Match, profile: Profile) -> Token:
    honorific_class = next(
        name
        for name, value in match.groupdict().items()
        if value is not None and name not in ("formula", "formula_trail", "space")
    )
    surface = match.group("formula") + match.group("formula_trail")
    return Token(surface, match.group("space"), profile.honorific_key(honorific_class), match.group("formula"))
