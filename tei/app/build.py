"""`tei build`: every stage that exists, from a manifest to the outputs, each stage written as it finishes.

A stage whose inputs are unchanged since it last ran into the same folder, and whose outputs are still
there as it wrote them, is skipped. Its inputs are hashed: the toolkit (tei.resources.toolkit_digest: its
version, modules, schemas and stylesheets, so that a checkout changed between releases builds anew) and the
Work (manifest facts and every witness text) for the stages that start from the manifest, the toolkit and
the bytes of edition.xml as it stands on disk (hand edits included) for the stages downstream of it. The
hashes live in the stamp file `.tei-build-stamp.json` in the output folder, with the hash of every file
each stage wrote, written with the last files of each group of stages below (and, when a stage fails, for the
stages written before it); `--force` runs every stage. An unchanged rebuild therefore reads and hashes, and writes
nothing.

Stages that need nothing from each other (those from the manifest; then, once edition.xml is written, those
from it) run at once in worker processes forked from this one (`BuildOptions.stage_jobs`, which the command
line sets to the cores it may use, at most two), when this process runs no other thread (a fork copies no
thread, so a lock one held would stay held: tei.parallel). The parent still writes each stage's files, all
at once and in the order of STAGES, and a stage's error stops the build before any later stage is written,
as one after another. A stage's child is forked when the stage starts: while the first group's collate,
the parent loads what the stages from edition.xml load first (PREPARE: stylesheets, the schema, Typst's
fonts), so the second group's children start with it and the longest path of the build (edition, then pdf)
does not load it.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from tei.diagnostics import Diagnostic, error, info
from tei.errors import InvalidInputError, OutputRefusedError, TeiError, UsageError
from tei.model import Work
from tei.outputs import backup_path, edited_outputs, prepare_folder, refuse_edited, sha256, write_files
from tei.parallel import Forked, single_threaded
from tei.render import output_format, render
from tei.render import prepare as prepare_format
from tei.resources import shipped, toolkit_digest
from tei.xmlio import parse_file

SCHEMA_FOLDER, SCHEMA_NAME = "schemas", "tei-edition.rng"


def schema_files(folder: Path) -> dict[Path, bytes]:
    """The project schema files, to be written into <folder>/schemas/ beside an edition that names them."""
    return {folder / SCHEMA_FOLDER / f.name: f.read_bytes() for f in shipped("schemas", (".rng", ".xsd", ".sch"))}


@dataclass(frozen=True)
class BuildOptions:
    output: Path
    force: bool = False
    stages: tuple[str, ...] | None = None  # the names of the stages to run, in STAGES order; None: all
    carry_decisions: bool = False  # re-collate and carry the editor's decisions in edition.xml (tei.app.carry)
    render: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # format -> its parameters (render_settings)
    stage_jobs: int = 1  # stages run at once in children forked from this process (tei.parallel.Forked)
    # tei serve: edition.xml is the editor's, edited by hand; the stages from it run on it without O004
    edition_by_hand: bool = False
    rerun: tuple[str, ...] = ()  # stages run whatever their stamp says (tei serve: validate, a transcription changed)


TRANSCRIPTIONS = "transcriptions"  # the folder of <output> the transcriptions are written to


def transcriptions(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """One TEI transcription per witness, in <output>/transcriptions/<id>.xml."""
    from tei.writers.transcription import transcription_bytes  # in the stage's worker, not before it starts

    folder = options.output / TRANSCRIPTIONS
    schema = f"../{SCHEMA_FOLDER}/{SCHEMA_NAME}"  # the schema stage writes it; the folder moves as a whole
    return {
        folder / f"{w.id}.xml": transcription_bytes(w, work, folder / f"{w.id}.xml", schema_href=schema)
        for w in work.witnesses
    }


def edition(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The collated edition, <output>/edition.xml, linking each witness's transcription and the schema."""
    from tei.collate import collate
    from tei.writers.edition import edition_bytes

    return {options.output / "edition.xml": edition_bytes(collate(work), _edition_options(work, options.output))}


