"""The spans of a text that TEI marks as hadith structure: eulogies and Qur'an citations, and the cRef declaration.

`hadith_spans(text)` gives, in order, each honorific formula (the profiles' own patterns,
tei.text.normalize) as `<seg type="eulogy" subtype="prophet|companion|peace|god">`, each Qur'an citation
(tei.hadith.quran) as `<ref type="quran" cRef="8:9">`, each verse quoted in Arabic (tei.hadith.quotations) as
`<ref type="quran" subtype="quotation" cRef="8:9">` (cert="low" and every candidate where its words end several
verses and the context does not tell which) and each chain reported inside a text
(tei.hadith.isnad) as `<seg type="isnad">`; a writer wraps those characters in that element
and nothing else, so the text rebuilds byte for byte. `quran_refs_decl()` is the header's declaration
of what a cRef means.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex
from lxml import etree

from tei.hadith.authority import name_key
from tei.hadith.isnad import NARRATOR, TAHWIL, TERM
from tei.hadith.isnad_en import embedded_chains
from tei.hadith.parts import narration_links, parts, wording
from tei.hadith.quotations import find_quotations
from tei.hadith.quran import find_citations
from tei.text.normalize import GOD, PROFILES, arabic_formula, honorific_pattern
from tei.text.patterns import LazyPattern
from tei.xmlio import tei, xml

QURAN_REFS_DECL_ID = "quran"
CREF_MATCH = "([0-9]+):([0-9]+(-[0-9]+)?)"  # a single range; a list (8:9;8:12) is a reference too, without a link
CREF_REPLACEMENT = "https://quran.com/$1/$2"
EULOGY = LazyPattern.made_by(lambda: honorific_pattern(PROFILES["hadith-ar"]))
GOD_FORMULA_AT_START = regex.compile(rf"\s*({arabic_formula('تعالى')}|{arabic_formula('سبحانه')})")
TAHWIL_WORD = regex.compile(r"(?<![\p{L}\p{M}])ح(?![\p{L}\p{M}])")

Span = tuple[int, int, str, dict[str, str]]  # start, end, element name, attributes


def eulogy_spans(text: str) -> Iterator[Span]:
    for match in EULOGY.finditer(text):
        honorific_class = next(name for name, value in match.groupdict().items() if value is not None)
        yield match.start(), match.end(), "seg", {"type": "eulogy", "subtype": honorific_class}


def citation_spans(text: str) -> Iterator[Span]:
    """Qur'an citations (a bracketed reference) and quotations (a verse's words in Arabic, tei.hadith.quotations),
    each a `<ref type="quran" cRef="…">`; a quotation has subtype="quotation"."""
    for citation in find_citations(text):
        yield citation.start, citation.end, "ref", {"type": "quran", "cRef": citation.reference}
    for quotation in find_quotations(text):
        yield quotation.start, quotation.end, "ref", quotation_attributes(quotation)


def quotation_attributes(quotation) -> dict[str, str]:
    """`<ref type="quran" subtype="quotation" cRef="…">`, with cert="low" where the words end several verses and
    the context does not tell which (cRef then names every candidate)."""
    attributes = {"type": "quran", "subtype": "quotation", "cRef": quotation.reference}
    return {**attributes, "cert": quotation.cert} if quotation.cert else attributes


def quoted_verses(texts) -> dict[str, dict[str, str]]:
    """Each verse quoted in some Arabic texts (each witness's whole text, where the words around a quotation tell
    which verse it is), as written -> its ref's attributes: the edition marks each such stretch by it."""
    return {
        text[quotation.start : quotation.end]: quotation_attributes(quotation)
        for text in texts
        for quotation in find_quotations(text)
    }


def chain_spans(text: str) -> Iterator[Span]:
    for start, end in embedded_chains(text):
        yield start, end, "seg", {"type": "isnad"}


def _first_wins(found) -> list[Span]:
    """The spans in order; where they overlap the first (the longest of those starting together) wins."""
    spans, end = [], 0
    for span in sorted(found, key=lambda s: (s[0], -s[1])):
        if span[0] >= end:
            spans.append(span)
            end = span[1]
    return spans


# A chain's links in a transcription: a narrator's name, a transmission term, the switch to another chain
LINK_ELEMENTS = {
    NARRATOR: ("persName", {"type": "narrator"}),
    TERM: ("seg", {"type": "transmission"}),
    TAHWIL: ("seg", {"type": "tahwil"}),
}


def link_spans(text: str, language: str, authority: tuple[tuple[str, str], ...] = ()) -> list[Span]:
    """The links of an Arabic narration's chains, the opening ones and those after the text
    (tei.hadith.parts.narration_links), as spans of the whole text:
    `<persName type="narrator">` (with the @ref of its spelling in `authority`, Work.narrators),
    `<seg type="transmission">`, `<seg type="tahwil">` (ح)."""
    if language != "ar":
        return []
    refs = dict(authority)
    return [
        (start, end, *(_narrator(text[start:end], refs) if kind == NARRATOR else LINK_ELEMENTS[kind]))
        for kind, start, end in narration_links(text)
    ]


def _narrator(name: str, refs: dict[str, str]) -> tuple[str, dict[str, str]]:
    """persName type=narrator, with ref="file#id" when the name's key is a spelling of the authority file."""
    element, attributes = LINK_ELEMENTS[NARRATOR]
    ref = refs.get(name_key(name)) if refs else None
    return element, ({**attributes, "ref": ref} if ref else attributes)


