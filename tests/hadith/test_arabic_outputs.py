"""An Arabic hadith edition's web page and print sources as a scholar expects them (issue 34): the conspectus's
reference numbers labelled and each part in its own direction, the apparatus's Arabic terms (سقط, زيادة) or
om./add. by a parameter, the synoptic table right to left, the running head not clipped, the compiler's words a
section after the matn, the isnad diagram's cue on a narrow screen. Read from the rendered files (no browser:
tests/render/test_hadith.py looks in Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html as lxml_html

from tei.cli import main
from tei.collate import collate
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes

M = (
    "حدثنا سعيد بن منصور، وقتيبة بن سعيد، وأبو كامل الجحدري - واللفظ لسعيد - قالوا حدثنا أبو عوانة، عن سماك بن "
    'حرب، عن مصعب بن سعد، قال سمعت رسول الله صلى الله عليه وسلم يقول " لا تقبل صلاة بغير طهور ولا صدقة من غلول " .'
)
T = (
    "حدثنا قتيبة بن سعيد، حدثنا أبو عوانة، عن سماك بن حرب، ح وحدثنا هناد، حدثنا وكيع، عن إسرائيل، عن سماك، عن "
    'مصعب بن سعد، عن ابن عمر، عن النبي صلى الله عليه وسلم قال " لا تقبل صلاة بغير طهور ولا صدقة من غلول " . '
    "قال أبو عيسى هذا الحديث أصح شيء في هذا الباب وأحسن . وفي الباب عن أبي المليح عن أبيه وأبي هريرة وأنس ."
)


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    witnesses = (
        Witness("M", "M", M, "ar", description="Sahih Muslim, Kitab at-Tahara 2", references=(("in-book", "2"),)),
        Witness("T", "T", T, "ar", description="Jami' at-Tirmidhi, Kitab at-Tahara 1"),
    )
    work = Work("tahur", "لا تقبل صلاة بغير طهور", language="ar", base="T", profile="hadith-ar", witnesses=witnesses)
    path = tmp_path_factory.mktemp("tahur") / "edition.xml"
    path.write_bytes(edition_bytes(collate(work)))
    return path


def _render(edition: Path, to: str, output: Path, *params: str) -> None:
    arguments = ["render", str(edition), "--to", to, "-o", str(output)]
    for param in params:
        arguments += ["--param", param]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output


def test_the_web_page(edition, tmp_path):
    _render(edition, "html", tmp_path / "html")
    page = lxml_html.parse(str(tmp_path / "html" / "index.html")).getroot()
    (dd,) = [dd for dd in page.iter("dd") if "Sahih Muslim" in dd.text_content()]
    description = dd.find_class("description")[0]
    assert description.get("dir") == "ltr" and description.text_content() == "Sahih Muslim, Kitab at-Tahara 2"
    assert dd.find_class("reference")[0].text_content() == "(in book 2)"
    note = dd.find_class("note")[0]
    assert (note.get("lang"), note.get("dir")) == ("en", "ltr") and "wording of" in note.text_content()
    assert page.get_element_by_id("synoptic").get("dir") == "rtl"
    assert "سقط" in page.find_class("apparatus")[0].text_content()
    assert page.find_class("isnad-cue")  # shown below 700 px (edition.css)
    text = page.text_content()
    assert text.index("قال أبو عيسى") > text.index("لا تقبل صلاة")  # the compiler's words after the matn


def test_the_apparatus_terms_follow_a_parameter(edition, tmp_path):
    _render(edition, "typst", tmp_path / "arabic.typ")
    _render(edition, "typst", tmp_path / "latin.typ", "apparatus-terms=latin")
    arabic, latin = ((tmp_path / f"{n}.typ").read_text(encoding="utf-8") for n in ("arabic", "latin"))
    assert "زيادة" in arabic and "add\\." not in arabic
    assert "add\\." in latin and "سقط" not in latin and "زيادة" not in latin  # Typst escapes the full stop
    assert 'top-edge: "bounds", bottom-edge: "bounds"' in arabic  # the running head keeps the dots below
    assert "(in book 2)" in arabic and "#block(text(dir: ltr)[Sahih Muslim" in arabic


TEI = "{http://www.tei-c.org/ns/1.0}"
NOTE = "Muslim names three teachers here."


@pytest.fixture(scope="module")
def noted(edition, tmp_path_factory) -> Path:
    """The edition with a note written in English (xml:lang="en") in its first unit with a variant."""
    from lxml import etree

    root = etree.parse(str(edition)).getroot()
    unit = next(app for app in root.iter(f"{TEI}app") if app.find(f"{TEI}rdg") is not None)
    note = etree.SubElement(unit, f"{TEI}note")
    note.set("{http://www.w3.org/XML/1998/namespace}lang", "en")
    note.text = NOTE
    path = tmp_path_factory.mktemp("noted") / "edition.xml"
    path.write_bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))
    return path


def test_a_note_is_set_in_its_own_language_and_direction(noted, tmp_path):
    """An English note in an Arabic apparatus: lang and dir="ltr" on the web page, left-to-right marks around it in
    Typst, \\LR in LaTeX; a note without xml:lang keeps the browser's guess."""
    _render(noted, "html", tmp_path / "html")
    page = lxml_html.parse(str(tmp_path / "html" / "index.html")).getroot()
    (span,) = [s for s in page.find_class("entry-note") if s.text_content() == NOTE]
    assert (span.get("lang"), span.get("dir")) == ("en", "ltr")
    _render(noted, "typst", tmp_path / "edition.typ")
    typst = (tmp_path / "edition.typ").read_text(encoding="utf-8")
    assert '(#tei-directed(ltr, tei-lang("en")[Muslim names three teachers here\\.]);)' in typst
    _render(noted, "latex", tmp_path / "edition.tex")
    latex = (tmp_path / "edition.tex").read_text(encoding="utf-8")
    assert "(\\teilang{en}\\LR{\\rmfamily Muslim names three teachers here.}\\teilangend{})" in latex


def test_one_bracket_convention_right_to_left(edition, tmp_path):
    """The apparatus of an Arabic edition reads right to left in the three outputs, so the lemma's ']' is
    mirrored by each one's bidi algorithm alike: '[' on the lemma's left, facing it (docs/hadith.md)."""
    _render(edition, "html", tmp_path / "html")
    page = lxml_html.parse(str(tmp_path / "html" / "index.html")).getroot()
    assert page.find_class("apparatus")[0].get("dir") == "rtl"
    assert {e.text_content() for e in page.find_class("lemma-end")} == {"] "}
    _render(edition, "typst", tmp_path / "edition.typ")
    typst = (tmp_path / "edition.typ").read_text(encoding="utf-8")
    assert "#let tei-apparatus-direction = rtl\n" in typst
    assert "#let tei-entry-body(data) = [#data.lemma\\]" in typst
    _render(edition, "latex", tmp_path / "edition.tex")
    latex = (tmp_path / "edition.tex").read_text(encoding="utf-8")
    # reledmac sets a note in the direction of the paragraph its lemma is in (\setRTL)
    assert "\\pstart \\setRTL" in latex and "\\Xlemmaseparator{\\unskip]}" in latex
