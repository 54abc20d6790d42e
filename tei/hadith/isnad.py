"""Isnad and matn: where a narration's chain of narrators ends and its text begins, in Arabic and in English.

Arabic: the chain is a run of transmission terms (حدثنا، أخبرنا، عن، سمعت، أن ...), each followed by a
narrator's name; `ح` switches to another chain. The chain ends with the name after the last such term
that stands before the first mention of the Prophet (a term followed by the Prophet himself, as in
`سمعت رسول الله`, belongs to the text), together with a eulogy and a pronoun verb (أخبره، أنه) right after
that name. English renderings: an opening "It is narrated from X (eulogy) that", "It is narrated on the
authority of X that", "X reported (on the authority of Y) that"; a chain inside the text, "... was narrated
to him by X who said:", is found by `embedded_chains`.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tei.hadith.isnad_en import english_chain_end
from tei.text.arabic import fold, letters_key
from tei.text.normalize import HONORIFIC_FORMULAS
from tei.text.patterns import LazyPattern

ARABIC = "ar"
TERM, NARRATOR, TAHWIL = "term", "narrator", "tahwil"
_SAME = "same"  # another name of the narrator before (a kunya, nisba, laqab or description after a comma)
_KEY = fold  # vowel signs, tatweel, alef and hamza forms folded (tei.text.arabic)
TRANSMISSION_TERMS = frozenset(
    _KEY(term)
    for term in (
        "حدثنا",
        "حدثني",
        "حدثناه",
        "حدثنيه",
        "حدثتني",
        "حدثتنا",
        "أخبرنا",
        "أخبرني",
        "أخبرناه",
        "أخبرنيه",
        "أخبرتني",
        "أنبأنا",
        "أنبأني",
        "سمعت",
        "سمع",
        "سمعنا",
        "سمعا",
        "سمعوا",
        "عن",
        "أن",
        "قرأت",
        "ح",
    )
)
PRONOUN_VERBS = frozenset(
    _KEY(term)
    for term in (
        "أخبره",
        "أخبرته",
        "حدثته",
        "حدثاه",
        "حدثاهم",
        "أخبراه",
        "أخبرها",
        "أخبرهم",
        "حدثه",
        "حدثها",
        "حدثهم",
        "أنه",
        "أنها",
        "أنهما",
        "أنهم",
        "أخبرهما",
    )
)
SAYING = frozenset(
    _KEY(term)
    for term in ("قال", "قالت", "قالا", "قالوا", "يقول", "تقول", "يحدث", "تحدث", "يحدثان", "يخبر", "يخبران", "تخبر")
)
JOINED = frozenset(
    _KEY(term) for term in ("كلاهما", "كلهم", "جميعا", "جميعهم", "كلاهم", "كل", "هؤلاء")
)  # "both/all from X"
NAME_LINKS = frozenset(_KEY(term) for term in ("بن", "ابن", "بنت"))  # a name going on after a stray comma
NAME_STARTS = frozenset(_KEY(term) for term in ("أبو", "أبي", "أبا", "ابن", "عبد", "عبيد", "أم", "بنت", "أخت", "صاحب"))
# Common nouns that follow أن at the start of a text ("أن رجلا سأل"): never a narrator's name
NOT_NAMES = frozenset(
    _KEY(term)
    for term in (
        "الذي",
        "التي",
        "نحن",
        "أنا",
        "هي",
        "رجلا",
        "رجل",
        "امرأة",
        "أعرابيا",
        "ناسا",
        "أناسا",
        "نفرا",
        "قوما",
        "غلاما",
        "جارية",
        "يهوديا",
        "أهل",
    )
)
# Words after which no narrator's name follows: "بهذا الإسناد مثله", "في هذا الإسناد", "بمعنى حديث"
CHAIN_ENDS = frozenset(
    _KEY(term) for term in ("بهذا", "في", "بمثل", "بمعنى", "بنحو", "مثله", "نحوه", "مثل", "نحو", "غير", "وساق", "وزاد")
)
_MUHAMMAD = _KEY("محمد")
_GOD = _KEY("الله")
_COMPANION_OF = _KEY("صاحب")  # "سفينة، صاحب رسول الله": the narrator's description, in the chain
_BIHADHA = _KEY("بهذا")
_CHAIN_TERMS = TRANSMISSION_TERMS - {_KEY("أن")}
_BOOK, _FOUND = _KEY("كتابي"), _KEY("وجدت")  # "قال وجدت في كتابي عن أبي أسامة": a written transmission
_AN, _AN_ALONE = _KEY("أن"), _KEY("عن")
_AFTER_NAMES = frozenset(_KEY(term) for term in ("بهذا", "في", "بمثل", "بمعنى", "بنحو"))
_LETTERS = regex.compile(r"\p{L}")
_STANDALONE_PUNCTUATION = frozenset(("،", ",", ":", "؛"))
DESCRIPTIONS = frozenset(
    _KEY(term) for term in ("مولى", "مولاة", "أخو", "أخي", "صاحب", "يعني", "هو", "ابنى", "ابني", "أراه")
)
SPOUSE = _KEY("زوج")
READ_TO = frozenset(
    _KEY(term) for term in ("فيما", "قراءة", "قرأت")
)  # "عائشة، زوج النبي صلى الله عليه وسلم": the narrator's description, in the chain
CHAIN_SWITCH = "ح"
_CONJUNCTIONS = ("و", "ف")
_PROPHET = regex.compile(r"^[وفل]?(?:رسول|نبي|النبي)$")
_WORD = regex.compile(r"\S+")
_EULOGY_BETWEEN_DASHES = LazyPattern(
    r"\s*-?\s*(?:" + "|".join(f"(?:{pattern})" for _, pattern in HONORIFIC_FORMULAS) + r")\s*-?\s*", regex.IGNORECASE
)
_EULOGY = LazyPattern("|".join(f"(?:{pattern})" for _, pattern in HONORIFIC_FORMULAS), regex.IGNORECASE)
_NAME_WORDS = 10  # a narrator's name without a comma ends here at the latest
_ASIDE_WORDS = 20  # an aside between dashes inside the chain is this short
_MORE_NAME_WORDS = 14  # ... and all their names together are this short
_OTHER_NAME_WORDS = 4  # "أبو خيثمة، زهير بن حرب"
_MORE_NAMES = 5  # narrators at one link ("حدثنا أبو بكر، وزهير، وابن نمير، قالوا")
_SWITCH_AHEAD = 24  # a chain carried to the Prophet or into the text's first words before ح, in words
_SENTENCE_END = regex.compile(r"[.!?؟\"«»“”]")
_TERM_AHEAD = 4  # "قال عروة ولقد حدثتني": a saying verb goes on with the chain when a term follows this soon


@dataclass(frozen=True)
class Structure:
    """A narration cut into its chain (characters 0..isnad_end) and its text (isnad_end..): offsets only.

    `chains` are the (start, end) spans of the chains the isnad holds, split at each `ح`.
    """

    isnad_end: int
    chains: tuple[tuple[int, int], ...] = ()


def recognise(text: str, language: str) -> Structure:
    """The isnad and matn of a narration in the given language (`ar`, or an English rendering)."""
    if language == ARABIC:
        return _arabic(text)
    end = english_chain_end(text)
    return Structure(end, ((0, end),) if end else ())


def chain_links(text: str) -> list[tuple[str, int, int]]:
    """The links of an Arabic narration's chain as (kind, start, end) character spans, in order: `term` (a
    transmission term: حدثنا، أخبرنا، عن، سمعت، قال ...), `narrator` (a narrator's name, without the comma
    after it) and `tahwil` (ح, the switch to another chain)."""
    words, keys = chain_words(text)
    links: list = []
    end = _chain_end(text, words, keys, links)
    if end is None:
        return []
    return link_spans_of(text, words, links, end)


def chain_words(text: str) -> tuple[list[regex.Match], list[str]]:
    """The words of an Arabic text and their keys as the chain reader compares them (a leading و or ف left out
    before a term)."""
    words = list(_WORD.finditer(text))
    return words, [_bare(w.group()) for w in words]


def read_chain(text: str, words: list[regex.Match], keys: list[str], links: list, start: int) -> int | None:
    """The index of the word after the chains read from word `start` (as `chain_links` reads a narration's
    opening chains), None when none is read there; `links` receives (kind, first word, word after)."""
    return _chain_end(text, words, keys, links, start)


def link_spans_of(text: str, words: list[regex.Match], links: list, end: int) -> list[tuple[str, int, int]]:
    """The links (kind, first word, word after) read before word `end` as (kind, start, end) character spans."""
    spans = []
    for kind, first, after in links:
        if after > end or after <= first:
            continue
        start, stop = words[first].start(), words[after - 1].end()
        while stop > start and not regex.match(r"[\p{L}\p{M}]", text[stop - 1]):
            stop -= 1  # "زهير بن حرب،": the comma is the chain's punctuation, not the name's
        if stop > start:
            spans.append((kind, start, stop))
    return sorted(set(spans), key=lambda span: span[1])


def _bare(word: str) -> str:
    """The key of an Arabic word, without a leading conjunction و or ف when what remains is a term."""
    key = letters_key(word)
    if key[:1] in _CONJUNCTIONS and key[1:] in TRANSMISSION_TERMS | PRONOUN_VERBS | SAYING:
        return key[1:]
    return key


def _arabic(text: str) -> Structure:
    words = list(_WORD.finditer(text))
    keys = [_bare(w.group()) for w in words]
    last = _chain_end(text, words, keys)
    if last is None:
        return Structure(0)
    end = _text_start(text, words, keys, last)
    switches = [w.start() for w, key in zip(words, keys) if key == CHAIN_SWITCH and w.start() < end]
    starts = [0, *switches]
    return Structure(end, tuple(zip(starts, [*switches, end])))


def _chain_end(
    text: str, words: list[regex.Match], keys: list[str], links: list | None = None, start: int = 0
) -> int | None:
    """The index of the word after the isnad's last narrator: its chains read one after the other
    (`_one_chain_end`). A chain that ends where ح follows within a few words of the same sentence (the chain
    carried to the Prophet, «عن النبي ﷺ ح», or into the first words of the text, «قال شهدت من المقداد ح», or a
    description, «وهو القطان ح») is followed by another chain, read from the word after ح; the isnad ends with
    the last chain read. `links` receives (kind, first word, word after) for each term, narrator's name and ح."""
    links = [] if links is None else links
    end = _one_chain_end(text, words, keys, links, start)
    while end is not None and (switch := _switch_ahead(words, keys, end)) is not None:
        mark = len(links)
        links.append((TAHWIL, switch, switch + 1))
        first = next(k for k in range(switch + 1, len(words)) if _LETTERS.search(words[k].group()))  # "ح . وحدثنا"
        after = _one_chain_end(text, words, keys, links, first)
        if after is None:
            del links[mark:]
            break
        end = after
    return end


