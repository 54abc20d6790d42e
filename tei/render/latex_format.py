"""A XeLaTeX format of the print's preamble: each pass of XeLaTeX starts with the packages loaded.

latexmk runs XeLaTeX three or four times (reledmac keys its notes to the line numbers of the pass before;
right to left, it needs the labels of the pass before that too), and each pass read the whole preamble
again: the class, geometry, fontspec, fancyhdr, reledmac, polyglossia with bidi, the stylesheet's macros.
For an Arabic pair of the corpus that was 0.6 s of each pass's 1.0 s. XeTeX can dump what a preamble has
loaded into a format file (`xelatex -ini "&xelatex" preamble.tex` ending in \\dump) and start a later run
from it (`-fmt`), as TeX's own formats are made.

What is dumped: the source up to its first font declaration (\\setmainfont), after which the edition's
fonts are loaded at each run, as before. That part depends on the paper, the font size, the language
and whether an isnad diagram is drawn, not on the text, so a machine keeps few formats. They live in the
user's cache folder (`$XDG_CACHE_HOME` or `~/.cache`, then `tei/latex-formats`), named by a hash of the
dumped text and of the format they build on (the path, size and time of TeX Live's xelatex.fmt: an update
of TeX Live makes new ones); the 16 used last are kept. A format is written whole or not at all (made in a temporary folder, then
renamed), so builds side by side may make the same one; the last rename wins, with the same bytes.

XeTeX cannot keep a font it loaded through the system's font libraries (a "native" font): at \\dump it
says so, once for each, and writes the font's entry without what it needs to set text. LaTeX's class and
packages load two before any font is declared, Latin Modern regular and bold at 10 pt (the default before
\\setmainfont). The dump goes on past those two messages (any other message, and there is no format);
their names are kept beside the format, and the document compiled from it first forgets them (their LaTeX
names are made undefined), so that LaTeX loads them anew if anything asks for them, as it would have.

The document compiled from a format starts where the dumped part ended; that part's lines are kept as
empty comment lines, so that a line number in XeLaTeX's log is the source's. One more thing the dumped part
leaves behind in a run from the source is lost in a format: article's \\onecolumn, which \\documentclass
runs, clears a page (\\clearpage), leaving a \\write-1{} on the page and \\prevdepth at 0pt. The first
line puts both back: without them the title page's first line stood 7 pt higher. The tests compare the
PDFs made with and without a format, byte for byte (tests/render/test_latex_format.py).

When a format cannot be made (no cache folder, no kpsewhich, XeTeX refusing the preamble) or a run from it
fails, the source is compiled as it stands (tei.render.latex_pdf), and a format that failed is removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FORMAT_NAME = "tei-preamble"  # the name the format has beside the document (-fmt=tei-preamble)
DUMPED_UNTIL = "\n\\setmainfont"  # the first font declaration of the stylesheet's preamble
# What \onecolumn's \clearpage leaves in a run from the source, put back in a run from the format.
CLEARED_PAGE = "\\write-1{}\\prevdepth=0pt"
BUILD_SECONDS = 120
FORMATS_KEPT = 16


@dataclass(frozen=True)
class Formatted:
    """A document to compile from a format: its source, the format's file and the option that names it."""

    source: bytes
    format_file: Path
    option: str = f"-fmt={FORMAT_NAME}"


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tei" / "latex-formats"


def dumped_part(text: str) -> tuple[str, str] | None:
    """The preamble up to its first font declaration, and the rest; None when the source is not a preamble
    of the stylesheet's kind (an article, no font declared or the document begun before the cut)."""
    cut = text.find(DUMPED_UNTIL)
    if cut < 0:
        return None
    prefix, rest = text[: cut + 1], text[cut + 1 :]
    if "\\begin{document}" in prefix or "{article}" not in prefix or "fontfamily" in prefix:
        return None
    return prefix, rest


