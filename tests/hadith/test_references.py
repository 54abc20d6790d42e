"""Typed hadith reference numbers: from the manifest into the transcription's header and back."""

from __future__ import annotations

import pytest

from tei.errors import InvalidInputError
from tei.readers.manifest import read_manifest
from tei.readers.transcription import read_transcription
from tei.writers.transcription import transcription_bytes

MANIFEST = """[edition]
id = "badr"
title = "Badr"

[[witness]]
id = "A"
file = "a.txt"
references = { abd-al-baqi = "1763", in-book = 58 }
"""


def test_references_go_from_the_manifest_to_the_header_and_back(tmp_path):
    (tmp_path / "a.txt").write_text("حدثنا زهير، عن أبي هريرة، قال", encoding="utf-8")
    (tmp_path / "edition.toml").write_text(MANIFEST, encoding="utf-8")
    work = read_manifest(tmp_path)
    witness = work.witness("A")
    assert witness.references == (("abd-al-baqi", "1763"), ("in-book", "58"))
    assert witness.language == "ar"  # from the script: the manifest does not say
    path = tmp_path / "A.xml"
    path.write_bytes(transcription_bytes(witness, work, path))
    assert '<idno type="abd-al-baqi">1763</idno>' in path.read_text(encoding="utf-8")
    assert read_transcription(path).references == witness.references


@pytest.mark.parametrize("value", ['"1763"', '{ "two words" = "1" }', "{ in-book = true }", '{ in-book = "" }'])
def test_a_malformed_table_is_m012_at_its_line(tmp_path, value):
    (tmp_path / "a.txt").write_text("text", encoding="utf-8")
    (tmp_path / "edition.toml").write_text(
        MANIFEST.replace('{ abd-al-baqi = "1763", in-book = 58 }', value), encoding="utf-8"
    )
    with pytest.raises(InvalidInputError) as caught:
        read_manifest(tmp_path)
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.code, diagnostic.line) == ("M012", 8)
