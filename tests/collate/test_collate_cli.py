"""`tei collate` on the command line: plain texts and TEI transcriptions, with and without a manifest, and
every bad input giving a correct edition or one clear message (never a traceback, never invalid XML)."""

from __future__ import annotations

import subprocess

import pytest
from cli_runner import one_error_line, run
from paths import SEEDS

from tei.apparatus import witness_ids, witness_text
from tei.xmlio import NSMAP, parse_file

SEED_FILES = sorted(SEEDS.glob("*.txt"))


def _collate(tmp_path, texts: list[str], *options) -> tuple:
    files = []
    for n, text in enumerate(texts):
        path = tmp_path / f"w{n:02d}.txt"
        path.write_bytes(text.encode("utf-8"))
        files.append(path)
    out = tmp_path / "edition.xml"
    return run("collate", *files, "-o", out, *options), out


def _assert_lossless(out, texts: list[str]):
    tree = parse_file(out)
    ids = witness_ids(tree)
    assert len(ids) == len(texts)
    for wid, text in zip(ids, texts):
        assert witness_text(tree, wid) == text


def _assert_valid(out, jing, tei_all_rng):
    result = subprocess.run([jing, str(tei_all_rng), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_seeds_with_manifest_round_trip_through_tei_witness(tmp_path):
    out = tmp_path / "edition.xml"
    result = run("collate", *SEED_FILES, "-o", out, "--manifest", SEEDS / "edition.toml")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == str(out)  # then the schema files written beside it
    for wid, seed in zip("ABCD", SEED_FILES):
        printed = run("witness", out, "--wit", wid)
        assert printed.exit_code == 0, printed.stderr
        assert printed.stdout_bytes == seed.read_bytes()


def test_manifest_alone_collates_all_its_witnesses(tmp_path):
    out = tmp_path / "edition.xml"
    assert run("collate", "-o", out, "--manifest", SEEDS / "edition.toml").exit_code == 0
    assert witness_ids(parse_file(out)) == ["A", "B", "C", "D"]


def test_without_manifest_ids_follow_the_order_given(tmp_path):
    out = tmp_path / "edition.xml"
    result = run("collate", SEED_FILES[2], SEED_FILES[0], "-o", out)
    assert result.exit_code == 0, result.stderr
    tree = parse_file(out)
    assert witness_ids(tree) == ["A", "B"]
    assert witness_text(tree, "A").encode() == SEED_FILES[2].read_bytes()
    assert not tree.getroot().xpath("//tei:lem", namespaces=NSMAP)  # no base witness: readings only


def test_tei_transcriptions_are_read_and_linked(tmp_path):
    assert run("encode", *SEED_FILES[:2], "-o", tmp_path / "tr").exit_code == 0
    out = tmp_path / "edition.xml"
    result = run("collate", tmp_path / "tr" / "A.xml", tmp_path / "tr" / "B.xml", "-o", out)
    assert result.exit_code == 0, result.stderr
    tree = parse_file(out)
    targets = tree.getroot().xpath("//tei:witness/tei:ptr[@type='transcription']/@target", namespaces=NSMAP)
    assert targets == ["tr/A.xml", "tr/B.xml"]
    assert witness_text(tree, "B").encode() == SEED_FILES[1].read_bytes()


def test_the_schema_is_linked_relative_to_the_output(tmp_path):
    out = tmp_path / "edition.xml"
    run("collate", *SEED_FILES[:2], "-o", out)
    prolog = out.read_text("utf-8").split("<TEI", 1)[0]
    assert prolog.count("<?xml-model href=") == 2 and "tei-edition.rng" in prolog


def test_stdout_gets_the_edition_without_schema_link(tmp_path):
    result = run("collate", *SEED_FILES[:2], "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith("<?xml") and "xml-model" not in result.stdout


@pytest.mark.parametrize(
    "texts",
    [
        pytest.param(["", "Some words here.", "Some other words here."], id="an empty witness"),
        pytest.param(["...,;!", "The Prophet said.", "The Prophet spoke."], id="only punctuation"),
        pytest.param(["The Prophet (ﷺ) turned towards the Qibla."], id="a single witness"),
        pytest.param(["Same text, twice.\n", "Same text, twice.\n"], id="two identical witnesses"),
        pytest.param(["", ""], id="two empty witnesses"),
        pytest.param(["  leading and trailing  \n\n", "leading\tand trailing"], id="whitespace only differs"),
    ],
)
def test_awkward_inputs_give_a_valid_lossless_edition(tmp_path, texts, jing, tei_all_rng):
    result, out = _collate(tmp_path, texts)
    assert result.exit_code == 0, result.stderr
    _assert_lossless(out, texts)
    _assert_valid(out, jing, tei_all_rng)


def test_fifty_witnesses(tmp_path, jing, tei_all_rng):
    words = [
        "When",
        "it",
        "was",
        "the",
        "day",
        "of",
        "Badr",
        "the",
        "Messenger",
        "of",
        "Allah",
        "looked",
        "at",
        "the",
        "polytheists",
    ]
    texts = [" ".join(words[: 5 + n % 9] + [f"variant{n % 7}"] + words[5 + n % 9 :]) for n in range(50)]
    result, out = _collate(tmp_path, texts)
    assert result.exit_code == 0, result.stderr
    _assert_lossless(out, texts)
    _assert_valid(out, jing, tei_all_rng)


def test_characters_xml_cannot_hold_are_refused_with_their_place(tmp_path):
    result, out = _collate(tmp_path, ["good text", "bad \x01 text"])
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "w01.txt:1:5: error: [T002]" in line and "--map-invalid-chars" in line
    assert not out.exists()


def test_characters_xml_cannot_hold_can_be_mapped(tmp_path, jing, tei_all_rng):
    texts = ["good text", "bad \x01 text\x0b"]
    result, out = _collate(tmp_path, texts, "--map-invalid-chars")
    assert result.exit_code == 0, result.stderr
    _assert_lossless(out, texts)
    _assert_valid(out, jing, tei_all_rng)


def test_carriage_returns_survive(tmp_path):
    texts = ["line one\r\nline two\r\n", "line one\nline 2\r"]
    result, out = _collate(tmp_path, texts)
    assert result.exit_code == 0, result.stderr
    _assert_lossless(out, texts)


def test_nothing_to_collate_is_a_usage_error(tmp_path):
    result = run("collate", "-o", tmp_path / "e.xml")
    assert result.exit_code == 2
    assert "[C002]" in one_error_line(result)


def test_unknown_profile_is_named_with_the_known_ones(tmp_path):
    result, out = _collate(tmp_path, ["a b", "a c"], "--profile", "klingon")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "[C001]" in line and "hadith-en" in line
    assert not out.exists()


def test_missing_witness_file(tmp_path):
    result = run("collate", tmp_path / "nope.txt", "-o", tmp_path / "e.xml")
    assert result.exit_code == 3
    assert "nope.txt" in one_error_line(result)


def test_two_transcriptions_with_one_id_are_refused(tmp_path):
    run("encode", SEED_FILES[0], "-o", tmp_path / "one.xml")
    run("encode", SEED_FILES[1], "-o", tmp_path / "two.xml")
    result = run("collate", tmp_path / "one.xml", tmp_path / "two.xml", "-o", tmp_path / "e.xml")
    assert result.exit_code == 1
    assert "[C003]" in one_error_line(result)


def test_not_utf8_is_refused(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9".encode("latin-1"))
    result = run("collate", bad, SEED_FILES[0], "-o", tmp_path / "e.xml")
    assert result.exit_code == 1
    assert "[T001]" in one_error_line(result)


def test_a_hand_edited_edition_is_not_overwritten(tmp_path):
    result, out = _collate(tmp_path, ["a b", "a c"])
    out.write_text(out.read_text("utf-8").replace("a ", "a  "), "utf-8")
    again, _ = _collate(tmp_path, ["a b", "a c"])
    assert again.exit_code == 1
    assert "[O004]" in one_error_line(again)
    assert run("collate", tmp_path / "w00.txt", tmp_path / "w01.txt", "-o", out, "--force").exit_code == 0


def test_manifest_naming_an_unknown_profile_is_refused_at_its_line(tmp_path):
    manifest = tmp_path / "edition.toml"
    text = (SEEDS / "edition.toml").read_text("utf-8").replace('profile = "hadith-en"', 'profile = "hadith-xx"')
    manifest.write_text(text, "utf-8")
    for seed in SEED_FILES:
        (tmp_path / seed.name).write_bytes(seed.read_bytes())
    result = run("collate", "-o", tmp_path / "e.xml", "--manifest", manifest)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "[M011]" in line and "hadith-en" in line
    line_number = text.splitlines().index('profile = "hadith-xx"') + 1
    assert f"edition.toml:{line_number}:" in line
