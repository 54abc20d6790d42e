"""Reads a plain-text narration into a Witness: strict UTF-8, every byte kept, language guessed by script."""

from __future__ import annotations

from pathlib import Path

from tei.diagnostics import error, line_and_column
from tei.errors import InvalidInputError
from tei.model import Witness
from tei.text.scripts import guess_language
from tei.xmlio import read_bytes


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


def read_witness(path: Path | str, witness_id: str, siglum: str | None = None, **facts) -> Witness:
    """A Witness whose text is the file's exact content."""
    text = decode_utf8(read_bytes(path, "witness file"), str(path))
    language = facts.pop("language", None) or guess_language(text)
    return Witness(witness_id, siglum or witness_id, text, language, source=str(path), **facts)
