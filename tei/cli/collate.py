"""`tei collate`: align witnesses (plain texts or TEI transcriptions) into one parallel-segmentation edition."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_written, map_invalid_chars_option, output_options


@click.command("collate")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, allow_dash=True),
    required=True,
    help="The edition file to write (edition.xml), or - for stdout.",
)
@click.option(
    "--manifest",
    type=click.Path(path_type=Path),
    help="Take the title, base witness, profile, ids and sigla from this manifest (edition.toml); "
    "without FILES, collate every witness it lists.",
)
@click.option("--profile", help="The normalisation profile (overrides the manifest's; default: 'default').")
@map_invalid_chars_option
@output_options
def command(files, output, manifest, profile, map_invalid_chars, force, output_format):
    """Collate FILES (plain texts or TEI transcriptions) into one TEI edition.

    Without a manifest the witnesses get the ids A, B, C, ... in the order given (a TEI transcription
    keeps the id it declares). The result does not depend on that order; `tei witness` rebuilds each
    witness's text from it byte for byte.
    """
    from tei.app.collate import CollateRequest, collate_files
    from tei.outputs import write_files

    request = CollateRequest(list(files), output, manifest, profile, map_invalid_chars)
    echo_written(
        write_files(
            collate_files(request),
            force=force,
            on_backup=echo_backup,
            inputs=[*files, *([manifest] if manifest else [])],
        ),
        output_format,
    )
