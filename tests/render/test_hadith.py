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

from tei.apparatus import witness_ids, witness_text
from tei.collate import collate
from tei.hadith import diagram
from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Witness, Work
from tei.outputs import write_files
from tei.readers.manifest import read_manifest
from tei.render import render
from tei.text.normalize import PROFILES
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


def test_an_arabic_edition_prints_right_to_left(arabic_pair_edition, tmp_path, artifacts):
    edition, first_text = arabic_pair_edition
    rendered = render(edition, "pdf", tmp_path / "pair.pdf", {"engine": "typst"})
    assert not [d for d in rendered.diagnostics if d.severity.value == "error"], rendered.diagnostics
    (pdf,) = write_files(rendered.files)
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


def test_the_pdf_prints_the_isnad_diagram_with_the_narrators_names(arabic_pair_edition, tmp_path, artifacts):
    edition, _ = arabic_pair_edition
    drawn = _diagram_of(edition)
    rendered = render(edition, "pdf", tmp_path / "pair.pdf", {"engine": "typst"})
    (pdf,) = write_files(rendered.files)
    pages = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split("\f")
    (number,) = [n for n, text in enumerate(pages, 1) if "Isnad diagram" in text]
    letters = KEY(plain(pages[number - 1])).replace(" ", "")  # pdftotext cuts vocalised words into pieces
    missing = [drawn.names[key] for key in drawn.order if KEY(drawn.names[key]).replace(" ", "") not in letters]
    assert len(drawn.order) >= 5 and missing == []
    save_page(pdf, number, artifacts / "print-typst-isnad-diagram")


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
