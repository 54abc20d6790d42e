"""What a `tei collate` run collates: the witnesses named on the command line and/or in a manifest, as a Work.

Plain texts and TEI transcriptions (recognised by the .xml suffix) may be mixed. Without a manifest the
witnesses get the ids A, B, C, ... in the order given; a TEI transcription keeps the id it declares.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from tei.app.build import SCHEMA_FOLDER, SCHEMA_NAME, schema_files
from tei.app.encode import default_ids, work_language
from tei.collate import collate
from tei.diagnostics import error
from tei.errors import InvalidInputError, MissingResourceError, UsageError
from tei.model import Witness, Work
from tei.readers.manifest import read_manifest
from tei.readers.plain_text import read_witness
from tei.readers.transcription import read_transcription_witnesses
from tei.text.normalize import profile_named
from tei.writers.edition import EditionOptions, edition_bytes
from tei.writers.transcription import refuse_illegal_characters
from tei.xmlio import readable


@dataclass(frozen=True)
class CollateRequest:
    files: list[Path]
    output: Path
    manifest: Path | None = None
    profile: str | None = None  # overrides the manifest's
    map_invalid: bool = False  # characters XML cannot hold become <g type="char"/> instead of an error


def collate_files(request: CollateRequest) -> dict[Path, bytes]:
    """The edition file the request asks for, ready for outputs.write_files."""
    work = work_for(request)
    if not request.map_invalid:
        for witness in work.witnesses:
            if not _from_transcription(witness):  # it holds them as <g type="char">: the choice was made there
                refuse_illegal_characters(witness)
    if str(request.output) == "-":
        return {request.output: edition_bytes(collate(work), EditionOptions(None, {}))}
    # The schema goes beside the edition and is named relative to it, so the folder can be moved or zipped.
    options = EditionOptions(f"{SCHEMA_FOLDER}/{SCHEMA_NAME}", transcription_links(work, request.output))
    return {request.output: edition_bytes(collate(work), options), **schema_files(Path(request.output).parent)}


def work_for(request: CollateRequest) -> Work:
    manifest = read_manifest(request.manifest) if request.manifest else None
    if request.files:
        witnesses = _witnesses(request.files, manifest)
    elif manifest:
        witnesses = list(manifest.witnesses)
    else:
        raise UsageError(error("C002", "nothing to collate", None, hint="name the witness files, or a --manifest"))
    _refuse_duplicate_ids(witnesses)
    ids = {w.id for w in witnesses}
    profile = request.profile or (manifest.profile if manifest else default_profile(witnesses))
    profile_named(profile, str(request.manifest) if request.manifest and not request.profile else None)
    if manifest:
        base = manifest.base if manifest.base in ids else None
        return replace(manifest, witnesses=tuple(witnesses), base=base, profile=profile)
    title = readable(Path(str(request.files[0])).name) if len(request.files) == 1 else "Untitled work"
    return Work(
        id="edition", title=title, language=work_language(witnesses), profile=profile, witnesses=tuple(witnesses)
    )


def default_profile(witnesses: list[Witness]) -> str:
    """Without a manifest or --profile: hadith-ar when every witness is Arabic (by its script), else default."""
    return "hadith-ar" if witnesses and all(w.language == "ar" for w in witnesses) else "default"


def _witnesses(files: list[Path], manifest: Work | None) -> list[Witness]:
    listed: dict[Path, list[Witness]] = {}
    for witness in manifest.witnesses if manifest else ():
        if witness.source:  # a transcription's hand layers come with its witness
            listed.setdefault(Path(witness.source).resolve(), []).append(witness)
    found = []
    for path, fallback_id in zip(files, default_ids(len(files))):
        found.extend(listed.get(Path(path).resolve()) or read_inputs(path, fallback_id))
    return found


def _from_transcription(witness: Witness) -> bool:
    """A witness read from a TEI transcription: a character XML cannot hold is in it only as <g type="char">,
    written there by `--map-invalid-chars` (issue 38: collating it needed the flag again, and T002 gave the
    offset in the text as if it were a line and column of the file)."""
    return bool(witness.source) and Path(witness.source).suffix.lower() == ".xml"


def read_input(path: Path, fallback_id: str) -> Witness:
    """A witness from a TEI transcription (.xml) or a plain text."""
    return read_inputs(path, fallback_id)[0]


def read_inputs(path: Path, fallback_id: str) -> list[Witness]:
    """The witnesses of a TEI transcription (.xml: a scholar's may give hand layers too) or a plain text."""
    if Path(path).suffix.lower() == ".xml":
        if not Path(path).exists():
            raise MissingResourceError(error("IO001", "witness file does not exist", path))
        return read_transcription_witnesses(path)
    return [read_witness(path, fallback_id)]


def _refuse_duplicate_ids(witnesses: list[Witness]) -> None:
    seen: dict[str, Witness] = {}
    for witness in witnesses:
        if witness.id in seen:
            raise InvalidInputError(
                error(
                    "C003",
                    f"two witnesses have the id '{witness.id}' ({seen[witness.id].source} and {witness.source})",
                    witness.source,
                    hint="give each witness its own id in a manifest (--manifest edition.toml)",
                )
            )
        seen[witness.id] = witness


def transcription_links(work: Work, output: Path) -> dict[str, str]:
    """For each witness read from a TEI transcription, the path to it from the edition's folder."""
    if str(output) == "-":
        return {}
    return {
        w.id: Path(os.path.relpath(Path(w.source).absolute(), Path(output).absolute().parent)).as_posix()
        for w in work.witnesses
        if w.source and Path(w.source).suffix.lower() == ".xml"
    }
