"""Compiling reledmac source to PDF with latexmk and XeLaTeX: latexmk decides how many passes the line numbers need.

A missing latexmk is exit 4 with a one-line install hint; a LaTeX error shows the error lines of the log
(each '!' line or 'file:line: message', with the source line that follows), not the whole log; a
character no font has is a warning.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tei.diagnostics import Diagnostic, error, warning
from tei.errors import ExternalToolError
from tei.render.pdf import reproducible_timestamp, tool_failure

INSTALL_HINT = (
    "install latexmk and XeLaTeX: apt-get install --no-install-recommends latexmk texlive-xetex "
    "texlive-humanities texlive-lang-arabic fonts-sil-charis fonts-hosny-amiri"
)
TIMEOUT_SECONDS = 600
LOG_LINES_SHOWN = 12
MISSING_CHARACTER = re.compile(r"^Missing character: There is no (.+?) in font ([^/!:]+)")


def compile_pdf(source: bytes, source_name: str) -> tuple[bytes, list[Diagnostic]]:
    """The PDF of a XeLaTeX document, compiled in a temporary folder that is removed afterwards."""
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        raise ExternalToolError(
            error("P020", "latexmk is not installed: the latex engine needs it", source_name, hint=INSTALL_HINT)
        )
    with tempfile.TemporaryDirectory(prefix="tei-latex-") as folder:
        tex = Path(folder) / "edition.tex"
        tex.write_bytes(source)
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
        return pdf.read_bytes(), missing_characters(tex.with_suffix(".log"), source_name)


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
            hint="set main-font to a font that has it, or tag the text with xml:lang",
        )
        for character, font in found
    ]
