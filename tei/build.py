"""`tei build`: every stage that exists, from a manifest to the outputs, each stage written as it finishes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tei.model import Work
from tei.outputs import prepare_folder, write_files
from tei.render import render
from tei.writers.transcription import transcription_bytes


@dataclass(frozen=True)
class BuildOptions:
    output: Path
    force: bool = False


def transcriptions(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """One TEI transcription per witness, in <output>/transcriptions/<id>.xml."""
    folder = options.output / "transcriptions"
    return {
        folder / f"{w.id}.xml": transcription_bytes(w, work, folder / f"{w.id}.xml") for w in work.witnesses
    }


def edition(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The collated edition, <output>/edition.xml, linking each witness's transcription and the schema."""
    from tei.collate import collate
    from tei.writers.edition import EditionOptions, edition_bytes

    links = {w.id: f"transcriptions/{w.id}.xml" for w in work.witnesses}
    written = edition_bytes(collate(work), EditionOptions("schemas/tei-edition.rng", links))
    return {options.output / "edition.xml": written}


def html(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The web edition in <output>/html/, rendered from <output>/edition.xml as it stands on disk.

    Nothing is rendered while no stage has written edition.xml yet.
    """
    edition = options.output / "edition.xml"
    if not edition.is_file():
        return {}
    return render(edition, "html", options.output / "html").files


def pdf(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The print edition, <output>/edition.pdf (default engine, Typst), from <output>/edition.xml on disk.

    Nothing is rendered while no stage has written edition.xml yet.
    """
    edition = options.output / "edition.xml"
    if not edition.is_file():
        return {}
    return render(edition, "pdf", options.output / "edition.pdf").files


def schema(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The project schema files in <output>/schemas/, where edition.xml's <?xml-model?> points."""
    from tei.resources import shipped

    return {options.output / "schemas" / f.name: f.read_bytes() for f in shipped("schemas", (".rng", ".xsd", ".sch"))}


def validate_edition(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """Stop the build if <output>/edition.xml fails validation (schema, Schematron, apparatus rules); writes nothing."""
    from tei.validate import ValidationOptions, validate

    edition = options.output / "edition.xml"
    if edition.is_file():
        validate([edition], ValidationOptions())
    return {}


def stats(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """Statistics tables and plots in <output>/stats/, read from <output>/edition.xml as it stands on disk."""
    from tei.stats.files import statistics_files

    edition = options.output / "edition.xml"
    return statistics_files(edition, options.output / "stats") if edition.is_file() else {}


STAGES: tuple[tuple[str, Callable[[Work, BuildOptions], dict[Path, bytes]]], ...] = (
    ("transcriptions", transcriptions),
    ("edition", edition),
    ("schema", schema),
    ("validate", validate_edition),
    ("html", html),
    ("pdf", pdf),
    ("stats", stats),
)


def build(work: Work, options: BuildOptions, on_written: Callable[[str, Path], None]) -> None:
    """Run the stages in order; each stage's files are written all at once before the next starts."""
    prepare_folder(options.output)
    for name, stage in STAGES:
        for path in write_files(stage(work, options), force=options.force):
            on_written(name, path)
