"""Encoding plain narrations as TEI transcriptions: which witness each file is, and where it goes."""

from __future__ import annotations

import string
from pathlib import Path

from tei.diagnostics import error
from tei.errors import UsageError
from tei.model import Witness, Work
from tei.readers.manifest import read_manifest
from tei.readers.plain_text import read_witness
from tei.writers.transcription import transcription_bytes
from tei.xmlio import readable


def default_ids(count: int) -> list[str]:
    """A, B, ..., Z, then A2, B2, ... : witness ids when no manifest names them."""
    letters = string.ascii_uppercase
    return [letters[n % 26] + (str(n // 26 + 1) if n >= 26 else "") for n in range(count)]


def work_language(witnesses: list[Witness]) -> str:
    """Without a manifest, the work's language is the one most of its witnesses are in (each guessed from its
    script when read), the first witness's on a tie; 'en' when there are none."""
    counts: dict[str, int] = {}
    for witness in witnesses:
        counts[witness.language] = counts.get(witness.language, 0) + 1
    return max(counts, key=counts.get) if counts else "en"


def witnesses_for(files: list[Path], manifest: Path | None) -> tuple[Work, list[Witness]]:
    """The work and one witness per file: facts from the manifest where it lists the file."""
    work = read_manifest(manifest) if manifest else None
    known = {Path(w.source).resolve(): w for w in work.witnesses} if work else {}
    witnesses = []
    for path, fallback_id in zip(files, default_ids(len(files))):
        listed = known.get(Path(path).resolve()) if str(path) != "-" else None
        witnesses.append(listed or read_witness(path, fallback_id))
    if work is None:
        title = readable(Path(str(files[0])).name) if len(files) == 1 else "Untitled work"
        work = Work(id="work", title=title, language=work_language(witnesses), witnesses=tuple(witnesses))
    return work, witnesses


def output_paths(witnesses: list[Witness], output: Path) -> list[Path]:
    """Where each transcription goes: the output file itself, or <id>.xml inside the output folder."""
    single = len(witnesses) == 1 and not output.is_dir() and not str(output).endswith("/")
    if single:
        return [output]
    if str(output) == "-":
        raise UsageError(error("O006", "several transcriptions cannot all go to stdout", "-"))
    if output.exists() and not output.is_dir():
        raise UsageError(
            error(
                "O001",
                "the output path is a file, but several inputs need a folder",
                output,
                hint="name a folder with -o",
            )
        )
    return [output / f"{w.id}.xml" for w in witnesses]


def encode_files(files: list[Path], output: Path, manifest: Path | None, map_invalid: bool) -> dict[Path, bytes]:
    work, witnesses = witnesses_for(files, manifest)
    paths = output_paths(witnesses, output)
    return {
        path: transcription_bytes(witness, work, None if str(path) == "-" else path, map_invalid)
        for witness, path in zip(witnesses, paths)
    }
