"""The parts of a narration as a compiler gives it: the chains it opens with (isnad), the text (matn), and the
compiler's own words after the text (commentary): his grading, «وفي الباب عن ...», «قال أبو عيسى ...», notes
on the wording («بمثل حديث ...»), and further chains through which he also has the report («وحدثنيه فلان ...
بهذا الإسناد», «ح وحدثنا ...»).

The opening chains are tei.hadith.isnad's (every chain joined by ح). The commentary begins at the first
sentence after the text (a sentence ends with a full stop) that opens with a compiler's formula (`COMPILER`), a
grading («هذا حديث حسن صحيح»), a note on another narration (`NOTES`), or a further chain (a transmission term
or ح followed by a chain the isnad reader reads), or at a ح switching to another chain; it runs to the end of
the record. Each further chain in the commentary is read by the isnad reader from its first word, so its
narrators, terms and ح are links like those of the opening chains (`narration_links`), marked in the
transcription and the edition and drawn in the isnad diagram.

`wording(text)` names the narrator whose wording the text follows («- واللفظ له -» after his name, «واللفظ
لفلان»), as the compilers say where a record has two chains or more.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tei.hadith.isnad import (
    ARABIC,
    CHAIN_SWITCH,
    NARRATOR,
    SAYING,
    TAHWIL,
    TRANSMISSION_TERMS,
    chain_links,
    chain_words,
    link_spans_of,
    read_chain,
    recognise,
)
from tei.hadith.isnad_en import english_commentary_start
from tei.hadith.sections import COMMENTARY, ISNAD, MATN
from tei.text.arabic import fold, letters_key

_KEY = fold
_FULL_STOP = regex.compile(r"[.؟!]")
_LETTERS = regex.compile(r"\p{L}")
_SAID, _FATHER = _KEY("قال"), frozenset(_KEY(w) for w in ("أبو", "ابو"))
# «قال أبو عيسى» (at-Tirmidhi), «قال أبو داود», «قال أبو عبد الله» (al-Bukhari): the compiler speaking
COMPILER = frozenset(_KEY(w) for w in ("عيسى", "داود", "عبد"))
GRADING = frozenset(_KEY(w) for w in ("حسن", "صحيح", "غريب", "ضعيف", "مرسل", "منكر"))
_THIS, _HADITH = frozenset(_KEY(w) for w in ("هذا", "وهذا")), frozenset(_KEY(w) for w in ("حديث", "الحديث"))
_IN_CHAPTER = (frozenset(_KEY(w) for w in ("وفي", "في")), _KEY("الباب"))
# «بمثل حديث ...», «بهذا الإسناد نحوه», «وساق الحديث»: a note on another narration of the report
NOTES = frozenset(
    _KEY(w) for w in ("بمثل", "بمثله", "بمعنى", "بنحو", "بنحوه", "مثله", "نحوه", "وساق", "وساقوا", "بهذا")
)
_WORDING, _FOR, _WORD_OF = _KEY("واللفظ"), frozenset(_KEY(w) for w in ("له", "لها", "لهما")), _KEY("لفظ")
_CHAIN_OPENING = TRANSMISSION_TERMS - {_KEY("أن"), _KEY("عن"), CHAIN_SWITCH}


@dataclass(frozen=True)
class Part:
    """One part of a narration: `kind` isnad, matn or commentary, characters start..end of its text."""

    kind: str
    start: int
    end: int


def parts(text: str, language: str) -> tuple[Part, ...]:
    """The narration cut into its isnad (when a chain is read), its matn and its commentary (when the compiler
    speaks after the text), in order; joined they are the text. A narration without a chain is one matn."""
    isnad_end = recognise(text, language).isnad_end
    start = commentary_start(text, language, isnad_end)
    found = [Part(ISNAD, 0, isnad_end)] if isnad_end else []
    found.append(Part(MATN, isnad_end, start))
    if start < len(text):
        found.append(Part(COMMENTARY, start, len(text)))
    return tuple(part for part in found if part.end > part.start or part.kind == MATN)


def commentary_start(text: str, language: str, isnad_end: int | None = None) -> int:
    """Where the compiler's words after the text begin (len(text): none)."""
    if isnad_end is None:
        isnad_end = recognise(text, language).isnad_end
    if language != ARABIC:
        return english_commentary_start(text, isnad_end)
    words, keys = chain_words(text)
    first = next((n for n, w in enumerate(words) if w.start() >= isnad_end), len(words))
    sentence = first
    for n in range(first, len(words)):
        if n > first and _compiler_speaks(words, keys, n):
            return words[n - 1 if keys[n - 1] == _SAID else n].start()  # «قال وفي الباب»
        if n > first and _FULL_STOP.search(words[n - 1].group()):
            sentence = n
            if _opens_commentary(text, words, keys, n):
                return words[n].start()
        if keys[n] == CHAIN_SWITCH and _switches(text, words, keys, n):
            return words[sentence if sentence > first else n].start()
    return len(text)


