"""Qur'an citations: the verse-count table, every form in the seeds, common other forms, range checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tei.hadith.quran import (
    ARABIC_SURAH_NAMES,
    SURAH_NAMES,
    VERSE_COUNTS,
    VerseRange,
    canonical,
    find_citations,
    parse_canonical,
    parse_reference,
    problems,
    roman_value,
    surah_named,
)

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def test_the_table_has_114_surahs_and_6236_verses():
    assert len(VERSE_COUNTS) == len(SURAH_NAMES) == 114
    assert sum(VERSE_COUNTS) == 6236


@pytest.mark.parametrize(
    "surah, verses",
    [
        (1, 7),
        (2, 286),
        (3, 200),
        (8, 75),
        (9, 129),
        (26, 227),
        (36, 83),
        (55, 78),
        (103, 3),
        (108, 3),
        (114, 6),
    ],
)
def test_known_verse_counts(surah, verses):
    assert VERSE_COUNTS[surah - 1] == verses


def test_every_seed_citation_is_found_with_its_surah_and_verses():
    found = {}
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        found[path.name[:3]] = [(text[c.start : c.end], c.reference) for c in find_citations(text)]
    assert found == {
        "000": [],
        "001": [],
        "002": [("[al Anfal 8:9)", "8:9"), ("[al Anfal 8:67-68]", "8:67-68"), ("[Al 'Imran 3:165]", "3:165")],
        "003": [("[Sūrat al-Anfāl: 9]", "8:9"), ("[Sūrat al-Anfāl: 67]", "8:67"), ("[Sūrat al-Anfāl: 69]", "8:69")],
    }


@pytest.mark.parametrize(
    "written, reference",
    [
        ("al Anfal 8:9", "8:9"),
        ("Sūrat al-Anfāl: 9", "8:9"),
        ("Sūrat Āl ʿImrān: 165", "3:165"),
        ("Surah Al-Baqarah 2:255", "2:255"),
        ("Qur'an 2:255, 257", "2:255;2:257"),
        ("Q. 8:9-10", "8:9-10"),
        ("8:67–68", "8:67-68"),
        ("2:255; 3:18", "2:255;3:18"),
        ("Sura VIII, 9", "8:9"),
        ("viii. 67", "8:67"),
        ("al-Baqara, verse 255", "2:255"),
        ("Surat Yasin: 1-5", "36:1-5"),
        ("At-Taubah 9:5", "9:5"),
        ("al-Fil: 3", "105:3"),
        ("الأنفال: 9", "8:9"),
        ("سورة آل عمران: ١٦٥", "3:165"),
        ("\u200fالبقرة\u200f: 255-257", "2:255-257"),
    ],
)
def test_common_forms(written, reference):
    assert canonical(parse_reference(written)) == reference


@pytest.mark.parametrize("text", ["10:30 am", "see above", "9", "Anfal", "Not a Surah: 3"])
def test_what_is_not_a_reference(text):
    assert parse_reference(text) is None


def test_citations_need_brackets_or_an_introduction():
    text = "At 10:30 he recited (Qur'an 2:255) and then Surah al-Baqarah 2:256, see [9] and (ch. 3)."
    assert [c.reference for c in find_citations(text)] == ["2:255", "2:256"]


def test_names_fold_transliteration_and_articles():
    assert surah_named("al-Anfāl") == surah_named("Anfal") == surah_named("AL ANFAL") == 8
    assert surah_named("Bani Isra'il") == surah_named("al-Isra") == 17
    assert surah_named("Nowhere") is None


def test_every_name_finds_its_surah():
    for number, (names, arabic) in enumerate(zip(SURAH_NAMES, ARABIC_SURAH_NAMES), 1):
        assert [surah_named(name) for name in names.split("|")] == [number] * len(names.split("|"))
        assert surah_named(arabic.replace("_", " ")) == number


def test_an_arabic_citation_after_a_quoted_verse():
    text = "﴿إِذْ تَسْتَغِيثُونَ رَبَّكُمْ﴾ [الأنفال: 9] ثم"
    assert [(text[c.start : c.end], c.reference) for c in find_citations(text)] == [("[الأنفال: 9]", "8:9")]


def test_roman_numerals():
    assert [roman_value(n) for n in ("i", "iv", "viii", "xiv", "xl", "xcix", "cxiv")] == [1, 4, 8, 14, 40, 99, 114]


def test_out_of_range_references_are_reported_not_refused():
    assert problems(parse_reference("8:75")) == []
    assert problems(parse_reference("8:76")) == ["8:76 is out of range: surah 8 has 75 verses"]
    assert problems(parse_reference("Sura CXV, 2")) == ["surah 115 does not exist (the Qur'an has 114)"]
    assert problems(parse_reference("2:0")) and problems(parse_reference("8:70-66"))


@given(st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300), st.integers(0, 5)), min_size=1, max_size=4))
def test_canonical_references_read_back(parts):
    ranges = tuple(VerseRange(surah, first, first + extra) for surah, first, extra in parts)
    assert parse_canonical(canonical(ranges)) == ranges
    assert parse_reference(canonical(ranges)) == ranges
