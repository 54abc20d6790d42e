"""`tei sync`: write each witness's transcription again from an edition corrected by hand."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_written, output_options


@click.command("sync")
@click.argument("edition", type=click.Path(path_type=Path))
@click.option("--wit", "witnesses", multiple=True, metavar="ID", help="Only this witness (repeatable).")
@output_options
def command(edition, witnesses, force, output_format):
    """Bring the transcriptions linked from EDITION in line with it.

    After a reading is corrected in EDITION by hand, validation reports APP007: the witness's text
    rebuilt from the apparatus differs from its transcription. This writes each such transcription
    again with the rebuilt text (its header and schema link kept) and prints the files written; the
    others are left alone.
    """
    from tei.app.sync import sync_files
    from tei.cli import report
    from tei.outputs import write_files

    files, notes = sync_files(edition, tuple(witnesses))
    report(click.get_current_context(), notes)
    echo_written(write_files(files, force=force, on_backup=echo_backup), output_format)
