"""Bad scholars' transcriptions (issue 32): one clear message with the file and line, exit code 1, nothing written."""

from __future__ import annotations

import pytest

from tests.cli_runner import one_error_line, run
from tests.paths import FIXTURES

W2 = FIXTURES / "transcriptions" / "latin" / "W2.xml"
HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0">
  <teiHeader><fileDesc><titleStmt><title>t</title></titleStmt><publicationStmt><p>p</p></publicationStmt>
    <sourceDesc><p>s</p></sourceDesc></fileDesc></teiHeader>
  <text><body>
"""
CASES = {
    "not-tei": ('<?xml version="1.0"?>\n<html>\n  <body><p>In principio</p></body>\n</html>\n', "T003", 2),
    "empty-choice": (HEADER + "<p>In principio erat\n<choice/> verbum</p></body></text></TEI>\n", "T010", 7),
    "undeclared-hand": (
        HEADER + '<p>In principio\n<add hand="#m9">erat</add> verbum</p></body></text></TEI>\n',
        "T012",
        7,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_transcription_is_one_located_message_and_nothing_is_written(case, tmp_path):
    content, code, line = CASES[case]
    bad = tmp_path / f"{case}.xml"
    bad.write_text(content, encoding="utf-8")
    output = tmp_path / "out" / "edition.xml"
    result = run("collate", bad, W2, "-o", output)
    assert result.exit_code == 1
    message = one_error_line(result)
    assert message.startswith(f"{bad}:{line}:") and f"[{code}]" in message, message
    assert not (tmp_path / "out").exists()


def test_a_wrong_transcription_setting_in_the_manifest_is_m030_at_its_line(tmp_path):
    manifest = tmp_path / "edition.toml"
    manifest.write_text(
        f'[edition]\nid = "e"\ntitle = "t"\n\n[transcription]\nabbr = "both"\n\n[[witness]]\nid = "W2"\nfile = "{W2}"\n',
        encoding="utf-8",
    )
    result = run("collate", "--manifest", manifest, "-o", tmp_path / "out" / "edition.xml")
    assert result.exit_code == 1
    message = one_error_line(result)
    assert message.startswith(f"{manifest}:6:") and "[M030]" in message, message
    assert not (tmp_path / "out").exists()
