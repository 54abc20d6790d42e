"""Every real edition of ../shared/corpora/tei-apparatus*/ and every pair of the Arabic corpus
(../shared/corpora/arabic-hadith) printed by both engines, and read back.

EVT, teiphy, open-cbgm, Stemmaweb, DLL, ALEA, PTA ... each encode an apparatus their own way (apps straight in
body, words as <w>, verse lines inside quotes inside paragraphs, a stanza deleted inside a metamark, lemmas
made of whole verse lines, witnesses undeclared, Greek, Hebrew, Arabic): every one must give a PDF whose
title, text and apparatus are there, with no line below the bottom margin, no blank page and every
character in an embedded font that has it. The Guidelines chapter is no TEI document (its root is a div):
refused. Page images of a Greek page with many witnesses and of an Arabic page go to tests/artifacts/.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from paths import SHARED

from tei.collate import collate
from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.model import Witness, Work
from tei.render import render
from tei.writers.edition import edition_bytes
from tei.xmlio import NSMAP, parse_file

from .test_pdf import assert_apparatus_keyed, latexmk  # noqa: F401 (latexmk: a fixture)
from .test_pdf_layout import assert_glyphs_covered, assert_within_margins_and_no_blank_page, save_page

pytestmark = [pytest.mark.needs_shared, pytest.mark.external_tool, pytest.mark.slow]

CORPORA = ("tei-apparatus", "tei-apparatus-conventions")
NOT_TEI = "tei-guidelines_TC-CriticalApparatus.xml"


def corpus_files() -> list[str]:
    found = []
    for corpus in CORPORA:
        folder = SHARED / "corpora" / corpus
        found += [f"{corpus}/{path.name}" for path in sorted(folder.glob("*.xml")) if path.name != NOT_TEI]
    return found or ["tei-apparatus/absent.xml"]


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout


# The page images looked at: a Greek collation of 140 witnesses, Arabic prose, a play-like verse edition.
PICTURED = {
    "tei-apparatus/open-cbgm_3_john_collation.xml": "greek-3-john",
    "tei-apparatus/teiphy_ubs_ephesians.xml": "greek-ephesians",
    "tei-apparatus-conventions/alea_Bisharah.xml": "arabic-bisharah",
}


@pytest.mark.parametrize("engine", ["typst", "latex"])
@pytest.mark.parametrize("name", corpus_files())
def test_a_real_edition_prints_within_its_margins(name, engine, shared_dir, tmp_path, request, artifacts):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = shared_dir / "corpora" / name
    rendered = render(edition, "pdf", tmp_path / "edition.pdf", {"engine": engine})
    assert not [d for d in rendered.diagnostics if d.severity is Severity.ERROR], rendered.diagnostics
    assert not [d for d in rendered.diagnostics if d.code in ("P014", "P023")], "every character has a font"
    (pdf_bytes,) = rendered.files.values()
    pdf = tmp_path / "edition.pdf"
    pdf.write_bytes(pdf_bytes)
    text = " ".join(pdf_text(pdf).split())
    assert "]" in text, "the apparatus is printed"
    title = parse_file(edition).getroot().find(".//tei:titleStmt/tei:title", NSMAP)
    assert " ".join("".join(title.itertext()).split())[:20] in text, "the title page is printed"
    assert_within_margins_and_no_blank_page(pdf, last_page_free=engine == "latex")
    assert_glyphs_covered(pdf)
    if name in PICTURED:
        pages = int(
            subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout.split("Pages:")[1].split()[0]
        )
        save_page(pdf, pages - 1, artifacts / f"print-{engine}-{PICTURED[name]}")


def test_a_document_without_a_tei_text_is_refused(shared_dir, tmp_path):
    edition = shared_dir / "corpora" / "tei-apparatus" / NOT_TEI
    with pytest.raises(InvalidInputError) as refused:
        render(edition, "pdf", tmp_path / "edition.pdf")
    assert refused.value.diagnostics[0].code == "H001"


# Every unit keyed to its line, read back with every line numbered (line-step 1). The reader of the test
# (tests/render/test_pdf.py) finds rows by their letters and keys by the lemma's first word: it reads
# these editions; the others need more of it (units in unnumbered headings, words as <w> without spaces,
# double-end-point units whose lemma is elsewhere, rows of Greek, Hebrew or Arabic alone).
KEYED = (
    "tei-apparatus/evt_pseudoEdition.xml",
    "tei-apparatus-conventions/calpurnius_poem7-listapp.xml",
    "tei-apparatus-conventions/konrad_herz-crit-P.xml",
)


@pytest.mark.parametrize("name", KEYED)
def test_every_unit_of_a_real_edition_is_keyed_to_its_line(name, shared_dir, tmp_path):
    edition = shared_dir / "corpora" / name
    rendered = render(edition, "pdf", tmp_path / "edition.pdf", {"line-step": "1"})
    (pdf_bytes,) = rendered.files.values()
    pdf = tmp_path / "edition.pdf"
    pdf.write_bytes(pdf_bytes)
    assert_apparatus_keyed(pdf, edition, every_line_numbered=True)


def arabic_pair(shared_dir: Path, index: int, folder: Path) -> Path:
    """Pair `index` of the Arabic corpus (two vocalised narrations of Sahih Muslim) collated into an edition."""
    path = shared_dir / "corpora" / "arabic-hadith" / "muslim_parallel_pairs.json"
    first, second = json.loads(path.read_text(encoding="utf-8"))[index]["narrations"]
    witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in (("A", first), ("B", second)))
    work = Work(
        "pair", "Sahih Muslim, two narrations", language="ar", base="A", profile="hadith-ar", witnesses=witnesses
    )
    edition = folder / f"pair-{index}.xml"
    edition.write_bytes(edition_bytes(collate(work)))
    return edition


@pytest.mark.parametrize("engine", ["typst", "latex"])
@pytest.mark.parametrize("index", range(16))
def test_every_pair_of_the_arabic_corpus_prints_within_its_margins(index, engine, shared_dir, tmp_path, request):
    """The Arabic corpus (fully vocalised): no line below the bottom margin, no blank page, every character
    in an embedded font that has it, no character without a font."""
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = arabic_pair(shared_dir, index, tmp_path)
    rendered = render(edition, "pdf", tmp_path / "pair.pdf", {"engine": engine})
    assert not [d for d in rendered.diagnostics if d.severity is Severity.ERROR], rendered.diagnostics
    assert not [d for d in rendered.diagnostics if d.code in ("P014", "P023")], "every character has a font"
    pdf = tmp_path / "pair.pdf"
    pdf.write_bytes(next(iter(rendered.files.values())))
    assert "]" in pdf_text(pdf), "the apparatus is printed"
    assert_within_margins_and_no_blank_page(pdf, last_page_free=engine == "latex")
    assert_glyphs_covered(pdf)