@cache
def base_format() -> str | None:
    """What the dumped formats build on: the path, size and time of TeX Live's xelatex.fmt, and XeTeX's
    version; None without kpsewhich or xelatex."""
    kpsewhich, xelatex = shutil.which("kpsewhich"), shutil.which("xelatex")
    if kpsewhich is None or xelatex is None:
        return None
    try:
        found = subprocess.run(
            [kpsewhich, "-engine=xetex", "xelatex.fmt"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        stat = Path(found).stat()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{found} {stat.st_size} {stat.st_mtime_ns} {xelatex}"


def format_file(prefix: str) -> tuple[Path, tuple[str, ...]] | None:
    """The format of this dumped part (made now if the cache does not have it) and the LaTeX names of the
    native fonts it could not keep; None if it cannot be made."""
    base = base_format()
    if base is None:
        return None
    key = hashlib.sha256(f"{base}\n{prefix}".encode()).hexdigest()[:32]
    path = cache_folder() / f"{key}.fmt"
    forgotten = path.with_suffix(".native-fonts")
    if path.is_file() and forgotten.is_file():
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: the least recently used go first (_keep_the_newest)
        return path, tuple(forgotten.read_text(encoding="utf-8").split())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="tei-format-", dir=path.parent) as scratch:
            (Path(scratch) / "preamble.tex").write_text(prefix + "\\nullfont\\dump\n", encoding="utf-8")
            subprocess.run(
                ["xelatex", "-ini", f"-jobname={key}", "-interaction=nonstopmode", "&xelatex", "preamble.tex"],
                cwd=scratch,
                capture_output=True,
                timeout=BUILD_SECONDS,
            )
            made, log = Path(scratch) / f"{key}.fmt", Path(scratch) / f"{key}.log"
            native = _native_fonts(log.read_text(encoding="utf-8", errors="replace")) if log.is_file() else None
            if native is None or not made.is_file():
                return None
            (Path(scratch) / "fonts").write_text(" ".join(native), encoding="utf-8")
            os.replace(Path(scratch) / "fonts", forgotten)
            os.replace(made, path)
        _keep_the_newest(path.parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return path, native


def _keep_the_newest(folder: Path) -> None:
    """At most FORMATS_KEPT formats in the cache (9 MB each): a changed stylesheet or TeX Live makes new
    ones, and the least recently used are removed."""
    formats = sorted(folder.glob("*.fmt"), key=lambda found: found.stat().st_mtime, reverse=True)
    for old in formats[FORMATS_KEPT:]:
        with contextlib.suppress(OSError):
            old.unlink()
            old.with_suffix(".native-fonts").unlink()


def _native_fonts(log: str) -> tuple[str, ...] | None:
    """The LaTeX names of the native fonts XeTeX could not dump (the `\\font\\NAME=...` line before each of its
    messages); None when the log has another error, or no line saying the format was written."""
    lines = log.splitlines()
    native = []
    for number, line in enumerate(lines):
        if not line.startswith("! "):
            continue
        if line != "! Can't \\dump a format with native fonts or font-mappings." or number == 0:
            return None
        font = lines[number - 1]
        if not font.startswith("\\font\\") or "=" not in font:
            return None
        native.append(font[len("\\font\\") : font.index("=")])
    if not any(line.startswith("Beginning to dump on file") for line in lines):
        return None
    return tuple(native)


def formatted(text: str, folder: Path) -> Formatted | None:
    """The document as compiled from its preamble's format, the format linked into `folder` (where
    XeLaTeX runs); None when there is no format for it (the source is then compiled as it stands)."""
    parts = dumped_part(text)
    if parts is None:
        return None
    prefix, rest = parts
    found = format_file(prefix)
    if found is None:
        return None
    format_path, native = found
    try:
        (folder / f"{FORMAT_NAME}.fmt").symlink_to(format_path)
    except OSError:
        return None
    forget_fonts = "".join(f"\\expandafter\\let\\csname {name}\\endcsname\\relax" for name in native)
    source = CLEARED_PAGE + forget_fonts + "\n" + "%\n" * (prefix.count("\n") - 1) + rest
    return Formatted(source.encode("utf-8"), format_path)


def forget(made: Formatted) -> None:
    """A format a run failed from is removed from the cache (the next run makes it anew)."""
    with contextlib.suppress(OSError):
        made.format_file.unlink(missing_ok=True)
        made.format_file.with_suffix(".native-fonts").unlink(missing_ok=True)
