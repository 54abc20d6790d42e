"""The "html" output format: a static web edition (index.html, edition.css, edition.js and fonts/) made by xslt/html/.

The fonts the site ships are made once, by `python -m tei.render.html --make-fonts`, from the Amiri font of
the package fontpkg-amiri (SIL Open Font License, shipped beside them as fonts/OFL.txt):

- fonts/amiri-arabic.woff: Amiri's Arabic script (the Unicode blocks in ARABIC_RANGES) with all its layout
  features, so that an Arabic edition reads in a Naskh face on every machine;
- fonts/tei-symbols.woff: a fallback for characters that common serif fonts lack (the fullwidth forms of
  ASCII, as in "＋" U+FF0B), each drawn from Amiri's ASCII glyph, centred on a full-width advance.

The CSS names both with their unicode-range, so a page loads a font only when its text uses it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.render import OutputFormat, Rendered, RenderRequest
from tei.render.entries import annotated, isnad_diagram
from tei.render.xslt import stylesheet, transform
from tei.resources import resource, resource_root

STYLESHEET = "html/edition.xsl"
ASSETS = ("edition.css", "edition.js", "fonts/amiri-arabic.woff", "fonts/tei-symbols.woff", "fonts/OFL.txt")

# Arabic, Arabic Supplement, Arabic Extended-A, Presentation Forms A and B, ZWNJ/ZWJ and the dotted circle
# (shaping). edition.css repeats these ranges in its @font-face.
ARABIC_RANGES = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
ARABIC_EXTRA = (0x200C, 0x200D, 0x25CC)
# Fullwidth forms and the character each is a wide form of (Unicode's compatibility decomposition).
FULLWIDTH = {0xFF01 + i: 0x21 + i for i in range(0x5E)} | {0x3000: 0x20, 0xFFE0: 0xA2, 0xFFE1: 0xA3, 0xFFE2: 0xAC}


def render_html(request: RenderRequest) -> Rendered:
    """The site in folder request.output; links to transcriptions are made relative to that folder.

    A document the page cannot show at all (no TEI text) is refused; lesser problems are warnings,
    reported and also shown in the page. The stylesheet reads a copy of the edition that carries the
    apparatus reader's verdicts (tei.render.entries): entries and witness texts are the reader's.
    """
    edition_folder = request.edition.absolute().parent
    site = request.output.absolute()
    base = os.path.relpath(edition_folder, site).replace(os.sep, "/")
    params = {"edition-base": "" if base == "." else base + "/", **request.params}
    copy = annotated(request.tree, str(request.edition))
    params["isnad-diagram"] = isnad_diagram(request.tree, str(request.edition), copy)
    transformed = transform(STYLESHEET, copy, str(request.edition), params)
    errors = [d for d in transformed.diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise InvalidInputError(*errors)
    files = {request.output / "index.html": bytes(transformed)}
    for name in ASSETS:
        files[request.output / name] = resource("xslt", f"html/{name}").read_bytes()
    return Rendered(files, transformed.diagnostics)


def prepare_html(params: dict[str, str]) -> None:
    stylesheet(STYLESHEET)


FORMATS = (
    OutputFormat(
        "html",
        "a static web edition: index.html with its CSS and JavaScript",
        render_html,
        param_files=("common/apparatus.xsl", "html/params.xsl"),
        prepare=prepare_html,
    ),
)


# ---------------------------------------------------------------------------------------------- the fonts


def arabic_codepoints() -> list[int]:
    return [c for first, last in ARABIC_RANGES for c in range(first, last + 1)] + list(ARABIC_EXTRA)


def make_web_fonts(folder: Path) -> list[Path]:
    """Write the site's fonts (and Amiri's license) into `folder`, from the installed fontpkg-amiri.

    fontTools is imported here, not at the top: only this maintainer's step needs it, never a render.
    """
    import fontpkg_amiri
    from fontTools import subset
    from fontTools.pens.transformPen import TransformPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont

    source = fontpkg_amiri.ROOT / "files" / "Amiri-Regular.ttf"
    folder.mkdir(parents=True, exist_ok=True)

    arabic = TTFont(source)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.hinting = False
    options.flavor = "woff"
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=arabic_codepoints())
    subsetter.subset(arabic)
    rename(arabic, "Amiri Arabic Web")
    arabic.flavor = "woff"
    arabic.save(folder / "amiri-arabic.woff")

    symbols = TTFont(source)
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.flavor = "woff"
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(FULLWIDTH.values())))
    subsetter.subset(symbols)
    cmap = symbols.getBestCmap()
    glyph_set = symbols.getGlyphSet()
    glyf, hmtx = symbols["glyf"], symbols["hmtx"]
    em = symbols["head"].unitsPerEm
    order = list(symbols.getGlyphOrder())
    wide = {}
    for code, narrow in sorted(FULLWIDTH.items()):
        name = cmap.get(narrow)
        if name is None:
            continue
        advance = hmtx[name][0]
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(TransformPen(pen, (1, 0, 0, 1, (em - advance) // 2, 0)))
        new = f"uni{code:04X}"
        glyf[new] = pen.glyph()
        glyf[new].recalcBounds(glyf)
        hmtx[new] = (em, glyf[new].xMin if hasattr(glyf[new], "xMin") else 0)
        order.append(new)
        wide[code] = new
    symbols.setGlyphOrder(order)
    for table in symbols["cmap"].tables:
        if table.isUnicode():
            table.cmap = dict(wide)
    symbols["maxp"].numGlyphs = len(order)
    rename(symbols, "TEI Edition Symbols")
    symbols.flavor = "woff"
    symbols.save(folder / "tei-symbols.woff")

    (folder / "OFL.txt").write_bytes((fontpkg_amiri.ROOT / "LICENSE").read_bytes())
    return [folder / "amiri-arabic.woff", folder / "tei-symbols.woff", folder / "OFL.txt"]


def rename(font, family: str) -> None:
    """A modified font takes a name of its own (the OFL asks it of modified versions)."""
    postscript = family.replace(" ", "")
    names = {1: family, 2: "Regular", 3: f"{postscript}-Regular", 4: family, 6: f"{postscript}-Regular"}
    table = font["name"]
    for record in list(table.names):
        if record.nameID in (1, 3, 4, 6, 16, 17, 21, 22):
            table.removeNames(nameID=record.nameID)
    for name_id, value in names.items():
        table.setName(value, name_id, 3, 1, 0x409)
        table.setName(value, name_id, 1, 0, 0)


if __name__ == "__main__":
    if sys.argv[1:] != ["--make-fonts"]:
        sys.exit("usage: python -m tei.render.html --make-fonts   (writes xslt/html/fonts/)")
    for made in make_web_fonts(resource_root("xslt") / "html" / "fonts"):
        print(made)
