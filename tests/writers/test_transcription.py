"""TEI transcriptions: lossless for every seed and for any text, valid TEI, Arabic marked, bad characters refused."""

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import SEEDS

from tei.errors import InvalidInputError
from tei.model import Witness, Work
from tei.readers.manifest import read_manifest
from tei.readers.transcription import read_transcription
from tei.writers.transcription import paragraphs, transcription_bytes

WORK = Work(id="w", title="Test work")
XML_CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\ufffe\uffff").filter(
    lambda c: c in "\t\n\r" or ord(c) >= 0x20
)


def round_trip(tmp_path, witness, map_invalid=False):
    path = tmp_path / f"{witness.id}.xml"
    path.write_bytes(transcription_bytes(witness, WORK, path, map_invalid))
    return read_transcription(path)


@pytest.fixture(scope="module")
def seeds_work():
    return read_manifest(SEEDS)


def test_every_seed_rebuilds_byte_for_byte(tmp_path, seeds_work):
    for witness in seeds_work.witnesses:
        rebuilt = round_trip(tmp_path, witness)
        assert rebuilt.text.encode("utf-8") == (SEEDS / witness.source.rsplit("/", 1)[-1]).read_bytes()
        assert (rebuilt.id, rebuilt.siglum, rebuilt.description) == (witness.id, witness.siglum, witness.description)


def test_seed_d_keeps_its_label_line_and_final_newline(tmp_path, seeds_work):
    witness = seeds_work.witness("D")
    document = transcription_bytes(witness, seeds_work).decode()
    assert '<p xml:id="D-p1" xml:space="preserve">Understand this hadith ＋\n</p>' in document
    assert document.count("<p xml:id=") == 5
    assert round_trip(tmp_path, witness).text.endswith("lawful for them.\n")


def test_arabic_runs_are_marked(seeds_work):
    document = transcription_bytes(seeds_work.witness("C"), seeds_work).decode()
    assert '<seg type="eulogy" subtype="companion"><foreign xml:lang="ar">رضي الله عنهم</foreign></seg>' in document
    assert '<language ident="ar">Arabic</language>' in document


def test_transcriptions_are_valid_tei(tmp_path, seeds_work, jing, tei_all_rng):
    paths = []
    for witness in seeds_work.witnesses:
        path = tmp_path / f"{witness.id}.xml"
        path.write_bytes(transcription_bytes(witness, seeds_work, path))
        paths.append(str(path))
    result = subprocess.run([jing, str(tei_all_rng), *paths], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@settings(max_examples=150, deadline=None)
@given(st.text(XML_CHARACTERS, max_size=300))
def test_any_xml_text_rebuilds_exactly(tmp_path_factory, text):
    witness = Witness("W", "W", text, source=None)
    assert round_trip(tmp_path_factory.mktemp("t"), witness).text == text


@given(st.text(max_size=200))
def test_paragraphs_join_to_the_text(text):
    assert "".join(paragraphs(text)) == text


def test_a_character_xml_cannot_hold_is_refused_with_its_place():
    witness = Witness("W", "W", "first line\nsecond\x0cline", source="w.txt")
    with pytest.raises(InvalidInputError) as excinfo:
        transcription_bytes(witness, WORK)
    diagnostic = excinfo.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.file, diagnostic.line, diagnostic.column) == ("T002", "w.txt", 2, 7)
    assert "U+000C" in diagnostic.message


def test_mapping_keeps_such_characters(tmp_path):
    text = "a\x0cb\x00 \u0627\x01\u0644"
    witness = Witness("W", "W", text, source=None)
    assert round_trip(tmp_path, witness, map_invalid=True).text == text