def _compiler_speaks(words, keys: list[str], n: int) -> bool:
    """Word n opens words only the compiler says, wherever they stand: «قال أبو عيسى», a grading («هذا حديث حسن
    صحيح»), «وفي الباب عن»."""
    key, raw = keys[n], letters_key(words[n].group())
    ahead = keys[n + 1 : n + 4]
    if key == _SAID and len(ahead) >= 2 and ahead[0] in _FATHER and ahead[1] in COMPILER:
        return True  # «قال أبو عيسى»
    if raw in _THIS and ahead[:1] and ahead[0] in _HADITH and set(ahead[1:]) & GRADING:
        return True  # «هذا حديث حسن صحيح»
    return raw in _IN_CHAPTER[0] and ahead[:2] == [_IN_CHAPTER[1], _KEY("عن")]  # «وفي الباب عن ...»


def _opens_commentary(text: str, words, keys: list[str], n: int) -> bool:
    """A sentence at word n that opens the compiler's words: a note on another narration, a further chain."""
    key, raw = keys[n], letters_key(words[n].group())
    if raw in NOTES:
        return True
    opening = key in _CHAIN_OPENING and not raw.startswith("ف")  # «فحدثني» goes on with a story
    return (opening or key == CHAIN_SWITCH) and _reads_chain(text, words, keys, n)


def _switches(text: str, words, keys: list[str], n: int) -> bool:
    """ح at word n followed by a chain: the switch to another chain."""
    first = next((k for k in range(n + 1, len(words)) if _LETTERS.search(words[k].group())), len(words))
    return _reads_chain(text, words, keys, first)


def _reads_chain(text: str, words, keys: list[str], n: int) -> bool:
    links: list = []
    read_chain(text, words, keys, links, n)
    return any(kind == NARRATOR for kind, _, _ in links)


def narration_links(text: str, language: str = ARABIC) -> list[tuple[str, int, int]]:
    """Every chain link of an Arabic narration as (kind, start, end) character spans, in order: those of the
    opening chains (tei.hadith.isnad.chain_links) and those of each further chain in the commentary, read
    from each sentence of it (and each ح) that opens one."""
    if language != ARABIC:
        return []
    links = chain_links(text)
    for chain in _further_chains(text):
        links += chain
    return sorted(set(links), key=lambda span: span[1])


def narration_chains(text: str, language: str = ARABIC) -> list[list[tuple[str, int, int]]]:
    """The links of each chain of an Arabic narration, in order: the opening chains and the further ones, each
    cut at ح (the ح is not in a chain's links)."""
    if language != ARABIC:
        return []
    chains: list[list[tuple[str, int, int]]] = []
    for group in (chain_links(text), *_further_chains(text)):
        chains.append([])
        for link in group:
            if link[0] == TAHWIL:
                chains.append([])
            else:
                chains[-1].append(link)
    return [chain for chain in chains if chain]


