"""The PDF engines' failures as the user sees them: exit codes, one-line hints, the relevant lines of a LaTeX log."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from cli_runner import one_error_line, run

from tei.render import render
from tei.render.latex_pdf import PAGE_NUMBERS_IGNORED, font_files

from .test_pdf import pdf_words

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"


def test_a_missing_latexmk_is_exit_4_with_a_one_line_install_hint(tmp_path, monkeypatch):
    monkeypatch.setattr("tei.render.latex_pdf.shutil.which", lambda name: None)
    result = run("render", MINI, "--to", "pdf", "--engine", "latex", "-o", tmp_path / "mini.pdf")
    assert result.exit_code == 4
    line = one_error_line(result)
    assert "[P020] latexmk is not installed" in line and "apt-get install" in line
    assert not (tmp_path / "mini.pdf").exists()


def test_a_latex_error_shows_the_relevant_log_lines_only(tmp_path):
    if shutil.which("latexmk") is None:
        pytest.fail("latexmk is missing: run scripts/setup.sh")
    result = run(
        "render",
        MINI,
        "--to",
        "pdf",
        "--param",
        "engine=latex",
        "--param",
        "fonts=No Such Font",
        "-o",
        tmp_path / "mini.pdf",
    )
    assert result.exit_code == 4
    lines = result.stderr.strip().splitlines()
    assert "[P022] XeLaTeX could not compile the print edition" in lines[0]
    assert any("No Such Font" in line for line in lines[1:]), result.stderr
    assert 2 <= len(lines) <= 13, "the error lines of the log, not the whole log"
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "mini.pdf").exists()


def test_an_unknown_engine_is_a_usage_error(tmp_path):
    result = run("render", MINI, "--to", "pdf", "--param", "engine=troff", "-o", tmp_path / "mini.pdf")
    assert result.exit_code == 2
    assert "[P001] unknown PDF engine 'troff'" in one_error_line(result)


@pytest.mark.parametrize("format_name, start", [("typst", "// The print edition"), ("latex", "% The print edition")])
def test_the_sources_are_written_for_hand_tuning(format_name, start, tmp_path):
    output = tmp_path / f"mini.{format_name}"
    result = run("render", MINI, "--to", format_name, "-o", output)
    assert result.exit_code == 0, result.stderr
    assert output.read_text("utf-8").startswith(start)


def test_tei_build_writes_the_pdf_from_edition_xml(tmp_path):
    from tei.app.build import STAGES, BuildOptions

    shutil.copy(MINI, tmp_path / "edition.xml")
    written = dict(STAGES)["pdf"](None, BuildOptions(tmp_path))
    assert list(written) == [tmp_path / "edition.pdf"]
    assert written[tmp_path / "edition.pdf"].startswith(b"%PDF-")


def test_a_typst_error_is_exit_4_with_typst_s_message(tmp_path):
    result = run("render", MINI, "--to", "pdf", "--param", "paper=no-such-paper", "-o", tmp_path / "mini.pdf")
    assert result.exit_code == 4
    lines = result.stderr.strip().splitlines()
    assert "[P012] Typst could not compile the print edition" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "mini.pdf").exists()


SPECIALS = "a*b_c #d $e <f> @g // h \\ i % j & k { l } ~ m ^ n [o] `p` 'q' \"r\" s-- t... = +"


@pytest.mark.parametrize("engine", ["typst", "latex"])
def test_characters_special_to_typst_or_latex_print_as_they_are(engine, tmp_path):
    text = MINI.read_text("utf-8").replace("He consulted Abu Bakr and", f"He consulted {escape(SPECIALS)} and")
    edition = tmp_path / "specials.xml"
    edition.write_text(text, encoding="utf-8")
    result = run("render", edition, "--to", "pdf", "--param", f"engine={engine}", "-o", tmp_path / "specials.pdf")
    assert result.exit_code == 0, result.stderr
    # The words as drawn (pdftotext -bbox): its plain text joins a word ending a line in '-' ('s--') to the
    # next line's first word, as if hyphenated.
    printed = " ".join(word.text for page in pdf_words(tmp_path / "specials.pdf") for word in page)
    assert SPECIALS.split() == printed.split(" He consulted ")[1].split(" and ")[0].split()


def xelatex_log(preamble: str, body: str, folder: Path) -> str:
    """The log of one XeLaTeX pass over the preamble and a body (no PDF written)."""
    (folder / "check.tex").write_text(f"{preamble}\\begin{{document}}\n{body}\n\\end{{document}}\n", "utf-8")
    subprocess.run(
        ["xelatex", "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "check.tex"],
        cwd=folder,
        capture_output=True,
        timeout=120,
    )
    return (folder / "check.log").read_text("utf-8", errors="replace")


def test_reledmacs_lists_are_queues_and_its_edtext_check_still_refuses_a_paragraph_inside(tmp_path):
    """xslt/latex/reledmac-speed.xsl replaces reledmac's list macros and its check of \\edtext only where they
    are those of the reledmac it was written for: with the TeX Live installed here both replacements are made
    (a pass over the seeds takes 2 s instead of 22), and the check still refuses \\pstart or \\pend inside an
    \\edtext's arguments, as reledmac's own does."""
    if shutil.which("xelatex") is None:
        pytest.fail("xelatex is missing: run scripts/setup.sh")
    source = render(MINI, "latex", tmp_path / "mini.tex").files[tmp_path / "mini.tex"]
    text = font_files(source, tmp_path).decode("utf-8")
    preamble = text[: text.index("\\begin{document}")]
    log = xelatex_log(preamble, "x", tmp_path)
    assert "Package tei Info: reledmac's lists are queues" in log, log[-2000:]
    assert "Package tei Info: reledmac's check of \\edtext by a delimited macro" in log
    for body, refused in (
        ("\\edtext{a \\pend\\ b}{\\Afootnote{c}}", "\\pend in \\edtext first argument"),
        ("\\edtext{a}{\\Afootnote{c}\\pstart}", "\\pstart in \\edtext second argument"),
    ):
        log = xelatex_log(preamble, f"\\beginnumbering\n\\pstart {body} \\pend\n\\endnumbering", tmp_path)
        assert f"Package reledmac Error: {refused}" in log, body


def test_latexmk_leaves_out_only_the_page_records_when_it_compares_passes():
    """latexmk runs XeLaTeX again while the files a pass read differ from those it wrote, leaving out the lines
    that PAGE_NUMBERS_IGNORED's patterns match (its %hash_calc_ignore_pattern): the page records of reledmac's
    .1 file and of the .aux, which the print does not read (a third pass gave the second's PDF byte for byte),
    never the line numbers of the notes."""
    program = PAGE_NUMBERS_IGNORED + (
        ' for my $ext ("1", "aux") { while (my $line = <STDIN>) { last if $line eq "--\\n";'
        ' print "$ext ", ($line =~ /$hash_calc_ignore_pattern{$ext}/ ? "left out" : "compared"), "\\n"; } }'
    )
    lines = "\\@nl[6][6]\n\\@ref[3][\n\\@lemma\n--\n\\gdef \\@abspage@last{21}\n\\selectlanguage *{english}\n--\n"
    found = subprocess.run(["perl", "-e", program], input=lines, capture_output=True, text=True, check=True).stdout
    assert found.splitlines() == ["1 left out", "1 compared", "1 compared", "aux left out", "aux compared"]