def _switch_ahead(words: list[regex.Match], keys: list[str], n: int) -> int | None:
    """The index of a ح within `_SWITCH_AHEAD` words from word n, before the sentence ends (a full stop, a
    quotation mark) and followed by a transmission term: the switch to another chain."""
    for m in range(n, min(n + _SWITCH_AHEAD, len(words))):
        if keys[m] == CHAIN_SWITCH:
            after = next((k for k in range(m + 1, len(words)) if _LETTERS.search(words[k].group())), None)
            return m if after is not None and (keys[after] in TRANSMISSION_TERMS or keys[after] in SAYING) else None
        if _SENTENCE_END.search(words[m].group()):
            return None
    return None


def _one_chain_end(text: str, words: list[regex.Match], keys: list[str], links: list, start: int = 0) -> int | None:
    """The index of the word after one chain's last narrator (with his eulogy and pronoun verbs), read link by
    link from word `start`: a term and a name, `ح`, an aside between dashes, "قالا حدثنا", "كلاهما عن", a second
    narrator joined with و; the chain ends at the first word that continues none of these."""
    n, end = start, None
    while n < len(words):
        key = keys[n]
        eulogy = _EULOGY_BETWEEN_DASHES.match(text, words[n].start()) if end == n else None
        if eulogy and eulogy.group().strip():
            n = _word_at(words, eulogy.end(), n)
            end = n
        elif key == CHAIN_SWITCH:
            links.append((TAHWIL, n, n + 1))
            n += 1
            while n < len(words) and not _LETTERS.search(words[n].group()) and words[n].group() != "-":
                n += 1  # "ح . وحدثنا"
            end = n if end == n - 1 else end  # a record ending with ح: its chain goes on in the next
        elif key == _BIHADHA and n + 2 < len(keys) and keys[n + 2] == CHAIN_SWITCH:
            n += 2  # "بهذا الإسناد ح وحدثنا ...": another chain follows
        elif end == n and words[n].group() in _STANDALONE_PUNCTUATION:
            n = end = n + 1  # "أبو غسان المسمعي ، ومحمد": a comma standing apart
        elif words[n].group() == "-" and end is not None and n + 1 < len(keys) and keys[n + 1] in _CHAIN_TERMS:
            n += 1  # "حدثنا عبد الرزاق، - أخبرنا معمر": a dash that closes nothing
            end = n if end == n - 1 else end
        elif words[n].group() == "-" and end is not None:
            close = _aside_close(words, n)
            unclosed = close is None or any(k in TRANSMISSION_TERMS for k in keys[n + 1 : close])
            if unclosed and n + 1 < len(keys) and keys[n + 1].removeprefix("و") in DESCRIPTIONS:
                n = end = _name_end(text, words, keys, n + 1)  # "- وهو ابن زيد عن ثابت": no closing dash
                continue
            if close is None or any(_PROPHET.match(k) for k in keys[n:close]):
                break
            end = close + 1 if end == n else end  # an aside after the last name is the chain's
            n = close + 1  # "- يعني ابن عياض -", "- واللفظ له -", "- وهذا حديثه -"
        elif key in TRANSMISSION_TERMS:
            first = n + 1
            if first < len(words) and words[first].group() == "-" and (close := _aside_close(words, first)):
                first = close + 1  # "حدثني - أو حدثنا - أبو سلمة"
            following = keys[first] if first < len(keys) else ""
            if not following or _prophet(keys, first) or following in NOT_NAMES or following in CHAIN_ENDS:
                break  # "سمعت رسول الله", "أن رجلا": the text's
            if following in TRANSMISSION_TERMS or following in SAYING:
                links.append((TERM, n, n + 1))
                n = first  # "أخبرنا وقال ابن حاتم حدثنا"
                continue
            after = _name_end(text, words, keys, first)
            if key == _KEY("أن") and not _narrates(text, words, keys, after):
                break  # "أن أم حبيبة استحيضت": a person of the text, not a narrator ("أن أبا هريرة حدثهم")
            links += [(TERM, n, n + 1), (NARRATOR, first, after)]
            n = end = after
        elif key in SAYING and (ahead := _term_ahead(keys, n + 1)) is not None:
            links.append((TERM, n, n + 1))
            if ahead > n + 1:
                links.append((NARRATOR, n + 1, ahead))  # "قال زهير حدثنا": whose wording follows
            n = ahead  # "قالا حدثنا", "قال زهير حدثنا", "يحدث عن", "قال عروة ولقد حدثتني" (a chain's first words)
        elif end is None:
            break
        elif key in PRONOUN_VERBS:
            links.append((TERM, n, n + 1))
            n += 1
            end = n if end == n - 1 else end
        elif key in JOINED:
            n += 1
        elif key in READ_TO and n + 2 < len(keys) and _KEY("عليه") in keys[n + 1 : n + 3]:
            n = keys.index(_KEY("عليه"), n + 1) + 1  # "فيما قرئ عليه", "قراءة عليه": a reading to the master
        elif key in SAYING:
            if n + 1 < len(keys) and keys[n + 1] in SAYING:
                n += 1  # "قال قال ..."
            elif (
                keys[n - 1] in SAYING
                and n + 1 < len(keys)
                and (keys[n + 1] in NAME_STARTS or (n + 2 < len(keys) and keys[n + 2] in NAME_LINKS))
            ):
                links += [(TERM, n, n + 1), (NARRATOR, n + 1, _structured_name_end(keys, n + 1))]
                n = end = links[-1][2]  # "قال عبد الله بن عمر" before his words
            else:
                break
        elif key in (SPOUSE, _COMPANION_OF) and end == n and n + 1 < len(keys) and _PROPHET.match(keys[n + 1]):
            n = end = n + 3 if n + 2 < len(keys) and keys[n + 2] == _GOD else n + 2  # "زوج النبي"، "صاحب رسول الله"
        elif end == n and (after := _more_names(text, words, keys, n, links)) is not None:
            n = end = after  # "وزهير بن حرب، قالا حدثنا", "أبو خيثمة، زهير بن حرب حدثنا", "مولى أبي هريرة حدثه"
        else:
            break
    return end


