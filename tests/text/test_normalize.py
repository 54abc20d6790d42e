"""The Arabic honorific formulas as one trie (tei.text.normalize._arabic_formulas): the same matches as the
alternation of each formula's pattern, longest first, which it replaced (it compiles in half the time)."""

from __future__ import annotations

import json

import pytest
import regex

from tei.text.normalize import ARABIC_FORMULAS, _arabic_formulas, arabic_formula

FATHA, TATWEEL = "\u064e", "\u0640"
SWAPS = str.maketrans({"ى": "ي", "ي": "ى", "ة": "ه", "ا": "أ"})


def alternation(formulas: tuple[str, ...], bracketed: bool = True) -> str:
    """The former pattern: each formula spelled whole, the longest first."""
    spelled = "|".join(arabic_formula(f) for f in sorted(formulas, key=len, reverse=True))
    return rf"\((?:{spelled})\)|(?:{spelled})" if bracketed else f"(?:{spelled})"


def matches(pattern: regex.Pattern, text: str) -> tuple[list, list]:
    """Every match found scanning the text, and the end of the match at every position where one starts."""
    found = [match.span() for match in pattern.finditer(text)]
    at = [(i, pattern.match(text, i).end()) for i in range(len(text)) if pattern.match(text, i)]
    return found, at


def written_forms(formulas: tuple[str, ...]) -> list[str]:
    """Each formula as texts write it and as they almost do: vocalised, with tatweel, with the other form of
    a letter, in parentheses, with a parenthesis left open, inside a longer word, run into another formula,
    cut short."""
    forms = []
    for formula in formulas:
        vocalised = "".join(c + (FATHA if c != " " else "") for c in formula)
        forms += [
            formula,
            vocalised,
            formula.replace(" ", TATWEEL + "  "),
            formula.translate(SWAPS),
            f"({formula})",
            f"({vocalised}",
            f"و{formula}",
            f"{formula}ه",
            formula[:-1],
            formula.rsplit(" ", 1)[0],
        ]
        forms += [f"{formula} {other}" for other in formulas] + [f"({formula} {other})" for other in formulas]
    return forms


@pytest.mark.parametrize("bracketed", [True, False])
@pytest.mark.parametrize("group", sorted(ARABIC_FORMULAS))
def test_the_trie_matches_what_the_alternation_matched(group, bracketed):
    formulas = ARABIC_FORMULAS[group]
    trie = regex.compile(_arabic_formulas(*formulas, bracketed=bracketed), regex.IGNORECASE)
    former = regex.compile(alternation(formulas, bracketed), regex.IGNORECASE)
    forms = written_forms(formulas)
    for text in [*forms, " ، ".join(forms)]:
        assert matches(trie, text) == matches(former, text), text
    assert len(trie.pattern) < len(former.pattern) or len(formulas) < 3


def test_formulas_that_part_at_letters_sharing_a_form_are_refused():
    # "ا" stands for every alif form, "آ" for itself: after "ب" both match "بآ", and the trie cannot tell
    # which of the two the alternation would have taken.
    with pytest.raises(ValueError, match="share a variant"):
        _arabic_formulas("باب", "بآبين")


@pytest.mark.needs_shared
def test_the_trie_matches_what_the_alternation_matched_in_sahih_muslim(shared_dir):
    folder = shared_dir / "corpora" / "arabic-hadith" / "sahih-muslim"
    texts = [
        record["arabic"]
        for path in sorted(folder.glob("*.json"))
        for record in json.loads(path.read_text("utf-8"))["hadiths"]
        if record["arabic"]
    ]
    found = 0
    for group, formulas in sorted(ARABIC_FORMULAS.items()):
        trie = regex.compile(_arabic_formulas(*formulas), regex.IGNORECASE)
        former = regex.compile(alternation(formulas), regex.IGNORECASE)
        for text in texts:
            ours = [m.span() for m in trie.finditer(text)]
            assert ours == [m.span() for m in former.finditer(text)], (group, text[:80])
            found += len(ours)
    assert found > 8000  # the eulogies, the companions' formulas, God's praise of 3,444 reports
