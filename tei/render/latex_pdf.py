"""Compiling reledmac source to PDF with latexmk and XeLaTeX: latexmk decides how many passes the line numbers need.

A missing latexmk is exit 4 with a one-line install hint; a LaTeX error shows the error lines of the log
(each '!' line or 'file:line: message', with the source line that follows), not the whole log.

Fonts follow the rule of xslt/common/fonts.xsl, as in Typst: the source names the chain, the families of
each language and the language of the text in comment lines (`% tei-fonts: ...`, xslt/latex/edition.xsl)
and marks text in a language (\\teilang{code} ... \\teilangend). XeLaTeX has no fallback, so each
character beyond ASCII is set here in the first family of its language's own and then of the chain that
has it ({\\teifallbacka ...}), Arabic script left to the stylesheet's \\teiarabic. A character no family
has is a warning P014 naming it, its line in the LaTeX source and the families tried. Each family found in
the print's font folders (tei.render.fonts: the font packages, Debian's Droid Sans Fallback) is loaded
from those files, the same Typst is given; another is looked up by name (fontconfig).

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
from tei.render import latex_format
from tei.render.fonts import faces, families, families_for, font_paths, language_families
from tei.render.pdf import mapped, refuse_missing_glyphs, reproducible_timestamp, tool_failure
from tei.render.typst_pdf import INSTALL_HINT as TYPST_HINT

INSTALL_HINT = (
    "install latexmk and XeLaTeX: apt-get install --no-install-recommends latexmk texlive-xetex "
    "texlive-humanities texlive-lang-arabic fonts-sil-charis fonts-hosny-amiri"
)
TIMEOUT_SECONDS = 600
LOG_LINES_SHOWN = 12
MISSING_CHARACTER = re.compile(r"^Missing character: There is no (.+?) in font ([^/!:]+)")
FONT_CHAIN = re.compile(r"^% tei-fonts: (.*)$", re.MULTILINE)
LANGUAGE_FONTS = re.compile(r"^% tei-language-fonts: (.*)$", re.MULTILINE)
TEXT_LANGUAGE = re.compile(r"^% tei-language: (.*)$", re.MULTILINE)
LANGUAGE_MARK = re.compile(r"\\teilang\{([^{}]*)\}|\\teilangend(?:\{\})?")
FONT_DECLARATION = re.compile(
    r"(?P<command>\\setmainfont|\\newfontfamily\\[A-Za-z]+)\{(?P<family>[^{}]+)\}(?:\[(?P<options>[^\]]*)\])?"
)
ARABIC_SCRIPT = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
FALLBACK_LETTERS = "abcdefghijklmnop"
# What latexmk leaves out when it compares the files a pass read with those it wrote (it runs XeLaTeX again
# while they differ): the page of each line that reledmac records in the .1 file (\@nl[page][page]) and the
# page count LaTeX records in the .aux. The first pass sets no notes (reledmac keys them to the line numbers
# of the pass before), so its pages, and those two records, differ from the second's: latexmk ran a third
# pass only to see them settle, and it gave the second's PDF byte for byte. The print reads neither record:
# its lines are numbered by section, never by page (\lineation{section}, xslt/latex/edition.xsl), and the
# page number reledmac puts before an endnote is set into a box that is never used. The line numbers of the
# notes (\@ref) are still compared: a pass that changes them is followed by another.
PAGE_NUMBERS_IGNORED = (
    r"$hash_calc_ignore_pattern{q/1/} = q/^\\\\@nl\\[/; "
    r"$hash_calc_ignore_pattern{q/aux/} = q/^\\\\gdef \\\\@abspage@last\\{/;"
)


@cache
def family_file(family: str) -> Path | None:
    """The file of a family's regular face: in the print's font folders (tei.render.fonts), else the file
    fontconfig gives for the name, else None."""
    found = faces(family)
    if found is not None:
        return found.regular
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    matched = subprocess.run([fc_match, "-f", "%{family}\t%{file}", family], capture_output=True, text=True).stdout
    names, _, file = matched.partition("\t")
    if family.lower() not in names.lower() or not file:
        return None
    return Path(file)


def family_points(family: str, points: frozenset[int]) -> frozenset[int]:
    """Which of the code points a family's regular face has: its character map read for those alone
    (tei.render.pdf.mapped): with the whole maps read by fontTools (the CJK fallback font's the largest),
    with_fallbacks over the seeds took 0.23 s in a fresh process, now 0.10 s."""
    file = family_file(family)
    return frozenset(mapped(file, points)) if file is not None else frozenset()


def font_rule(text: str) -> tuple[list[str], dict[str, list[str]], str] | None:
    """The chain, the families of each language and the language of the text, from the comment lines the
    stylesheet writes (xslt/latex/edition.xsl), or None for a source without them."""
    chain = FONT_CHAIN.search(text)
    if chain is None:
        return None
    by_language = LANGUAGE_FONTS.search(text)
    language = TEXT_LANGUAGE.search(text)
    return (
        families(chain.group(1)),
        language_families(by_language.group(1)) if by_language else {},
        language.group(1).strip() if language else "",
    )


def with_fallbacks(source: bytes, source_name: str) -> tuple[bytes, list[Diagnostic]]:
    """The source with every character set by the rule of xslt/common/fonts.xsl: in the first family of its
    language's own (\\teilang{code} ... \\teilangend) and then of the chain that has it; a character the
    main font (the chain's first) would set is left as it is, one another family sets goes into
    {\\teifallback<letter> ...}, Arabic script into the stylesheet's \\teiarabic (\\arabicfont). Only
    characters beyond ASCII are looked at (ASCII stays in the font in effect: it is also the markup). A
    warning P014 for each character no family has."""
    text = source.decode("utf-8")
    rule = font_rule(text)
    if rule is None:
        return source, []
    chain, by_language, text_language = rule
    if not chain:
        return source, []
    main = chain[0]
    extra = [f for names in by_language.values() for f in names if f not in chain]
    letters = {family: FALLBACK_LETTERS[i] for i, family in enumerate(dict.fromkeys(chain + extra))}
    arabic = (by_language.get("ar") or ["Amiri"])[0]
    begin = text.find("\\begin{document}")
    declared = "".join(
        f"\\newfontfamily\\teifallback{letters[family]}{{{family}}}\n" for family in dict.fromkeys(extra)
    )
    out: list[str] = [text[:begin], declared]
    missing: dict[str, tuple[int, list[str]]] = {}
    current = None  # the fallback letter of the open run
    languages = [text_language]
    line = text.count("\n", 0, begin) + 1
    position = begin
    wanted = frozenset(ord(char) for char in set(text[begin:]) if ord(char) > 127 and not char.isspace())
    covered: dict[str, frozenset[int]] = {}

    def has(family: str, code: int) -> bool:
        if family not in covered:
            covered[family] = family_points(family, wanted)
        return code in covered[family]

    while position < len(text):
        char = text[position]
        marker = LANGUAGE_MARK.match(text, position) if char == "\\" else None
        if marker is not None:
            if current is not None:
                out.append("}")
                current = None
            if marker.group(1) is not None:
                languages.append(marker.group(1))
            elif len(languages) > 1:
                languages.pop()
            out.append(marker.group(0))
            position = marker.end()
            continue
        position += 1
        code = ord(char)
        if char == "\n":
            line += 1
        letter = None
        if code > 127 and not char.isspace():
            order = families_for(languages[-1], chain, by_language)
            combining = unicodedata.category(char) in ("Mn", "Me")
            if ARABIC_SCRIPT.match(char) and has(arabic, code):
                letter = None
            elif combining and current is not None:
                letter = current
            else:
                family = next((f for f in order if has(f, code)), None)
                letter = None if family in (None, main) else letters[family]
                if family is None and unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Mn", "Me"):
                    missing.setdefault(char, (line, order))
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
            f"it is left out of the PDF (fonts tried: {', '.join(order)})",
            source_name,
            hint="install a font that has it and add it to the parameter fonts",
        )
        for char, (place, order) in missing.items()
    ]
    return "".join(out).encode("utf-8"), shown


def font_files(source: bytes, folder: Path) -> bytes:
    """The source with each font declaration of its preamble (\\setmainfont, \\newfontfamily) whose family
    is in the print's font folders (tei.render.fonts) loading that family's files, linked into the folder
    where XeLaTeX runs: the same files Typst is given. A face the family lacks (the font packages' variable
    fonts have no bold file) is its regular or italic face made bold by XeTeX. Other families keep their
    name (fontconfig)."""
    text = source.decode("utf-8")
    begin = text.find("\\begin{document}")
    linked: dict[Path, str] = {}

    def link(path: Path) -> str:
        if path not in linked:
            linked[path] = f"tei-font-{len(linked) + 1}{path.suffix.lower()}"
            (folder / linked[path]).symlink_to(path)
        return linked[path]

    def load(match: re.Match) -> str:
        found = faces(match.group("family"))
        if found is None:
            return match.group(0)
        italic = found.italic or found.regular
        options = [f"Path=./, ItalicFont={link(italic)}"]
        options.append(
            f"BoldFont={link(found.bold)}"
            if found.bold
            else f"BoldFont={link(found.regular)}, BoldFeatures={{FakeBold=2}}"
        )
        if found.bold_italic:
            options.append(f"BoldItalicFont={link(found.bold_italic)}")
        else:
            options.append(f"BoldItalicFont={link(italic)}, BoldItalicFeatures={{FakeBold=2}}")
        if match.group("options"):
            options.append(match.group("options"))
        return f"{match.group('command')}{{{link(found.regular)}}}[{', '.join(options)}]"

    return (FONT_DECLARATION.sub(load, text[:begin]) + text[begin:]).encode("utf-8")


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


def prepare() -> None:
    """Nothing to load ahead (tei.render.prepare): XeLaTeX runs as a program of its own."""


def compile_pdf(
    source: bytes,
    source_name: str,
    figures: dict[str, str] | None = None,
    strict: bool = False,
    preamble_format: bool = True,
) -> tuple[bytes, list[Diagnostic]]:
    """The PDF of a XeLaTeX document, compiled in a temporary folder that is removed afterwards; `figures`
    (file name -> SVG) are written beside the source as PDFs (svg_pdf) for its \\includegraphics. `strict`: a
    character no family has refuses the PDF before XeLaTeX runs. `preamble_format`: each pass starts from
    the format of the preamble (tei.render.latex_format), the same PDF in less time."""
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        raise ExternalToolError(
            error("P020", "latexmk is not installed: the latex engine needs it", source_name, hint=INSTALL_HINT)
        )
    source, uncovered = with_fallbacks(source, source_name)
    if strict:
        refuse_missing_glyphs(uncovered)
    with tempfile.TemporaryDirectory(prefix="tei-latex-") as folder:
        tex = Path(folder) / "edition.tex"
        text = font_files(source, Path(folder))
        for name, svg in (figures or {}).items():
            (Path(folder) / name).write_bytes(svg_pdf(svg, source_name))
        made = latex_format.formatted(text.decode("utf-8"), Path(folder)) if preamble_format else None
        finished = None
        if made is not None:  # from the preamble's format (tei.render.latex_format); if that fails, as it stands
            tex.write_bytes(made.source)
            finished = _latexmk(latexmk, tex, source_name, made.option)
            if finished.returncode != 0 or not tex.with_suffix(".pdf").is_file():
                latex_format.forget(made)
                for leftover in Path(folder).glob(f"{tex.stem}.*"):
                    leftover.unlink()
                finished = None
        if finished is None:
            tex.write_bytes(text)
            finished = _latexmk(latexmk, tex, source_name)
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


def _latexmk(latexmk: str, tex: Path, source_name: str, option: str | None = None) -> subprocess.CompletedProcess:
    """latexmk run on the source in its folder; `option` goes to each XeLaTeX pass (the format to start from)."""
    command = [
        latexmk,
        "-xelatex",
        "-interaction=nonstopmode",
        "-halt-on-error",
        "-file-line-error",
        "-e",
        PAGE_NUMBERS_IGNORED,
    ]
    if option is not None:
        command += ["-e", f"$xelatex = q/xelatex {option} %O %S/;"]
    environment = {
        **os.environ,
        "SOURCE_DATE_EPOCH": str(reproducible_timestamp()),
        "FORCE_SOURCE_DATE": "1",
        "max_print_line": "10000",
    }  # log lines unwrapped, so that an error shows whole
    try:
        return subprocess.run(
            [*command, tex.name], cwd=tex.parent, env=environment, capture_output=True, timeout=TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        raise ExternalToolError(
            error("P021", f"latexmk did not finish within {TIMEOUT_SECONDS} s", source_name)
        ) from None


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
            hint="name a font that has it in the parameter fonts",
        )
        for character, font in found
    ]