def _aside_close(words: list[regex.Match], n: int) -> int | None:
    """The index of the dash closing the aside that opens at word n, if it closes soon."""
    return next((m for m in range(n + 1, min(n + _ASIDE_WORDS, len(words))) if words[m].group() == "-"), None)


def _more_names(text: str, words: list[regex.Match], keys: list[str], n: int, links: list | None = None) -> int | None:
    """After a narrator's name, the end of the names that still belong to his link: narrators joined with و and
    descriptions (another name of his, "مولى X"), when the chain goes on after them; else None."""
    first, names = n, []
    for _ in range(_MORE_NAMES):
        while n < len(words) and words[n].group() in _STANDALONE_PUNCTUATION:
            n += 1  # "أبو غسان المسمعي ، ومحمد بن المثنى ، قالا"
        after = _name_end(text, words, keys, n)
        if after - n >= _NAME_WORDS or after >= len(keys) or after == n or after - first > _MORE_NAME_WORDS:
            return None
        if any(not _LETTERS.search(words[m].group()) or _prophet(keys, m) for m in range(n, after)):
            return None  # a full stop, the Prophet: the text has begun
        if keys[n] in NOT_NAMES or (keys[n][:1] == "و" and keys[n][1:] in NOT_NAMES | {_KEY("هو")}):
            return None  # "ونحن بجمع", "وهو يقول": the text ("محمد، هو ابن جعفر" is his name)
        joined = keys[n][:1] == "و" or _unjoined(keys[n]) in NAME_STARTS | DESCRIPTIONS
        linked = any(keys[m] in NAME_LINKS for m in range(n, after))
        after_comma = words[n - 1].group().endswith(("،", ",", "-"))  # after a comma or an aside
        if not joined and not (after_comma and (after - n <= _OTHER_NAME_WORDS or linked)):
            return None  # "أبو خيثمة، زهير بن حرب": another name of his, after a comma, short or "X بن Y"
        closed = words[after - 1].group().endswith(("،", ","))  # «أبو نوح، قراد، عن»: a name between commas
        if keys[after] in (_AN, _AN_ALONE) and not (joined or linked or closed or keys[n].startswith("ال")):
            return None  # "يسأل عن الورود": a verb, not a name ("عمر بن نبيه، الكعبي عن" is a name)
        names.append((NARRATOR if keys[n][:1] == "و" else _SAME, n, after))
        if _continues(words, keys, after) or (
            (joined or linked) and (keys[after] in SAYING or keys[after] in _AFTER_NAMES or keys[after] == _AN)
        ):
            if links is not None:
                _add_names(links, names)
            return after  # "علقمة، والأسود، أن رجلا", "عن أبيه، جبير بن مطعم قال", "عن أبي سهل، عثمان بن حكيم بهذا الإسناد"
        n = after
    return None


