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
from functools import cache, lru_cache
from html import unescape
from pathlib import Path

import pytest
from lxml import etree
from paths import ARABIC_SCENE

from tei.apparatus import Apparatus, readings, witness_text
from tei.apparatus.places import by_place
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


@cache  # keyed_entry compares every unit's key with the same slices of the apparatus
def bare(text: str) -> str:
    """Text as its words are matched: plain, without combining marks (vowel signs of vocalised Arabic,
    Hebrew points, accents left over by NFKC) and tatweel, which a PDF may give apart from their letter
    or in another order."""
    return "".join(char for char in plain(text) if unicodedata.category(char) not in ("Mn", "Me") and char != "\u0640")


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
    apparatus_ltr: str = ""  # the apparatus rows read left to right,
    apparatus_rtl: str = ""  # and right to left (as an apparatus set right to left runs)
    unnumbered: list[str] = field(default_factory=list)  # body rows without a number (every_line_numbered)


def pdftotext(pdf: Path, *options: str) -> str:
    """What pdftotext gives for the PDF (with -bbox: each word and its box), run once for the PDF as written:
    the checks of one PDF (margins, rows, glyphs, keying), which the tests of one PDF run one after the
    other, read the same output."""
    written = pdf.stat()
    return poppler_text(str(pdf), options, written.st_mtime_ns, written.st_size)


@lru_cache(maxsize=8)
def poppler_text(pdf: str, options: tuple[str, ...], _mtime: int, _size: int) -> str:
    return subprocess.run(["pdftotext", *options, pdf, "-"], check=True, capture_output=True, text=True).stdout


HEAD_BOTTOM = 2.2 / 2.54 * 72  # the running head's words end above this (points from the top)


def pdf_words(pdf: Path) -> list[list[Word]]:
    """Every page's words with their boxes, without the running head (in the top margin, 2.4 cm in both
    engines: the words whose box ends above 2.2 cm)."""
    out = pdftotext(pdf, "-bbox")
    return [
        [
            Word(float(a), float(b), float(c), float(d), unescape(t).translate(BIDI_CONTROLS))
            for a, b, c, d, t in BOX.findall(body)
            if float(d) > HEAD_BOTTOM
        ]
        for height, body in PAGE.findall(out)
    ]


