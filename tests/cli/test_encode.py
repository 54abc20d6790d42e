"""`tei encode`: one transcription per file; clear refusals for bad input; nothing half-written."""

import shutil

import pytest
from cli_runner import one_error_line, run
from paths import SEEDS

from tei.readers.transcription import read_transcription

SEED_FILES = sorted(SEEDS.glob("*.txt"))


def test_encodes_one_file(tmp_path):
    out = tmp_path / "a.xml"
    result = run("encode", SEED_FILES[0], "-o", out)
    assert result.exit_code == 0, result.stderr
    assert read_transcription(out).text.encode() == SEED_FILES[0].read_bytes()
    assert result.stdout.strip() == str(out)


def test_encodes_several_files_into_a_folder_with_manifest_facts(tmp_path):
    result = run("encode", *SEED_FILES, "-o", tmp_path / "out", "--manifest", SEEDS / "edition.toml")
    assert result.exit_code == 0, result.stderr
    for letter, seed in zip("ABCD", SEED_FILES):
        witness = read_transcription(tmp_path / "out" / f"{letter}.xml")
        assert witness.text.encode() == seed.read_bytes()
        assert witness.description


def test_stdin_to_stdout():
    result = run("encode", "-", "-o", "-", input="from stdin\n")
    assert result.exit_code == 0
    assert '<p xml:id="A-p1" xml:space="preserve">from stdin\n</p>' in result.stdout


def test_missing_input(tmp_path):
    result = run("encode", tmp_path / "nope.txt", "-o", tmp_path / "out.xml")
    assert result.exit_code == 3
    assert "nope.txt" in one_error_line(result) and "does not exist" in result.stderr
    assert not (tmp_path / "out.xml").exists()


def test_non_utf8_input(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\n\xff\xfe bad")
    result = run("encode", bad, "-o", tmp_path / "out.xml")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{bad}:2:1: error: [T001]")
    assert not (tmp_path / "out.xml").exists()


def test_a_directory_as_input(tmp_path):
    result = run("encode", tmp_path, "-o", tmp_path / "out.xml")
    assert result.exit_code == 1
    assert "is a directory" in one_error_line(result)


def test_output_path_that_is_a_file_for_several_inputs(tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("not a folder")
    result = run("encode", *SEED_FILES[:2], "-o", blocker)
    assert result.exit_code == 2
    assert str(blocker) in one_error_line(result)
    assert blocker.read_text() == "not a folder"


def test_unwritable_output_folder(readonly_dir):
    result = run("encode", *SEED_FILES[:2], "-o", readonly_dir)
    assert result.exit_code == 1
    assert "[O005]" in one_error_line(result)


def test_hand_edited_output_is_kept_without_force(tmp_path):
    out = tmp_path / "a.xml"
    assert run("encode", SEED_FILES[0], "-o", out).exit_code == 0
    out.write_text(out.read_text().replace("Battle of Badr", "battle of Badr"))
    edited = out.read_bytes()
    result = run("encode", SEED_FILES[0], "-o", out)
    assert result.exit_code == 1
    assert "--force" in one_error_line(result)
    assert out.read_bytes() == edited
    assert run("encode", SEED_FILES[0], "-o", out, "--force").exit_code == 0
    assert len(list(tmp_path.glob("a.xml.*.bak"))) == 1


def test_illegal_character(tmp_path):
    bad = tmp_path / "ff.txt"
    bad.write_bytes(b"page one\x0cpage two")
    result = run("encode", bad, "-o", tmp_path / "ff.xml")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{bad}:1:9: error: [T002]")
    assert run("encode", bad, "-o", tmp_path / "ff.xml", "--map-invalid-chars").exit_code == 0
    assert read_transcription(tmp_path / "ff.xml").text == "page one\x0cpage two"


def test_input_is_left_untouched(tmp_path):
    copy = tmp_path / "seed.txt"
    shutil.copy(SEED_FILES[3], copy)
    before = copy.stat().st_mtime_ns, copy.read_bytes()
    run("encode", copy, "-o", tmp_path / "d.xml")
    assert (copy.stat().st_mtime_ns, copy.read_bytes()) == before


@pytest.mark.parametrize("args", [["encode"], ["encode", "x.txt"], ["nonsense"]])
def test_usage_errors(args):
    assert run(*args).exit_code == 2
