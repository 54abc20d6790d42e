"""Without a manifest, the work's language comes from its witnesses' script, not a default of English."""

from __future__ import annotations

from cli_runner import run
from lxml import etree

from tei.app.encode import work_language
from tei.model import Witness

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FIRST = "قَالَ رَسُولُ اللَّهِ يَوْمَ بَدْرٍ: مَنْ يَنْظُرُ مَا صَنَعَ أَبُو جَهْلٍ"
SECOND = "قال رسول الله يوم بدر من ينظر ما فعل أبو جهل"


def test_the_language_most_witnesses_are_in_wins():
    def witness(language):
        return Witness("A", "A", "", language)

    assert work_language([witness("ar"), witness("en"), witness("ar")]) == "ar"
    assert work_language([witness("en"), witness("ar")]) == "en"  # a tie: the first witness's
    assert work_language([]) == "en"


def test_arabic_witnesses_collated_without_a_manifest_make_an_arabic_edition(tmp_path):
    files = []
    for name, text in (("a.txt", FIRST), ("b.txt", SECOND)):
        (tmp_path / name).write_text(text, "utf-8")
        files.append(tmp_path / name)
    result = run("collate", *files, "-o", tmp_path / "edition.xml")
    assert result.exit_code == 0, result.stderr
    root = etree.parse(str(tmp_path / "edition.xml")).getroot()
    assert root.get(XML_LANG) == "ar"
    assert root.find(f".//{TEI}body").findall(f".//{TEI}foreign") == []  # no word wrapped as foreign
    result = run("encode", files[0], "-o", tmp_path / "a.xml")
    assert result.exit_code == 0, result.stderr
    transcription = etree.parse(str(tmp_path / "a.xml")).getroot()
    assert transcription.get(XML_LANG) == "ar"
    assert transcription.find(f".//{TEI}body").findall(f".//{TEI}foreign") == []
