"""The print edition read back from the PDF: line numbers, apparatus keyed to them, fonts, for both engines.

The PDF's words and their boxes come from pdftotext -bbox (poppler-utils). Body lines are the rows of
text at the body size above the first smaller row; their numbers are counted from the numbers printed
in the margin every fifth line; the smaller rows below them are the apparatus. For every unit in the
printed text the test finds an apparatus entry "N ... lemma" on a page whose body line N holds that
lemma, and the body lines together must hold the base witness's text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path

import pytest
from lxml import etree

from tei.apparatus import readings, witness_text
from tei.outputs import write_files
from tei.render import render
from tei.xmlio import NSMAP, parse_file, tei

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2060"))
WORD = re.compile(r"[^\W\d_]+")
BOX = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.DOTALL)


def plain(text: str) -> str:
    """Text as compared: compatibility forms folded, bidi controls gone, whitespace collapsed, words that a
    line break hyphenated (Typst marks the break with a soft hyphen) joined again."""
    collapsed = " ".join(unicodedata.normalize("NFKC", text).translate(BIDI_CONTROLS).split())
    return collapsed.replace("\u00ad ", "").replace("\u00ad", "")


@dataclass
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass
class Page:
    number: int
    lines: dict[int, str] = field(default_factory=dict)  # line number -> body text
    apparatus: str = ""
    unnumbered: list[str] = field(default_factory=list)  # body rows without a number (every_line_numbered)


def pdf_words(pdf: Path) -> list[list[Word]]:
    """Every page's words with their boxes, without the running head (in the top tenth of the page)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return [
        [
            Word(float(a), float(b), float(c), float(d), unescape(t).translate(BIDI_CONTROLS))
            for a, b, c, d, t in BOX.findall(body)
            if float(d) > float(height) * 0.1
        ]
        for height, body in PAGE.findall(out)
    ]


def rows(words: list[Word]) -> list[list[Word]]:
    """Words grouped into rows by the baseline of their Latin words; other words (Arabic glyph boxes are
    taller and lower) join the row whose height holds their middle."""
    latin = [w for w in words if re.search(r"[A-Za-z0-9]", w.text)]
    grouped: list[list[Word]] = []
    for word in sorted(latin, key=lambda w: (w.y1, w.x0)):
        if grouped and abs(grouped[-1][0].y1 - word.y1) < 2.0:
            grouped[-1].append(word)
        else:
            grouped.append([word])
    for word in (w for w in words if w not in latin):
        middle = (word.y0 + word.y1) / 2
        row = next((row for row in grouped if row[0].y0 <= middle <= row[0].y1), None)
        if row is None:
            grouped.append([word])
        else:
            row.append(word)
    grouped.sort(key=lambda row: row[0].y1)
    return [sorted(row, key=lambda w: w.x0) for row in grouped]


