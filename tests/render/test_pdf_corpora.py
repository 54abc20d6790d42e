"""Real parallel-segmentation editions from ../shared/corpora/tei-apparatus printed by both engines without errors.

EVT, teiphy, open-cbgm and Stemmaweb each encode an apparatus their own way (apps straight in body, words as
<w>, verse lines inside quotes inside paragraphs, witnesses undeclared): every one must give a PDF whose
text and apparatus are there. The Guidelines chapter is no TEI document (its root is a div): refused.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from paths import APPARATUS_SAMPLES

from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.render import render
from tei.xmlio import NSMAP, parse_file

EDITIONS = APPARATUS_SAMPLES


def pdf_text(pdf: bytes, folder: Path) -> str:
    path = folder / "edition.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout


# LaTeX runs are slow: the three editions whose encodings differ most (nested verse lines in EVT,
# apps straight in body with <w> words in teiphy, the largest open-cbgm collation).
LATEX_EDITIONS = ["evt_avicenna.xml", "teiphy_ubs_ephesians.xml", "open-cbgm_3_john_collation.xml"]
CASES = [(name, "typst") for name in EDITIONS] + [(name, "latex") for name in LATEX_EDITIONS]


@pytest.mark.parametrize("name, engine", CASES)
def test_a_real_edition_prints_without_errors(name, engine, shared_dir, tmp_path):
    edition = shared_dir / "corpora" / "tei-apparatus" / name
    rendered = render(edition, "pdf", tmp_path / "edition.pdf", {"engine": engine})
    assert not [d for d in rendered.diagnostics if d.severity is Severity.ERROR], rendered.diagnostics
    (pdf,) = rendered.files.values()
    assert pdf.startswith(b"%PDF-")
    text = " ".join(pdf_text(pdf, tmp_path).split())
    assert "]" in text, "the apparatus is printed"
    title = parse_file(edition).getroot().find(".//tei:titleStmt/tei:title", NSMAP)
    assert " ".join("".join(title.itertext()).split())[:20] in text, "the title page is printed"


def test_a_document_without_a_tei_text_is_refused(shared_dir, tmp_path):
    edition = shared_dir / "corpora" / "tei-apparatus" / "tei-guidelines_TC-CriticalApparatus.xml"
    with pytest.raises(InvalidInputError) as refused:
        render(edition, "pdf", tmp_path / "edition.pdf")
    assert refused.value.diagnostics[0].code == "H001"
