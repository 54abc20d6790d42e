"""An authority file of narrators ([hadith] narrators in the manifest): every narrator's persName whose name is a
spelling of the file, in the transcriptions and in the edition's isnad, carries ref="narrators.xml#id", whatever
its vocalisation; other names carry none; a missing or bad file is one error naming the file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tei.apparatus import witness_text
from tei.cli import main
from tei.errors import InvalidInputError, MissingResourceError
from tei.hadith.authority import name_key, read_narrators
from tei.readers.transcription import read_transcription
from tei.xmlio import NSMAP, parse_file

AUTHORITY = Path(__file__).parent / "fixtures" / "narrators.xml"
MANIFEST = """[edition]
id = "pair"
title = "Two narrations of Sahih Muslim"
language = "ar"
base = "A"
profile = "hadith-ar"

[hadith]
narrators = "{narrators}"

[[witness]]
id = "A"
file = "a.txt"

[[witness]]
id = "B"
file = "b.txt"
"""
# Pair 8's chains: A عبد بن حميد، عبد الرزاق، معمر، الزهري، عروة، عائشة; B زهير بن حرب، يعقوب بن إبراهيم،
# ابن أخي الزهري، عمه، عروة بن الزبير، عائشة. Of these the file knows معمر، الزهري، عروة (two spellings)، عائشة.
KNOWN = {"معمر": "mamar", "الزهري": "zuhri", "عروة": "urwa", "عروة بن الزبير": "urwa", "عائشة": "aisha"}


def test_the_key_ignores_vocalisation_and_punctuation():
    assert name_key("عُرْوَةَ بْنِ الزُّبَيْرِ،") == name_key("عروة بن الزبير")
    entries = dict(read_narrators(AUTHORITY, "narrators.xml"))
    assert entries[name_key("عَائِشَةَ")] == "narrators.xml#aisha"
    assert len(entries) == 7


def _source(tmp_path, pair, narrators="narrators.xml") -> Path:
    source = tmp_path / "source"
    source.mkdir()
    for name, narration in zip(("a.txt", "b.txt"), pair, strict=True):
        (source / name).write_text(narration["arabic"], encoding="utf-8")
    (source / "edition.toml").write_text(MANIFEST.format(narrators=narrators), encoding="utf-8")
    shutil.copy(AUTHORITY, source / "narrators.xml")
    return source


def _check_refs(elements) -> set[str]:
    """Each persName's @ref is the file's id for its name's spelling, or absent; the ids found."""
    keys = {name_key(name): pid for name, pid in KNOWN.items()}
    for element in elements:
        pid = keys.get(name_key(element.xpath("string()")))
        assert element.get("ref") == (pid and f"narrators.xml#{pid}"), element.xpath("string()")
    return {e.get("ref").partition("#")[2] for e in elements if e.get("ref")}


def test_narrators_carry_the_authority_ref_in_transcriptions_and_edition(tmp_path, arabic_pairs):
    pair = arabic_pairs[7]
    output = tmp_path / "build"
    source = _source(tmp_path, pair)
    result = CliRunner().invoke(
        main, ["build", str(source), "-o", str(output), "--stages", "transcriptions,edition,schema,validate"]
    )
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(main, ["validate", str(output / "edition.xml")]).exit_code == 0
    edition = parse_file(output / "edition.xml")
    for wid, narration in zip("AB", pair, strict=True):
        path = output / "transcriptions" / f"{wid}.xml"
        found = _check_refs(parse_file(path).xpath("//tei:persName[@type='narrator']", namespaces=NSMAP))
        assert found >= {"urwa", "mamar", "zuhri"} if wid == "A" else found >= {"urwa"}, wid
        assert read_transcription(path).text == narration["arabic"]
        assert witness_text(edition, wid) == narration["arabic"]  # byte for byte
        read = [
            name
            for name in edition.xpath("//tei:ab[@type='isnad']//tei:persName[@type='narrator']", namespaces=NSMAP)
            if all(
                f"#{wid}" in r.get("wit", "").split()
                for r in name.xpath("ancestor::tei:lem | ancestor::tei:rdg", namespaces=NSMAP)
            )
        ]
        assert _check_refs(read) == ({"mamar", "zuhri", "urwa", "aisha"} if wid == "A" else {"urwa", "aisha"}), wid


def test_a_missing_authority_file_is_m016_at_its_line(tmp_path, arabic_pairs):
    source = _source(tmp_path, arabic_pairs[7], narrators="nobody.xml")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "build")])
    assert result.exit_code == MissingResourceError.exit_code, result.output
    assert "[M016]" in result.output and "edition.toml:9:" in result.output and "nobody.xml" in result.output
    assert not (tmp_path / "build" / "edition.xml").exists()


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            '<listPerson xmlns="http://www.tei-c.org/ns/1.0">\n<person><persName>عروة</persName></person>\n</listPerson>',
            2,
        ),
        ('<listPerson xmlns="http://www.tei-c.org/ns/1.0">\n<person xml:id="a"/>\n</listPerson>', 2),
        ("<listPerson/>", None),
    ],
)
def test_a_bad_authority_file_is_m017(tmp_path, content, line):
    path = tmp_path / "narrators.xml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInputError) as raised:
        read_narrators(path, "narrators.xml")
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.code == "M017" and diagnostic.file == str(path) and diagnostic.line == line
