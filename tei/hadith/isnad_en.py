"""English renderings of a narration: where the chain of its opening ends ("It is narrated from X (eulogy) that",
"Narrated X:", "X reported (on the authority of Y) that", with the misprints of the English Sahih Muslim), and
the chains reported inside a text ("... was narrated to him by X who said:"). The Arabic chain reader is
tei.hadith.isnad, which asks this module for an English text's chain.
"""

from __future__ import annotations

import regex

from tei.text.patterns import LazyPattern

# "lbn": a misprint of ibn (a lower-case l for I) in the English renderings; it would hide the whole chain
_NAME_WORD = r"(?:\(?[\p{Lu}`'‘’ʿʾ][\p{L}\p{M}`'‘’ʿʾ.\-]*\)?|b\.?|bin|ibn|lbn|bint|(?-i:al)|a[lnrstdz]h?-[\p{L}\p{M}'‘’`ʿ]+|(?-i:and))"
_NAME = (
    rf"(?-i:(?:{_NAME_WORD}\s+){{0,10}}?(?:[\p{{Lu}}`'‘’ʿʾ(][\p{{L}}\p{{M}}`'‘’ʿʾ.\-)]*|a[lnrstdz]h?-[\p{{L}}\p{{M}}'‘’`ʿ]+)"
    r"|(?:his|her)\s+(?:father|mother|uncle|grandfather|paternal\s+uncle|brother))"
)
# A eulogy or note in parentheses after a name, one level deep, its closing parenthesis sometimes missing:
# "(Sa'd b. Abi Waqqas (Allah be pleased with him) that"
_EULOGY_AFTER = r"(?:\s*\((?:[^()]{1,60}\)|[^()]{0,60}\([^()]{1,60}\)\)?))?"
_APPOSITION = (
    r"(?:,?\s+(?:the|a|who|one|daughter|son|wife|wives|mother|father|freed|client|brother|sister)\b[^:;]{1,90}?"
    rf"{_EULOGY_AFTER},?)?"
)
_BY = r"(?:from|on\s+the\s+authority\s+of|o\s+the\s+authority\s+of|by|through)"
_NARRATED = r"(?:narrat\w*|naratt\w*|report\w*|relat\w*|transmitt?\w*)"  # "narrate", "naratted": misprints
_REPORTING_VERB = (
    r"(?:\(also\)\s+)?(?:reported|re[rp]orted|narrated|said|transmitted|observed|stated|related|reports|narrates|says"
    r"|heard|said\s+(?:that\s+)?(?:he|she)\s+heard)"
    r"(?:\s+(?:it|this|this\s+hadith))?(?:\s+directly)?"
)
_PROPHET_EN = (
    r"(?:allah['’]s|the|god['’]s)\s+(?:m\w{0,3}s+enger|apostle|prophet)|(?:the\s+)?(?:holy\s+)?prophet|the\s+messenger"
)
_OF_KIN = r"(?:the\s+(?:sister|brother|son|daughter|wife|father|mother|freed\s+slave)\s+of\s+)"
_LINK_NAME = rf"(?:(?!{_PROPHET_EN}){_OF_KIN}?{_NAME}(?:\s+(?-i:(?=\p{{Lu}})){_NAME})?{_EULOGY_AFTER}{_APPOSITION})"
# A further link: "..., that Mus'ab bin Sa'd said:", "that he heard from Jabir,", "that 'A'isha informed him that"
_FURTHER_LINK = (
    rf"(?:,?\s+that\s+(?:(?:he|she)\s+(?:had\s+)?heard\s+(?:from\s+)?{_NAME}{_EULOGY_AFTER}"
    rf"|(?!muhammad\b|allah|the\s|his\s+(?:messenger|apostle))"
    rf"{_NAME}{_EULOGY_AFTER}{_APPOSITION}{_EULOGY_AFTER}\s+(?:had\s+)?"
    rf"(?:said|reported|narrated|informed\s+(?:him|her|me)|told\s+(?:him|her|me)|narrated\s+to\s+(?:him|her|me))"
    rf"(?=\s*(?::|that\b))))"
)
_ENGLISH_OPENING = LazyPattern(
    rf"\A\s*(?:"
    rf"(?:it|this\s+hadith)\s+(?:is|was|has\s+been|had\s+been)\s+{_NARRATED}\s+"
    rf"(?:to\s+us\s+)?{_BY}\s*{_LINK_NAME}"
    rf"|narrated\s+{_NAME}(?:\s*:\s*{_NAME}{_EULOGY_AFTER}\s+said)?"
    rf"|{_NAME},?{_EULOGY_AFTER}(?:\s+(?:daughter|son|wife)\s+of\s+{_NAME})?{_APPOSITION}{_EULOGY_AFTER},?\s+"
    rf"(?:{_REPORTING_VERB}(?:\s+{_BY}\s*{_LINK_NAME})*"
    rf"(?:\s+(?!{_PROPHET_EN}){_NAME}{_EULOGY_AFTER}\s+(?:as\s+)?(?:saying|say)\b)?"
    rf"|is\s+reported\s+to\s+have\s+heard)"
    rf"){_EULOGY_AFTER}{_FURTHER_LINK}*"
    rf"(?:\s*,?\s+(?:that\s+|who\s+(?:said|reported|narrated)\s*:?\s*)|\s*[:;]\s*|\s*,?\s*saying(?:\s+this)?\s*:?\s*"
    rf"|(?<!\bof)\s+(?=(?:(?:from|on\s+the\s+authority\s+of)\s+)?(?:{_PROPHET_EN})\b)|\s+(?=\(that\b))",
    regex.IGNORECASE,
)
_ENGLISH_EMBEDDED = LazyPattern(
    rf"(?<=^|[.!?]\s+)[^.!?]*?\bnarrated\s+to\s+(?:him|her|me|us|them)\s+by\s+{_NAME}{_EULOGY_AFTER}"
    rf"\s+(?:who\s+said\s*:\s*|that\s+|saying\s*:\s*)",
    regex.IGNORECASE | regex.MULTILINE,
)


def english_chain_end(text: str) -> int:
    """Where the chain of an English rendering ends (0: none read): its opening "It is narrated from X that",
    "Narrated X:", "X reported (on the authority of Y) that" ..."""
    opening = _ENGLISH_OPENING.match(text)
    return opening.end() if opening else 0


def embedded_chains(text: str) -> list[tuple[int, int]]:
    """Chains reported inside an English text: "... was narrated to him by X who said:" (start, end)."""
    return [(m.start(), m.end()) for m in _ENGLISH_EMBEDDED.finditer(text)]


# "[Abu `Eisa said: This Hadith is ...": at-Tirmidhi's words after the text, as the English Jami' gives them
_ENGLISH_COMPILER = LazyPattern(
    r"\[?\s*(?:Abu\s*[`'‘’ʿ]?\s*[EI]e?s[ae]|Abu\s+Dawud|Abu\s+[`'‘’ʿ]?Abdullah)\s+said\s*:", regex.IGNORECASE
)


def english_commentary_start(text: str, isnad_end: int = 0) -> int:
    """Where the compiler's words begin in an English rendering ("[Abu `Eisa said: ..."); len(text): none."""
    match = _ENGLISH_COMPILER.search(text, isnad_end)
    return match.start() if match else len(text)
