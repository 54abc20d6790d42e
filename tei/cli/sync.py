"""`tei sync`: write each witness's transcription again from an edition corrected by hand."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_kept, echo_written, output_options


@click.command("sync")
@click.argument("edition", type=click.Path(path_type=Path))
@click.option("--wit", "witnesses", multiple=True, metavar="ID", help="Only this witness (repeatable).")
@click.option("--dry-run", is_flag=True, help="Print the change to each transcription and write nothing.")
@output_options
def command(edition, witnesses, dry_run, force, output_format):
    """Bring the transcriptions linked from EDITION in line with it.

    After a reading is corrected in EDITION by hand, validation reports APP007: the witness's text
    rebuilt from the apparatus differs from its transcription. This writes each such transcription
    again with the rebuilt text (its header and schema link kept) and prints the files written; the
    others are left alone. Before writing, the exact change to each file is shown as a diff (on stderr;
    with --dry-run on stdout, and nothing is written), and each file replaced is kept as a .bak first.
    Nothing is written while EDITION has any error other than APP007 (S003).
    """
    from tei.app.sync import changes, refuse_untrusted, sync_files
    from tei.cli import report
    from tei.outputs import backup_path, write_files

    files, notes = sync_files(edition, tuple(witnesses))
    report(click.get_current_context(), notes)
    if not files:
        echo_written([], output_format)
        return
    refuse_untrusted(edition)
    click.echo(changes(files), nl=False, err=not dry_run)
    if dry_run:
        return
    backups = {path: backup_path(path) for path in files}
    written = write_files(
        files, force=force, on_backup=echo_backup, inputs=[edition], backups=backups, on_kept=echo_kept
    )
    echo_written(written, output_format)
