"""`tei render`: an edition in one output format (html, and whatever tei/render registers), from the XML itself."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_written, output_options


def parse_params(_ctx, _param, values) -> dict[str, str]:
    params = {}
    for value in values:
        name, equals, setting = value.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"'{value}' is not NAME=VALUE")
        params[name] = setting
    return params


class RenderCommand(click.Command):
    """Lists the registered formats in its help, loading the registry only when help is asked for."""

    def format_epilog(self, ctx, formatter):
        from tei.render import formats

        self.epilog = "Formats: " + "; ".join(f"{f.name}: {f.description}" for f in formats().values())
        super().format_epilog(ctx, formatter)


@click.command("render", cls=RenderCommand)
@click.argument("edition", type=click.Path(path_type=Path))
@click.option(
    "--to",
    "format_name",
    default="html",
    show_default=True,
    metavar="FORMAT",
    help="The output format (see the list below).",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="Where to write: a folder for html."
)
@click.option(
    "--param",
    "params",
    multiple=True,
    callback=parse_params,
    metavar="NAME=VALUE",
    help="A stylesheet parameter (see xslt/<format>/params.xsl); repeatable.",
)
@click.option(
    "--engine",
    type=click.Choice(["typst", "latex"]),
    help="The PDF engine for --to pdf: typst (default; no system packages) or latex (reledmac via latexmk).",
)
@output_options
def command(edition, format_name, output, params, engine, force, output_format):
    """Render EDITION (a TEI parallel-segmentation edition) as FORMAT into OUTPUT.

    Problems found in the edition are reported on stderr and, for html, shown in the page;
    the files written are printed on stdout.
    """
    from tei.cli import report
    from tei.outputs import write_files
    from tei.render import render

    if engine:
        params = {**params, "engine": engine}
    rendered = render(edition, format_name, output, params)
    if rendered.diagnostics:
        report(click.get_current_context(), rendered.diagnostics)
    echo_written(write_files(rendered.files, force=force, on_backup=echo_backup, inputs=[edition]), output_format)
