"""What collation keeps whole (tei.hadith.units): each narrator's name of an Arabic chain and each Qur'an citation
is one token, the tokens still rebuild the text, and two chains align narrator by narrator."""

from __future__ import annotations

from tei.collate import collate
from tei.collate.tokenize import tokenize
from tei.hadith.units import whole_tokens
from tei.model import Section, VariationUnit, Witness, Work
from tei.text.normalize import PROFILES

CHAIN = "حَدَّثَنَا مُحَمَّدُ بْنُ بَشَّارٍ، حَدَّثَنَا يَحْيَى بْنُ سَعِيدٍ، عَنْ أَبِي هُرَيْرَةَ، قَالَ قَالَ رَسُولُ اللَّهِ ﷺ الدِّينُ النَّصِيحَةُ"


def test_a_narrators_name_is_one_token_and_the_text_rebuilds():
    witness = Witness("A", "A", CHAIN, "ar")
    tokens = whole_tokens(tokenize(CHAIN, PROFILES["hadith-ar"]), CHAIN, witness)
    assert "".join(t.text for t in tokens) == CHAIN
    surfaces = [t.surface for t in tokens]
    assert "مُحَمَّدُ بْنُ بَشَّارٍ،" in surfaces and "أَبِي هُرَيْرَةَ،" in surfaces
    name = next(t for t in tokens if t.surface.startswith("يَحْيَى"))
    assert name.key == "يحيي بن سعيد" and name.word == "يَحْيَى بْنُ سَعِيدٍ"
    assert "الدِّينُ" in surfaces  # the text stays word by word


def test_a_matn_is_never_joined():
    witness = Witness("A", "A", CHAIN, "ar")
    tokens = whole_tokens(tokenize(CHAIN, PROFILES["hadith-ar"]), CHAIN, witness, "matn")
    assert len(tokens) == len(tokenize(CHAIN, PROFILES["hadith-ar"]))


def test_a_quran_citation_is_one_token_in_an_english_text():
    text = "Allah revealed: 'When you sought help' [al Anfal 8:9) and so on."
    witness = Witness("A", "A", text, "en")
    tokens = whole_tokens(tokenize(text, PROFILES["hadith-en"]), text, witness)
    assert "".join(t.text for t in tokens) == text
    assert "[al Anfal 8:9)" in [t.surface for t in tokens]


def test_two_chains_differ_by_whole_names_never_inside_one():
    other = CHAIN.replace("مُحَمَّدُ بْنُ بَشَّارٍ", "مُحَمَّدُ بْنُ الْمُثَنَّى")
    witnesses = (Witness("A", "A", CHAIN, "ar"), Witness("B", "B", other, "ar"))
    edition = collate(Work("w", "w", "ar", "A", "hadith-ar", witnesses))
    isnad = next(s for s in edition.body if isinstance(s, Section) and s.type == "isnad")
    units = [part for part in isnad.body if isinstance(part, VariationUnit)]
    assert [[r.content for r in u.readings()] for u in units] == [[("مُحَمَّدُ بْنُ بَشَّارٍ، ",), ("مُحَمَّدُ بْنُ الْمُثَنَّى، ",)]]