def _add_names(links: list, names: list) -> None:
    """Names at one link: one joined with و («وزهير بن حرب») is another narrator; any other («أبو خيثمة، زهير بن
    حرب», «سماك، الحنفي», «أبو نوح، قراد», «نافع، مولى ابن عمر») is another name of the narrator before, or who
    he is, so his name's span runs on to its end: one narrator, one persName, one node."""
    for kind, first, after in names:
        last = next((m for m in range(len(links) - 1, -1, -1) if links[m][0] == NARRATOR), None)
        if kind == _SAME and last is not None:
            links[last] = (NARRATOR, links[last][1], after)
        else:
            links.append((NARRATOR, first, after))


def _prophet(keys: list[str], n: int) -> bool:
    """Word n names the Prophet: رسول الله، النبي، نبي الله، "محمد رسول الله"."""
    return bool(_PROPHET.match(keys[n])) or (
        keys[n] == _MUHAMMAD and n + 1 < len(keys) and bool(_PROPHET.match(keys[n + 1]))
    )


def _narrates(text: str, words: list[regex.Match], keys: list[str], n: int) -> bool:
    """After a name introduced by أن: a verb of transmission, a saying verb or a eulogy, maybe after a description."""
    if n >= len(keys):
        return False
    return (
        _continues(words, keys, n) or _after_name(text, words, keys, n) or _more_names(text, words, keys, n) is not None
    )


