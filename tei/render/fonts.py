"""The font files of the print edition, the same for both engines.

The families are named by the stylesheet parameters `fonts` (the chain: for each character the first
family that has its glyph; the first family is the main font) and `language-fonts` (the families a
language is set in before the chain), declared once in xslt/common/fonts.xsl. Their files come from the
folders of the Python font packages (fontpkg-noto-serif, fontpkg-amiri, fontpkg-frank-ruhl-libre) and
Debian's Droid Sans Fallback: Typst is given these folders and nothing else (tei.render.typst_pdf), and
XeLaTeX loads the same files by path (tei.render.latex_pdf), so that a PDF is the same on every machine
and both engines set a language in the same family.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tei.diagnostics import error
from tei.errors import ExternalToolError

FONT_HINT = "install the fonts: pip install fontpkg-amiri fontpkg-noto-serif fontpkg-frank-ruhl-libre"
FONT_PACKAGES = ("fontpkg_noto_serif", "fontpkg_amiri", "fontpkg_frank_ruhl_libre")
# Fullwidth forms and CJK (U+FF0B "＋" in the seeds): Debian's fonts-droid-fallback (no pip package has them).
SYSTEM_FONT_FOLDERS = ("/usr/share/fonts/truetype/droid",)
FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


def font_paths() -> list[str]:
    """The folders the print's fonts are taken from: the font packages' own, then Debian's fallback."""
    paths = []
    for name in FONT_PACKAGES:
        try:
            package = __import__(name)
        except ImportError:
            raise ExternalToolError(
                error("P010", f"the font package {name.replace('_', '-')} is not installed", hint=FONT_HINT)
            ) from None
        paths.append(str(package.ROOT / "files"))
    return paths + [folder for folder in SYSTEM_FONT_FOLDERS if Path(folder).is_dir()]


@dataclass(frozen=True)
class Faces:
    """The files of one family: its regular face, and its italic, bold and bold italic when it has them."""

    regular: Path
    italic: Path | None = None
    bold: Path | None = None
    bold_italic: Path | None = None


def faces(family: str) -> Faces | None:
    """The files of a family in the print's font folders (by the family name of each file's name table),
    or None when none of them has it."""
    return _families(tuple(font_paths())).get(family.casefold())


@cache
def _families(folders: tuple[str, ...]) -> dict[str, Faces]:
    from fontTools.ttLib import TTFont, TTLibError

    found: dict[str, dict[tuple[bool, bool], Path]] = {}
    for folder in folders:
        for path in sorted(Path(folder).glob("*")):
            if path.suffix.lower() not in FONT_SUFFIXES:
                continue
            try:
                font = TTFont(path, lazy=True, fontNumber=0)
            except (TTLibError, OSError):
                continue
            name = font["name"]
            family = name.getDebugName(16) or name.getDebugName(1) or path.stem
            style = font.get("OS/2")
            italic = bool(style.fsSelection & 1) if style else "italic" in (name.getDebugName(2) or "").lower()
            bold = bool(style and style.usWeightClass >= 600)
            found.setdefault(family.casefold(), {}).setdefault((italic, bold), path)
    return {
        family: Faces(
            styles.get((False, False)) or next(iter(styles.values())),
            styles.get((True, False)),
            styles.get((False, True)),
            styles.get((True, True)),
        )
        for family, styles in found.items()
    }


def families(chain: str) -> list[str]:
    """The families of a comma- or semicolon-separated list, in order."""
    return [family.strip() for family in chain.replace(";", ",").split(",") if family.strip()]


def language_families(pairs: str) -> dict[str, list[str]]:
    """The parameter language-fonts ("code=Family, Family; ...") as a dictionary."""
    found: dict[str, list[str]] = {}
    for pair in pairs.split(";"):
        code, _, names = pair.partition("=")
        if code.strip() and names.strip():
            found[code.strip().lower()] = families(names)
    return found


def primary(code: str) -> str:
    """The primary language subtag of an xml:lang value ('grc' for 'grc-Latn')."""
    return code.split("-")[0].strip().lower()


RTL_LANGUAGES = frozenset(("ar", "ara", "arc", "he", "heb", "fa", "fas", "per", "ur", "urd", "syr", "ps", "pus", "yi", "yid", "dv", "div", "ckb", "sd", "snd", "ug", "uig"))  # fmt: skip
RTL_SCRIPTS = frozenset(("arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "samr", "mand"))


def script(code: str) -> str:
    """The script subtag of an xml:lang value, lower case ('latn' for 'ar-Latn'), or ''."""
    parts = code.strip().split("-")
    second = parts[1] if len(parts) > 1 else ""
    return second.lower() if len(second) == 4 and second.isascii() and second.isalpha() else ""


def families_for(code: str, chain: list[str], by_language: dict[str, list[str]]) -> list[str]:
    """The families text in a language is set in: its own families first, then the chain (the rule of
    xslt/typst/preamble.xsl's tei-fonts-for). A language written in another script than its own (ar-Latn,
    a transliteration, whose direction differs from the language's) takes the chain alone: Amiri set the
    Latin letters of BAlam52's transliterations."""
    written = script(code)
    native = not written or (written in RTL_SCRIPTS) == (primary(code) in RTL_LANGUAGES)
    own = by_language.get(primary(code), []) if native else []
    return own + [family for family in chain if family not in own]