RIGHT_TO_LEFT = ("ARABIC", "HEBREW", "SYRIAC", "THAANA", "NKO")
# A run of right-to-left letters and their marks (a bracket or a stop beside them keeps its place).
RTL_RUN = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+")
RTL_WORDS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+(?: [\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+)*")


def script(word: Word) -> str:
    """The script of a word's first letter (LATIN, GREEK, ARABIC, HEBREW ...; '' without a letter)."""
    letter = next((char for char in word.text if char.isalpha()), "")
    return unicodedata.name(letter, "").split(" ")[0] if letter else ""


def rows(words: list[Word]) -> list[list[Word]]:
    """Words grouped into rows: words of one script by their baseline (a font's boxes are alike), then each
    such group joined to the row whose first word's height holds its middle (Arabic glyph boxes are taller
    and lower than Latin ones on the same line); the script with the most words is placed first. A row's
    words run left to right, or right to left when most of its letters are of a right-to-left script
    (pdftotext gives the words of such a line in visual order; read right to left, they are in the
    order they are written)."""
    by_script: dict[str, list[Word]] = {}
    for word in words:
        by_script.setdefault(script(word), []).append(word)
    order = sorted(by_script, key=lambda name: (name == "", -len(by_script[name])))
    grouped: list[list[Word]] = []
    for name in order:
        baselines: list[list[Word]] = []
        for word in sorted(by_script[name], key=lambda w: (w.y1, w.x0)):
            if baselines and abs(baselines[-1][0].y1 - word.y1) < 2.0:
                baselines[-1].append(word)
            else:
                baselines.append([word])
        for group in baselines:
            middle = sum((w.y0 + w.y1) / 2 for w in group) / len(group)
            row = next((row for row in grouped if row[0].y0 <= middle <= row[0].y1), None)
            if row is None:
                grouped.append(group)
            else:
                row.extend(group)
    grouped.sort(key=lambda row: row[0].y1)
    return [sorted(row, key=(lambda w: -w.x1) if right_to_left(row) else (lambda w: w.x0)) for row in grouped]


def logical(word: Word) -> str:
    """A word's text in the order it is written: pdftotext -bbox gives the letters of a right-to-left word in
    visual order (both engines), and may cut a vocalised word into several boxes, each reversed."""
    return RTL_RUN.sub(lambda run: run.group()[::-1], word.text) if script(word) in RIGHT_TO_LEFT else word.text


def right_to_left(row: list[Word]) -> bool:
    letters = [script(w) for w in row if script(w)]
    return sum(name in RIGHT_TO_LEFT for name in letters) * 2 > len(letters)


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
        first_small = body_row_count(all_rows, body_height)
        body_rows = all_rows[:first_small]
        left, right = text_edges(body_rows)
        texts, numbers = [], []
        for row in body_rows:
            margin = margin_numbers(row, left, right)
            texts.append(plain(" ".join(logical(w) for w in row if w not in margin)))
            # a number alone in its row is no line's number (a conspectus listing numbered witnesses)
            numbers.append(int(margin[0].text) if margin and len(margin) < len(row) else None)
        page.apparatus = plain(" ".join(logical(w) for row in all_rows[first_small:] for w in row))
        for direction, order in (("apparatus_ltr", lambda w: w.x0), ("apparatus_rtl", lambda w: -w.x1)):
            text = " ".join(logical(w) for row in all_rows[first_small:] for w in sorted(row, key=order))
            setattr(page, direction, plain(text))
        counted.append((page, texts, numbers))
    if every_line_numbered:
        for page, texts, numbers in counted:
            page.lines.update({number: text for text, number in zip(texts, numbers) if number is not None})
            page.unnumbered = [text for text, number in zip(texts, numbers) if number is None]
    else:
        number_lines(counted)
    return [page for page, _, _ in counted]


def body_row_count(all_rows: list[list[Word]], body_height: dict[str, float]) -> int:
    """How many of a page's rows are body text: those above its first row set smaller (the apparatus)."""
    return next((i for i, row in enumerate(all_rows) if is_small(row, body_height)), len(all_rows))


def text_edges(body_rows: list[list[Word]]) -> tuple[float, float]:
    """The left and right edges of the text block, as the body rows give them: the median of their leftmost
    and of their rightmost word's edge, line numbers left out (0, 0 on a page without body text)."""
    if not body_rows:
        return 0, 0
    lefts = sorted(min((w.x0 for w in row if not w.text.isdigit()), default=0) for row in body_rows)
    rights = sorted(max((w.x1 for w in row if not w.text.isdigit()), default=0) for row in body_rows)
    return lefts[len(body_rows) // 2], rights[len(body_rows) // 2]


def margin_numbers(row: list[Word], left: float, right: float) -> list[Word]:
    """The numbers of a row that stand in a margin: outside the text block and set apart from every other
    word by more than a space (an apparatus row of numeric sigla on a page without text starts left of
    that page's other words too)."""
    return [
        w
        for w in row
        if w.text.isdigit()
        and (w.x1 < left - 2 or w.x0 > right + 2)
        and all(other is w or other.x0 - w.x1 > 6 or w.x0 - other.x1 > 6 for other in row)
    ]


def is_small(row: list[Word], body_height: dict[str, float]) -> bool:
    """A row set smaller than the text (apparatus), judged by the words of the row's main script against the
    body text's words of that script (each font has its own box height; line numbers may be smaller)."""
    known = [w for w in row if script(w) in body_height]
    if not known:  # a row of numbers (an entry's line number alone): against the body's usual height
        heights = sorted(w.height for w in row)
        return heights[len(heights) // 2] < 0.9 * min(body_height.values())
    main = max({script(w) for w in known}, key=lambda name: sum(script(w) == name for w in known))
    heights = sorted(w.height for w in known if script(w) == main)
    return heights[len(heights) // 2] < 0.9 * body_height[main]


def body_text_height(pages: list[list[Word]]) -> dict[str, float]:
    """The height of the body text's words, by script: that of the words in rows that carry a line number in
    a margin (the usual height of each script there)."""
    heights: dict[str, list[float]] = {}
    for words in pages:
        text = [w for w in words if not w.text.isdigit()]
        if not text:
            continue
        left, right = min(w.x0 for w in text), max(w.x1 for w in text)
        for row in rows(words):
            if margin_numbers(row, left, right):
                for word in row:
                    if script(word):
                        heights.setdefault(script(word), []).append(word.height)
    assert heights, "no line number found in the margins"
    return {name: sorted(found)[len(found) // 2] for name, found in heights.items()}


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


SPACED = (tei("w"), tei("pc"))


def base_text(element: etree._Element) -> str:
    """The text of a reading as the base text shows it: a nested unit gives its base reading; of orig and
    reg side by side, reg (as the print edition shows them)."""
    parts = [element.text or ""]
    for child in element:
        if not isinstance(child.tag, str):  # a comment or processing instruction: only its tail is text
            pass
        elif child.tag == tei("app"):
            parts.append(base_text(readings(child)[0]))
        elif child.tag in SHADOWED and element.find(SHADOWED[child.tag]) is not None:
            pass
        elif child.tag in SPACED:  # a word element is a word, even without whitespace beside it
            parts.append(f" {base_text(child)} ")
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


def has_entry(app: etree._Element) -> bool:
    """A unit the print keys to a line: it stands in the printed text, outside a note (whose lines are not
    numbered), and has a reading besides its base one."""
    outside_notes = next(app.iterancestors(tei("note")), None) is None
    return in_base_text(app) and outside_notes and len(readings(app)) > 1


def lemma_key(app: etree._Element) -> str:
    """The first word the apparatus shows for a unit (what stands before the first space, as the lemma label
    takes it): of its base reading, else the word before it (else after)."""
    words = bare(base_text(readings(app)[0])).split()
    return words[0] if words else (word_next_to(app, before=True) or word_next_to(app, before=False))


def word_next_to(app: etree._Element, before: bool) -> str:
    """The base text's word just before (or after) a unit, looking out of enclosing units when needed: what
    stands between two spaces, as the apparatus reader takes an addition's anchor (a dash or a stop set
    apart is one)."""
    parent = app.getparent()
    siblings = list(parent)
    index = siblings.index(app)
    if before:
        text = (parent.text or "") + "".join(base_text_of_node(s) for s in siblings[:index])
    else:
        text = (app.tail or "") + "".join(base_text_of_node(s) for s in siblings[index + 1 :])
    words = bare(text).split()
    if words:
        return words[-1] if before else words[0]
    enclosing = next(parent.iterancestors(tei("app")), None)
    return word_next_to(enclosing, before) if enclosing is not None else ""


def base_text_of_node(node: etree._Element) -> str:
    """A sibling's base text and the text after it."""
    if not isinstance(node.tag, str):  # a comment or processing instruction
        own = ""
    elif node.tag == tei("app"):
        own = base_text(readings(node)[0]) if readings(node) else ""
    else:
        own = f" {base_text(node)} " if node.tag in SPACED else base_text(node)
    return own + (node.tail or "")


def heading_row(pdf: Path, heading: str) -> tuple[int, list, tuple[float, float]]:
    """The page number and the row of a heading (an unnumbered body row holding its words), and the edges of
    that page's text block."""
    pages = pdf_words(pdf)
    body_height = body_text_height(pages)
    for number, words in enumerate(pages, start=1):
        all_rows = rows(words)
        body = all_rows[: body_row_count(all_rows, body_height)]
        for row in body:
            # every line is numbered (line-step 1), the heading not
            if not any(w.text.isdigit() for w in row) and all(
                holds(" ".join(logical(w) for w in row), word) for word in heading.split()
            ):
                return number, row, text_edges(body)
    pytest.fail(f"the heading {heading!r} is not among the rows of the text")


def holds(text: str, key: str) -> bool:
    """True when the text holds the word, both compared bare (without combining marks).

    A vocalised right-to-left word comes from pdftotext cut into boxes, and Typst gives the text of a letter
    that carries a mark twice, sometimes as a box of its own beside the word ('زك ي ري اء ء' for
    'زكرياء'): such a word is compared without spaces and punctuation, read in both orders of its boxes
    (read left to right, the boxes come in visual order), and found when its letters come in order within
    twice its length."""
    text, key = bare(text), bare(key)
    if key[:1] and unicodedata.name(key[0], "").split(" ")[0] in RIGHT_TO_LEFT:
        backwards = RTL_WORDS.sub(lambda run: " ".join(run.group().split(" ")[::-1]), text)
        candidates = (text, backwards)
        # XeTeX's ActualText gives each word in logical order already: the letters as the PDF has them too.
        candidates += tuple(RTL_RUN.sub(lambda run: run.group()[::-1], candidate) for candidate in candidates)
        return any(in_order(squeezed(key), squeezed(candidate)) for candidate in candidates)
    # A word with a combining mark the font draws apart may come as two boxes ('spǝ̄ ništā'), and Typst gives
    # the text of a letter with a combining mark twice ('dā̊ā̊ŋhē' for 'dā̊ŋhē').
    return key in text or squeezed(key) in squeezed(text)


def in_order(key: str, text: str) -> bool:
    """True when the key's letters come in order in the text, within twice the key's length."""
    for start in (i for i, char in enumerate(text) if char == key[:1]):
        rest = iter(text[start : start + 2 * len(key)])
        if all(char in rest for char in key):
            return True
    return False


@cache
def squeezed(text: str) -> str:
    """Without spaces, repeated letters once; the punctuation beside right-to-left letters left out (its
    place at either end of a box depends on the direction pdftotext gives it)."""
    text = text.replace(" ", "")
    if RTL_RUN.search(text) and any(char.isalpha() for char in text):
        text = "".join(char for char in text if not unicodedata.category(char).startswith("P"))
    return re.sub(r"(.)\1+", r"\1", text)


def unhyphenated(page: Page, line: int, lines: dict[int, str]) -> str:
    """A body line of a page with a word hyphenated at its end completed from the next line, and one
    hyphenated at the end of the line before completed at its start (on any page): an addition after a
    hyphenated word is keyed to the line where the word ends."""
    text = page.lines.get(line, "")
    following = lines.get(line + 1, "").split()
    if text.endswith("-") and following:
        text = text[:-1] + following[0]
    previous = lines.get(line - 1, "")
    if previous.endswith("-") and previous.split():
        text = previous.split()[-1][:-1] + text
    return text


def keyed_entry(pages: list[Page], key: str) -> tuple[int, int] | None:
    """The (page, line) of an apparatus entry 'N[–M] … key' whose body line N holds key: on the page of
    line N, or (an apparatus continued as reledmac continues it) on a later page, never an earlier one.
    Each page's apparatus is read left to right and right to left (its rows as a right-to-left apparatus
    sets them: the entry's number at the right, then its lemma)."""
    entry = re.compile(r"(?<![\d–])(\d+)(?:–(\d+))?(?= )")
    lines = {number: text for page in pages for number, text in page.lines.items()}
    page_of = {number: page for page in pages for number in page.lines}
    line_holds: dict[int, bool] = {}  # body line N holds the key (asked once a line, before the entry's text)
    for page, apparatus in ((p, bare(text)) for p in pages for text in (p.apparatus_ltr, p.apparatus_rtl)):
        for match in entry.finditer(apparatus):
            line = int(match.group(1))
            home = page_of.get(line)
            if home is None or home.number > page.number:
                continue
            if line not in line_holds:
                line_holds[line] = holds(unhyphenated(home, line, lines), key)
            if not line_holds[line]:
                continue
            near = apparatus[match.end() : match.end() + 8 + len(key) * 3]
            bracket = apparatus.find("]", match.end())  # or the entry's whole lemma, up to its bracket
            lemma = apparatus[match.end() : bracket] if 0 <= bracket - match.end() <= 200 else ""
            if holds(near, key) or holds(lemma, key):
                return page.number, line
    # A unit in an unnumbered line (a heading): its entry 'key]' has no line number, on the page of that
    # line or a later one.
    for number, page in enumerate(pages):
        if any(holds(text, key) for text in page.unnumbered):
            for later in pages[number:]:
                for apparatus in (later.apparatus_ltr, later.apparatus_rtl):
                    lemmas = re.findall(r"((?:\S+ ){0,4}\S+) ?\]", bare(apparatus))  # up to 'a b … y z]'
                    if any(holds(lemma, key) for lemma in lemmas):
                        return later.number, 0
    return None


def assert_apparatus_keyed(pdf: Path, edition: Path, every_line_numbered: bool = False) -> list[Page]:
    pages = read_pdf(pdf, every_line_numbered)
    tree = parse_file(edition)
    folded = Apparatus(tree, str(edition))
    if folded.folding_refused is None:  # a base-text apparatus (location-referenced, double end-point) folded:
        tree = folded.parallel  # each unit in its place, its lem the base text it points to
    apps = [app for app in tree.getroot().findall(".//tei:text//tei:app", NSMAP) if has_entry(app)]
    assert apps, "the edition has no unit"
    # A transposition by reference prints nothing in the text: its entry is keyed to the first unit it moves.
    first_moved = {
        unit.app: next(iter(next(r.moves for r in unit.readings if r.moves))).app
        for unit in (folded.units() if folded.folding_refused is None else ())
        if unit.transposes
    }
    missing = [
        (app.get("{http://www.w3.org/XML/1998/namespace}id"), lemma_key(first_moved.get(app, app)))
        for app in apps
        if keyed_entry(pages, lemma_key(first_moved.get(app, app))) is None
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


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_every_place_of_the_seed_edition_is_keyed_to_its_line(engine, seed_edition_file, tmp_path, request, artifacts):
    """The seeds as `tei build` prints them (the manifest's entries = "places"): one entry for each place of
    variation of A, B and C (107 for 446 word-level units), each on the page of its line or continued after
    it, and D's clauses (units typed paraphrase) after the text, each keyed to its lines."""
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = render_pdf(seed_edition_file, tmp_path / "seeds.pdf", engine, entries="places")
    placed = tmp_path / "places.xml"
    by_place(parse_file(seed_edition_file)).write(str(placed), encoding="utf-8")
    close = [app for app in parse_file(placed).getroot().iter(tei("app")) if app.get("type") != "paraphrase"]
    assert 100 < len(close) <= 150, len(close)
    pages = assert_apparatus_keyed(pdf, placed)
    assert_text_complete(pages, seed_edition_file, "A")
    assert len(pages) > 2, "the seed edition fills several pages"
    after = pages[max(i for i, page in enumerate(pages) if page.lines) + 1 :]
    series_c = " ".join(bare(page.apparatus + " ".join(page.unnumbered)) for page in after)
    assert "Paraphrase" in series_c and "Understand this hadith" in series_c, "D's clauses after the text"
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


# The same edition with Arabic as the language of the whole document, and English declared on its English
# paragraph: the Arabic paragraph has no xml:lang of its own (as in the hadith editions and BAlam52).
INHERITED = (
    BILINGUAL.replace(
        '<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">',
        '<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="ar">',
    )
    .replace('<ab xml:lang="ar" xml:space="preserve">', '<ab xml:space="preserve">')
    .replace('<ab xml:space="preserve">Muḥammad', '<ab xml:lang="en" xml:space="preserve">Muḥammad')
)


@pytest.mark.parametrize("declared", ["on-the-paragraph", "on-the-document"])
@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_an_arabic_paragraph_runs_right_to_left_with_its_apparatus(engine, declared, tmp_path, request, artifacts):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = tmp_path / "bilingual.xml"
    edition.write_text(BILINGUAL if declared == "on-the-paragraph" else INHERITED, encoding="utf-8")
    rendered = render(edition, "pdf", tmp_path / "bilingual.pdf", {"engine": engine, "line-step": "1"})
    assert not rendered.diagnostics, "no warning, in particular no character missing from the fonts (P023)"
    (pdf,) = write_files(rendered.files)
    assert_apparatus_keyed(pdf, edition)
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert "Muḥammad ṭāʿūn Qurʾān ʿUmar" in plain(text), "the transliteration marks are printed"
    first_row = rows(pdf_words(pdf)[1])[0]
    rightmost = max((w for w in first_row if not w.text.isdigit()), key=lambda w: w.x1)
    assert plain(rightmost.text) in ("لما", "امل"), "the Arabic paragraph starts at the right"
    if declared == "on-the-paragraph":
        save_page(pdf, 2, artifacts / f"print-{engine}-bilingual-page2")


# Headings in two languages over English prose: the Arabic one carries its own xml:lang.
HEADED = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="en">
  <teiHeader><fileDesc>
    <titleStmt><title>Headings in two languages (test edition)</title></titleStmt>
    <publicationStmt><p>Written for the print tests.</p></publicationStmt>
    <sourceDesc><listWit><witness xml:id="A">First form.</witness><witness xml:id="B">Second form.</witness></listWit></sourceDesc>
  </fileDesc></teiHeader>
  <text><body><div>
    <head xml:lang="ar">باب ما جاء في يوم بدر<note xml:lang="en">A note of the editor on this heading.</note></head>
    <p>When it was the day of Badr the <app><lem wit="#A">Messenger</lem><rdg wit="#B" type="substitution">Prophet</rdg></app> of Allah looked at the polytheists, and they were one thousand while his companions were three hundred and nineteen men; then he turned towards the Qibla, stretched out his hands and called upon his Lord, and he did not stop calling upon his Lord, his hands stretched out, until his mantle fell from his shoulders.</p>
    <head>The help of the angels</head>
    <p>So Allah helped him with angels, and a Muslim who was chasing a polytheist heard the crack of a whip above him and the voice of a rider who said: go ahead, Haizum; and he looked at the polytheist in front of him, and he had fallen on his back.</p>
  </div></body></text>
</TEI>
"""


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_a_heading_in_its_own_language_is_a_heading_set_in_its_direction(engine, tmp_path, request, artifacts):
    """A head with an xml:lang of its own is a heading (Typst printed it as a run in the text, its language
    template taking precedence), set in its language's direction: the Arabic one ends at the right edge of
    the text block, the English one starts at the left, within 2 pt. A note in another language inside it
    is not printed in the heading's line (both engines did, as BAlam52's English note in its Arabic head)."""
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = tmp_path / "headed.xml"
    edition.write_text(HEADED, encoding="utf-8")
    pdf = render_pdf(edition, tmp_path / "headed.pdf", engine, **{"line-step": "1"})
    assert "note of the editor" not in pdftotext(pdf, "-raw")
    for heading, side in (("باب ما جاء في يوم بدر", "right"), ("The help of the angels", "left")):
        number, row, (left, right) = heading_row(pdf, heading)
        start, end = min(w.x0 for w in row), max(w.x1 for w in row)
        assert end - start < right - left - 20, heading
        if side == "right":
            assert abs(end - right) <= 2, f"{heading}: ends at {end:.1f} pt, the text block at {right:.1f} pt"
        else:
            assert abs(start - left) <= 2, f"{heading}: starts at {start:.1f} pt, the text block at {left:.1f} pt"
    if engine == "typst":
        source = render(edition, "typst", tmp_path / "headed.typ", {}).files
        text = next(iter(source.values())).decode("utf-8")
        assert '#tei-section-head("' in text and '", "ar", [' in text, "the Arabic heading is a section heading"
    save_page(pdf, 2, artifacts / f"print-{engine}-headings-two-languages")


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_a_right_to_left_stage_direction_is_indented_from_the_right(engine, tmp_path, request):
    """A speaker of a right-to-left play starts at the right edge of the text block (within 2 pt); a stage
    direction is indented from that edge (Typst indented it from the left; LaTeX by its paragraph indent
    and 1.5 em)."""
    if engine == "latex":
        request.getfixturevalue("latexmk")
    edition = tmp_path / "scene.xml"
    edition.write_bytes(ARABIC_SCENE.read_bytes())
    pdf = render_pdf(edition, tmp_path / "scene.pdf", engine, **{"line-step": "1"})
    _, speaker, (left, right) = heading_row(pdf, "الراوي")
    assert abs(max(w.x1 for w in speaker) - right) <= 2, (speaker, right)
    _, stage, _ = heading_row(pdf, "يدخل الفارس على فرسه")
    indent = right - max(w.x1 for w in stage)
    assert 10 <= indent <= 35, f"the stage direction ends {indent:.1f} pt before the right edge"  # LaTeX: 30


TRANSPOSITION = MINI.parent / "transposition.xml"


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_a_transposition_by_reference_is_one_entry_keyed_to_the_line_of_the_first_unit_it_moves(
    engine, tmp_path, request
):
    """teiphy's shape (Ephesians 6:20): no placeholder in the text, one entry in base texts, keyed to the
    line of ινα (every unit keyed: the transposition by the first unit it moves)."""
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = render_pdf(TRANSPOSITION, tmp_path / "transposition.pdf", engine, **{"line-step": "1"})
    text = " ".join(
        subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split()
    )
    assert "[U1" not in text
    assert "ινα εν αυτω παρρησιασωμαι] ινα παρρησιασωμαι εν αυτω C" in text
    assert "το μυστηριον του ευαγγελιου ινα εν αυτω παρρησιασωμαι" in text
    assert_apparatus_keyed(pdf, TRANSPOSITION, every_line_numbered=True)