def _after_name(text: str, words: list[regex.Match], keys: list[str], n: int) -> bool:
    """A saying verb or a eulogy right after a name: "أن أبا هريرة قال", "أن عمر - رضى الله عنه -"."""
    eulogy = _EULOGY_BETWEEN_DASHES.match(text, words[n].start())
    return keys[n] in SAYING or bool(eulogy and eulogy.group().strip())


def _continues(words: list[regex.Match], keys: list[str], n: int) -> bool:
    """True when word n goes on with the chain: a term, "كلاهما", a pronoun verb, a saying verb before a term,
    after an aside between dashes."""
    if words[n].group() == "-":
        close = _aside_close(words, n)
        if close is not None and _EULOGY.fullmatch(" ".join(w.group() for w in words[n + 1 : close])):
            return True  # "عن أم المؤمنين، عائشة - رضى الله عنها -"
        if close is None or close + 1 >= len(words):
            return False
        n = close + 1
    key = keys[n]
    return (
        (key in TRANSMISSION_TERMS and key != _KEY("أن"))
        or key in JOINED
        or key in PRONOUN_VERBS
        or key == CHAIN_SWITCH
        or (key in SAYING and _term_ahead(keys, n + 1) is not None)
    )


def _term_ahead(keys: list[str], first: int) -> int | None:
    """The index of a transmission term (not أن) within the next few words, before any mention of the Prophet."""
    for n in range(first, min(first + _TERM_AHEAD, len(keys))):
        if keys[n] in CHAIN_ENDS and keys[n - 1] != _FOUND:
            return None
        if _PROPHET.match(keys[n]) or keys[n] in SAYING:
            return None
        if (
            keys[n] in TRANSMISSION_TERMS
            and keys[n] != _AN
            and (keys[n] != _AN_ALONE or n == first or keys[n - 1] == _BOOK)
        ):
            return n  # "يحدث عن", "قال زهير حدثنا"; not "قال سألت عائشة عن صلاة"
    return None


