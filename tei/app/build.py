"""`tei build`: every stage that exists, from a manifest to the outputs, each stage written as it finishes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tei.diagnostics import error
from tei.errors import UsageError
from tei.model import Work
from tei.outputs import prepare_folder, write_files
from tei.render import render
from tei.writers.transcription import transcription_bytes


@dataclass(frozen=True)
class BuildOptions:
    output: Path
    force: bool = False
    stages: tuple[str, ...] | None = None  # the names of the stages to run, in STAGES order; None: all


def transcriptions(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """One TEI transcription per witness, in <output>/transcriptions/<id>.xml."""
    folder = options.output / "transcriptions"
    return {folder / f"{w.id}.xml": transcription_bytes(w, work, folder / f"{w.id}.xml") for w in work.witnesses}


def edition(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The collated edition, <output>/edition.xml, linking each witness's transcription and the schema."""
    from tei.collate import collate
    from tei.writers.edition import EditionOptions, edition_bytes

    links = {w.id: f"transcriptions/{w.id}.xml" for w in work.witnesses}
    written = edition_bytes(collate(work), EditionOptions("schemas/tei-edition.rng", links))
    return {options.output / "edition.xml": written}


def schema(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The project schema files in <output>/schemas/, where edition.xml's <?xml-model?> points."""
    from tei.resources import shipped

    return {options.output / "schemas" / f.name: f.read_bytes() for f in shipped("schemas", (".rng", ".xsd", ".sch"))}


def validate_edition(edition: Path, output: Path) -> dict[Path, bytes]:
    """Stop the build if the edition fails validation (schema, Schematron, apparatus rules); writes nothing."""
    from tei.validate import ValidationOptions, validate

    validate([edition], ValidationOptions())
    return {}


def html(edition: Path, output: Path) -> dict[Path, bytes]:
    """The web edition in <output>/html/."""
    return render(edition, "html", output / "html").files


def pdf(edition: Path, output: Path) -> dict[Path, bytes]:
    """The print edition, <output>/edition.pdf, with the default engine (Typst)."""
    return render(edition, "pdf", output / "edition.pdf").files


def stats(edition: Path, output: Path) -> dict[Path, bytes]:
    """Statistics tables and plots in <output>/stats/."""
    from tei.stats.files import statistics_files

    return statistics_files(edition, output / "stats")


def from_edition(step: Callable[[Path, Path], dict[Path, bytes]]) -> Callable[[Work, BuildOptions], dict[Path, bytes]]:
    """A stage that works from <output>/edition.xml as it stands on disk, not from the model.

    It does nothing while no stage has written edition.xml.
    """

    def stage(work: Work, options: BuildOptions) -> dict[Path, bytes]:
        edition_path = options.output / "edition.xml"
        return step(edition_path, options.output) if edition_path.is_file() else {}

    stage.__doc__ = step.__doc__
    return stage


STAGES: tuple[tuple[str, Callable[[Work, BuildOptions], dict[Path, bytes]]], ...] = (
    ("transcriptions", transcriptions),
    ("edition", edition),
    ("schema", schema),
    ("validate", from_edition(validate_edition)),
    ("html", from_edition(html)),
    ("pdf", from_edition(pdf)),
    ("stats", from_edition(stats)),
)


def build(work: Work, options: BuildOptions, on_written: Callable[[str, Path], None]) -> None:
    """Run the stages in order; each stage's files are written all at once before the next starts."""
    prepare_folder(options.output)
    for name, stage in STAGES:
        if options.stages is not None and name not in options.stages:
            continue
        for path in write_files(stage(work, options), force=options.force):
            on_written(name, path)


def stage_names(text: str) -> tuple[str, ...]:
    """The stages named in a comma-separated list, each checked against STAGES."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    known = [name for name, _ in STAGES]
    for name in names:
        if name not in known:
            raise UsageError(
                error(
                    "B003", f"there is no build stage '{name}'", "--stages", hint=f"the stages are: {', '.join(known)}"
                )
            )
    return names
