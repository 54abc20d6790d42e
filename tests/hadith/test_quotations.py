"""Qur'an verses quoted in Arabic, found by their words (tei.hadith.quotations): vocalised or not, in part, with
a reference, marked in transcriptions and editions; precision and recall on the hand-checked sample."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hadith.quotation_sample import measure

from tei.cli import main
from tei.collate import collate
from tei.hadith import quotations
from tei.hadith.quotations import find_quotations
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.writers.transcription import transcription_bytes
from tei.xmlio import NSMAP, parse_bytes

BADR = "فَأَنْزَلَ اللَّهُ عَزَّ وَجَلَّ ‏{‏ إِذْ تَسْتَغِيثُونَ رَبَّكُمْ فَاسْتَجَابَ لَكُمْ أَنِّي مُمِدُّكُمْ بِأَلْفٍ مِنَ الْمَلاَئِكَةِ مُرْدِفِينَ‏}‏ فَأَمَدَّهُ اللَّهُ بِالْمَلاَئِكَةِ"


def test_a_vocalised_verse_is_found_with_its_reference():
    (quotation,) = find_quotations(BADR)
    assert quotation.reference == "8:9"
    assert BADR[quotation.start : quotation.end].startswith("إِذْ تَسْتَغِيثُونَ")
    assert BADR[quotation.start : quotation.end].endswith("مُرْدِفِينَ")


def test_unvocalised_partial_and_across_verses():
    assert [q.reference for q in find_quotations("فأنزل الله إذ تستغيثون ربكم فاستجاب لكم")] == ["8:9"]
    text = "ثم تلا ‏{‏ فمن يعمل مثقال ذرة خيرا يره ومن يعمل مثقال ذرة شرا يره‏}‏"
    assert [q.reference for q in find_quotations(text)] == ["99:7-8"]
    assert [q.reference for q in find_quotations("وقرأ ‏{‏ ق والقرآن المجيد‏}‏")] == ["50:1"]


def test_the_language_of_prayer_is_not_a_quotation():
    for text in (
        "من كان يؤمن بالله واليوم الآخر فليقل خيرا",
        "بسم الله الرحمن الرحيم",
        "لا إله إلا الله وحده لا شريك له له الملك وله الحمد وهو على كل شىء قدير",
        "The Messenger said: fear Allah",
    ):
        assert find_quotations(text) == [], text


def test_quotations_are_refs_in_transcriptions_and_editions():
    work = Work(
        "w",
        "W",
        language="ar",
        profile="hadith-ar",
        base="A",
        witnesses=(
            Witness("A", "A", BADR, "ar"),
            Witness("B", "B", BADR.replace("فَأَمَدَّهُ", "فأمده"), "ar"),
        ),
    )
    tree = parse_bytes(transcription_bytes(work.witnesses[0], work), "t")
    (ref,) = tree.xpath("//tei:ref[@type='quran']", namespaces=NSMAP)
    assert (ref.get("cRef"), ref.get("subtype")) == ("8:9", "quotation")
    edition = parse_bytes(edition_bytes(collate(work)), "e")
    refs = edition.xpath("//tei:ref[@type='quran']", namespaces=NSMAP)
    assert [(r.get("cRef"), r.get("subtype")) for r in refs] == [("8:9", "quotation")]  # one ref, the verse whole


def test_a_collated_corpus_pair_with_a_quotation_validates(tmp_path, muslim_records):
    texts = [r["arabic"] for r in muslim_records[4:6]]  # the first quotes 31:34 in braces
    files = []
    for n, text in enumerate(texts):
        files.append(tmp_path / f"{n}.txt")
        files[-1].write_text(text, encoding="utf-8")
    edition = tmp_path / "edition.xml"
    assert CliRunner().invoke(main, ["collate", *map(str, files), "-o", str(edition)]).exit_code == 0
    assert 'cRef="31:34"' in edition.read_text("utf-8")
    result = CliRunner().invoke(main, ["validate", str(edition)])
    assert result.exit_code == 0, result.output


def test_precision_and_recall_on_the_sample(shared_dir):
    score, differences = measure(shared_dir)
    assert score.labels >= 200
    assert score.precision >= 0.95 and score.recall >= 0.95, differences


def test_an_english_narration_with_an_arabic_eulogy_does_not_read_the_quran():
    quotations.quran.cache_clear()
    assert find_quotations("Umar (رضي الله عنهم) said: on the day of Badr") == []
    assert quotations.quran.cache_info().currsize == 0  # 0.3 s saved in each build of the seeds


def test_texts_passed_over_without_the_quran_hold_no_quotation(muslim_records, monkeypatch):
    """The pre-check (_may_quote) only ever passes over texts in which the whole search finds nothing: the
    Arabic and English of 300 records (all 6,385 texts with Arabic in ../shared were compared once)."""
    texts = [text for record in muslim_records[:300] for text in (record["arabic"], *record["english"].values())]
    checked = [[(q.start, q.end, q.reference) for q in find_quotations(text)] for text in texts]
    monkeypatch.setattr(quotations, "_may_quote", lambda text, words, keys: True)
    assert checked == [[(q.start, q.end, q.reference) for q in find_quotations(text)] for text in texts]


def test_words_that_end_several_verses_are_resolved_by_the_quotation_before_them():
    """«إلى قوله {إن الله على كل شيء قدير}» after a quotation of 3:165 is 3:165, not 2:20 (issue 34)."""
    text = "فأنزل الله تعالى {أولما أصابتكم مصيبة قد أصبتم مثليها} إلى قوله {إن الله على كل شيء قدير} قال"
    first, second = find_quotations(text)
    assert (first.reference, first.cert) == ("3:165", None)
    assert (second.reference, second.cert, second.places > 1) == ("3:165", None, True)


def test_a_surah_the_text_names_resolves_the_verse():
    text = "قال أبو موسى فكيف بهذه الآية في سورة المائدة {فلم تجدوا ماء فتيمموا صعيدا طيبا} فقال عبد الله"
    (quotation,) = find_quotations(text)
    assert (quotation.reference, quotation.cert) == ("5:6", None)  # 4:43 has the same words


def test_words_that_end_several_verses_without_context_are_uncertain_with_every_candidate():
    (quotation,) = find_quotations("وقرأ {إن الله على كل شيء قدير}")
    assert quotation.cert == "low" and quotation.places > 2
    assert {"2:20", "3:165"} <= {f"{r.surah}:{v}" for r in quotation.ranges for v in range(r.first, r.last + 1)}


def test_no_confident_wrong_verse_among_the_ambiguous(shared_dir):
    score, differences = measure(shared_dir)
    assert score.ambiguous >= 10 and score.confident_wrong == 0, differences
    assert score.precision >= 0.98 and score.recall >= 0.98, differences


def test_every_quotation_of_a_corpus_work_is_a_whole_ref_of_its_edition(shared_dir):
    """Each record of Muslim kitabs 1-16 that quotes a verse, collated with the record after it (a parallel): every
    quotation found in either witness's text stands whole as a ref of the edition with its cRef (and cert), so
    the verse index (built from the edition's refs) has it."""
    from hadith.boundaries import records

    by_id = records(shared_dir)
    ids = list(by_id)
    checked = 0
    for n, record in enumerate(ids[:-1]):
        first, second = by_id[record]["arabic"], by_id[ids[n + 1]]["arabic"]
        found = [(text, q) for text in (first, second) for q in find_quotations(text)]
        if not any(text is first for text, _ in found):
            continue
        witnesses = (Witness("A", "A", first, "ar"), Witness("B", "B", second, "ar"))
        work = Work(f"q{n}", "Q", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
        edition = parse_bytes(edition_bytes(collate(work)), "e")
        refs = {
            ("".join(r.itertext()), r.get("cRef"), r.get("cert"))
            for r in edition.xpath("//tei:ref[@type='quran']", namespaces=NSMAP)
        }
        for text, quotation in found:
            assert (text[quotation.start : quotation.end], quotation.reference, quotation.cert) in refs, record
            checked += 1
    assert checked >= 250


# Each collection's pairs with a quotation in the first record and the quotations checked, as measured on
# 2 December 2026 (a change of the rules or of the corpus shows here).
COLLECTION_COVERAGE = {"tirmidhi": (84, 111), "abudawud": (286, 562), "bukhari": (732, 1658)}
# Quotations not yet a whole ref of their edition (kitab:record id, cRef), 2 December 2026: NOT fixed, listed so
# that any other miss fails and a fix shows (docs/hadith.md). Abu Dawud 32:9/10: the witnesses' ضَعْفٍ/ضُعْفٍ
# cut 30:54 across units (the ref holds only مِنْ ضُعْفٍ); al-Bukhari: refs missing (49:13, 19:30, 2:195, 8:22,
# 17:110, ...) or cut (7:199, 41:22, 4:127, 2:240) where the next record quotes the verse otherwise.
KNOWN_MISSING = {
    "tirmidhi": [],
    "abudawud": [("32:9", "30:54"), ("32:10", "30:54")],
    "bukhari": [
        ("61:1", "49:13"),
        ("62:68", "19:30"),
        ("65:40", "2:195"),
        ("65:41", "2:195"),
        ("65:53", "2:234;2:240"),
        ("65:54", "2:240"),
        ("65:164", "7:199"),
        ("65:167", "8:22"),
        ("65:168", "8:22"),
        ("65:337", "41:22"),
        ("65:338", "41:22"),
        ("67:64", "4:127"),
        ("68:89", "2:240"),
        ("80:24", "17:110"),
        ("81:124", "7:43;15:47"),
    ],
}


@pytest.mark.parametrize("collection", sorted(COLLECTION_COVERAGE))
def test_every_quotation_of_the_other_collections_is_a_whole_ref_of_its_edition(shared_dir, collection):
    """As for Muslim above, over every record of at-Tirmidhi, Abu Dawud and al-Bukhari that quotes a verse
    (issue 34), collated with the record after it in the collection: every quotation found in either
    witness's text stands whole as a ref of the edition with its cRef (and cert), so the verse index (built
    from the edition's refs) has it; but for KNOWN_MISSING (at-Tirmidhi: none)."""
    folder = shared_dir / "corpora" / "arabic-hadith" / collection
    files = sorted(folder.glob("*.json"), key=lambda path: int(path.stem))
    records = [
        (path.stem, record) for path in files for record in json.loads(path.read_text(encoding="utf-8"))["hadiths"]
    ]
    pairs = checked = 0
    missing = []
    for n, (kitab, record) in enumerate(records[:-1]):
        first, second = record["arabic"], records[n + 1][1]["arabic"]
        found = [(text, q) for text in (first, second) for q in find_quotations(text)]
        if not any(text is first for text, _ in found):
            continue
        pairs += 1
        witnesses = (Witness("A", "A", first, "ar"), Witness("B", "B", second, "ar"))
        work = Work(f"q{n}", "Q", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
        edition = parse_bytes(edition_bytes(collate(work)), "e")
        refs = {
            ("".join(r.itertext()), r.get("cRef"), r.get("cert"))
            for r in edition.xpath("//tei:ref[@type='quran']", namespaces=NSMAP)
        }
        for text, quotation in found:
            checked += 1
            if (text[quotation.start : quotation.end], quotation.reference, quotation.cert) not in refs:
                missing.append((f"{kitab}:{record['id']}", quotation.reference))
    assert missing == KNOWN_MISSING[collection], missing
    assert (pairs, checked) == COLLECTION_COVERAGE[collection]
