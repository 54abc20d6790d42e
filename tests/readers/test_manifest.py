"""The manifest: the seeds' own, and one clear located error for each kind of mistake."""

import shutil

import pytest
from paths import SEEDS

from tei.errors import InvalidInputError, MissingResourceError
from tei.readers.manifest import read_manifest

GOOD = """[edition]
id = "w"
title = "A work"
base = "A"

[[witness]]
id = "A"
file = "a.txt"

[[witness]]
id = "B"
siglum = "B1"
file = "b.txt"
"""


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "a.txt").write_text("one text")
    (tmp_path / "b.txt").write_text("another text")
    return tmp_path


def write(folder, text):
    (folder / "edition.toml").write_text(text)
    return folder / "edition.toml"


def test_the_seeds_manifest():
    work = read_manifest(SEEDS)
    assert [w.id for w in work.witnesses] == ["A", "B", "C", "D"]
    assert work.base == "A" and work.profile == "hadith-en"
    assert [w.kind for w in work.witnesses] == ["close", "close", "close", "paraphrase"]
    for witness in work.witnesses:
        assert witness.text.encode("utf-8") == (SEEDS / witness.source.split("/")[-1]).read_bytes()
        assert witness.description and witness.language == "en"


def test_a_good_manifest(folder):
    work = read_manifest(write(folder, GOOD))
    assert [(w.id, w.siglum) for w in work.witnesses] == [("A", "A"), ("B", "B1")]
    assert work.profile == "default"
    assert [w.kind for w in work.witnesses] == ["close", "close"]


def test_a_witness_can_be_declared_a_paraphrase(folder):
    work = read_manifest(write(folder, GOOD.replace('file = "b.txt"', 'file = "b.txt"\nkind = "paraphrase"')))
    assert [w.kind for w in work.witnesses] == ["close", "paraphrase"]


@pytest.mark.parametrize(
    "change, code, line",
    [
        (('base = "A"', 'base = "A"\ncolour = "red"'), "M003", 5),
        (('siglum = "B1"', 'siglum = "A"'), "M008", 12),
        (('id = "B"', 'id = "A"'), "M007", 11),
        (('id = "A"\nfile', 'id = "1A"\nfile'), "M006", 7),
        (('base = "A"', 'base = "Z"'), "M009", 4),
        (('title = "A work"\n', ""), "M004", None),
        (('file = "b.txt"', "file = 3"), "M005", 13),
        (("[edition]", "[edition"), "M002", 1),
        (('file = "b.txt"', 'file = "b.txt"\nkind = "gloss"'), "M013", 14),
    ],
    ids=[
        "unknown-key",
        "duplicate-siglum",
        "duplicate-id",
        "bad-id",
        "unknown-base",
        "missing-title",
        "wrong-type",
        "bad-toml",
        "unknown-kind",
    ],
)
def test_mistakes_are_located(folder, change, code, line):
    old, new = change
    path = write(folder, GOOD.replace(old, new, 1))
    with pytest.raises(InvalidInputError) as excinfo:
        read_manifest(path)
    diagnostic = excinfo.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.line) == (code, line)
    assert diagnostic.file == str(path)


def test_missing_witness_file(folder):
    (folder / "b.txt").unlink()
    with pytest.raises(MissingResourceError) as excinfo:
        read_manifest(write(folder, GOOD))
    assert excinfo.value.diagnostics[0].code == "M010"
    assert "b.txt" in excinfo.value.diagnostics[0].message


def test_missing_manifest(tmp_path):
    with pytest.raises(MissingResourceError) as excinfo:
        read_manifest(tmp_path)
    assert excinfo.value.diagnostics[0].code == "M001"


def test_non_utf8_witness(folder):
    (folder / "b.txt").write_bytes("line one\ncaf\u00e9".encode("latin-1"))
    with pytest.raises(InvalidInputError) as excinfo:
        read_manifest(write(folder, GOOD))
    diagnostic = excinfo.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("T001", 2, 4)
    assert diagnostic.file.endswith("b.txt")


