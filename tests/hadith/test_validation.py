"""A Qur'an reference out of range gets one located diagnostic from `tei validate` (QUR001), exit 1."""

from __future__ import annotations

from click.testing import CliRunner

from tei.cli import main


def _encode_and_validate(tmp_path, text: str):
    source = tmp_path / "C.txt"
    source.write_text(text, encoding="utf-8")
    runner = CliRunner()
    encoded = runner.invoke(main, ["encode", str(source), "-o", str(tmp_path / "C.xml")])
    assert encoded.exit_code == 0, encoded.output
    return runner.invoke(main, ["validate", str(tmp_path / "C.xml")])


def test_references_in_range_pass(tmp_path):
    result = _encode_and_validate(tmp_path, "He recited [al Anfal 8:67-68] and [Al 'Imran 3:165].\n")
    assert result.exit_code == 0, result.output


def test_a_verse_beyond_its_surah_is_an_error_at_its_line(tmp_path):
    result = _encode_and_validate(tmp_path, "First line.\nHe recited [al Anfal 8:67-76].\n")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "[QUR001]" in line]
    assert len(lines) == 1
    assert "8:67-76 is out of range: surah 8 has 75 verses" in lines[0]
    line_number = int(lines[0].split(":")[1])
    written = (tmp_path / "C.xml").read_text(encoding="utf-8").splitlines()
    assert 'cRef="8:67-76"' in written[line_number - 1]


def test_a_surah_beyond_114_is_an_error(tmp_path):
    result = _encode_and_validate(tmp_path, "See [Sura CXV, 2].\n")
    assert result.exit_code == 1
    assert "surah 115 does not exist (the Qur'an has 114)" in result.output
