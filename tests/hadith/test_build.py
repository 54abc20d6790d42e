"""`tei build` of a pair of Arabic narrations: transcriptions, edition, site and PDF, all valid and lossless."""

from __future__ import annotations

from click.testing import CliRunner

from tei.apparatus import witness_text
from tei.cli import main
from tei.readers.transcription import read_transcription
from tei.xmlio import NSMAP, parse_file

MANIFEST = """[edition]
id = "pair"
title = "Two narrations of Sahih Muslim"
language = "ar"
base = "A"
profile = "hadith-ar"

[[witness]]
id = "A"
file = "a.txt"
references = {{ in-book = {first} }}

[[witness]]
id = "B"
file = "b.txt"
references = {{ in-book = {second} }}
"""


def test_building_an_arabic_pair(tmp_path, arabic_pairs):
    first, second = arabic_pairs[7]
    source = tmp_path / "source"
    source.mkdir()
    (source / "a.txt").write_text(first["arabic"], encoding="utf-8")
    (source / "b.txt").write_text(second["arabic"], encoding="utf-8")
    (source / "edition.toml").write_text(
        MANIFEST.format(first=first["idInBook"], second=second["idInBook"]), encoding="utf-8"
    )
    output = tmp_path / "build"
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(main, ["validate", str(output / "edition.xml")]).exit_code == 0
    tree = parse_file(output / "edition.xml")
    for wid, narration in (("A", first), ("B", second)):
        assert witness_text(tree, wid) == narration["arabic"]
        transcription = read_transcription(output / "transcriptions" / f"{wid}.xml")
        assert transcription.text == narration["arabic"]
        assert transcription.references == (("in-book", str(narration["idInBook"])),)
    assert [ab.get("type") for ab in tree.xpath("//tei:body/tei:ab", namespaces=NSMAP)] == ["isnad", "matn"]
    assert (output / "edition.pdf").stat().st_size > 0 and (output / "html" / "index.html").exists()