def divisions(text: str, language: str) -> list[tuple[str, int, int]]:
    """The divisions of a narration a transcription writes (`<div type>`): isnad, matn and commentary, as
    (kind, start, end) character spans (tei.hadith.parts); one matn when no chain is read."""
    return [(part.kind, part.start, part.end) for part in parts(text, language)]


def wording_note(text: str, language: str) -> str | None:
    """The note a witness carries when its compiler says whose wording the text follows («واللفظ له», «واللفظ
    لأبي بكر»: tei.hadith.parts.wording), in English; None when he does not say."""
    name = wording(text, language)
    return f"The text follows the wording of {name}." if name else None


def with_links(links: list[Span], offset: int):
    """A finder for the paragraph of the text that starts at `offset`: the hadith spans of the paragraph and
    the chain links that lie wholly inside it."""

    def find(text: str) -> list[Span]:
        inside = [
            (start - offset, end - offset, name, attributes)
            for start, end, name, attributes in links
            if start >= offset and end <= offset + len(text)
        ]
        return _first_wins([*hadith_spans(text), *inside])

    return find


def hadith_spans(text: str) -> list[Span]:
    """Eulogies, citations and chains inside a text (a transcription's), in order."""
    return _first_wins([*eulogy_spans(text), *citation_spans(text), *chain_spans(text)])


def edition_spans(text: str) -> list[Span]:
    """Eulogies, Qur'an citations and ح inside one stretch of collated text (shared text or one reading).

    A eulogy is one token in collation (tei.text.normalize.honorific_pattern), so it always stands whole
    in one stretch and faces the other witnesses' formulas in one unit."""
    return _first_wins([*eulogy_spans(text), *_cut_god_formula(text), *citation_spans(text), *tahwil_spans(text)])


def narrator_names(texts) -> frozenset[str]:
    """The narrators' names of the chains of some Arabic texts (each witness's), as written."""
    return _links_of(texts, NARRATOR)


def transmission_terms(texts) -> frozenset[str]:
    """The transmission terms (حدثنا، أخبرنا، عن، قال ...) of the chains of some Arabic texts, as written."""
    return _links_of(texts, TERM)


def _links_of(texts, wanted: str) -> frozenset[str]:
    return frozenset(text[start:end] for text in texts for kind, start, end in narration_links(text) if kind == wanted)


def _whole(strings: frozenset[str]):
    """A pattern for every whole occurrence (not inside a longer word) of any of the strings, the longest first."""
    if not strings:
        return None
    return regex.compile(
        r"(?<!\p{L}|\p{M})(?:"
        + "|".join(regex.escape(s) for s in sorted(strings, key=len, reverse=True))
        + r")(?!\p{L}|\p{M})"
    )


def isnad_spans(
    names: frozenset[str],
    authority: tuple[tuple[str, str], ...] = (),
    terms: frozenset[str] = frozenset(),
    quotations: dict[str, dict[str, str]] | None = None,
):
    """A finder for the stretches of a collated isnad: edition_spans and, as `<persName type="narrator">`, every
    whole occurrence of a narrator's name of the witnesses' chains (a name is one token in collation,
    tei.hadith.units, so it stands whole in one stretch), with the @ref of its spelling in `authority`, and as
    `<seg type="transmission">` every whole occurrence of a transmission term of those chains (one word, so one
    token), and as `<ref type="quran">` every whole occurrence of a verse quoted in the witnesses' texts
    (`quotations`, quoted_verses: one token in collation, so whole in one stretch; its verse read in the whole
    text, where the words around it tell which). Where they overlap a quotation wins, then a eulogy or citation,
    then a name."""
    name_pattern, term_pattern = _whole(names), _whole(terms)
    quoted = _whole(frozenset(quotations or ()))
    if name_pattern is None and term_pattern is None and quoted is None:
        return edition_spans
    refs = dict(authority)

    def find(text: str) -> list[Span]:
        named = [(m.start(), m.end(), *_narrator(m[0], refs)) for m in name_pattern.finditer(text)] if names else []
        termed = [(m.start(), m.end(), *LINK_ELEMENTS[TERM]) for m in term_pattern.finditer(text)] if terms else []
        verses = [(m.start(), m.end(), "ref", quotations[m[0]]) for m in quoted.finditer(text)] if quoted else []
        return _first_wins([*verses, *edition_spans(text), *named, *termed])

    return find


def _cut_god_formula(text: str) -> Iterator[Span]:
    """تعالى or سبحانه opening a stretch: the name of God before it stands in the stretch before (the
    tokenizer saw it; a stretch of an edition does not)."""
    match = GOD_FORMULA_AT_START.match(text)
    if match:
        yield match.start(1), match.end(1), "seg", {"type": "eulogy", "subtype": GOD}


def tahwil_spans(text: str) -> Iterator[Span]:
    """ح standing alone: the switch to another chain (a word of its own is never anything else)."""
    for match in TAHWIL_WORD.finditer(text):
        yield match.start(), match.end(), "seg", {"type": "tahwil"}


def quran_refs_decl() -> etree._Element:
    """<refsDecl xml:id="quran">: a cRef `S:V` or `S:V-W` names surah S, verses V to W (Kufan count)."""
    refs_decl = etree.Element(tei("refsDecl"))
    refs_decl.set(xml("id"), QURAN_REFS_DECL_ID)
    pattern = etree.SubElement(
        refs_decl, tei("cRefPattern"), matchPattern=CREF_MATCH, replacementPattern=CREF_REPLACEMENT
    )
    etree.SubElement(pattern, tei("p")).text = (
        'Qur\'an citations (ref type="quran"): cRef is surah:verse or surah:first-last in the Kufan count '
        "of the standard text (6,236 verses); several ranges are joined with ';'."
    )
    return refs_decl
