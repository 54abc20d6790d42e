"""Languages written in another script (xml:lang="ar-Latn", a transliteration): left to right, in the
chain's fonts, in every output (tei.render.fonts, xslt/common/apparatus.xsl, xslt/typst/preamble.xsl)."""

from __future__ import annotations

import subprocess

from tei.outputs import write_files
from tei.render import render
from tei.render.fonts import families_for, script

CHAIN = ["Noto Serif", "Amiri", "Droid Sans Fallback"]
BY_LANGUAGE = {"ar": ["Amiri"], "grc": ["Noto Serif"], "he": ["Frank Ruhl Libre"]}

TRANSLITERATION = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">
  <teiHeader><fileDesc>
    <titleStmt><title>A transliteration in a note (test edition)</title></titleStmt>
    <publicationStmt><p>Written for the font tests.</p></publicationStmt>
    <sourceDesc><listWit><witness xml:id="A">First</witness><witness xml:id="B">Second</witness></listWit></sourceDesc>
  </fileDesc></teiHeader>
  <text><body><p>The expression <hi xml:lang="ar-Latn">ḍarabnā ramlan</hi> may mean
    <app><lem wit="#A">we traversed</lem><rdg wit="#B">we crossed</rdg></app> sand dunes.</p></body></text>
</TEI>
"""


def test_a_script_subtag_is_read():
    assert [script(code) for code in ("ar-Latn", "ar", "grc-Latn", "en-GB", "sr-Cyrl-RS")] == [
        "latn",
        "",
        "latn",
        "",
        "cyrl",
    ]


def test_a_transliteration_is_set_in_the_chain_and_a_language_in_its_own_script_in_its_fonts():
    assert families_for("ar", CHAIN, BY_LANGUAGE)[0] == "Amiri"
    assert families_for("ar-Arab", CHAIN, BY_LANGUAGE)[0] == "Amiri"
    assert families_for("ar-Latn", CHAIN, BY_LANGUAGE) == CHAIN, "Amiri set the Latin letters of BAlam52"
    assert families_for("grc-Latn", CHAIN, BY_LANGUAGE)[0] == "Noto Serif"
    assert families_for("he-Latn", CHAIN, BY_LANGUAGE) == CHAIN


def test_a_transliteration_runs_left_to_right_in_both_print_sources(tmp_path):
    edition = tmp_path / "transliteration.xml"
    edition.write_text(TRANSLITERATION, encoding="utf-8")
    latex = render(edition, "latex", tmp_path / "out.tex").files[tmp_path / "out.tex"].decode()
    assert "\\teiarabic" not in latex.split("\\begin{document}")[1], "no right-to-left Arabic run"
    assert "ramlan\\teilangend{} may" in latex, "the space after the transliteration is kept"
    pdf = tmp_path / "out.pdf"
    write_files(render(edition, "pdf", pdf).files)
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert "ḍarabnā ramlan may mean" in " ".join(text.split()), "Typst sets it left to right"
