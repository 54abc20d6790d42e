"""The preamble's format (tei.render.latex_format): the LaTeX engine's PDF is the same, byte for byte, with
and without it; a format that cannot be made or read leaves the plain compilation."""

from __future__ import annotations

import os
from pathlib import Path

from paths import ARABIC_SCENE

from tei.outputs import write_files
from tei.render import latex_format, render
from tei.render.latex_pdf import compile_pdf


def latex_pdf(edition: Path, output: Path) -> bytes:
    write_files(render(edition, "pdf", output, {"engine": "latex"}).files, force=True)
    return output.read_bytes()


def plain_pdf(edition: Path, output: Path, monkeypatch) -> bytes:
    """The PDF compiled from the source as it stands, every pass reading the whole preamble."""
    with monkeypatch.context() as patched:
        patched.setattr(latex_format, "formatted", lambda text, folder: None)
        return latex_pdf(edition, output)


def test_the_seeds_pdf_from_the_preambles_format_is_the_pdf_from_the_source(
    seed_pdfs, seed_edition_file, tmp_path, monkeypatch
):
    """The seeds' LaTeX print as every test reads it (seed_pdfs: English, the isnad diagram's graphicx)."""
    made, _ = seed_pdfs["latex"]
    assert made.read_bytes() == plain_pdf(seed_edition_file, tmp_path / "plain.pdf", monkeypatch)


def test_a_right_to_left_pdf_from_the_preambles_format_is_the_pdf_from_the_source(tmp_path, monkeypatch, latexmk):
    """A play set right to left (Arabic the document's language: another preamble, its own bottom margin),
    compiled from the format as the log of the run shows."""
    edition = ARABIC_SCENE
    used, formatted = [], latex_format.formatted
    with monkeypatch.context() as patched:
        patched.setattr(
            latex_format, "formatted", lambda text, folder: used.append(formatted(text, folder)) or used[-1]
        )
        made = latex_pdf(edition, tmp_path / "format.pdf")
    assert used and used[0] is not None, "the PDF was compiled from the preamble's format"
    assert made == plain_pdf(edition, tmp_path / "plain.pdf", monkeypatch)


TINY = (
    b"\\documentclass[twoside,10pt]{article}\n\\usepackage{fontspec}\n\\setmainfont{Noto Serif}\n"
    b"\\begin{document}\nA line of text.\n\\end{document}\n"
)


def test_a_format_that_cannot_be_read_is_removed_and_the_source_compiled_as_it_stands(tmp_path, monkeypatch, latexmk):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first, _ = compile_pdf(TINY, "tiny.tex")
    (made,) = latex_format.cache_folder().glob("*.fmt")
    made.write_bytes(b"not a format")
    again, _ = compile_pdf(TINY, "tiny.tex")
    assert again == first == compile_pdf(TINY, "tiny.tex", preamble_format=False)[0]
    assert not made.exists(), "the format a run failed from is removed (the next run makes it anew)"


def test_without_a_cache_folder_there_is_no_format(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    text = (
        "\\documentclass[twoside,10pt]{article}\n\\usepackage{fontspec}\n\\setmainfont{Noto Serif}\n"
        "\\begin{document}x\\end{document}\n"
    )
    assert latex_format.formatted(text, tmp_path) is None


def test_a_preamble_that_declares_a_font_first_or_is_not_an_article_is_not_dumped():
    assert latex_format.dumped_part("\\documentclass{book}\n\\setmainfont{X}\n") is None
    assert latex_format.dumped_part("\\documentclass{article}\n\\newfontfamily\\x{X}\n\\setmainfont{X}\n") is None
    assert latex_format.dumped_part("\\documentclass{article}\n\\begin{document}\n\\setmainfont{X}\n") is None
    prefix, rest = latex_format.dumped_part("\\documentclass{article}\n\\usepackage{fontspec}\n\\setmainfont{X}\n")
    assert (prefix, rest) == ("\\documentclass{article}\n\\usepackage{fontspec}\n", "\\setmainfont{X}\n")


NATIVE = """\\font\\nullfont=nullfont
\\font\\TU/lmr/m/n/10=[lmroman10-regular]:mapping=tex-text;
! Can't \\dump a format with native fonts or font-mappings.
<*> &xelatex preamble.tex
\\font\\TU/lmr/bx/n/10=[lmroman10-bold]:mapping=tex-text;
! Can't \\dump a format with native fonts or font-mappings.
Beginning to dump on file x.fmt
"""


def test_the_native_fonts_of_a_dump_are_read_from_its_log_and_any_other_error_refuses_it():
    assert latex_format._native_fonts(NATIVE) == ("TU/lmr/m/n/10", "TU/lmr/bx/n/10")
    assert latex_format._native_fonts(NATIVE.replace("Beginning to dump", "No dump")) is None
    assert latex_format._native_fonts("! Undefined control sequence.\nBeginning to dump on file x.fmt\n") is None


def test_the_cache_keeps_the_formats_used_last(tmp_path):
    for number in range(latex_format.FORMATS_KEPT + 2):
        made = tmp_path / f"{number:02}.fmt"
        made.write_bytes(b"")
        made.with_suffix(".native-fonts").write_text("")
        os.utime(made, (1000 + number, 1000 + number))
    latex_format._keep_the_newest(tmp_path)
    kept = sorted(path.name for path in tmp_path.glob("*.fmt"))
    assert kept == [f"{number:02}.fmt" for number in range(2, latex_format.FORMATS_KEPT + 2)]
    assert len(list(tmp_path.glob("*.native-fonts"))) == latex_format.FORMATS_KEPT
