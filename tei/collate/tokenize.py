"""Cutting a witness text into tokens that keep every character: surface, following whitespace, comparison key.

A token is a word with the punctuation attached before and after it (`“(Remember)`, `Qibla.`), a run of
punctuation standing alone, or a whole honorific formula (`(peace and blessings be upon him)`) when the
profile recognises it. Whitespace before the first token becomes a token with an empty surface. Joined
again, `surface + whitespace` of all tokens is the text, byte for byte.

The rule, written as one regular expression, is the alternation `(?=initial)FORMULA PUNCT* | P* WORD P* |
P+`, then whitespace, where FORMULA is the profile's honorific pattern and P is punctuation that stops
at an honorific initial unless the initial is a mark (`(`) at which no formula starts (tests/collate/
test_tokenize.py holds it and compares). That expression holds the honorific pattern four times (74 kB)
and costs 0.6 s to compile in every process, and the regex engine pays for its size at every match. So
it is never compiled: each token is first matched by the plain pattern (the same alternation without
formulas), which gives exactly the same match wherever no formula can play a part: where the token does
not start with one of the profile's honorific initials, and its span holds none of the initials that are
punctuation. The plain matches come from one finditer, as long as each starts where the last ended; the
places of `(` are found once. Elsewhere the token is taken step by step (`_careful_token`): the honorific
pattern itself where a formula may start, runs of punctuation cut at the first initial where one does.
Every character is exactly one of a word's (a letter, digit or mark), punctuation or space, so each step
is one of the alternation's branches. 7.5 million tokens of every profile over the seeds and every text
of ../shared/corpora came out the same as the one expression's, at the same speed.
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
_WORD = regex.compile(WORD, regex.IGNORECASE)
_PUNCTUATION_RUN = regex.compile(f"{_PUNCTUATION}*", regex.IGNORECASE)
_SPACE = regex.compile(r"\s*")


def tokenize(text: str, profile: Profile) -> list[Token]:
    """The tokens of a text under a profile; their surfaces and whitespace rebuild the text exactly."""
    tokens: list[Token] = []  # every non-space character starts a token, so tokens are contiguous
    position = 0
    leading = _LEADING_SPACE.match(text)
    if leading:
        tokens.append(Token("", leading.group(), "", ""))
        position = leading.end()
    honorific = honorific_pattern(profile)
    if honorific is None:
        tokens.extend(_plain_token(match, profile.key) for match in _PLAIN.finditer(text, position))
        return tokens
    key = profile.key
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
                break  # a formula may play a part: the token is taken step by step
            tokens.append(_plain_token(match, key))
            position = end
        if position < len(text):
            token, position = _careful_token(text, position, profile, honorific)
            tokens.append(token)
    return tokens


def given_tokens(given: tuple[tuple[str, str | None], ...], profile: Profile) -> list[Token]:
    """A source's own tokens (CollateX JSON: `t`, and `n` when it gives one), never cut again: each token's
    text is its surface and the whitespace after it; its key is the normalised form it brings (compared as
    it stands, as CollateX compares `n`), else the profile's key of its word (of its punctuation, when it
    holds no word). Joined, the tokens are the witness's text byte for byte."""
    tokens = []
    for text, normalised in given:
        surface = text.rstrip()
        word = _WORD.search(surface)
        word_text = word.group() if word else ""
        key = normalised if normalised is not None else profile.key(word_text or surface)
        tokens.append(Token(surface, text[len(surface) :], key, word_text))
    return tokens


def _plain_token(match: regex.Match, key) -> Token:
    lead, word, trail, space = match.group("lead", "word", "trail", "space")
    if word is not None:
        return Token(lead + word + trail if lead or trail else word, space, key(word), word)
    alone = match.group("alone")
    return Token(alone, space, key(alone), "")


def _careful_token(text: str, start: int, profile: Profile, honorific: regex.Pattern) -> tuple[Token, int]:
    """The token at `start` (not a space) and where the next begins, as the alternation of the module's
    docstring takes it: a formula when one matches here, else punctuation, a word, punctuation (or
    punctuation alone), where punctuation stops at an initial that starts a formula."""
    formula = honorific.match(text, start) if text[start] in profile.honorific_initials else None
    if formula is not None:
        end = _PUNCTUATION_RUN.match(text, formula.end()).end()
        space = _SPACE.match(text, end)
        name = next(name for name, value in formula.groupdict().items() if value is not None)
        token = Token(text[start:end], space.group(), profile.honorific_key(name), formula.group())
        return token, space.end()
    lead_end = _punctuation_end(text, start, profile, honorific)
    word = _WORD.match(text, lead_end)
    if word is None:
        space = _SPACE.match(text, lead_end)
        alone = text[start:lead_end]
        return Token(alone, space.group(), profile.key(alone), ""), space.end()
    end = _punctuation_end(text, word.end(), profile, honorific)
    space = _SPACE.match(text, end)
    return Token(text[start:end], space.group(), profile.key(word.group()), word.group()), space.end()


def _punctuation_end(text: str, start: int, profile: Profile, honorific: regex.Pattern) -> int:
    """The end of the run of punctuation from `start`, which stops before an honorific initial unless that
    initial is a mark (`(`) at which no formula starts."""
    end = _PUNCTUATION_RUN.match(text, start).end()
    initials = profile.honorific_initials
    for position in range(start, end):
        char = text[position]
        if char in initials and (char.isalnum() or honorific.match(text, position) is not None):
            return position
    return end


_CAREFUL: dict[str, regex.Pattern | None] = {}


def _careful(profile: Profile) -> regex.Pattern | None:
    """The profile's honorific initials that the plain pattern takes as punctuation (`(`), as a class."""
    if profile.name not in _CAREFUL:
        marks = "".join(c for c in profile.honorific_initials if regex.fullmatch(_PUNCTUATION, c))
        _CAREFUL[profile.name] = regex.compile(f"[{regex.escape(marks)}]") if marks else None
    return _CAREFUL[profile.name]
