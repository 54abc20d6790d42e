"""Compiling reledmac source to PDF with latexmk and XeLaTeX: latexmk decides how many passes the line numbers need.

A missing latexmk is exit 4 with a one-line install hint; a LaTeX error shows the error lines of the log
(each '!' line or 'file:line: message', with the source line that follows), not the whole log.

XeLaTeX has no font fallback: the source names its chain of families in a comment (`% tei-fonts: main;
arabic; fallback...`, xslt/latex/edition.xsl), and each character the main font lacks (Greek, Hebrew,
U+FF0B "＋", ...) is set here in the first fallback family that has it ({\teifallbacka ...}); Arabic
script is left to the stylesheet's \teiarabic. A character no family of the chain has is a warning P014
naming it, its line in the LaTeX source and the families tried.

Figures given as SVG (the isnad diagram, tei.render.pdf) are turned into one-page PDFs by the Typst compiler
(the machine has no SVG converter; their text stays text) and put beside the source for \\includegraphics.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
from functools import cache
from pathlib import Path

from tei.diagnostics import Diagnostic, error, warning
from tei.errors import ExternalToolError
from tei.render.pdf import font_coverage, reproducible_timestamp, tool_failure
from tei.render.typst_pdf import INSTALL_HINT as TYPST_HINT
from tei.render.typst_pdf import font_paths

INSTALL_HINT = (
    "install latexmk and XeLaTeX: apt-get install --no-install-recommends latexmk texlive-xetex "
    "texlive-humanities texlive-lang-arabic fonts-sil-charis fonts-hosny-amiri"
)
TIMEOUT_SECONDS = 600
LOG_LINES_SHOWN = 12
MISSING_CHARACTER = re.compile(r"^Missing character: There is no (.+?) in font ([^/!:]+)")
FONT_CHAIN = re.compile(r"^% tei-fonts: (.*)$", re.MULTILINE)
ARABIC_SCRIPT = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
FALLBACK_LETTERS = "abcdefghijklmnop"


@cache
def family_points(family: str) -> frozenset[int]:
    """The code points a family's regular face has (the file fontconfig gives for the name), or none."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return frozenset()
    found = subprocess.run([fc_match, "-f", "%{family}\t%{file}", family], capture_output=True, text=True).stdout
    names, _, file = found.partition("\t")
    if family.lower() not in names.lower() or not file:
        return frozenset()
    return font_coverage(Path(file))[1]


def with_fallbacks(source: bytes, source_name: str) -> tuple[bytes, list[Diagnostic]]:
    """The source with every character the main font lacks set in the first fallback family that has it,
    and a warning P014 for each character no family of the chain has."""
    text = source.decode("utf-8")
    chain = FONT_CHAIN.search(text)
    if chain is None:
        return source, []
    families = [family.strip() for family in chain.group(1).split(";") if family.strip()]
    main, arabic, fallbacks = families[0], families[1] if len(families) > 1 else "", families[2:]
    points = {family: family_points(family) for family in families}
    begin = text.find("\\begin{document}")
    out: list[str] = [text[:begin]]
    missing: dict[str, int] = {}
    current = None  # the fallback letter of the open run
    line = text.count("\n", 0, begin) + 1
    for char in text[begin:]:
        code = ord(char)
        if char == "\n":
            line += 1
        letter = None
        if code > 127 and code not in points[main] and not char.isspace():
            combining = unicodedata.category(char) in ("Mn", "Me")
            if ARABIC_SCRIPT.match(char) and (not arabic or code in points[arabic]):
                letter = None
            elif combining and current is not None:
                letter = current
            else:
                letter = next(
                    (FALLBACK_LETTERS[i] for i, family in enumerate(fallbacks) if code in points[family]), None
                )
                if letter is None and unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Mn", "Me"):
                    missing.setdefault(char, line)
        if letter != current:
            if current is not None:
                out.append("}")
            if letter is not None:
                out.append(f"{{\\teifallback{letter} ")
            current = letter
        out.append(char)
    if current is not None:
        out.append("}")
    shown = [
        warning(
            "P014",
            f"no font has the character {char!r} (U+{ord(char):04X}), first at line {place} of the LaTeX source: "
            f"it is left out of the PDF (fonts tried: {', '.join(families)})",
            source_name,
            hint="install a font that has it and add it to the parameter fallback-fonts",
        )
        for char, place in missing.items()
    ]
    return "".join(out).encode("utf-8"), shown


