"""The `tei` command line: a click group that imports each command's module only when asked for."""

from __future__ import annotations

import importlib

import click

from tei import __version__

COMMANDS = {
    "build": "tei.cli.build",
    "convert": "tei.cli.convert",
    "collate": "tei.cli.collate",
    "encode": "tei.cli.encode",
    "render": "tei.cli.render",
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
