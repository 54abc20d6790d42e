"""Eulogies in every vocalisation and spelling: one token each under the hadith profiles, one class per kind
(the Prophet's, a Companion's, another prophet's or an angel's, God's praise), and marked in transcriptions."""

from __future__ import annotations

import regex

from tei.collate.tokenize import tokenize
from tei.hadith.markup import EULOGY, edition_spans, hadith_spans
from tei.text.normalize import PROFILES

AR, EN = PROFILES["hadith-ar"], PROFILES["hadith-en"]
MARKS = regex.compile(r"[\p{M}\u0640]")
# Every formula, written bare: what the texts hold once their marks are taken away (alif maqsura as in the texts)
BARE_FORMULAS = {
    "prophet": ("صلى الله عليه وسلم",),
    "companion": ("رضى الله عنه", "رضي الله عنه"),
    "peace": ("عليه السلام", "عليهما السلام"),
    "god": ("عز وجل", "تبارك وتعالى", "الله تعالى"),
}


def _formulas(text: str, profile=AR) -> list[tuple[str, str]]:
    return [(t.surface, t.key) for t in tokenize(text, profile) if t.key.startswith("⟨")]


def test_every_spelling_is_one_token_of_its_class():
    cases = {
        "قال رسول الله صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ يقول": ("صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ", "prophet"),
        "قال رسول الله صلى الله عليه وسلم يقول": ("صلى الله عليه وسلم", "prophet"),
        "قال رسول الله صلي الله عليه وسلم يقول": ("صلي الله عليه وسلم", "prophet"),
        "قال رسول الله ﷺ يقول": ("ﷺ", "prophet"),
        "قال رسول الله صلعم يقول": ("صلعم", "prophet"),
        "قال رسول الله (صلى الله عليه وآله وسلم) يقول": ("(صلى الله عليه وآله وسلم)", "prophet"),
        "قال النبي عليه الصلاة والسلام يقول": ("عليه الصلاة والسلام", "prophet"),
        "عن أبي هريرة - رَضِيَ اللَّهُ عَنْهُ - قال": ("رَضِيَ اللَّهُ عَنْهُ", "companion"),
        "عن عائشة - رضى الله عنها - قالت": ("رضى الله عنها", "companion"),
        "عن ابن عمر رَضِيَ اللَّهُ عَنْهُمَا قال": ("رَضِيَ اللَّهُ عَنْهُمَا", "companion"),
        "عن القوم رضي الله عنهم قالوا": ("رضي الله عنهم", "companion"),
        "أتاني جبريل - عَلَيْهِ السَّلاَمُ - فبشرني": ("عَلَيْهِ السَّلاَمُ", "peace"),
        "فأنزل اللَّهُ تَعَالَى في أبي طالب": ("تَعَالَى", "god"),
        "عبادة اللَّهِ عَزَّ وَجَلَّ فإذا": ("عَزَّ وَجَلَّ", "god"),
        "غير اللَّهِ سُبْحَانَهُ من الأصنام": ("سُبْحَانَهُ", "god"),
        "عن ربه تَبَارَكَ وَتَعَالَى قال": ("تَبَارَكَ وَتَعَالَى", "god"),
    }
    for text, (formula, honorific_class) in cases.items():
        assert _formulas(text) == [(formula, f"⟨{honorific_class}⟩")], text
        assert [text[s:e] for s, e, _, _ in hadith_spans(text)] == [formula], text
        assert [a["subtype"] for _, _, _, a in edition_spans(text)] == [honorific_class], text


def test_vocalised_and_bare_formulas_share_a_key():
    assert AR.key("x") != "⟨prophet⟩"
    bare, vocalised = "صلى الله عليه وسلم", "صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ"
    assert _formulas(bare)[0][1] == _formulas(vocalised)[0][1] == _formulas("ﷺ")[0][1]


def test_words_that_only_look_like_a_formula_are_words():
    for text in (
        "وصلى الله عليه وسلم",  # a verb with its conjunction: no formula starts inside a word
        "تعالى الله",  # تعالى not after God's name
        "سبحان الله",
        "قال تعالوا",
        "عليه دين",
    ):
        assert _formulas(text) == [] and hadith_spans(text) == [], text


def test_english_renderings_and_their_misprints():
    for formula, honorific_class in (
        ("(ﷺ)", "prophet"),
        ("(peace be upon him)", "prophet"),
        ("(may peace be upon him)", "prophet"),
        ("(may peace and blessings be upon him)", "prophet"),
        ("(way peace he upon him)", "prophet"),
        ("(may peace be, upon him)", "prophet"),
        ("(may Allah bless him and grant him peace)", "prophet"),
        ("(may Allah be pleased with him)", "companion"),
        ("(Allah be pleased with them)", "companion"),
        ("(Allah he pleased with both of them)", "companion"),
        ("(peace be upon both of them)", "prophet"),
    ):
        text = f"The Messenger {formula} said"
        assert _formulas(text, EN) == [(formula, f"⟨{honorific_class}⟩")], formula


def test_every_formula_of_the_kitabs_is_found_in_any_vocalisation(muslim_records):
    """Counted twice: by the bare letters of the text (marks removed) and by the eulogy pattern on the text as
    written; the two counts agree for every kind, and hundreds of the formulas are vocalised."""
    found = {name: 0 for name in BARE_FORMULAS}
    vocalised = 0
    for record in muslim_records:
        text = record["arabic"]
        bare = MARKS.sub("", text)
        matches = list(EULOGY.finditer(text))
        for name, formulas in BARE_FORMULAS.items():
            expected = sum(len(regex.findall(rf"(?<!\p{{L}}){f}(?!\p{{L}})", bare)) for f in formulas)
            got = [m for m in matches if m.lastgroup == name]
            assert len(got) >= expected, (record["id"], name)
            found[name] += len(got)
        vocalised += sum(1 for m in matches if MARKS.search(m.group()))
    assert found["prophet"] > 4000 and found["companion"] > 400 and found["peace"] > 40 and found["god"] > 100
    assert vocalised > 100
