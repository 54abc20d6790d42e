"""Compiling Typst source to PDF with the Python package typst (the compiler is inside it: no system package).

Fonts: Typst's own (Libertinus Serif, with ā ū ḥ ṭ ʿ ʾ) and Amiri for Arabic, from the Python package
fontpkg-amiri; system fonts are ignored so that a PDF is the same on every machine.
"""

from __future__ import annotations

from tei.diagnostics import Diagnostic, error, warning
from tei.errors import ExternalToolError
from tei.render.pdf import reproducible_timestamp, tool_failure

INSTALL_HINT = "install the Python packages typst and fontpkg-amiri: pip install typst fontpkg-amiri"


def font_paths() -> list[str]:
    try:
        import fontpkg_amiri
    except ImportError:
        raise ExternalToolError(
            error("P010", "the Arabic font package fontpkg-amiri is not installed", hint=INSTALL_HINT)
        ) from None
    return [str(fontpkg_amiri.ROOT / "files")]


def compile_pdf(source: bytes, source_name: str) -> tuple[bytes, list[Diagnostic]]:
    """The PDF of a Typst document, and Typst's warnings as diagnostics."""
    try:
        import typst
    except ImportError:
        raise ExternalToolError(
            error("P011", "the Typst compiler (Python package typst) is not installed", hint=INSTALL_HINT)
        ) from None
    try:
        pdf, warnings = typst.compile_with_warnings(
            source,
            format="pdf",
            font_paths=font_paths(),
            ignore_system_fonts=True,
            timestamp=reproducible_timestamp(),
        )
    except typst.TypstError as exc:
        raise tool_failure(
            "P012",
            f"Typst could not compile the print edition: {exc.message}",
            source_name,
            [line for line in str(exc.diagnostic).splitlines() if line.strip() and not line.startswith("error:")][:12],
            hint="write the source with --to typst and compile it with typst to see the whole error",
        ) from None
    return pdf, [warning("P013", f"Typst: {w.message}", source_name) for w in warnings]