def read_pdf(pdf: Path, every_line_numbered: bool = False) -> list[Page]:
    """The pages of a print edition: body lines by line number, and the apparatus text of each page.
    With every_line_numbered (line-step 1), a row without a margin number is an unnumbered line (a
    heading, a speaker, a stage direction) and is left out; otherwise rows are counted from the numbers."""
    pages = pdf_words(pdf)
    body_height = body_text_height(pages)
    counted: list[tuple[Page, list[str], list[int | None]]] = []
    for number, words in enumerate(pages, start=1):
        page = Page(number)
        all_rows = rows(words)
        first_small = next((i for i, row in enumerate(all_rows) if is_small(row, body_height)), len(all_rows))
        body_rows = all_rows[:first_small]
        left = (
            sorted(min((w.x0 for w in row if not w.text.isdigit()), default=0) for row in body_rows)[
                len(body_rows) // 2
            ]
            if body_rows
            else 0
        )
        right = sorted(max(w.x1 for w in row) for row in body_rows)[len(body_rows) // 2] if body_rows else 0
        texts, numbers = [], []
        for row in body_rows:
            margin = [w for w in row if w.text.isdigit() and (w.x1 < left - 2 or w.x0 > right + 2)]
            texts.append(plain(" ".join(w.text for w in row if w not in margin)))
            numbers.append(int(margin[0].text) if margin else None)
        page.apparatus = plain(" ".join(w.text for row in all_rows[first_small:] for w in row))
        counted.append((page, texts, numbers))
    if every_line_numbered:
        for page, texts, numbers in counted:
            page.lines.update({number: text for text, number in zip(texts, numbers) if number is not None})
            page.unnumbered = [text for text, number in zip(texts, numbers) if number is None]
    else:
        number_lines(counted)
    return [page for page, _, _ in counted]


def is_small(row: list[Word], body_height: float) -> bool:
    """A row set smaller than the text (apparatus), judged by its Latin words (Arabic glyph boxes are taller,
    line numbers may be smaller)."""
    latin = sorted(w.height for w in row if re.search(r"[A-Za-z]", w.text))
    return bool(latin) and latin[len(latin) // 2] < 0.9 * body_height


def body_text_height(pages: list[list[Word]]) -> float:
    """The height of the body text: that of the Latin words in rows that carry a line number in a margin."""
    heights = []
    for words in pages:
        text = [w for w in words if not w.text.isdigit()]
        if not text:
            continue
        left, right = min(w.x0 for w in text), max(w.x1 for w in text)
        for row in rows(words):
            if any(w.text.isdigit() and (w.x1 < left - 2 or w.x0 > right + 2) for w in row):
                heights += [w.height for w in row if re.search(r"[A-Za-z]", w.text)]
    assert heights, "no line number found in the margins"
    return sorted(heights)[len(heights) // 2]


def number_lines(counted) -> None:
    """Give every body line its number, counting from the numbers printed in the margin."""
    sequence = [(page, text, number) for page, texts, numbers in counted for text, number in zip(texts, numbers)]
    known = [i for i, (_, _, number) in enumerate(sequence) if number is not None]
    if not known:
        return
    first = known[0]
    start = sequence[first][2] - first  # the line number of the first row of the sequence
    for i, (page, text, number) in enumerate(sequence):
        if number is not None:
            assert number == start + i, f"page {page.number}: margin number {number} where the count gives {start + i}"
        if start + i >= 1:
            page.lines[start + i] = text


# A form printed only when its alternative is not beside it (orig beside reg, as Konrad's edition writes it).
SHADOWED = {tei("orig"): tei("reg"), tei("sic"): tei("corr"), tei("abbr"): tei("expan")}


def base_text(element: etree._Element) -> str:
    """The text of a reading as the base text shows it: a nested unit gives its base reading; of orig and
    reg side by side, reg (as the print edition shows them)."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == tei("app"):
            parts.append(base_text(readings(child)[0]))
        elif child.tag in SHADOWED and element.find(SHADOWED[child.tag]) is not None:
            pass
        elif child.tag not in (tei("note"), tei("wit"), tei("witDetail")):
            parts.append(base_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def in_base_text(app: etree._Element) -> bool:
    """True when the unit stands in the printed text: every unit around it has it in its base reading."""
    for reading in app.iterancestors(tei("lem"), tei("rdg")):
        if readings(next(reading.iterancestors(tei("app"))))[0] is not reading:
            return False
    return True


def lemma_key(app: etree._Element) -> str:
    """The first word the apparatus shows for a unit: of its base reading, else the word before it (else after)."""
    words = WORD.findall(plain(base_text(readings(app)[0])))
    return words[0] if words else (word_next_to(app, before=True) or word_next_to(app, before=False))


def word_next_to(app: etree._Element, before: bool) -> str:
    """The base text's word just before (or after) a unit, looking out of enclosing units when needed."""
    parent = app.getparent()
    siblings = list(parent)
    index = siblings.index(app)
    if before:
        text = (parent.text or "") + "".join(base_text_of_node(s) for s in siblings[:index])
    else:
        text = (app.tail or "") + "".join(base_text_of_node(s) for s in siblings[index + 1 :])
    words = WORD.findall(plain(text))
    if words:
        return words[-1] if before else words[0]
    enclosing = next(parent.iterancestors(tei("app")), None)
    return word_next_to(enclosing, before) if enclosing is not None else ""


def base_text_of_node(node: etree._Element) -> str:
    """A sibling's base text and the text after it."""
    own = base_text(readings(node)[0]) if node.tag == tei("app") else base_text(node)
    return own + (node.tail or "")


def holds(text: str, key: str) -> bool:
    """True when the text holds the word, in logical order or (Arabic drawn right to left) reversed."""
    return key in text or key[::-1] in text


def unhyphenated(page: Page, line: int, lines: dict[int, str]) -> str:
    """A body line of a page with a word hyphenated at its end completed from the next line (on any page)."""
    text = page.lines.get(line, "")
    following = lines.get(line + 1, "").split()
    return text[:-1] + following[0] if text.endswith("-") and following else text


def keyed_entry(pages: list[Page], key: str) -> tuple[int, int] | None:
    """The (page, line) of an apparatus entry 'N[–M] … key' whose body line N holds key: on the page of
    line N, or (an apparatus continued as reledmac continues it) on a later page, never an earlier one."""
    entry = re.compile(r"(?<![\d–])(\d+)(?:–(\d+))?(?= )")
    lines = {number: text for page in pages for number, text in page.lines.items()}
    page_of = {number: page for page in pages for number in page.lines}
    for page in pages:
        for match in entry.finditer(page.apparatus):
            if not holds(page.apparatus[match.end() : match.end() + 8 + len(key) * 3], key):
                continue
            line = int(match.group(1))
            home = page_of.get(line)
            if home is None or home.number > page.number:
                continue
            if holds(unhyphenated(home, line, lines), key):
                return page.number, line
    return None


def assert_apparatus_keyed(pdf: Path, edition: Path, every_line_numbered: bool = False) -> list[Page]:
    pages = read_pdf(pdf, every_line_numbered)
    tree = parse_file(edition)
    apps = [app for app in tree.getroot().findall(".//tei:text//tei:app", NSMAP) if in_base_text(app)]
    assert apps, "the edition has no unit"
    missing = [
        (app.get("{http://www.w3.org/XML/1998/namespace}id"), lemma_key(app))
        for app in apps
        if keyed_entry(pages, lemma_key(app)) is None
    ]
    assert not missing, f"units without an entry keyed to the lemma's line on its page: {missing}"
    return pages


def latin_letters(text: str) -> str:
    """The Latin letters and digits of a text, in order: what survives any line breaking and bidi reordering."""
    return re.sub(r"[^A-Za-z0-9]", "", unicodedata.normalize("NFKD", text))


def assert_text_complete(pages: list[Page], edition: Path, base: str) -> None:
    """The printed body lines hold the base witness's text, every Latin letter in order."""
    printed = "".join(page.lines[number] for page in pages for number in sorted(page.lines))
    assert latin_letters(printed) == latin_letters(witness_text(parse_file(edition), base))


def render_pdf(edition: Path, output: Path, engine: str, **params: str) -> Path:
    rendered = render(edition, "pdf", output, {"engine": engine, **params})
    assert not [d for d in rendered.diagnostics if d.severity.value == "error"], rendered.diagnostics
    write_files(rendered.files)
    return output


def save_page(pdf: Path, page: int, image: Path) -> Path:
    """One page of a PDF as a PNG image (pdftoppm, 60 dpi) for a look: image is the path without .png."""
    subprocess.run(
        ["pdftoppm", "-r", "60", "-png", "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(image)],
        check=True,
    )
    return image.with_suffix(".png")


@pytest.fixture(scope="session", autouse=True)
def poppler():
    if shutil.which("pdftotext") is None or shutil.which("pdffonts") is None:
        pytest.fail("pdftotext/pdffonts are missing: run scripts/setup.sh --test (Debian package poppler-utils)")


@pytest.fixture(scope="session")
def latexmk():
    """latexmk and XeLaTeX (Debian packages installed by scripts/setup.sh)."""
    if shutil.which("latexmk") is None or shutil.which("xelatex") is None:
        pytest.fail("latexmk/xelatex are missing: run scripts/setup.sh (Debian packages latexmk texlive-xetex ...)")


@pytest.fixture(scope="session")
def mini_typst_pdf(tmp_path_factory) -> Path:
    # Two lines of text: every line is numbered, so that the test can count them.
    return render_pdf(MINI, tmp_path_factory.mktemp("typst") / "mini.pdf", "typst", **{"line-step": "1"})


@pytest.fixture(scope="session")
def mini_latex_pdf(tmp_path_factory, latexmk) -> Path:
    return render_pdf(MINI, tmp_path_factory.mktemp("latex") / "mini.pdf", "latex", **{"line-step": "1"})


@pytest.fixture(params=["typst", "latex"])
def mini_pdf(request) -> Path:
    return request.getfixturevalue(f"mini_{request.param}_pdf")


def test_every_unit_of_the_mini_edition_is_keyed_to_its_line(mini_pdf):
    pages = assert_apparatus_keyed(mini_pdf, MINI)
    assert_text_complete(pages, MINI, "A")
    assert pages[0].apparatus == "", "the title page has no apparatus"
    assert "Conspectus siglorum" in plain(" ".join(w.text for w in pdf_words(mini_pdf)[0]))


def test_entries_show_lemma_bracket_readings_and_sigla(mini_pdf):
    apparatus = " ".join(page.apparatus for page in read_pdf(mini_pdf))
    assert re.search(r"\b2 captives ?\] prisoners B C\b", apparatus), apparatus
    assert re.search(r"\b1 Qibla ?\] Qiblah B C\b", apparatus), apparatus


def test_two_series_by_reading_type(mini_pdf):
    apparatus = " ".join(page.apparatus for page in read_pdf(mini_pdf))
    substantive, orthographic = apparatus.index("captives"), apparatus.index("Qiblah")
    assert substantive < orthographic, "series a (substantive) comes before series b (orthographic, honorific)"


def test_a_profile_moves_and_hides_reading_types(tmp_path):
    pdf = render_pdf(
        MINI,
        tmp_path / "profile.pdf",
        "typst",
        **{"series-b-types": "substitution", "hidden-types": "honorific", "line-step": "1"},
    )
    apparatus = " ".join(page.apparatus for page in read_pdf(pdf))
    assert "peace and blessings" not in apparatus, "honorific variants are hidden"
    assert apparatus.index("Qibla]") < apparatus.index("captives]"), "substitutions moved to series b"


def test_fonts_are_embedded_and_cover_transliteration_and_arabic(mini_pdf, artifacts):
    fonts = subprocess.run(["pdffonts", str(mini_pdf)], check=True, capture_output=True, text=True).stdout
    rows_ = [line.split() for line in fonts.splitlines()[2:]]
    assert rows_ and all(row[-5] == "yes" for row in rows_), fonts  # the 'emb' column
    assert "Amiri" in fonts, "an Arabic font is embedded"
    engine = mini_pdf.parent.name.rstrip("0123456789")
    for page in (1, 2):
        image = save_page(mini_pdf, page, artifacts / f"print-{engine}-mini-page{page}")
        assert image.stat().st_size > 0


@pytest.fixture(scope="session")
def seed_edition_file(tmp_path_factory) -> Path:
    """The seeds collated into edition.xml, as `tei build` writes it."""
    from paths import SEEDS

    from tei.collate import collate
    from tei.readers.manifest import read_manifest
    from tei.writers.edition import EditionOptions, edition_bytes

    path = tmp_path_factory.mktemp("seeds") / "edition.xml"
    path.write_bytes(
        edition_bytes(collate(read_manifest(SEEDS / "edition.toml")), EditionOptions("schemas/tei-edition.rng"))
    )
    return path


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_every_unit_of_the_seed_edition_is_keyed_to_its_line(engine, seed_edition_file, tmp_path, request, artifacts):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = render_pdf(seed_edition_file, tmp_path / "seeds.pdf", engine)
    pages = assert_apparatus_keyed(pdf, seed_edition_file)
    assert_text_complete(pages, seed_edition_file, "A")
    assert len(pages) > 2, "the seed edition fills several pages"
    save_page(pdf, 2, artifacts / f"print-{engine}-seeds-page2")


BILINGUAL = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">
  <teiHeader><fileDesc>
    <titleStmt><title>An Arabic paragraph and an English one (test edition)</title></titleStmt>
    <publicationStmt><p>Written for the print tests.</p></publicationStmt>
    <sourceDesc><listWit>
      <witness xml:id="A">Arabic and English, first form.</witness>
      <witness xml:id="B">Arabic and English, second form.</witness>
    </listWit></sourceDesc>
  </fileDesc></teiHeader>
  <text><body>
    <ab xml:lang="ar" xml:space="preserve">لما كان يوم بدر نظر <app><lem wit="#A">رسول</lem><rdg wit="#B" type="substitution">نبي</rdg></app> الله صلى الله عليه وسلم إلى المشركين وهم ألف وأصحابه ثلاث مائة وتسعة عشر رجلا فاستقبل النبي صلى الله عليه وسلم القبلة ثم مد يديه فجعل يهتف بربه اللهم أنجز لي ما وعدتني اللهم آت ما وعدتني اللهم إن تهلك هذه <app><lem wit="#A">العصابة</lem><rdg wit="#B" type="orthographic">العصابه</rdg></app> من أهل الإسلام لا تعبد في الأرض</ab>
    <ab xml:space="preserve">Muḥammad ṭāʿūn Qurʾān ʿUmar: when it was the day of Badr the <app><lem wit="#A">Messenger</lem><rdg wit="#B" type="substitution">Prophet</rdg></app> of Allah looked at the polytheists; he said <app><lem wit="#A">“O Allah”</lem><rdg wit="#B" type="substitution"><foreign xml:lang="ar">اللهم</foreign></rdg></app> and stretched his hands.</ab>
  </body></text>
</TEI>
"""


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_an_arabic_paragraph_runs_right_to_left_with_its_apparatus(engine, tmp_path, request, artifacts):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = tmp_path / "bilingual.xml"
    edition.write_text(BILINGUAL, encoding="utf-8")
    rendered = render(edition, "pdf", tmp_path / "bilingual.pdf", {"engine": engine, "line-step": "1"})
    assert not rendered.diagnostics, "no warning, in particular no character missing from the fonts (P023)"
    (pdf,) = write_files(rendered.files)
    assert_apparatus_keyed(pdf, edition)
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert "Muḥammad ṭāʿūn Qurʾān ʿUmar" in plain(text), "the transliteration marks are printed"
    first_row = rows(pdf_words(pdf)[1])[0]
    rightmost = max((w for w in first_row if not w.text.isdigit()), key=lambda w: w.x1)
    assert plain(rightmost.text) in ("لما", "امل"), "the Arabic paragraph starts at the right"
    save_page(pdf, 2, artifacts / f"print-{engine}-bilingual-page2")
