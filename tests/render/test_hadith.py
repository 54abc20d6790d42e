"""Hadith editions rendered: the index of cited Qur'an verses (HTML and PDF), Arabic right to left in the
browser (computed direction) and in the PDF (the order of the extracted text), and the isnad diagram (one node
per narrator in the page, the narrators' names on a page of the PDF)."""

from __future__ import annotations

import json
import subprocess

import pytest
import regex
from lxml import html as lxml_html
from paths import SEEDS
from rapidfuzz import fuzz

from tei.app.build import render_settings
from tei.apparatus import witness_ids, witness_text
from tei.collate import collate
from tei.errors import InvalidInputError, UsageError
from tei.hadith import diagram
from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Witness, Work
from tei.outputs import write_files
from tei.readers.manifest import read_manifest
from tei.render import render
from tei.text.normalize import HONORIFIC_FORMULAS, PROFILES, PROPHET
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_file

from .conftest import mini_variant, render_site
from .test_pdf import pdf_words, plain, save_page

CITATIONS = [
    ("He consulted Abu Bakr", 'He consulted Abu Bakr <ref type="quran" cRef="8:67-68">[al Anfal 8:67-68]</ref>'),
    ("'Umar <foreign", '\'Umar <ref type="quran" cRef="3:165">[Al \'Imran 3:165]</ref> <foreign'),
    ("The Prophet <app", 'The Prophet <ref type="quran" cRef="2:255">(Qur\'an 2:255)</ref> <app'),
]
KEY = PROFILES["hadith-ar"].key


def cited_mini(folder):
    edition = mini_variant(folder, *CITATIONS[0])
    text = edition.read_text("utf-8")
    for old, new in CITATIONS[1:]:
        text = text.replace(old, new, 1)
    edition.write_text(text, "utf-8")
    return edition


@pytest.fixture(scope="module")
def arabic_pair_edition(shared_dir, tmp_path_factory):
    """The first pair of the shared corpus collated (Arabic, no manifest facts but the language)."""
    path = shared_dir / "corpora" / "arabic-hadith" / "muslim_parallel_pairs.json"
    first, second = json.loads(path.read_text(encoding="utf-8"))[0]["narrations"]
    witnesses = tuple(Witness(wid, wid, n["arabic"], "ar") for wid, n in (("A", first), ("B", second)))
    work = Work(
        "pair", "Sahih Muslim, two narrations", language="ar", base="A", profile="hadith-ar", witnesses=witnesses
    )
    edition = tmp_path_factory.mktemp("pair") / "edition.xml"
    edition.write_bytes(edition_bytes(collate(work)))
    return edition, first["arabic"]


@pytest.fixture(scope="module")
def arabic_pair_pdf(arabic_pair_edition, tmp_path_factory):
    """The first pair printed with the default parameters, once per engine for the tests that read it: engine ->
    (PDF, diagnostics)."""
    edition, _ = arabic_pair_edition
    made: dict[str, tuple] = {}

    def print_once(engine: str):
        if engine not in made:
            rendered = render(
                edition, "pdf", tmp_path_factory.mktemp(f"pair-{engine}") / "pair.pdf", {"engine": engine}
            )
            (pdf,) = write_files(rendered.files)
            made[engine] = pdf, rendered.diagnostics
        return made[engine]

    return print_once


def test_the_html_index_lists_each_cited_verse_in_order_with_links_and_sigla(tmp_path):
    page = lxml_html.parse(str(render_site(cited_mini(tmp_path), tmp_path / "site"))).getroot()
    entries = page.xpath("//section[@class='quran-index']//li[@class='verse']")
    assert [e.get("data-cref") for e in entries] == ["2:255", "3:165", "8:67-68"]
    for entry in entries:
        (link,) = entry.xpath("a[@class='citation']")
        target = page.get_element_by_id(link.get("href")[1:])
        assert target.get("data-cref") == entry.get("data-cref")
    assert [s.text_content() for s in entries[1].xpath("span[@class='sigla']")] == ["C"]
    assert entries[0].xpath("span[@class='sigla']") == []  # cited in the text every witness shares


