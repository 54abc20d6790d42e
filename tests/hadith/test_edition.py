"""The collated edition of hadith: Qur'an citations as refs with a declaration, reference numbers in the
witness list, and a file the validator accepts (schema, apparatus rules, QUR001)."""

from __future__ import annotations

import dataclasses

import regex
from click.testing import CliRunner
from paths import SEEDS

from tei.apparatus import witness_text
from tei.cli import main
from tei.collate import collate
from tei.readers.manifest import read_manifest
from tei.writers.edition import edition_bytes
from tei.xmlio import NSMAP, parse_bytes


def test_the_seed_edition_marks_every_citation_and_still_rebuilds(tmp_path):
    work = read_manifest(SEEDS / "edition.toml")
    tree = parse_bytes(edition_bytes(collate(work)), "seeds")
    refs = tree.xpath("//tei:body//tei:ref[@type='quran']", namespaces=NSMAP)
    assert sorted((r.text, r.get("cRef")) for r in refs) == sorted(
        [
            ("[al Anfal 8:9)", "8:9"),
            ("[al Anfal 8:67-68]", "8:67-68"),
            ("[Al 'Imran 3:165]", "3:165"),
            ("[Sūrat al-Anfāl: 9]", "8:9"),
            ("[Sūrat al-Anfāl: 67]", "8:67"),
            ("[Sūrat al-Anfāl: 69]", "8:69"),
        ]
    )
    assert tree.xpath("//tei:encodingDesc/tei:refsDecl[@xml:id='quran']", namespaces=NSMAP)
    for witness in work.witnesses:
        assert witness_text(tree, witness.id) == witness.text


def test_every_arabic_span_of_an_english_edition_carries_xml_lang_ar():
    tree = parse_bytes(edition_bytes(collate(read_manifest(SEEDS / "edition.toml"))), "seeds")
    arabic = regex.compile(r"\p{Arabic}")
    checked = 0
    for element in tree.getroot().iter():
        for text, owner in ((element.text, element), (element.tail, element.getparent())):
            if text and arabic.search(text):
                checked += 1
                assert owner.xpath("ancestor-or-self::*[@xml:lang][1]/@xml:lang") == ["ar"], text
    assert checked >= 10  # (ﷺ) in A and C, رضي الله عنهم in C, in the text and in the witness list


def test_reference_numbers_stand_in_the_witness_list():
    work = read_manifest(SEEDS / "edition.toml")
    first = dataclasses.replace(work.witnesses[0], references=(("abd-al-baqi", "1763"), ("in-book", "58")))
    tree = parse_bytes(edition_bytes(collate(dataclasses.replace(work, witnesses=(first, *work.witnesses[1:])))), "e")
    numbers = tree.xpath("//tei:listWit/tei:witness[@xml:id='A']/tei:idno", namespaces=NSMAP)
    assert [(n.get("type"), n.text) for n in numbers] == [("abd-al-baqi", "1763"), ("in-book", "58")]


def test_a_built_seed_edition_validates_and_an_out_of_range_citation_does_not(tmp_path):
    runner = CliRunner()
    edition = tmp_path / "edition.xml"
    collated = runner.invoke(main, ["collate", "--manifest", str(SEEDS / "edition.toml"), "-o", str(edition)])
    assert collated.exit_code == 0
    assert runner.invoke(main, ["validate", str(edition)]).exit_code == 0
    edition.write_text(edition.read_text("utf-8").replace('cRef="8:69"', 'cRef="8:96"'), "utf-8")
    result = runner.invoke(main, ["validate", str(edition)])
    assert result.exit_code == 1
    assert "[QUR001]" in result.output and "8:96 is out of range: surah 8 has 75 verses" in result.output
