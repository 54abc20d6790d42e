"""Issue 32 in print and on the web: an edition collated from scholars' TEI transcriptions (the W1/W2 fixture)
prints the forms of its choices that were not collated after the text, in both PDF engines; an NT apparatus
that cites `06*` and `06C2` but not `06` is read as 06's first hand by stats, the web page and both PDF
engines. Each PDF is read back with pdftotext."""

from __future__ import annotations

import re

import pytest
from cli_runner import run
from latin_transcriptions import NT, collated_latin
from lxml import etree

from .test_pdf import pdftotext

TEI = "{http://www.tei-c.org/ns/1.0}"


def _words(pdf) -> str:
    return " ".join(pdftotext(pdf, "-layout").split())  # lines as set: a run-in entry may end a line


@pytest.fixture(scope="module")
def latin(tmp_path_factory):
    return collated_latin(tmp_path_factory.mktemp("latin"))


@pytest.fixture(scope="module")
def nt(tmp_path_factory):
    path = tmp_path_factory.mktemp("nt") / "nt.xml"
    path.write_text(NT, encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_forms_not_collated_are_printed_after_the_text(engine, latin, tmp_path, request):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = tmp_path / "latin.pdf"
    result = run("render", latin, "--to", "pdf", "--engine", engine, "-o", pdf)
    assert result.exit_code == 0, result.stderr
    words = _words(pdf)
    # The text prints the collated forms only; every other form of the edition is listed once, lemma first.
    assert "In principio erat verbum et deus erat apud Petrum sanctum hic finis verbum lucis" in words
    others = [e for e in etree.parse(str(latin)).iter(f"{TEI}abbr", f"{TEI}sic", f"{TEI}orig")]
    assert len(others) == 3
    listed = words.split("Forms of the transcriptions not collated", 1)[1]
    entries = ["verbum] vbm W1 1r.1 (abbr.)", "verbum] uerbum W2 5r.2 (orig.)", "verbum] verbi W1 1v.1 (sic)"]
    assert all(entry in listed for entry in entries), listed
    assert [listed.index(entry) for entry in entries] == sorted(listed.index(entry) for entry in entries)
    for word in ("vbm", "uerbum", "verbi"):  # nowhere else: not in the text, not in the apparatus of variants
        assert words.count(word) == 1


def test_stats_read_the_first_hand_as_its_witness(nt):
    result = run("stats", nt)
    assert result.exit_code == 0, result.stderr
    agreement = {
        tuple(m.group(1, 2)): m.group(3)
        for m in re.finditer(r"^\s*(\S+) (\S+)\s+[\d.]+%\s+\((\d+ of \d+)\)", result.stdout, re.M)
    }
    assert agreement[("06", "06*")] == "1 of 1"  # 06 reads what its first hand reads
    assert agreement[("A", "06")] == "0 of 1" and agreement[("06", "06C2")] == "0 of 1"


def test_the_web_page_reads_the_first_hand_as_its_witness(nt, tmp_path):
    result = run("render", nt, "--to", "html", "-o", tmp_path / "html")
    assert result.exit_code == 0, result.stderr
    page = etree.parse(str(tmp_path / "html" / "index.html"), etree.HTMLParser())
    in_text = {r.text: r.get("data-wit").split() for r in page.xpath("//span[@id='unit-1']/span")}
    assert in_text == {"christo": ["A"], "kurio": ["06", "06*"], "theo": ["06C2"]}
    entry = page.xpath("//li[@id='entry-unit-1']")[0]
    assert " ".join("".join(entry.itertext()).split()).startswith("1 christo A] kurio 06; theo 06C2")


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_the_print_reads_the_first_hand_as_its_witness(engine, nt, tmp_path, request):
    if engine == "latex":
        request.getfixturevalue("latexmk")
    pdf = tmp_path / "nt.pdf"
    result = run("render", nt, "--to", "pdf", "--engine", engine, "-o", pdf)
    assert result.exit_code == 0, result.stderr
    words = _words(pdf).replace("\u2060", "")
    assert "en christo iesou" in words
    assert "1 christo] kurio 06; theo 06C2" in words  # 06 with its first hand, not with the lemma