def test_without_citations_there_is_no_index(tmp_path):
    page = lxml_html.parse(str(render_site(mini_variant(tmp_path, "captives", "captives"), tmp_path / "s")))
    assert page.getroot().xpath("//section[@class='quran-index']") == []


def test_arabic_spans_are_right_to_left_in_the_browser(open_page, arabic_pair_edition, tmp_path, artifacts):
    edition, _ = arabic_pair_edition
    page = open_page(render_site(edition, tmp_path / "site"))
    direction = "e => getComputedStyle(e).direction"
    assert page.page.eval_on_selector("#reading-text", direction) == "rtl"
    readings = page.page.eval_on_selector_all("#reading-text .app .rdg", f"all => all.map({direction})")
    assert readings and set(readings) == {"rtl"}
    entries = page.page.eval_on_selector_all(
        ".entries .reading > bdi",
        "all => all.filter(e => /\\p{Script=Arabic}/u.test(e.textContent))"
        ".map(e => [e.textContent, getComputedStyle(e).direction])",
    )
    assert entries and [text for text, direction in entries if direction != "rtl"] == []
    page.shows_each_witness_as_tei_witness(edition)
    page.page.screenshot(path=artifacts / "html-arabic-pair.png", full_page=True)
    assert page.errors == []


def test_an_arabic_edition_prints_right_to_left(arabic_pair_edition, arabic_pair_pdf, artifacts):
    _, first_text = arabic_pair_edition
    pdf, diagnostics = arabic_pair_pdf("typst")  # the PDF the isnad diagram's test reads too
    assert not [d for d in diagnostics if d.severity.value == "error"], diagnostics
    text_page = pdf_words(pdf)[1]  # page 1 is the title page
    arabic = [w for w in text_page if KEY(plain(w.text)) and not any(c.isascii() for c in w.text)]
    top = min(arabic, key=lambda w: (w.y0 + w.y1) / 2)
    first_line = [w for w in arabic if abs((w.y0 + w.y1) / 2 - (top.y0 + top.y1) / 2) < top.height / 2]
    # pdftotext cuts vocalised words into pieces, each drawn (and extracted) right to left, and repeats a
    # letter under a shadda: the pieces read from the right, each reversed, give the text almost exactly.
    opening = "".join(KEY(word) for word in first_text.split()[:6])
    right_to_left = "".join(KEY(plain(w.text))[::-1] for w in sorted(first_line, key=lambda w: -w.x1))
    left_to_right = "".join(KEY(plain(w.text)) for w in sorted(first_line, key=lambda w: w.x0))
    assert fuzz.ratio(opening, right_to_left[: len(opening)]) >= 85, "read from the right, the line begins the text"
    assert fuzz.ratio(opening, left_to_right[: len(opening)]) < 50
    save_page(pdf, 2, artifacts / "print-typst-arabic-pair-page2")


ORNATE = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="ar">
  <teiHeader><fileDesc>
    <titleStmt><title>A Qur'an quotation in an Arabic text (test edition)</title></titleStmt>
    <publicationStmt><p>Written for the print tests.</p></publicationStmt>
    <sourceDesc><listWit><witness xml:id="A">A</witness><witness xml:id="B">B</witness></listWit></sourceDesc>
  </fileDesc></teiHeader>
  <text><body>
    <ab xml:space="preserve">فأنزل الله عز وجل ﴿إذ تستغيثون ربكم فاستجاب لكم﴾ <ref type="quran" cRef="8:9">[الأنفال: 9]</ref> فأمده الله <app><lem wit="#A">بالملائكة</lem><rdg wit="#B" type="particle">الملائكة</rdg></app></ab>
  </body></text>
