"""Transcriptions of hadith: isnad and matn divisions, eulogies, Qur'an citations, Arabic language, lossless."""

from __future__ import annotations

import subprocess

from tei.model import Witness, Work
from tei.readers.plain_text import read_witness
from tei.readers.transcription import read_transcription
from tei.writers.transcription import transcription_bytes
from tei.xmlio import NSMAP, parse_bytes

WORK = Work(id="w", title="Hadith")


def _tree(witness: Witness):
    return parse_bytes(transcription_bytes(witness, WORK), "transcription")


def test_an_arabic_narration_is_divided_into_isnad_and_matn(tmp_path, arabic_pairs):
    for pair in arabic_pairs:
        for narration in pair:
            source = tmp_path / f"{narration['idInBook']}.txt"
            source.write_text(narration["arabic"], encoding="utf-8")
            witness = read_witness(source, "A")  # no manifest: the language comes from the script
            assert witness.language == "ar"
            output = tmp_path / f"{narration['idInBook']}.xml"
            output.write_bytes(transcription_bytes(witness, WORK, output))
            assert read_transcription(output).text.encode("utf-8") == source.read_bytes()
            tree = parse_bytes(output.read_bytes(), str(output))
            assert [d.get("type") for d in tree.xpath("//tei:body/tei:div", namespaces=NSMAP)] == ["isnad", "matn"]
            assert tree.getroot().get("{http://www.w3.org/XML/1998/namespace}lang") == "ar"
            if "صلى الله عليه وسلم" in narration["arabic"]:
                assert tree.xpath("//tei:seg[@type='eulogy' and @subtype='prophet']", namespaces=NSMAP)


def test_an_english_rendering_is_divided_too():
    text = "It is narrated from Umar (may Allah be pleased with him) that the Prophet (ﷺ) said: yes.\n"
    tree = _tree(Witness("B", "B", text))
    isnad, matn = tree.xpath("//tei:body/tei:div", namespaces=NSMAP)
    assert "".join(isnad.itertext()).strip() == "It is narrated from Umar (may Allah be pleased with him) that"
    eulogy = isnad.xpath("string(.//tei:seg[@subtype='companion'])", namespaces=NSMAP)
    assert eulogy == "(may Allah be pleased with him)"
    assert matn.xpath("string(.//tei:seg[@subtype='prophet'])", namespaces=NSMAP) == "(ﷺ)"


def test_citations_are_refs_with_a_canonical_reference_and_a_declaration(tmp_path, jing, tei_all_rng):
    text = "He recited: “When ye appealed” [al Anfal 8:9) and {Say} [Sūrat al-Anfāl: 67]. Also (Qur'an 2:255, 257)."
    witness = Witness("C", "C", text)
    tree = _tree(witness)
    refs = tree.xpath("//tei:ref[@type='quran']", namespaces=NSMAP)
    assert [(r.text, r.get("cRef")) for r in refs] == [
        ("[al Anfal 8:9)", "8:9"),
        ("[Sūrat al-Anfāl: 67]", "8:67"),
        ("(Qur'an 2:255, 257)", "2:255;2:257"),
    ]
    assert tree.xpath("//tei:refsDecl[@xml:id='quran']/tei:cRefPattern/@matchPattern", namespaces=NSMAP)
    path = tmp_path / "C.xml"
    path.write_bytes(transcription_bytes(witness, WORK, path))
    assert read_transcription(path).text == text
    result = subprocess.run([jing, str(tei_all_rng), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_a_chain_inside_the_text_is_a_seg():
    text = "So Allah helped him. Abu Zumail said that the hadith was narrated to him by Ibn `Abbas who said: Go."
    (seg,) = _tree(Witness("A", "A", text)).xpath("//tei:seg[@type='isnad']", namespaces=NSMAP)
    assert seg.text == "Abu Zumail said that the hadith was narrated to him by Ibn `Abbas who said: "


def test_a_formula_around_an_arabic_run_stays_one_eulogy():
    tree = _tree(Witness("A", "A", "the Messenger of Allah (ﷺ) said"))
    (seg,) = tree.xpath("//tei:seg[@type='eulogy']", namespaces=NSMAP)
    assert "".join(seg.itertext()) == "(ﷺ)"
    assert seg.xpath("tei:foreign/@xml:lang", namespaces=NSMAP) == ["ar"]