def _edition_options(work: Work, output: Path | None = None):
    """Each witness's link: its lossless transcription, or a scholar's own TEI transcription (its source,
    relative to the edition), where its markup and images are."""
    import os

    from tei.writers.edition import EditionOptions

    links = {w.id: f"transcriptions/{w.id}.xml" for w in work.witnesses}
    for w in work.witnesses:
        if w.scholarly and w.source and output is not None:
            links[w.id] = Path(os.path.relpath(Path(w.source).absolute(), Path(output).absolute())).as_posix()
    return EditionOptions(f"{SCHEMA_FOLDER}/{SCHEMA_NAME}", links)


def schema(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """The project schema files in <output>/schemas/, where edition.xml's <?xml-model?> points."""
    return schema_files(options.output)


def validate_edition(edition: Path, options: BuildOptions) -> dict[Path, bytes]:
    """Stop the build if the edition or a transcription it wrote fails validation (schema, Schematron, apparatus
    rules); writes nothing."""
    from tei.validate import ValidationOptions, validate

    validate([edition, *sorted((edition.parent / TRANSCRIPTIONS).glob("*.xml"))], ValidationOptions())
    return {}


def html(edition: Path, options: BuildOptions) -> dict[Path, bytes]:
    """The web edition in <output>/html/, with the manifest's [render] and [render.html] options."""
    return render(edition, "html", options.output / "html", format_params(options, "html")).files


class StageFiles(dict):
    """A stage's files (path -> bytes) and what the build tells of them (`diagnostics`, to on_diagnostic)."""

    def __init__(self, files: dict[Path, bytes], diagnostics: tuple[Diagnostic, ...] = ()):
        super().__init__(files)
        self.diagnostics = tuple(diagnostics)


# The render's diagnostics that the build passes on: P015, pages of few text lines, whose hint names the
# manifest's settings (issue 34). The others of a render (Typst's warnings, P013) the build does not show.
TOLD_FROM_RENDER = ("P015",)


def pdf(edition: Path, options: BuildOptions) -> dict[Path, bytes]:
    """The print edition, <output>/edition.pdf, with the manifest's [render] and [render.pdf] options (its
    engine among them; Typst by default), and the render's P015 (TOLD_FROM_RENDER)."""
    rendered = render(edition, "pdf", options.output / "edition.pdf", format_params(options, "pdf"))
    return StageFiles(rendered.files, tuple(d for d in rendered.diagnostics if d.code in TOLD_FROM_RENDER))


def format_params(options: BuildOptions, name: str) -> dict[str, str]:
    """The parameters the manifest gives one output format (render_settings made them), for its stage and
    for loading it ahead (PREPARE)."""
    return dict(dict(options.render).get(name, ()))


def dts(edition: Path, options: BuildOptions) -> dict[Path, bytes]:
    """The static DTS 1.0 responses of the edition in <output>/html/dts/ (tei.render.dts)."""
    from tei.render.dts import edition_files

    return edition_files(edition, options.output / "html" / "dts")


def citation(work: Work, options: BuildOptions) -> dict[Path, bytes]:
    """<output>/CITATION.cff and <output>/README.md, from the manifest (tei.app.publish)."""
    from tei.app.publish import publishing_files

    return publishing_files(work, options.output)


def stats(edition: Path, options: BuildOptions) -> dict[Path, bytes]:
    """Statistics tables and plots in <output>/stats/."""
    from tei.stats.files import statistics_files

    return statistics_files(edition, options.output / "stats")


def render_settings(settings: dict[str, dict[str, str]], manifest: Path | str) -> tuple:
    """The manifest's [render] options made into each format's parameters, for BuildOptions.render.

    An option of [render] goes to every format that takes it; an option no format takes, or one in
    [render.FORMAT] that format does not take, is M014, naming the manifest, the line and the key.
    """
    from tei.readers.manifest import line_of_key

    found = {}
    shared = settings.get("", {})
    for name in ("html", "pdf"):
        known = set(output_format(name).parameters() or ())
        own = settings.get(name, {})
        for key in own:
            if key not in known:
                raise InvalidInputError(
                    error(
                        "M014",
                        f"[render.{name}] sets '{key}', which the {name} output does not take",
                        manifest,
                        line_of_key(manifest, key),
                        hint=f"its options are: {', '.join(sorted(known))}",
                    )
                )
        found[name] = tuple(sorted({**{k: v for k, v in shared.items() if k in known}, **own}.items()))
        accepted = output_format(name).values()
        for key, value in found[name]:
            if key in accepted and value not in accepted[key]:
                raise InvalidInputError(
                    error(
                        "M014",
                        f"[render] sets '{key}' to '{value}', which the {name} output does not accept",
                        manifest,
                        line_of_key(manifest, key),
                        hint=f"its values are: {', '.join(accepted[key])}",
                    )
                )
    for key in shared:
        if not any(key in dict(params) for params in found.values()):
            raise InvalidInputError(
                error(
                    "M014",
                    f"[render] sets '{key}', which no output takes",
                    manifest,
                    line_of_key(manifest, key),
                    hint="see docs/manifest.md and xslt/<format>/params.xsl for the options",
                )
            )
    return tuple(sorted(found.items()))


def from_edition(
    step: Callable[[Path, BuildOptions], dict[Path, bytes]],
) -> Callable[[Work, BuildOptions], dict[Path, bytes]]:
    """A stage that works from <output>/edition.xml as it stands on disk, not from the model.

    It does nothing while no stage has written edition.xml.
    """

    def stage(work: Work, options: BuildOptions) -> dict[Path, bytes]:
        edition_path = options.output / "edition.xml"
        return step(edition_path, options) if edition_path.is_file() else {}

    stage.__doc__ = step.__doc__
    return stage


STAMP_NAME = ".tei-build-stamp.json"
FROM_MANIFEST = ("transcriptions", "edition", "schema", "citation")  # the other stages start from edition.xml on disk

STAGES: tuple[tuple[str, Callable[[Work, BuildOptions], dict[Path, bytes]]], ...] = (
    ("transcriptions", transcriptions),
    ("edition", edition),
    ("schema", schema),
    ("citation", citation),
    ("validate", from_edition(validate_edition)),
    ("html", from_edition(html)),
    ("dts", from_edition(dts)),
    ("pdf", from_edition(pdf)),
    ("stats", from_edition(stats)),
)
GROUPS = (
    FROM_MANIFEST,
    ("validate", "html", "dts", "pdf", "stats"),
)  # the stages of a group need nothing from each other
# The order in which the stages of a group go to the workers: the longest first (the seeds: pdf 1.1 s, validate
# 0.8 s, html 0.4 s, stats 0.1 s; edition 0.7 s, transcriptions 0.3 s), so that two workers finish together.
HANDED_OUT = ("edition", "transcriptions", "schema", "citation", "pdf", "validate", "html", "dts", "stats")


def _prepare_validate(options: BuildOptions) -> None:
    from tei.validate import prepare

    prepare()


# What each stage from edition.xml loads the first time it runs in a process (stylesheets compiled, a schema
# read, modules imported), loaded ahead by `_prepare`.
PREPARE: dict[str, Callable[[BuildOptions], object]] = {
    "validate": _prepare_validate,
    "html": lambda options: prepare_format("html", format_params(options, "html")),
    "pdf": lambda options: prepare_format("pdf", format_params(options, "pdf")),
    "stats": lambda options: importlib.import_module("tei.stats.files"),
}


def _prepare(wanted: list[str], options: BuildOptions) -> None:
    """Load ahead, in this process, what the wanted stages from edition.xml load first: done while the workers
    collate (this process only waits for them then), so that the workers forked next for those stages start
    with it, and it is not loaded by each worker on the longest path of the build. A failure is left to the
    stage to report."""
    for name in wanted:
        if name in PREPARE:
            with contextlib.suppress(TeiError):
                PREPARE[name](options)


def run_stage(name: str, work: Work, options: BuildOptions) -> tuple[dict[Path, bytes], float]:
    """The files of one stage and the seconds it took (in a worker, or here)."""
    started = time.perf_counter()
    files = dict(STAGES)[name](work, options)
    return files, time.perf_counter() - started


def build(
    work: Work,
    options: BuildOptions,
    on_written: Callable[[str, Path], None],
    on_stage: Callable[[str, float, bool], None] | None = None,
    on_backup: Callable[[Path, Path], None] | None = None,
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
    settings: Callable[[], tuple] | None = None,
    on_kept: Callable[[Path, Path], None] | None = None,
) -> bool:
    """Run the stages in order (or a group of them at once, options.stage_jobs); each stage's files are written
    all at once before the next stage's.

    Before any stage runs, every output the toolkit wrote into the folder earlier is checked for hand
    edits: without --force, all of them are refused at once and nothing is written. A stage whose inputs
    and outputs are as its stamp records is skipped. `on_stage(name, seconds, skipped)` hears of each
    stage, `on_backup(file, backup)` of each edited file kept as a backup (with --force, and edition.xml with
    --carry-decisions), `on_diagnostic` of each warning (decisions that no longer apply). Returns True if
    any stage ran.

    With `carry_decisions`, the editor's decisions in edition.xml (hand-edited or not) are found before
    anything is written and carried into the new collation (tei.app.carry); a transcription corrected
    since the build is collated instead of the manifest's file.

    With `carry_decisions`, the edition.xml replaced is kept as a backup first, whether edited by hand or
    not (it holds the editor's decisions, and one may not carry): B004 names it, and `on_kept(file, backup)`
    hears of it.

    `settings`, when given, makes options.render (render_settings: the manifest's [render] options checked
    against the formats, M014) once the stages from the manifest are under way, before anything is written:
    it imports every output format's module (40 ms), which those stages do not need. An output folder this
    call made is removed again if the build stops before writing into it (a manifest refused, M014).
    """
    made = not options.output.exists()
    try:
        prepare_folder(options.output)
        with _one_build_at_a_time(options.output, on_diagnostic):
            return _build(work, options, on_written, on_stage, on_backup, on_diagnostic, settings, on_kept)
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                (options.output / LOCK_NAME).unlink(missing_ok=True)
                options.output.rmdir()  # only while empty
        raise


LOCK_NAME = ".tei-build.lock"


@contextlib.contextmanager
def _one_build_at_a_time(output: Path, on_diagnostic):
    """Builds into one folder take turns: each holds an exclusive lock on `.tei-build.lock` there while it
    runs. One that finds the lock held says so (B008) and waits for it; without it, the second build's files
    replaced the first's half-way through, and the first failed on a mixture (APP007)."""
    try:
        descriptor = os.open(output / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError:  # a folder nothing can be written into (read-only): the first write says so (O005)
        yield
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_diagnostic is not None:
                on_diagnostic(info("B008", "another build is writing into this folder; waiting for it to finish",
                                   output))  # fmt: skip
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _build(work, options, on_written, on_stage, on_backup, on_diagnostic, settings, on_kept) -> bool:
    prepare_folder(options.output)
    edition_path = options.output / "edition.xml"
    if not options.force:
        edited = edited_outputs(options.output)
        if options.carry_decisions or options.edition_by_hand:
            edited = [p for p in edited if p.resolve() != edition_path.resolve()]
        if edited:
            refuse_edited(edited, _refusal_hint(edited, edition_path))
    stamp_path = options.output / STAMP_NAME
    stamps = {} if options.force else _read_stamps(stamp_path)
    stamps = {name: stamp for name, stamp in stamps.items() if name not in options.rerun}
    found = None
    manifest_digest = sha256(repr((toolkit_digest(), work)).encode("utf-8"))  # the work as the manifest gives it
    if options.carry_decisions and edition_path.is_file():
        work, found = _decisions(work, edition_path, _read_stamps(stamp_path), on_diagnostic)
    work_digest = sha256(repr((toolkit_digest(), work)).encode("utf-8"))
    if found is None and not options.force and _will_run("edition", options, stamps, work_digest):
        _refuse_dropping_decisions(edition_path)
    wanted = _with_needs(options, work, on_diagnostic)
    witnesses = work.witnesses if work is not None else ()  # None: `tei serve` of an edition.xml, no manifest
    sources = [w.source for w in witnesses if w.source]  # no output may replace a witness's file (O007)
    at_once = options.stage_jobs > 1 and len(wanted) > 1 and single_threaded()  # else one after another, here
    children = Forked(options.stage_jobs) if at_once else None
    ran = False
    try:
        for group in GROUPS:
            names = [name for name in wanted if name in group]
            checked, inputs, running = {}, {}, {}
            for name in sorted(names, key=HANDED_OUT.index):  # every stage of the group starts before any is written
                started = time.perf_counter()
                inputs[name] = work_digest if name in FROM_MANIFEST else _edition_digest(options.output, options.render)
                if not _unchanged(stamps.get(name), inputs[name], options.output):
                    running[name] = children.submit(run_stage, name, work, options) if children is not None else None
                checked[name] = time.perf_counter() - started
            if settings is not None:
                options, settings = replace(options, render=settings()), None
            if children is not None and "edition" in running:  # a new edition.xml: the stages from it will run
                # on the core the other stages of the group leave free: beside them, it slowed the edition
                children.wait_until_running(1)
                _prepare(wanted, options)
            # The stamp is written once a group, with the files of its last stage that runs (all or nothing); a
            # stage that fails, or an interrupt, writes it for the stages written before (in `finally`).
            last = [name for name in names if name in running][-1:]
            unstamped = False
            try:
                for name in names:  # written in the order of STAGES; an error stops the build before later stages
                    if name not in running:
                        if on_stage is not None:
                            on_stage(name, checked[name], True)
                        continue
                    ran = True
                    call = running[name]
                    files, seconds = children.result(call) if call is not None else run_stage(name, work, options)
                    for diagnostic in getattr(files, "diagnostics", ()):
                        if on_diagnostic is not None:
                            on_diagnostic(diagnostic)
                    started = time.perf_counter()
                    force, backups = options.force, {}
                    if name == "edition" and found is not None:
                        backups = {edition_path: backup_path(edition_path)} if edition_path.is_file() else {}
                        files, force = _carried(files, found, on_diagnostic, backups.get(edition_path)), True
                    entry = {
                        "inputs": inputs[name],
                        "outputs": {
                            Path(p).relative_to(options.output).as_posix(): sha256(d) for p, d in files.items()
                        },
                    }
                    if name in FROM_MANIFEST and manifest_digest != work_digest:
                        entry["manifest"] = manifest_digest  # a carry collated corrected texts: see _inputs_match
                    stamp = _stamp_file(stamp_path, {**stamps, name: entry}) if name in last else {}
                    written = write_files(
                        {**files, **stamp},
                        force=force,
                        on_backup=on_backup,
                        forced=stamp,
                        inputs=sources,
                        backups=backups,
                        on_kept=on_kept,
                    )
                    stamps[name], unstamped = entry, not stamp  # its files written: the stage is stamped
                    for path in written:
                        if path != stamp_path.absolute():
                            on_written(name, path)
                    if on_stage is not None:
                        on_stage(name, checked[name] + seconds + time.perf_counter() - started, False)
            finally:
                if unstamped:  # only while an error or an interrupt is raised: that one is reported, not this
                    with contextlib.suppress(TeiError, OSError):
                        write_files(_stamp_file(stamp_path, stamps), force=True)
    finally:
        if children is not None:  # after an error or an interrupt: the stages still running are ended
            children.close()
    return ran


# What each stage reads that another stage writes: validation checks edition.xml against the schema it names
# and each witness's text against the transcription it links; the outputs are made from edition.xml.
NEEDS = {"validate": ("transcriptions", "edition", "schema"), "html": ("edition",), "pdf": ("edition",),
         "stats": ("edition",)}  # fmt: skip


def _with_needs(options: BuildOptions, work: Work, on_diagnostic) -> list[str]:
    """The stages to run, in STAGES order: those asked for (all by default) and, with --stages, each stage one
    of them needs whose files are not in the output folder yet (a fresh folder, `--stages edition,validate,
    html`: the transcriptions and the schema that validation reads), said by B009. A needed stage whose
    files are there is not added: the folder's own edition.xml, say, is what --stages html renders."""
    asked = [name for name, _ in STAGES if options.stages is None or name in options.stages]
    if options.stages is None:
        return asked
    present = {
        "transcriptions": work is None  # an edition served without its manifest has no transcriptions to make
        or all((options.output / "transcriptions" / f"{w.id}.xml").is_file() for w in work.witnesses),
        "edition": (options.output / "edition.xml").is_file(),
        "schema": (options.output / SCHEMA_FOLDER / SCHEMA_NAME).is_file(),
    }
    added = sorted({n for name in asked for n in NEEDS.get(name, ()) if n not in asked and not present[n]},
                   key=[name for name, _ in STAGES].index)  # fmt: skip
    if added and on_diagnostic is not None:
        on_diagnostic(info("B009", f"--stages: the stages chosen need {', '.join(added)}, whose files are not in "
                                   "the output folder; they run too", options.output))  # fmt: skip
    return [name for name, _ in STAGES if name in asked or name in added]


def _stamp_file(stamp_path: Path, stamps: dict) -> dict[Path, bytes]:
    return {stamp_path: json.dumps(stamps, indent=1, sort_keys=True).encode("utf-8")}


def _will_run(name: str, options: BuildOptions, stamps: dict, digest: str) -> bool:
    wanted = options.stages is None or name in options.stages
    return wanted and not _inputs_match(stamps.get(name), digest)


def _inputs_match(stamp: dict | None, inputs: str) -> bool:
    """True when the stage last ran on these inputs. A stage from the manifest that a carry ran on texts
    corrected since the build (B005) also records the manifest's own inputs then (`manifest`): a plain build
    with the manifest unchanged since that carry has nothing to do, and would otherwise collate the
    uncorrected files anew and drop the decisions carried (B006)."""
    return isinstance(stamp, dict) and inputs in (stamp.get("inputs"), stamp.get("manifest"))


def _refuse_dropping_decisions(edition_path: Path) -> None:
    """An edition.xml the toolkit wrote with the editor's decisions in it (an earlier --carry-decisions
    build) is not collated over without the flag: the decisions would be lost without a word (B006)."""
    if not edition_path.is_file():
        return
    from tei.app.carry import decisions

    found = decisions(parse_file(edition_path), None)
    if found:
        raise OutputRefusedError(
            error(
                "B006",
                f"edition.xml holds {len(found)} decision(s) of the editor (lemmata, conjectures, notes, @resp) "
                "that a new collation would drop",
                edition_path,
                hint="rebuild with --carry-decisions to keep them, or --force to drop them (the file is kept as "
                "a backup)",
            )
        )


def _refusal_hint(edited: list[Path], edition_path: Path) -> str:
    if any(p.resolve() == edition_path.resolve() for p in edited):
        return (
            "to re-collate and keep the decisions made in edition.xml, use --carry-decisions; "
            "--force replaces the files (each old file is kept as a backup)"
        )
    return "use --force to replace them (each old file is kept as a backup)"


def _decisions(work: Work, edition_path: Path, stamps: dict, on_diagnostic) -> tuple[Work, list]:
    """The work to collate (corrected transcriptions taken in) and the decisions in edition.xml."""
    from tei.app.carry import corrected_work, decisions, rebuilt_work
    from tei.collate import collate
    from tei.writers.edition import edition_tree

    stamped = (
        stamps.get("transcriptions", {}).get("outputs", {}) if isinstance(stamps.get("transcriptions"), dict) else {}
    )
    work, notes = corrected_work(work, edition_path.parent, stamped)
    edited = parse_file(edition_path)
    former = rebuilt_work(work, edited, str(edition_path))
    regenerated = edition_tree(collate(former), _edition_options(former))
    for note in notes:
        if on_diagnostic is not None:
            on_diagnostic(note)
    return work, decisions(edited, regenerated)


def _carried(files: dict[Path, bytes], found: list, on_diagnostic, backup: Path | None) -> dict[Path, bytes]:
    from tei.app.carry import carry

    ((path, data),) = files.items()
    carried, result = carry(
        data, found, str(path), f"{SCHEMA_FOLDER}/{SCHEMA_NAME}", str(backup) if backup else None, backup
    )
    for diagnostic in [*result.diagnostics, *([result.summary] if result.summary else [])]:
        if on_diagnostic is not None:
            on_diagnostic(diagnostic)
    return {path: carried}


def _edition_digest(output: Path, settings: tuple = ()) -> str:
    edition_path = output / "edition.xml"
    content = edition_path.read_bytes() if edition_path.is_file() else b"(none)"
    return sha256(toolkit_digest().encode("utf-8") + b"\0" + repr(settings).encode("utf-8") + b"\0" + content)


def _read_stamps(path: Path) -> dict:
    try:
        found = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _unchanged(stamp: dict | None, inputs: str, output: Path) -> bool:
    """True when the stage last ran on these inputs and every file it wrote is still as it wrote it."""
    if not _inputs_match(stamp, inputs):
        return False
    for name, digest in stamp.get("outputs", {}).items():
        path = output / name
        if not path.is_file() or sha256(path.read_bytes()) != digest:
            return False
    return True


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
