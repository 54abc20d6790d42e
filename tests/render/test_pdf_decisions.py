"""The editor's decisions printed by both PDF engines, read back from the PDF (issue 16, points 1-2; issue 17,
point 4): an eclectic lemma with its sigla, a conjecture marked 'conj.' with who made it, notes, @cause, @resp,
witDetail, a group printed by its sigil, and the majority printed as 'rell.' on request."""

from __future__ import annotations

import re

import pytest

from .test_pdf import assert_apparatus_keyed, read_pdf, render_pdf

pytestmark = pytest.mark.external_tool

DECISIONS = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">
  <teiHeader><fileDesc>
    <titleStmt><title>An editor's decisions (test edition)</title><editor xml:id="ed">The Editor</editor></titleStmt>
    <publicationStmt><p>Written for the print tests.</p></publicationStmt>
    <sourceDesc><listWit>
      <witness xml:id="A">Base</witness>
      <witness xml:id="D">Paraphrase</witness>
      <listWit xml:id="Q" n="Q"><witness xml:id="Q1">First Quarto</witness><witness xml:id="Q2">Second Quarto</witness>
        <witness xml:id="Q3">Third Quarto</witness></listWit>
    </listWit></sourceDesc>
  </fileDesc>
  <encodingDesc><variantEncoding method="parallel-segmentation" location="internal" source="#A"/></encodingDesc>
  </teiHeader>
  <text><body>
    <ab>When it was the day of Badr, the Prophet <app><lem wit="#D">looked at the</lem><rdg wit="#A #Q1 #Q2 #Q3">cast
      a glance at the</rdg><note>D's wording chosen as the lemma.</note></app> polytheists, who were <app><lem
      resp="#ed">a thousand</lem><rdg wit="#A #D">one thousand</rdg><rdg wit="#Q" cause="eyeskip">two
      thousand</rdg></app> men, while his <app><lem wit="#A #D">Companions</lem><rdg wit="#Q1 #Q2 #Q3"
      resp="#ed">companions</rdg><witDetail wit="#Q2" type="margin">corrected in the margin</witDetail></app> were
      three hundred and nineteen.</ab>
  </body></text>
</TEI>
"""


@pytest.fixture
def edition(tmp_path):
    path = tmp_path / "decisions.xml"
    path.write_text(DECISIONS, encoding="utf-8")
    return path


def apparatus_of(pdf) -> str:
    return " ".join(page.apparatus for page in read_pdf(pdf, every_line_numbered=True))


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_editors_decisions_are_printed(engine, edition, tmp_path, request):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = render_pdf(edition, tmp_path / "decisions.pdf", engine, **{"line-step": "1"})
    assert_apparatus_keyed(pdf, edition, every_line_numbered=True)
    apparatus = apparatus_of(pdf)
    # The lemma from D, not from the base witness A: its sigil is printed; the note of the unit too.
    assert re.search(r"looked at the D\] cast a glance at the A Q ", apparatus), apparatus
    assert "(D's wording chosen as the lemma.)" in apparatus
    # A conjecture: 'conj.' and who made it; the cause of a reading; a group by its sigil.
    assert re.search(r"a thousand conj\. ed\] one thousand A D; two thousand Q \(eyeskip\)", apparatus), apparatus
    # The base witness's lemma without sigla; @resp of a reading; what a witness shows besides its text.
    assert re.search(r"Companions\] companions Q resp\. ed \(margin: corrected in the margin Q2\)", apparatus), (
        apparatus
    )


def test_a_positive_apparatus_can_print_the_majority_as_rell(edition, tmp_path):
    pdf = render_pdf(
        edition, tmp_path / "majority.pdf", "typst", **{"line-step": "1", "majority": "rell.", "lemma-sigla": "always"}
    )
    apparatus = apparatus_of(pdf)
    assert re.search(r"looked at the D\] cast a glance at the rell\.", apparatus), apparatus
    assert re.search(r"Companions A D\] companions rell\.", apparatus), apparatus
    assert "one thousand A D" in apparatus, "a minority reading keeps its sigla"


NESTED = DECISIONS.replace(
    """<rdg wit="#A #Q1 #Q2 #Q3">cast
      a glance at the</rdg>""",
    """<rdg wit="#A #Q1 #Q2 #Q3">cast a <app><lem resp="#ed">gaze</lem><rdg wit="#A #Q1 #Q2 #Q3">glance</rdg></app> at
      the</rdg>""",
)


def test_a_reading_shows_its_witnesses_words_where_a_unit_inside_it_has_a_conjecture(tmp_path):
    """The editor chose D's words, and conjectured 'gaze' inside the base's reading: that reading is printed
    as its witnesses read it ('glance'), not with the conjecture, which stands in no printed text."""
    edition = tmp_path / "nested.xml"
    edition.write_text(NESTED, encoding="utf-8")
    pdf = render_pdf(edition, tmp_path / "nested.pdf", "typst", **{"line-step": "1"})
    apparatus = apparatus_of(pdf)
    assert re.search(r"looked at the D\] cast a glance at the A Q ", apparatus), apparatus
