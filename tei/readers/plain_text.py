"""Reads a plain-text narration into a Witness: strict UTF-8, every byte kept, language guessed by script."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from tei.diagnostics import error, line_and_column
from tei.errors import InvalidInputError
from tei.model import Witness
from tei.xmlio import read_bytes

ARABIC_LETTER = re.compile(r"[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]")


def decode_utf8(data: bytes, name: str) -> str:
    """Decode UTF-8 strictly; a bad byte is reported with its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", errors="replace")
        line, column = line_and_column(good, len(good))
        raise InvalidInputError(
            error(
                "T001",
                f"not UTF-8: byte 0x{data[exc.start]:02X} at offset {exc.start} cannot be decoded",
                name,
                line,
                column,
                hint="convert the file to UTF-8, e.g. iconv -f WINDOWS-1256 -t UTF-8",
            )
        ) from None


def guess_language(text: str) -> str:
    """'ar' when most letters are Arabic script, otherwise 'en'."""
    letters = [c for c in text if unicodedata.category(c).startswith("L")]
    arabic = sum(1 for c in letters if ARABIC_LETTER.match(c))
    return "ar" if letters and arabic * 2 > len(letters) else "en"


def read_witness(path: Path | str, witness_id: str, siglum: str | None = None, **facts) -> Witness:
    """A Witness whose text is the file's exact content."""
    text = decode_utf8(read_bytes(path, "witness file"), str(path))
    language = facts.pop("language", None) or guess_language(text)
    return Witness(witness_id, siglum or witness_id, text, language, source=str(path), **facts)
