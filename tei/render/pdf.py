"""The print edition: Typst or LaTeX (reledmac) source made by XSLT from the edition, and its PDF.

Formats: `pdf` (engine `typst`, the default, through the Python package typst, or `latex`, through
latexmk and XeLaTeX), `typst` and `latex` (the source alone, for tuning by hand). Request parameters:
`engine` chooses the PDF engine, `strict=yes` makes a character no font has (P014) an error; every other
parameter goes to the stylesheet (see
xslt/typst/params.xsl, xslt/latex/params.xsl and the series parameters of xslt/common/print.xsl).
"""

from __future__ import annotations

import bisect
import importlib
import os
import struct
import unicodedata
from functools import cache
from pathlib import Path

from lxml import etree

from tei.apparatus import Apparatus
from tei.apparatus.places import by_place
from tei.diagnostics import Diagnostic, Severity, error
from tei.errors import ExternalToolError, InvalidInputError, TeiError, UsageError
from tei.render import OutputFormat, Rendered, RenderRequest
from tei.render.entries import annotated, isnad_diagram
from tei.render.xslt import stylesheet, transform

# Each engine: the stylesheet that writes its source, and the module whose compile_pdf(source, name) compiles it.
ENGINES = {
    "typst": ("typst/edition.xsl", "tei.render.typst_pdf"),
    "latex": ("latex/edition.xsl", "tei.render.latex_pdf"),
}


# A character no font of the chain has (both engines), and one XeLaTeX found missing on its own.
MISSING_GLYPH_CODES = ("P014", "P023")


# The isnad diagram beside the LaTeX source, as a PDF made from its SVG (tei.render.latex_pdf.compile_pdf)
LATEX_DIAGRAM = "isnad-diagram.pdf"


def prepared(request: RenderRequest) -> tuple[etree._ElementTree, str]:
    """The annotated copy the stylesheets print (the apparatus reader's verdicts: who reads each reading,
    groups, hands, ranges, an addition's place — one rule, in tei.apparatus) and the isnad diagram's SVG ('' unless
    the text is collated as isnad and matn), drawn from the witness texts the copy carries: one reading."""
    copy = annotated(printed_tree(request), str(request.edition))
    return copy, isnad_diagram(request.tree, str(request.edition), copy)


def printed_tree(request: RenderRequest) -> etree._ElementTree:
    """The edition as the print sets it: a base-text apparatus (location-referenced, double end-point) folded
    into parallel segmentation by the apparatus reader, each unit in its place with the base text it points
    to as its lem; the stylesheets read an app's own lem or rdg as its text, so that unfolded, the readings
    of a double end-point unit (which has no lem) were printed in the text and notes ran into it."""
    try:
        reader = Apparatus(request.tree, str(request.edition))
    except TeiError:  # not read as an apparatus: annotated() and the stylesheets say why
        return request.tree
    if reader.folding_refused is not None:
        return request.tree
    if request.params.get("entries") == "places":  # one entry for each place of variation
        return by_place(reader.parallel, str(request.edition), reader)
    return reader.parallel


