"""`tei build`: the whole edition from a manifest (or a folder holding edition.toml)."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import force_option


@click.command("build")
@click.argument("manifest", required=False, default=".", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="The folder to build into.")
@force_option
def command(manifest, output, force):
    """Build everything from MANIFEST (edition.toml, or a folder holding one) into the output folder.

    Stages so far: TEI transcriptions of every witness (transcriptions/<id>.xml). Each written file
    is printed on stdout.
    """
    from tei.build import BuildOptions, build

    build(manifest, BuildOptions(output, force), lambda stage, path: click.echo(path))
