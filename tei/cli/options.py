"""Options shared by several commands, declared once."""

from __future__ import annotations

import click

force_option = click.option(
    "--force", is_flag=True, help="Replace outputs edited by hand (the old file is kept as a .bak)."
)


assume_tei_namespace_option = click.option(
    "--assume-tei-namespace",
    is_flag=True,
    help="Read a document whose elements are in no namespace (a Classical Text Editor export) as TEI.",
)


def format_option(command):
    """--format text|json; diagnostics follow it too."""

    def remember(ctx, _param, value):
        ctx.find_root().meta["tei.format"] = value
        return value

    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        callback=remember,
        is_eager=True,
        help="Form of the report and of the diagnostics on stderr.",
    )(command)


def output_options(command):
    """--force and --format together: every command that writes files takes both, declared once."""
    return force_option(format_option(command))


map_invalid_chars_option = click.option(
    "--map-invalid-chars",
    is_flag=True,
    help='Write characters XML cannot hold as <g type="char" n="U+XXXX"/> instead of refusing.',
)


def echo_backup(target, backup) -> None:
    """With --force: say where the hand-edited file that was replaced is kept."""
    click.echo(f"tei: {target} had been edited by hand; the old file is kept as {backup}", err=True)


def echo_kept(target, backup) -> None:
    """A file replaced that a scholar may have edited (a transcription `tei sync` rewrites): where the old one is."""
    click.echo(f"tei: the old {target} is kept as {backup}", err=True)


def echo_written(paths, output_format: str) -> None:
    """Report written files on stdout: one path a line, or a JSON list with --format json."""
    if output_format == "json":
        import json

        click.echo(json.dumps([str(p) for p in paths]))
    else:
        for path in paths:
            click.echo(path)
