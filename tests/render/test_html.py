"""The html format without a browser: the page's structure, parameters, diagnostics, golden output, registry."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from lxml import etree, html

from tei.diagnostics import Severity
from tei.errors import InvalidInputError, UsageError
from tei.render import formats, output_format, render
from tei.render.html import ARABIC_RANGES, FULLWIDTH, arabic_codepoints, make_web_fonts
from tei.render.xslt import stylesheet
from tei.resources import resource_root

from .conftest import FIXTURES, MINI, mini_variant, transposed_mini

GOLDEN = Path(__file__).resolve().parent / "golden"
ACCEPT = os.environ.get("TEI_ACCEPT_GOLDEN") == "1"  # re-accept after reviewing the diff


def page_of(edition: Path, tmp_path: Path, **params) -> html.HtmlElement:
    rendered = render(edition, "html", tmp_path, params)
    return html.fromstring(rendered.files[tmp_path / "index.html"])


def normalise(page: str) -> str:
    """Whitespace between tags and line endings do not count."""
    return re.sub(r">\s+<", "><", page.replace("\r\n", "\n")).strip()


# Elements whose boundaries a line break may separate without changing the page (nothing is drawn there).
LAYOUT_TAGS = frozenset(
    [
        "html",
        "head",
        "body",
        "header",
        "footer",
        "main",
        "nav",
        "section",
        "article",
        "aside",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "ol",
        "ul",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "figure",
        "figcaption",
        "fieldset",
        "legend",
        "form",
        "select",
        "optgroup",
        "option",
        "meta",
        "link",
        "title",
        "script",
        "style",
    ]
)
VOID_TAGS = frozenset(
    ["meta", "link", "input", "br", "img", "hr", "wbr", "source", "col", "area", "base", "embed", "track"]
)
TAG = re.compile(r"(<[^>]*>)")
TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)")


def pretty(page: str) -> str:
    """The page with a line break and indentation added between two layout tags that touch (nothing between
    them), never inside a preserved element (data-space="preserve", pre, script, style): a golden file a
    reviewer can read and diff, from which deleting the added whitespace gives back the page byte for byte."""
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # open elements: name, whether whitespace inside it is drawn
    last_layout = False  # the last token was a layout tag, with nothing after it yet
    for token in TAG.split(page):
        if not token:
            continue
        name_match = TAG_NAME.match(token) if token.startswith("<") else None
        if name_match is None:  # text, a comment or the doctype
            out.append(token)
            last_layout = token.startswith("<!DOCTYPE")
            continue
        name = name_match[1].lower()
        closing = token.startswith("</")
        preserved = any(kept for _, kept in stack)
        if closing and stack and stack[-1][0] == name:
            stack.pop()
        layout = name in LAYOUT_TAGS
        if layout and last_layout and not preserved:
            out.append("\n" + "  " * len(stack))
        out.append(token)
        if not closing and name not in VOID_TAGS and not token.endswith("/>"):
            kept = name in ("pre", "script", "style", "textarea") or 'data-space="preserve"' in token
            stack.append((name, kept))
        last_layout = layout
    return "".join(out).rstrip("\n") + "\n"


@pytest.mark.parametrize("name", ["common/apparatus.xsl", "common/witness-text.xsl", "html/edition.xsl"])
def test_every_html_stylesheet_compiles(name):
    assert isinstance(stylesheet(name), etree.XSLT)


def test_registry_knows_html_and_refuses_an_unknown_format():
    assert "html" in formats()
    with pytest.raises(UsageError) as caught:
        output_format("docx")
    assert caught.value.diagnostics[0].code == "R101"


def test_mini_page_matches_its_golden_file(tmp_path):
    page = render(MINI, "html", tmp_path).files[tmp_path / "index.html"].decode()
    golden = GOLDEN / "mini.html"
    if ACCEPT:
        golden.write_text(pretty(page), "utf-8")
    assert pretty(page) == golden.read_text("utf-8")


def test_the_golden_page_is_the_page_with_line_breaks_added_between_layout_tags_only(tmp_path):
    page = render(MINI, "html", tmp_path).files[tmp_path / "index.html"].decode()
    shown = pretty(page)
    assert shown.count("\n") > 60
    assert re.sub(r"\n *", "", shown) == re.sub(r"\n *", "", page)  # only line breaks and indentation added
    preserved = re.search(r'data-space="preserve">.*?</div>', page, re.S)[0]
    assert preserved in shown  # the text of the edition, whitespace drawn as it is, untouched


def test_every_unit_is_marked_numbered_and_cross_linked(tmp_path):
    page = page_of(MINI, tmp_path)
    units = page.xpath("//*[@id='reading-text']//span[@class='app']")
    assert [u.get("id") for u in units] == [f"app-000{n}" for n in range(1, 6)]
    assert [u.get("data-n") for u in units] == ["1", "2", "3", "4", "5"]
    assert not any(u.get("role") for u in units)  # the script makes them buttons: without it they do nothing
    for unit in units:
        entry = page.get_element_by_id(f"entry-{unit.get('id')}")
        assert entry.find_class("unit-ref")[0].get("href") == f"#{unit.get('id')}"
        assert entry.find_class("permalink")[0].get("href") == f"#{unit.get('id')}"


def test_entry_reads_lemma_bracket_readings_sigla_and_types(tmp_path):
    entry = page_of(MINI, tmp_path).get_element_by_id("entry-app-0002")
    assert " ".join(entry.text_content().split()) == "2 Qibla A] Qiblah B C orthographic ¶"
    entry = page_of(MINI, tmp_path).get_element_by_id("entry-app-0003")
    assert " ".join(entry.text_content().split()) == "3 om. A C] At that time he was wearing a cloak. B addition ¶"


def test_unit_types_come_from_rdg_then_rdg_grp(tmp_path):
    page = page_of(MINI, tmp_path)
    assert page.get_element_by_id("app-0001").get("data-types") == "honorific"
    assert page.get_element_by_id("app-0005").get("data-types") == "substitution"


def test_sigla_are_the_n_of_list_wit(tmp_path):
    edition = mini_variant(tmp_path, 'xml:id="B" n="B"', 'xml:id="B" n="Ms. β"')
    page = page_of(edition, tmp_path / "site")
    sigla = [s.text for s in page.get_element_by_id("entry-app-0005").find_class("siglum")]
    assert sigla == ["A", "Ms. β", "C"]
    assert [o.text for o in page.xpath("//select[@id='witness-select']/option")][1:] == ["A", "Ms. β", "C"]


def test_arabic_foreign_is_an_rtl_bdi(tmp_path):
    (foreign,) = page_of(MINI, tmp_path).xpath("//*[@id='reading-text']//bdi[@lang='ar']")
    assert foreign.get("dir") == "rtl" and foreign.text == "رضي الله عنهم"


def test_parameters_are_quoted_not_pasted_into_xpath(tmp_path):
    title = "Badr: 'Umar's \"captives\" & <more>"
    page = page_of(MINI, tmp_path, title=title)
    assert page.find(".//title").text == title
    assert page.find(".//h1").text == title


def test_conspectus_links_transcriptions_relative_to_the_site(tmp_path):
    edition = mini_variant(
        tmp_path,
        "Close translation, two sentences.</witness>",
        'Close translation.<ptr type="transcription" target="transcriptions/A.xml"/></witness>',
    )
    page = page_of(edition, tmp_path / "html")
    (link,) = page.xpath("//*[@id='view-witnesses']//a[@class='transcription']")
    assert link.get("href") == "../transcriptions/A.xml"


def test_site_ships_its_css_js_and_fonts_and_nothing_remote(tmp_path):
    rendered = render(MINI, "html", tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in rendered.files) == [
        "edition.css",
        "edition.js",
        "fonts/OFL.txt",
        "fonts/amiri-arabic.woff",
        "fonts/tei-symbols.woff",
        "index.html",
    ]
    for path, data in rendered.files.items():
        if path.suffix in (".css", ".js", ".html"):
            assert b"http://" not in data.replace(b"http://www.w3.org", b"") and b"https://" not in data
            assert b"@import" not in data
    css = rendered.files[tmp_path / "edition.css"].decode()
    assert re.findall(r"url\(\"([^\"]+)\"\)", css) == ["fonts/amiri-arabic.woff", "fonts/tei-symbols.woff"]
    assert b"SIL Open Font License" in rendered.files[tmp_path / "fonts" / "OFL.txt"]


@pytest.mark.parametrize(
    ("fixture", "code", "line"),
    [("no-apparatus.xml", "H002", 11), ("unknown-witness.xml", "H004", 60), ("no-listwit.xml", "H003", 35)],
)
def test_bad_input_is_a_located_warning_in_the_page_and_in_diagnostics(fixture, code, line, tmp_path):
    rendered = render(FIXTURES / fixture, "html", tmp_path)
    (warning,) = rendered.diagnostics
    assert (warning.code, warning.severity, warning.line) == (code, Severity.WARNING, line)
    assert warning.file == str(FIXTURES / fixture)
    page = html.fromstring(rendered.files[tmp_path / "index.html"])
    assert page.xpath(f"//*[@class='warnings' and @role='alert']//li[@data-code='{code}']")


def test_a_document_without_tei_text_is_refused(tmp_path):
    with pytest.raises(InvalidInputError) as caught:
        render(FIXTURES / "not-tei.xml", "html", tmp_path)
    assert caught.value.diagnostics[0].code == "H001"


def test_every_shipped_html_asset_is_in_the_resources():
    assert {p.name for p in (resource_root("xslt") / "html").iterdir()} >= {"edition.css", "edition.js", "params.xsl"}


def test_transposed_units_link_to_each_other(tmp_path):
    page = page_of(transposed_mini(tmp_path), tmp_path / "site")
    links = {
        e.get("id"): [(a.get("href"), a.text) for a in e.find_class("transposed")] for e in page.find_class("entry")
    }
    assert links["entry-app-0002"] == [("#app-0005", "transposed with 5")]
    assert links["entry-app-0005"] == [("#app-0002", "transposed with 2")]
    assert sum(len(found) for found in links.values()) == 2


def test_a_lem_without_wit_stands_for_the_witnesses_no_reading_names(tmp_path):
    edition = mini_variant(tmp_path, '<lem wit="#A">captives</lem>', "<lem>captives</lem>")
    entry = page_of(edition, tmp_path / "site").get_element_by_id("entry-app-0005")
    assert " ".join(entry.text_content().split()) == "5 captives A] prisoners B C substitution ¶"


def test_shipped_fonts_hold_what_the_css_promises():
    """The Arabic subset holds every character of its unicode-range that Amiri has; the symbol font every
    fullwidth form whose ASCII letter Amiri has; both are what `--make-fonts` writes (made from Amiri)."""
    import fontpkg_amiri
    from fontTools.ttLib import TTFont

    fonts = resource_root("xslt") / "html" / "fonts"
    amiri = set(TTFont(fontpkg_amiri.ROOT / "files" / "Amiri-Regular.ttf").getBestCmap())
    arabic = TTFont(fonts / "amiri-arabic.woff")
    assert set(arabic.getBestCmap()) >= amiri & set(arabic_codepoints())
    assert arabic["name"].getDebugName(1) == "Amiri Arabic Web"
    symbols = set(TTFont(fonts / "tei-symbols.woff").getBestCmap())
    assert symbols == {wide for wide, narrow in FULLWIDTH.items() if narrow in amiri} and 0xFF0B in symbols
    css = (resource_root("xslt") / "html" / "edition.css").read_text("utf-8")
    ranges = re.findall(r"unicode-range: ([^;]+);", css)
    promised = ", ".join(f"U+{a:04X}-{b:04X}" for a, b in ARABIC_RANGES)
    assert ranges[0].startswith(promised)


@pytest.mark.slow
def test_make_web_fonts_writes_the_shipped_fonts(tmp_path):
    from fontTools.ttLib import TTFont

    shipped = resource_root("xslt") / "html" / "fonts"
    for made in make_web_fonts(tmp_path):
        if made.suffix == ".woff":
            assert TTFont(made).getBestCmap() == TTFont(shipped / made.name).getBestCmap(), made.name
        else:
            assert made.read_bytes() == (shipped / made.name).read_bytes()


def test_a_transposition_by_reference_has_no_text_and_one_entry_in_base_texts(tmp_path):
    edition = Path(__file__).resolve().parents[1] / "fixtures" / "editions" / "transposition.xml"
    page = next(v for k, v in render(edition, "html", tmp_path / "site").files.items() if k.suffix == ".html")
    tree = html.fromstring(page)
    (mark,) = tree.xpath("//span[contains(@class, 'transposition')]")
    assert mark.text_content() == "" and "[U1" not in page.decode()
    (entry,) = tree.xpath("//li[@id='entry-U12-18']")
    words = [" ".join(w.text_content().split()) for w in entry.xpath(".//bdi[@class='words']")]
    assert words[:2] == ["ινα εν αυτω παρρησιασωμαι", "ινα παρρησιασωμαι εν αυτω"]
    assert entry.xpath(".//span[@data-type='transposition']/@data-wit") == ["C"]
    # in each slot, what C reads there comes first, for the page to show (the reader's tk:moved)
    moved = [
        (m.getparent().get("id"), m.get("data-wit"), m.text_content().strip())
        for m in tree.xpath("//span[@class='rdg moved']")
    ]
    assert moved == [("U14-16", "C", "παρρησιασωμαι"), ("U18", "C", "εναυτω")]