def svg_pdf(svg: str, source_name: str) -> bytes:
    """A one-page PDF of an SVG drawing, its page the drawing's size, compiled by Typst with the print's fonts."""
    try:
        import typst
    except ImportError:
        raise ExternalToolError(
            error("P011", "the Typst compiler (Python package typst) is not installed", hint=TYPST_HINT)
        ) from None
    with tempfile.TemporaryDirectory(prefix="tei-svg-") as folder:
        (Path(folder) / "figure.svg").write_text(svg, encoding="utf-8")
        page = Path(folder) / "figure.typ"
        page.write_text('#set page(width: auto, height: auto, margin: 0pt)\n#image("figure.svg")\n', encoding="utf-8")
        try:
            return typst.compile(
                str(page),
                root=folder,
                font_paths=font_paths(),
                ignore_system_fonts=True,
                format="pdf",
                timestamp=reproducible_timestamp(),
            )
        except (typst.TypstError, RuntimeError) as exc:
            raise tool_failure(
                "P012", f"Typst could not turn a figure into PDF: {getattr(exc, 'message', exc)}", source_name, []
            ) from None


def compile_pdf(
    source: bytes, source_name: str, figures: dict[str, str] | None = None
) -> tuple[bytes, list[Diagnostic]]:
    """The PDF of a XeLaTeX document, compiled in a temporary folder that is removed afterwards; `figures`
    (file name -> SVG) are written beside the source as PDFs (svg_pdf) for its \\includegraphics."""
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        raise ExternalToolError(
            error("P020", "latexmk is not installed: the latex engine needs it", source_name, hint=INSTALL_HINT)
        )
    source, uncovered = with_fallbacks(source, source_name)
    with tempfile.TemporaryDirectory(prefix="tei-latex-") as folder:
        tex = Path(folder) / "edition.tex"
        tex.write_bytes(source)
        for name, svg in (figures or {}).items():
            (Path(folder) / name).write_bytes(svg_pdf(svg, source_name))
        command = [latexmk, "-xelatex", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", tex.name]
        environment = {
            **os.environ,
            "SOURCE_DATE_EPOCH": str(reproducible_timestamp()),
            "FORCE_SOURCE_DATE": "1",
            "max_print_line": "10000",
        }  # log lines unwrapped, so that an error shows whole
        try:
            finished = subprocess.run(
                command, cwd=folder, env=environment, capture_output=True, timeout=TIMEOUT_SECONDS
            )
        except subprocess.TimeoutExpired:
            raise ExternalToolError(
                error("P021", f"latexmk did not finish within {TIMEOUT_SECONDS} s", source_name)
            ) from None
        pdf = tex.with_suffix(".pdf")
        if finished.returncode != 0 or not pdf.is_file():
            raise tool_failure(
                "P022",
                f"XeLaTeX could not compile the print edition (latexmk exit {finished.returncode})",
                source_name,
                error_lines(tex.with_suffix(".log")),
                hint="write the source with --to latex and run latexmk -xelatex on it to see the whole log",
            )
        known = {d.message.split("'")[1] for d in uncovered}
        leftover = [
            d
            for d in missing_characters(tex.with_suffix(".log"), source_name)
            if d.message.split(" has no ")[1][:1] not in known
        ]
        return pdf.read_bytes(), uncovered + leftover


def error_lines(log: Path) -> list[str]:
    """The lines of a LaTeX log that say what went wrong: each error line and the two lines after it."""
    try:
        lines = log.read_text("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return ["no log was written: XeLaTeX did not start"]
    shown: list[str] = []
    for number, line in enumerate(lines):
        if line.startswith("!") or ":" in line and line.split(":", 2)[1].isdigit() and line.startswith("./"):
            shown += [text for text in lines[number : number + 3] if text.strip()]
    return shown[:LOG_LINES_SHOWN] or lines[-LOG_LINES_SHOWN:]


def missing_characters(log: Path, source_name: str) -> list[Diagnostic]:
    """One warning per character that no font of the document has (XeLaTeX leaves a gap for it)."""
    found = dict.fromkeys(
        match.groups()
        for line in log.read_text("utf-8", errors="replace").splitlines()
        if (match := MISSING_CHARACTER.match(line))
    )
    return [
        warning(
            "P023",
            f"the font {font} has no {character}: it is left out of the PDF",
            source_name,
            hint="name a font that has it in the parameter fallback-fonts",
        )
        for character, font in found
    ]
