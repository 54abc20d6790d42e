"""`tei build`: the whole edition from a manifest (or a folder holding edition.toml)."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_written, force_option, format_option


@click.command("build")
@click.argument("manifest", required=False, default=".", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="The folder to build into.")
@force_option
@format_option
def command(manifest, output, force, output_format):
    """Build everything from MANIFEST (edition.toml, or a folder holding one) into the output folder.

    Stages so far: TEI transcriptions of every witness (transcriptions/<id>.xml). Each written file
    is printed on stdout.
    """
    from tei.build import BuildOptions, build

    written = []

    def on_written(_stage, path):
        written.append(path)
        if output_format == "text":
            click.echo(path)

    build(manifest, BuildOptions(output, force), on_written)
    if output_format == "json":
        echo_written(written, "json")
