"""`tei encode`: each narration (plain text) into its own lossless TEI transcription."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_written, map_invalid_chars_option, output_options


@click.command("encode")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, allow_dash=True),
    required=True,
    help="A file (one input), a folder (several inputs), or - for stdout.",
)
@click.option(
    "--manifest",
    type=click.Path(path_type=Path),
    help="Take ids, sigla, languages and descriptions from this manifest (edition.toml).",
)
@map_invalid_chars_option
@output_options
def command(files, output, manifest, map_invalid_chars, force, output_format):
    """Encode FILES as TEI transcriptions, one document each.

    Without a manifest the witnesses get the ids A, B, C, ... in the order given. The witness text
    rebuilt from each document equals its file byte for byte.
    """
    from tei.app.encode import encode_files
    from tei.outputs import write_files

    outputs = encode_files(list(files), output, manifest, map_invalid_chars)
    echo_written(
        write_files(outputs, force=force, on_backup=echo_backup, inputs=[*files, *([manifest] if manifest else [])]),
        output_format,
    )