def source(
    request: RenderRequest, language: str, diagram: str = "", ready: tuple[etree._ElementTree, str] | None = None
) -> tuple[bytes, list[Diagnostic]]:
    """The Typst or LaTeX source of the edition, and the stylesheet's warnings; its errors refuse the edition.
    Typst takes the isnad diagram's SVG itself; LaTeX the name of the file it includes (`diagram`, '' for none).
    `ready`: what `prepared(request)` gave, when the caller has it already."""
    params = {key: value for key, value in request.params.items() if key not in ("engine", "strict")}
    copy, svg = ready or prepared(request)
    if language == "typst":
        params["isnad-diagram"] = svg
    elif diagram:
        params["isnad-diagram"] = diagram
    stylesheet, _ = ENGINES[language]
    transformed = transform(stylesheet, copy, str(request.edition), params)
    errors = [d for d in transformed.diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise InvalidInputError(*errors)
    return bytes(transformed), transformed.diagnostics


def engine_of(request: RenderRequest) -> str:
    engine = request.params.get("engine", "typst")
    if engine not in ENGINES:
        raise UsageError(error("P001", f"unknown PDF engine '{engine}'", hint=f"the engines are: {', '.join(ENGINES)}"))
    return engine


def render_pdf(request: RenderRequest) -> Rendered:
    engine = engine_of(request)
    _, compiler = ENGINES[engine]
    compile_pdf = importlib.import_module(compiler).compile_pdf
    strict = request.params.get("strict") == "yes"
    if engine == "latex":  # the isnad diagram as a PDF figure beside the source ('' unless isnad and matn)
        ready = prepared(request)
        svg = ready[1]
        text, diagnostics = source(request, engine, LATEX_DIAGRAM if svg else "", ready)
        pdf, warnings = compile_pdf(text, str(request.edition), {LATEX_DIAGRAM: svg} if svg else None, strict=strict)
    else:
        text, diagnostics = source(request, engine)
        pdf, warnings = compile_pdf(text, str(request.edition), strict=strict)
    if strict:  # what the engine knows only once it has compiled (LaTeX's log)
        refuse_missing_glyphs(warnings)
    return Rendered({request.output: pdf}, diagnostics + warnings)


def refuse_missing_glyphs(diagnostics: list[Diagnostic]) -> None:
    """--param strict=yes: a character printed as an empty box (or left out) refuses the PDF. The engines call
    it with what they find before compiling, so that a refused PDF is not compiled first."""
    missing = [d for d in diagnostics if d.code in MISSING_GLYPH_CODES]
    if missing:
        raise InvalidInputError(*[error(d.code, d.message, d.file, hint=d.hint) for d in missing])


def prepare_pdf(params: dict[str, str]) -> None:
    """The engine's stylesheet compiled, its module imported and what it loads ahead (Typst: the fonts)."""
    if params.get("engine", "typst") in ENGINES:
        name, compiler = ENGINES[params.get("engine", "typst")]
        stylesheet(name)
        importlib.import_module(compiler).prepare()


def render_typst(request: RenderRequest) -> Rendered:
    text, diagnostics = source(request, "typst")
    return Rendered({request.output: text}, diagnostics)


def render_latex(request: RenderRequest) -> Rendered:
    text, diagnostics = source(request, "latex")
    return Rendered({request.output: text}, diagnostics)


def reproducible_timestamp() -> int:
    """The creation time written into a PDF: SOURCE_DATE_EPOCH when set, so that builds are byte-identical."""
    return int(os.environ.get("SOURCE_DATE_EPOCH", "0"))


def tool_failure(code: str, message: str, source_name: str, details: list[str], hint: str | None = None):
    """An ExternalToolError whose first diagnostic says what failed and the next ones show the relevant lines."""
    shown = [Diagnostic(code, line, source_name, severity=Severity.INFO) for line in details]
    return ExternalToolError(error(code, message, source_name, hint=hint), *shown)


@cache
def font_coverage(path: Path) -> tuple[str, frozenset[int]]:
    """A font file's family name and the code points it has glyphs for (fontTools)."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True, fontNumber=0)
    family = font["name"].getBestFamilyName() or path.stem
    return family, frozenset(font.getBestCmap() or {})


def font_files(folders: list[str]) -> list[Path]:
    return [path for folder in folders for path in _font_files(folder)]


@cache
def _font_files(folder: str) -> list[Path]:
    """The font files of one folder, sorted: read once per process (a corpus asked again for every work)."""
    return sorted(path for path in Path(folder).glob("*") if path.suffix.lower() in (".ttf", ".otf", ".ttc"))


def uncovered(text: str, folders: list[str]) -> list[tuple[str, list[str]]]:
    """The characters of a text that no font file in the folders has, each with the families tried. The
    fonts are read in the order of the folders, and only until every character is found; each font's
    character map is searched for those characters alone (reading the whole map of the CJK fallback font
    with fontTools took a quarter of a second)."""
    wanted = {
        ord(char)
        for char in set(text)  # each character once: asking for each of the text's did cost 50 ms on the seeds
        if not char.isspace() and unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")
    }
    files = font_files(folders)
    for path in files:
        if not wanted:
            return []
        wanted -= mapped(path, frozenset(wanted))
    if not wanted:
        return []
    families = list(dict.fromkeys(font_coverage(path)[0] for path in files))
    return [(char, families) for char in dict.fromkeys(text) if ord(char) in wanted]


_MAPPED: dict[Path, dict[int, bool]] = {}  # font file -> code point -> whether its character map has it


def mapped(path: Path, points: frozenset[int]) -> set[int]:
    """Which of the code points the font's Unicode character map gives a glyph. Each answer is kept for the
    process, so that the file is read only for code points not asked about before (in a corpus, every work
    asked again for the same letters, and the main font file was read for each)."""
    known = _MAPPED.setdefault(path, {})
    unknown = frozenset(point for point in points if point not in known)
    if unknown:
        hits = _read_mapped(path, unknown)
        known.update((point, point in hits) for point in unknown)
    return {point for point in points if known[point]}


def _read_mapped(path: Path, points: frozenset[int]) -> set[int]:
    """Which of the code points the font's Unicode character map gives a glyph (cmap subtable format 12 or
    4, read directly; the first font of a collection)."""
    data = path.read_bytes()
    base = struct.unpack_from(">I", data, 12)[0] if data[:4] == b"ttcf" else 0
    tables = struct.unpack_from(">H", data, base + 4)[0]
    cmap = next(
        (
            offset
            for tag, _, offset, _ in struct.iter_unpack(">4sIII", data[base + 12 : base + 12 + 16 * tables])
            if tag == b"cmap"
        ),
        None,
    )
    if cmap is None:
        return set()
    found: dict[int, int] = {}
    for index in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        if platform == 0 or platform == 3 and encoding in (1, 10):
            found.setdefault(struct.unpack_from(">H", data, cmap + offset)[0], cmap + offset)
    if 12 in found:
        start = found[12]
        count = struct.unpack_from(">I", data, start + 12)[0]
        groups = list(struct.iter_unpack(">III", data[start + 16 : start + 16 + 12 * count]))
        firsts = [group[0] for group in groups]
        hits = set()
        for point in points:
            at = bisect.bisect_right(firsts, point) - 1
            if at >= 0 and point <= groups[at][1]:
                hits.add(point)
        return hits
    if 4 not in found:
        return set()
    start = found[4]
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, start + 14)
    starts = struct.unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
    ranges_at = start + 16 + 6 * segments
    ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
    hits = set()
    for point in points:
        at = bisect.bisect_left(ends, point)
        if point > 0xFFFF or at >= segments or starts[at] > point:
            continue
        if ranges[at] == 0:
            glyph = (point + deltas[at]) & 0xFFFF
        else:
            glyph = struct.unpack_from(">H", data, ranges_at + 2 * at + ranges[at] + 2 * (point - starts[at]))[0]
            glyph = (glyph + deltas[at]) & 0xFFFF if glyph else 0
        if glyph:
            hits.add(point)
    return hits


PRINT_PARAMS = ("common/apparatus.xsl", "common/print.xsl")
FORMATS = (
    OutputFormat(
        "pdf",
        "the print edition as PDF (engine typst by default, or latex: reledmac via latexmk)",
        render_pdf,
        param_files=(*PRINT_PARAMS, "typst/params.xsl", "latex/params.xsl"),
        options=("engine", "strict"),
        prepare=prepare_pdf,
    ),
    OutputFormat(
        "typst",
        "the print edition as Typst source, for tuning by hand",
        render_typst,
        param_files=(*PRINT_PARAMS, "typst/params.xsl"),
    ),
    OutputFormat(
        "latex",
        "the print edition as XeLaTeX/reledmac source, for tuning by hand",
        render_latex,
        param_files=(*PRINT_PARAMS, "latex/params.xsl"),
    ),
)
