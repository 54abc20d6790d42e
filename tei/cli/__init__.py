"""The `tei` command line: a click group that imports each command's module only when asked for.

The console script and `python -m tei` enter by `run`, which ends the process without the interpreter's
teardown: once a command is done, its files written and closed, its exit functions run and its output
flushed, freeing every object one by one (the stylesheets, the schema, Typst's fonts, lxml's trees) cost
`tei build seeds` 80-110 ms of its 1.5 s, with nothing left to do. Tests call `main` (click's group), which
returns or raises SystemExit as click does.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys

import click

from tei import __version__

COMMANDS = {
    "build": "tei.cli.build",
    "convert": "tei.cli.convert",
    "collate": "tei.cli.collate",
    "encode": "tei.cli.encode",
    "render": "tei.cli.render",
    "serve": "tei.cli.serve",
    "stats": "tei.cli.stats",
    "sync": "tei.cli.sync",
    "validate": "tei.cli.validate",
    "witness": "tei.cli.witness",
}


class TeiGroup(click.Group):
    """Commands load lazily (fast --help); a TeiError becomes diagnostics on stderr and its exit code."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        return importlib.import_module(COMMANDS[name]).command

    def invoke(self, ctx):
        from tei.errors import TeiError

        try:
            return super().invoke(ctx)
        except TeiError as exc:
            report(ctx, exc.diagnostics)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("tei: interrupted; outputs already written are intact", err=True)
            ctx.exit(130)


def report(ctx: click.Context, diagnostics) -> None:
    """Diagnostics to stderr, as text or (with --format json) as JSON."""
    from tei.diagnostics import render_json, render_text

    as_json = ctx.find_root().meta.get("tei.format") == "json"
    click.echo((render_json if as_json else render_text)(diagnostics), err=True, nl=False)


@click.group(cls=TeiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="tei")
def main():
    """A TEI-XML critical-edition toolkit: encode witnesses, collate them, validate and publish.

    Exit codes: 0 ok; 1 invalid input or document; 2 usage; 3 missing resource; 4 external tool.
    """


def run() -> None:
    """The console script: `main`, then the process ends with its exit code at once (see the module's text).
    What the interpreter would still do that matters is done here first: the exit functions registered with
    atexit (temporary folders' finalizers among them) run, and stdout and stderr are flushed; a flush to a
    closed pipe ends the process as Python's own exit does (code 120, no traceback)."""
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)