def _further_chains(text: str) -> list[list[tuple[str, int, int]]]:
    """The links of each further chain in the commentary (each may hold ح), read from each sentence of it, and
    each ح, that opens a chain."""
    start = commentary_start(text, ARABIC)
    if start >= len(text):
        return []
    words, keys = chain_words(text)
    n = next((m for m, w in enumerate(words) if w.start() >= start), len(words))
    reach, groups = n, []
    while n < len(words):
        opens = n == reach or _FULL_STOP.search(words[n - 1].group()) or keys[n] == CHAIN_SWITCH
        if n >= reach and opens:
            found: list = []
            first = n
            if keys[n] == CHAIN_SWITCH:  # "ح . وحدثنا"
                first = next((k for k in range(n + 1, len(words)) if _LETTERS.search(words[k].group())), len(words))
            end = read_chain(text, words, keys, found, first)
            if end is not None and any(kind == NARRATOR for kind, _, _ in found):
                if first > n:
                    found.insert(0, (TAHWIL, n, n + 1))
                groups.append(link_spans_of(text, words, found, end))
                reach = end
                n = max(end, n + 1)
                continue
        n += 1
    return groups


def chains_after_matn(text: str, language: str = ARABIC) -> list[tuple[int, int]]:
    """The (start, end) spans of the further chains in a narration's commentary, each from its first link to its
    last (a chain of several joined by ح is one)."""
    if language != ARABIC:
        return []
    return [(group[0][1], group[-1][2]) for group in _further_chains(text) if group]


def wording(text: str, language: str = ARABIC) -> str | None:
    """The narrator whose wording the text follows, as written: the name before «- واللفظ له -», or the name
    after «واللفظ لـ» or «واللفظ لفظ» (to a dash, a comma or a saying verb, four words at most; «للأوزاعي» gives
    الأوزاعي, the article's alif restored); None when the compiler does not say («واللفظ متقارب»)."""
    if language != ARABIC:
        return None
    names = [(start, end) for kind, start, end in chain_links(text) if kind == NARRATOR]
    words, keys = chain_words(text)
    for n, word in enumerate(words):
        if letters_key(word.group()) != _WORDING or n + 1 >= len(words):
            continue
        m = n + 1 + (words[n + 1].group() == "-")
        if m < len(words) and keys[m] in _FOR:
            before = [name for name in names if name[1] <= word.start()]
            return text[before[-1][0] : before[-1][1]] if before else None
        if m + 1 < len(keys) and keys[m] == _WORD_OF:  # «واللفظ لفظ أبي عمار»
            return _name_after(text, words, keys, m + 1)
        if m < len(keys) and keys[m].startswith("ل"):
            return _name_after(text, words, keys, m)
    return None


def _name_after(text: str, words, keys: list[str], first: int) -> str:
    last = first
    while last < min(first + 4, len(words)) and words[last].group() not in ("-", "ـ"):
        if last > first and (keys[last] in SAYING or keys[last] in TRANSMISSION_TERMS):
            break
        last += 1
        if words[last - 1].group().endswith(("،", ",")):
            break
    name = text[words[first].start() : words[last - 1].end()].rstrip("،, ")
    if keys[first].startswith("ل") and keys[first - 1] != _WORD_OF:
        name = regex.sub(r"^ل\p{M}*", "", name)  # the preposition: «لأبي بكر»
        name = "ا" + name if name.startswith("ل") else name  # «للأوزاعي»: the article's alif restored
    return name


def isnad_and_matn(witnesses) -> list[tuple[str, dict[str, str]]] | None:
    """The witnesses' texts cut into their parts, [(isnad, texts), (matn, texts)] and (commentary, texts) when
    any witness's compiler speaks after the text, by witness id (a witness without a part has ''), when at least
    two witnesses open with a chain (with one, there is no chain to compare); else None. So the compiler's
    words are collated against each other only, never aligned with a text nor a transposition partner of one."""
    cut = {w.id: {part.kind: w.text[part.start : part.end] for part in parts(w.text, w.language)} for w in witnesses}
    if sum(1 for found in cut.values() if found.get(ISNAD)) < 2:
        return None
    kinds = [ISNAD, MATN] + ([COMMENTARY] if any(found.get(COMMENTARY) for found in cut.values()) else [])
    return [(kind, {wid: found.get(kind, "") for wid, found in cut.items()}) for kind in kinds]