</TEI>
"""


def test_ornate_parentheses_keep_their_logical_order_in_print(tmp_path, artifacts):
    edition = tmp_path / "ornate.xml"
    edition.write_text(ORNATE, encoding="utf-8")
    (pdf,) = write_files(render(edition, "pdf", tmp_path / "ornate.pdf", {"engine": "typst"}).files)
    words = pdf_words(pdf)[1]
    (opening,) = [w for w in words if "\ufd3f" in w.text]  # ﴿ opens the quotation
    (closing,) = [w for w in words if "\ufd3e" in w.text]  # ﴾ closes it
    assert opening.x0 > closing.x1, "read right to left, the quotation opens with ﴿ and closes with ﴾"
    assert opening.text.endswith("\ufd3f") and closing.text.startswith("\ufd3e"), "each at its outer side"
    text = plain(subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout)
    assert "8:9" in text[text.index("Qur’an verses cited") :]
    save_page(pdf, 2, artifacts / "print-typst-ornate-page2")


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_pdf_index_lists_the_cited_verses_in_order(tmp_path, engine):
    rendered = render(cited_mini(tmp_path), "pdf", tmp_path / "cited.pdf", {"engine": engine})
    (pdf,) = write_files(rendered.files)
    text = plain(subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout)
    index = text[text.index("Qur’an verses cited") :]
    assert index.index("2:255") < index.index("3:165") < index.index("8:67-68")
    assert "[Al 'Imran 3:165] C" in index.replace("’", "'")


def _diagram_of(edition) -> diagram.Diagram:
    tree = parse_file(edition)
    return diagram.build([(wid, witness_text(tree, wid)) for wid in witness_ids(tree)])


def test_the_isnad_diagram_is_in_the_page_one_node_per_narrator(open_page, arabic_pair_edition, tmp_path, artifacts):
    edition, _ = arabic_pair_edition
    drawn = _diagram_of(edition)
    page = open_page(render_site(edition, tmp_path / "site"))
    nodes = page.page.eval_on_selector_all(
        ".isnad-diagram svg g.narrator",
        "all => all.map(g => [g.querySelector('text').textContent, g.getBoundingClientRect().width,"
        " g.classList.contains('common-link')])",
    )
    assert [name for name, _, _ in nodes] == [drawn.names[key] for key in drawn.order]
    assert all(width > 0 for _, width, _ in nodes)  # drawn, not hidden
    assert [name for name, _, common in nodes if common] == [drawn.names[drawn.common_link]]
    tree = parse_file(edition)
    for wid in witness_ids(tree):  # every narrator of every chain is a node (a shorter name is the fuller one's)
        text = witness_text(tree, wid)
        for kind, start, end in chain_links(text):
            if kind == NARRATOR:
                key = diagram.name_key(text[start:end], None)
                assert any(node == key or node.startswith(key + " ") for node in drawn.order), text[start:end]
    page.page.locator(".isnad-diagram").screenshot(path=artifacts / "html-isnad-diagram.png")
    assert page.errors == []


def test_an_edition_without_chains_has_no_isnad_diagram(tmp_path):
    page = lxml_html.parse(str(render_site(mini_variant(tmp_path, "captives", "captives"), tmp_path / "s")))
    assert page.getroot().xpath("//section[@class='isnad-diagram']") == []


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_pdf_prints_the_isnad_diagram_with_the_narrators_names(
    arabic_pair_edition, arabic_pair_pdf, artifacts, engine
):
    """Typst places the SVG itself; for LaTeX, Typst turns it into a one-page PDF that \\includegraphics sets."""
    edition, _ = arabic_pair_edition
    drawn = _diagram_of(edition)
    pdf, _ = arabic_pair_pdf(engine)
    pages = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split("\f")
    (number,) = [n for n, text in enumerate(pages, 1) if "Isnad diagram" in text]
    letters = KEY(plain(pages[number - 1])).replace(" ", "")  # pdftotext cuts vocalised words into pieces
    missing = [drawn.names[key] for key in drawn.order if KEY(drawn.names[key]).replace(" ", "") not in letters]
    assert len(drawn.order) >= 5 and missing == []
    save_page(pdf, number, artifacts / f"print-{engine}-isnad-diagram")


SEED_VERSES = ["3:165", "8:9", "8:67", "8:67-68", "8:69"]


def test_the_seed_editions_verse_index_lists_every_english_citation_in_both_outputs(tmp_path):
    edition = tmp_path / "seeds.xml"
    edition.write_bytes(edition_bytes(collate(read_manifest(SEEDS / "edition.toml"))))
    page = lxml_html.parse(str(render_site(edition, tmp_path / "site"))).getroot()
    entries = page.xpath("//section[@class='quran-index']//li[@class='verse']")
    assert [e.get("data-cref") for e in entries] == SEED_VERSES
    assert len(page.xpath("//section[@class='quran-index']//a[@class='citation']")) == 6  # 8:9 twice
    (typst,) = write_files(render(edition, "typst", tmp_path / "seeds.typ").files)
    index = typst.read_text("utf-8").split("Qur’an verses cited")[1]
    assert [verse.replace("\\", "") for verse in regex.findall(r"(?m)^- (\S+) ", index)] == SEED_VERSES
    assert index.count("#box[") == 6


# ---------------------------------------------------------------- eulogies as the reader chooses (eulogy=...)

TEI_NS = {"t": "http://www.tei-c.org/ns/1.0"}
PROPHET_FORMS = regex.compile(
    "|".join(f"(?:{pattern})" for kind, pattern in HONORIFIC_FORMULAS if kind == PROPHET), regex.IGNORECASE
)


def _eulogies(edition, outside_readings: bool = False) -> list[str]:
    """The eulogies of the edition's text (all, or only those printed as the text: not inside a rdg)."""
    path = "//t:body//t:seg[@type='eulogy']" + ("[not(ancestor::t:rdg)]" if outside_readings else "")
    return [seg.xpath("string()") for seg in parse_file(edition).getroot().xpath(path, namespaces=TEI_NS)]


