"""What collation must keep whole: a narrator's name in an Arabic chain and a Qur'an citation, each one token.

The collation (tei.collate) cuts a text into word tokens and aligns their keys. Before it aligns, it passes
each witness's tokens through `whole_tokens`, which joins the tokens of each of these spans into one:

- in an Arabic chain (an isnad section, a chain after the text in a commentary section, or a narration
  collated whole), each narrator's name (tei.hadith.parts.narration_links): the chain is then collated narrator by narrator, a name is the unit of
  alignment (two chains are matched by the names they share, never by «بن» inside two different names) and a
  name never stands across two units; the transmission terms and ح stay tokens of their own; the matn stays
  word by word;
- in any text, each Qur'an citation (tei.hadith.quran.find_citations: `[al Anfal 8:9)`), and in Arabic each verse
  quoted (tei.hadith.quotations.find_quotations: `{إذ تستغيثون ربكم ...}`): it stands whole in one stretch of the
  edition, which marks it `<ref type="quran">`, so the edition has every reference and the verse index is
  complete. A quotation is thus one unit of the apparatus where the witnesses' words of it differ: the choice
  of issue 34 (a ref never spans units), documented in docs/hadith.md.

A joined token keeps every character (its surface is the span's tokens with the whitespace between them); its
key is the keys of its words in order (punctuation left out), so names compare under the profile's folding.
"""

from __future__ import annotations

from tei.hadith.isnad import ARABIC, NARRATOR
from tei.hadith.parts import narration_links
from tei.hadith.quotations import find_quotations
from tei.hadith.quran import find_citations
from tei.hadith.sections import COMMENTARY, MATN
from tei.model import Token, Witness


def whole_spans(text: str, language: str, section: str = "", whole: str | None = None) -> list[tuple[int, int]]:
    """The character spans of a text that collation keeps as one token each, in order, never overlapping:
    Qur'an citations in any text; in Arabic, the narrators' names of the chain a narration opens with, whether
    it is collated as a section of its own (`section` "isnad") or whole (`section` "": one witness only has a
    chain the recogniser reads); never in a matn.

    `whole` is the narration the isnad opens: its chain is read there, since the words after the last name
    ("أن أبا هريرة قال") tell that it is a narrator's."""
    spans = [(citation.start, citation.end) for citation in find_citations(text)]
    if language == ARABIC:  # a verse quoted in Arabic: one unit, so the edition marks it whole (one ref)
        spans += [(quotation.start, quotation.end) for quotation in find_quotations(text)]
    if language == ARABIC and section != MATN:
        narration, offset = text, 0
        if whole is not None and section == COMMENTARY and whole.endswith(text):
            narration, offset = whole, len(whole) - len(text)  # the further chains after the text
        elif whole is not None and whole.startswith(text):
            narration = whole
        spans += [
            (start - offset, end - offset)
            for kind, start, end in narration_links(narration)
            if kind == NARRATOR and start >= offset and end <= offset + len(text)
        ]
    found, reach = [], 0
    for start, end in sorted(spans, key=lambda span: (span[0], -span[1])):
        if start >= reach:
            found.append((start, end))
            reach = end
    return found


def joined(tokens: list[Token], spans: list[tuple[int, int]]) -> list[Token]:
    """The tokens with those of each span (every token whose surface overlaps it) joined into one token."""
    if not spans:
        return tokens
    found: list[Token] = []
    group: list[Token] = []
    position, n = 0, 0
    for token in tokens:
        start, end = position, position + len(token.surface)
        position += len(token.text)
        while n < len(spans) and spans[n][1] <= start:
            n += 1
            if group:
                found.append(_one(group))
                group = []
        if n < len(spans) and token.surface and start < spans[n][1] and end > spans[n][0]:
            group.append(token)
            continue
        if group:
            found.append(_one(group))
            group = []
        found.append(token)
    if group:
        found.append(_one(group))
    return found


def _one(group: list[Token]) -> Token:
    if len(group) == 1:
        return group[0]
    surface = "".join(token.text for token in group[:-1]) + group[-1].surface
    words = [token for token in group if token.word]  # punctuation standing alone compares as nothing
    return Token(surface, group[-1].whitespace, " ".join(t.key for t in words), " ".join(t.word for t in words))


def whole_tokens(tokens: list[Token], text: str, witness: Witness, section: str = "") -> list[Token]:
    """The tokens of a witness's text (or of one section of it) for collation, with each narrator's name (in an
    Arabic isnad) and each Qur'an citation one token."""
    return joined(tokens, whole_spans(text, witness.language, section, witness.text))
