"""`tei build`: the whole edition from a manifest, or every work of a corpus folder in parallel."""

from __future__ import annotations

import sys
from contextlib import closing, nullcontext
from dataclasses import replace
from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_kept, echo_written, output_options


@click.command("build")
@click.argument("manifest", required=False, default=".", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("build"),
    show_default=True,
    help="The folder to build into.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Corpus mode: build this many works at once.",
)
@click.option("--shard", metavar="I/N", help="Corpus mode: build only shard I of N (deterministic by work path).")
@click.option("--stages", metavar="NAME,...", help="Run only these stages (default: all; see below).")
@click.option("--timings", is_flag=True, help="Print each stage's time (and whether it was skipped) on stderr.")
@click.option(
    "--carry-decisions",
    is_flag=True,
    help="Re-collate and carry the decisions made in edition.xml (lemmata, conjectures, notes, types, @resp) "
    "into the new edition; those that no longer apply are reported. The edited file is kept as a .bak.",
)
@output_options
def command(manifest, output, jobs, shard, stages, timings, carry_decisions, force, output_format):
    """Build everything from MANIFEST into the output folder, printing each file written.

    MANIFEST is an edition.toml, or a folder holding one. A folder without one is a corpus: every
    edition.toml below it is a work, built into the same relative folder under the output; works whose
    inputs and toolkit are unchanged since their last build are skipped (--force rebuilds them).

    Stages, in order: transcriptions, edition, schema, citation, validate, html, dts, pdf, stats. A stage
    whose inputs (the manifest and witness texts, or edition.xml as it stands) and outputs are unchanged
    since it last ran into the output folder is skipped. citation writes CITATION.cff and a README for the
    folder; dts the static DTS 1.0 responses in html/dts/.
    """
    from tei.app.build import BuildOptions, build, render_settings, stage_names
    from tei.app.corpus import is_corpus
    from tei.cli import report
    from tei.parallel import stage_jobs
    from tei.readers.manifest import manifest_path, read_manifest, read_render_settings

    options = BuildOptions(output, force, stage_names(stages) if stages else None, carry_decisions)
    if is_corpus(manifest):
        build_corpus_with_progress(manifest, options, jobs, shard, output_format)
        return
    written = []

    def on_written(_stage, path):
        written.append(path)
        if output_format == "text":
            click.echo(path)

    def on_stage(name, seconds, skipped):
        if timings:
            click.echo(f"{name}: {seconds:.3f} s{' (unchanged, skipped)' if skipped else ''}", err=True)

    def on_diagnostic(diagnostic):
        report(click.get_current_context(), [diagnostic])

    settings = read_render_settings(manifest)
    work = read_manifest(manifest)
    options = replace(options, stage_jobs=stage_jobs())  # stages side by side on two cores
    build(
        work,
        options,
        on_written,
        on_stage,
        echo_backup,
        on_diagnostic,
        settings=lambda: render_settings(settings, manifest_path(manifest)),
        on_kept=echo_kept,
    )
    if output_format == "json":
        echo_written(written, "json")


def build_corpus_with_progress(corpus, options, jobs, shard_text, output_format):
    """Corpus mode: a progress bar on a terminal, failures reported per work, a summary, exit 1 on failure."""
    from tei.app.corpus import Shard, build_corpus, summary, works
    from tei.cli import report

    shard = Shard.parse(shard_text) if shard_text else None
    total = len(works(corpus, shard))
    results = []
    context = click.get_current_context()
    on_terminal = sys.stderr.isatty()
    bar = click.progressbar(length=total, label="building", file=sys.stderr) if on_terminal else nullcontext()
    # closing: an interrupt that lands in this loop's body (not inside the generator) still shuts the pool down at
    # once, cancelling the works not started; left to the garbage collector, the interpreter's exit ran them all
    with bar, closing(build_corpus(corpus, options, jobs, shard)) as built:
        for result in built:
            results.append(result)
            report(context, result.diagnostics)
            for target, backup in result.backups:
                echo_backup(target, backup)
            if output_format == "text":
                for path in result.written:
                    click.echo(path)
            if on_terminal:
                bar.update(1)
    if output_format == "json":
        echo_written([p for r in results for p in r.written], "json")
    click.echo(summary(results), err=True)
    if any(r.failed for r in results):
        context.exit(1)
