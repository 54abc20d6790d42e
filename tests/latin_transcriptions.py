"""The W1/W2 Latin transcriptions of tests/fixtures/transcriptions/latin (issue 32) collated into an edition, and
an NT unit as the ECM and NA cite it (06* and 06C2, never 06): shared by the reader, print and teiphy tests."""

from __future__ import annotations

from pathlib import Path

from cli_runner import run

from tests.paths import FIXTURES

LATIN = FIXTURES / "transcriptions" / "latin"
W1, W2 = LATIN / "W1.xml", LATIN / "W2.xml"

# An NT unit as the ECM and NA cite it: the first hand (06*) and a corrector (06C2), never 06 itself.
NT = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0">
  <teiHeader><fileDesc><titleStmt><title>t</title></titleStmt><publicationStmt><p>p</p></publicationStmt>
    <sourceDesc><listWit><witness xml:id="A"/><witness n="06"/></listWit></sourceDesc></fileDesc></teiHeader>
  <text><body><ab>en <app><lem wit="#A">christo</lem><rdg wit="06*">kurio</rdg><rdg wit="06C2">theo</rdg></app>
  iesou</ab></body></text>
</TEI>
"""


def collated_latin(folder: Path) -> Path:
    """`tei collate` of W1 and W2 with the fixture's manifest, into folder/edition.xml."""
    output = folder / "edition.xml"
    result = run("collate", "--manifest", LATIN / "edition.toml", W1, W2, "-o", output)
    assert result.exit_code == 0, result.stderr
    return output