def test_manifest_is_copied_byte_for_byte_with_the_seeds(tmp_path):
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    assert [w.text for w in read_manifest(copy).witnesses] == [w.text for w in read_manifest(SEEDS).witnesses]


def test_the_facts_that_cite_the_edition(folder):
    facts = 'short_title = "Work"\neditors = ["Doe, Jane", "Ibn Rushd"]\nversion = "1.2"\ndoi = "10.5281/zenodo.42"\n'
    work = read_manifest(write(folder, GOOD.replace('base = "A"\n', 'base = "A"\n' + facts)))
    assert (work.short_title, work.editors, work.version, work.doi) == (
        "Work",
        ("Doe, Jane", "Ibn Rushd"),
        "1.2",
        "10.5281/zenodo.42",
    )
    assert read_manifest(write(folder, GOOD)).editors == ()


@pytest.mark.parametrize(
    "fact, code, line",
    [
        ('doi = "https://doi.org/10.5281/zenodo.42"', "M020", 5),
        ('editors = "Doe, Jane"', "M005", 5),
        ("editors = []", "M005", 5),
    ],
    ids=["doi-as-url", "editors-not-a-list", "editors-empty"],
)
def test_citation_facts_that_are_wrong_are_located(folder, fact, code, line):
    path = write(folder, GOOD.replace('base = "A"\n', 'base = "A"\n' + fact + "\n"))
    with pytest.raises(InvalidInputError) as excinfo:
        read_manifest(path)
    assert [(d.code, d.line) for d in excinfo.value.diagnostics] == [(code, line)]


@pytest.mark.parametrize(
    "change, code, line",
    [
        (('title = "A work"', 'title = "A\\fwork"'), "M018", 3),
        (('siglum = "B1"', 'siglum = "B\\u0001"'), "M018", 12),
        (('file = "b.txt"', 'file = "b.txt"\ndescription = "a form\\ffeed"'), "M018", 14),
        (('base = "A"', 'base = "A"\nlanguage = "not a lang!"'), "M019", 5),
        (('file = "a.txt"', 'file = "a.txt"\nlanguage = "ar_EG"'), "M019", 9),
    ],
)
def test_values_the_edition_carries_are_checked_where_read(folder, change, code, line):
    """Failures 11 and 12: control characters in the title, a siglum or the language were a ValueError
    traceback after the transcriptions were written; a form feed in a description became <g> in <witness>;
    `language = "not a lang!"` failed only later, as a schema error on edition.xml."""
    with pytest.raises(InvalidInputError) as excinfo:
        read_manifest(write(folder, GOOD.replace(*change)))
    assert [(d.code, d.line) for d in excinfo.value.diagnostics] == [(code, line)]


def test_good_language_tags_pass(folder):
    for tag in ("en", "ar", "ar-Latn", "en-GB", "grc", "x-private", "zh-Hant-TW", "de-1996"):
        work = read_manifest(write(folder, GOOD.replace('base = "A"', f'base = "A"\nlanguage = "{tag}"')))
        assert work.language == tag


def test_a_manifest_with_a_byte_order_mark_is_read(folder):
    """Point 8: a manifest saved with a UTF-8 BOM (as some editors do) was M002."""
    (folder / "edition.toml").write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    assert [w.id for w in read_manifest(folder / "edition.toml").witnesses] == ["A", "B"]


def test_a_deeply_nested_toml_array_is_m002(folder):
    """Failure 11: a deeply nested TOML array was a RecursionError traceback."""
    with pytest.raises(InvalidInputError) as excinfo:
        read_manifest(write(folder, GOOD + "deep = " + "[" * 100_000 + "]" * 100_000 + "\n"))
    assert [d.code for d in excinfo.value.diagnostics] == ["M002"]