def _word_at(words: list[regex.Match], position: int, n: int) -> int:
    while n < len(words) and words[n].start() < position:
        n += 1
    return n


def _structured_name_end(keys: list[str], first: int) -> int:
    """The end of a name read by its parts (أبو X، عبد X، X بن Y), when no comma closes it."""
    n = first
    while n < len(keys) and n - first < _NAME_WORDS:
        key = keys[n]
        n += 1
        if key not in NAME_STARTS and key not in NAME_LINKS and not (n < len(keys) and keys[n] in NAME_LINKS):
            break
    return n


def _name_end(text: str, words: list[regex.Match], keys: list[str], first: int) -> int:
    """The index of the first word after the narrator's name that starts at word `first`."""
    n = first
    while n < len(words) and n - first < _NAME_WORDS:
        if keys[n] in CHAIN_ENDS or (n > first and words[n].group() in _STANDALONE_PUNCTUATION):
            return n
        if n > first and (
            keys[n] in PRONOUN_VERBS
            or keys[n] in SAYING
            or keys[n] in TRANSMISSION_TERMS
            or _PROPHET.match(keys[n])
            or words[n].group() == "-"
            or _EULOGY.match(text, words[n].start())
        ):
            return n
        if n > first and keys[n][:1] == "و" and _unjoined(keys[n - 1]) not in NAME_STARTS | NAME_LINKS:
            return n  # "وإسحاق بن إبراهيم": the next narrator (but "ابن وهب" goes on)
        n += 1
        ends_clause = words[n - 1].group().endswith(("،", ","))
        part = _unjoined(keys[n - 1]) in NAME_STARTS | NAME_LINKS  # "سفيان بن، عيينة": a stray comma
        if ends_clause and not part and not (n < len(keys) and keys[n] in NAME_LINKS):
            return n
    return n


def _unjoined(key: str) -> str:
    return key[1:] if key[:1] == "و" and key[1:] in NAME_STARTS else key


def _text_start(text: str, words: list[regex.Match], keys: list[str], n: int) -> int:
    """Where the text begins, after the chain's last word n - 1: at the next word."""
    return words[n].start() if n < len(words) else len(text)