def _is_prophets(eulogy: str) -> bool:
    return PROPHET_FORMS.fullmatch(eulogy.strip()) is not None


def _reading_text(edition, folder, eulogy: str) -> str:
    write_files(render(edition, "html", folder, {"eulogy": eulogy}).files)
    return lxml_html.parse(str(folder / "index.html")).getroot().xpath("string(//*[@id='reading-text'])")


def _pdf_text(edition, pdf, eulogy: str, engine: str = "typst") -> str:
    rendered = render(edition, "pdf", pdf, {"engine": engine, "eulogy": eulogy})
    assert [d for d in rendered.diagnostics if d.code == "P014"] == [], "every glyph is in a font of the chain"
    (written,) = write_files(rendered.files)
    return subprocess.run(["pdftotext", str(written), "-"], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def seeds_edition(tmp_path_factory):
    edition = tmp_path_factory.mktemp("seeds") / "seeds.xml"
    edition.write_bytes(edition_bytes(collate(read_manifest(SEEDS / "edition.toml"))))
    return edition


@pytest.fixture(scope="module")
def vocalised_pair_edition(shared_dir, tmp_path_factory):
    """Two consecutive narrations of kitab 13 of Sahih Muslim whose eulogies are vocalised in one of them."""
    path = shared_dir / "corpora" / "arabic-hadith" / "sahih-muslim" / "13.json"
    records = json.loads(path.read_text(encoding="utf-8"))["hadiths"]
    witnesses = tuple(Witness(wid, wid, records[n]["arabic"], "ar") for wid, n in (("A", 176), ("B", 175)))
    work = Work("pair", "Sahih Muslim 13", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
    edition = tmp_path_factory.mktemp("vocalised") / "edition.xml"
    edition.write_bytes(edition_bytes(collate(work)))
    return edition


def test_the_seeds_eulogies_print_as_the_source_as_one_form_or_as_a_symbol(seeds_edition, tmp_path):
    eulogies = _eulogies(seeds_edition)
    prophets = [e for e in eulogies if _is_prophets(e)]
    assert len(prophets) >= 20 and len(eulogies) > len(prophets)
    source = _reading_text(seeds_edition, tmp_path / "source", "source")
    assert "(may Allah's peace and blessings be upon him)" in source and "(ﷺ)" in source
    normal = _reading_text(seeds_edition, tmp_path / "normal", "normal")
    assert normal.count("(peace be upon him)") == len(prophets)
    assert "ﷺ" not in normal and "blessings be upon him" not in normal
    others = [e for e in eulogies if not _is_prophets(e)]
    assert all(other in normal for other in others), "the Companions' eulogies stay as written"
    symbol = _reading_text(seeds_edition, tmp_path / "symbol", "symbol")
    assert symbol.count("\ufdfa") == len(prophets) and "upon him" not in symbol


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_seeds_print_the_prophets_eulogy_in_one_form(seed_edition_file, seed_pdfs, tmp_path, engine):
    """The source form is the default (eulogy="source", xslt/common/eulogy.xsl): its PDF is the seeds' PDF the
    layout tests read (seed_pdfs, made once a run); the normal form is printed here."""
    symbols = [e for e in _eulogies(seed_edition_file, outside_readings=True) if e.strip() == "(\ufdfa)"]
    pdf, diagnostics = seed_pdfs[engine]
    assert [d for d in diagnostics if d.code == "P014"] == [], "every glyph is in a font of the chain"
    source = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    normal = _pdf_text(seed_edition_file, tmp_path / "normal.pdf", "normal", engine)
    # every (ﷺ) of the text is written out (the apparatus keeps the witnesses' own words)
    assert len(symbols) >= 5 and source.count("\ufdfa") - normal.count("\ufdfa") == len(symbols)
    assert "(peace be upon him)" in " ".join(normal.split())  # (a page or line break may cut one)
    assert "(peace be upon him)" not in " ".join(source.split())


def test_an_arabic_pairs_vocalised_eulogies_print_in_one_form(vocalised_pair_edition, tmp_path):
    eulogies = _eulogies(vocalised_pair_edition)
    assert "صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ" in eulogies and "رَضِيَ اللَّهُ عَنْهُ" in eulogies
    prophets = [e for e in eulogies if _is_prophets(e)]
    source = _reading_text(vocalised_pair_edition, tmp_path / "source", "source")
    assert "صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ" in source
    normal = _reading_text(vocalised_pair_edition, tmp_path / "normal", "normal")
    assert normal.count("صلى الله عليه وسلم") == len(prophets) and "صَلَّى اللَّهُ" not in normal
    assert "رضي الله عنه" in normal and "رَضِيَ" not in normal
    symbol = _reading_text(vocalised_pair_edition, tmp_path / "symbol", "symbol")
    assert symbol.count("\ufdfa") == len(prophets) and "رضي الله عنه" in symbol
    printed = [e for e in _eulogies(vocalised_pair_edition, outside_readings=True) if _is_prophets(e)]
    pdf = _pdf_text(vocalised_pair_edition, tmp_path / "symbol.pdf", "symbol")
    assert pdf.count("\ufdfa") == len(printed) >= 1


def test_an_unknown_eulogy_value_is_a_usage_error_naming_the_values(seeds_edition, tmp_path):
    with pytest.raises(UsageError) as raised:
        render(seeds_edition, "html", tmp_path / "site", {"eulogy": "bold"})
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.code == "R103" and "source, normal, symbol" in diagnostic.hint
    assert not (tmp_path / "site").exists()


def test_the_manifest_sets_the_eulogy_form_for_both_outputs_and_refuses_an_unknown_one(tmp_path):
    manifest = tmp_path / "edition.toml"
    manifest.write_text('[render]\neulogy = "symbol"\n', encoding="utf-8")
    assert dict(render_settings({"": {"eulogy": "symbol"}}, manifest)) == {
        "html": (("eulogy", "symbol"),),
        "pdf": (("eulogy", "symbol"),),
    }
    manifest.write_text('[render]\neulogy = "bold"\n', encoding="utf-8")
    with pytest.raises(InvalidInputError) as raised:
        render_settings({"": {"eulogy": "bold"}}, manifest)
    (diagnostic,) = raised.value.diagnostics
    assert (diagnostic.code, diagnostic.line) == ("M014", 2)
