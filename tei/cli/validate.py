"""`tei validate FILE...`: schemas, Schematron and apparatus rules, reported as text, JSON, JUnit or SARIF."""

from __future__ import annotations

import sys
from pathlib import Path

import click

REPORT_FORMATS = ("text", "json", "junit", "sarif")


def _remember_format(ctx, _param, value):
    ctx.find_root().meta["tei.format"] = "json" if value == "json" else "text"
    return value


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--schema",
    type=click.Path(path_type=Path),
    help="A RELAX NG (.rng), XML Schema 1.0/1.1 (.xsd) or Schematron (.sch) file, for example tei_all.rng. "
    "Default: the local schemas of each file's <?xml-model?>, else the project schema.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(REPORT_FORMATS),
    default="text",
    show_default=True,
    callback=_remember_format,
    is_eager=True,
    help="text: diagnostics on stderr; json, junit, sarif: a report on stdout.",
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Check files in this many processes."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Warnings fail too; among them the apparatus rules' findings on a document that is not one of the "
    "toolkit's own editions (there they are warnings, so that the verdict is the schema's).",
)
@click.option("--no-schematron", is_flag=True, help="Check the grammar only (as jing does), not Schematron rules.")
@click.option("--no-apparatus-rules", is_flag=True, help="Skip the apparatus rules (APP001...).")
@click.option(
    "--phase",
    metavar="ID",
    help="The Schematron phase to run (#ALL: every pattern). Default: the schema's defaultPhase, else #ALL.",
)
@click.pass_context
def command(ctx, files, schema, output_format, jobs, strict, no_schematron, no_apparatus_rules, phase):
    """Validate TEI files: the grammar, Schematron rules and the apparatus rules (docs/validation.md).

    Exit status: 0 when every file passes, 1 when one fails, 2 for usage errors, 3 when --schema
    does not exist. The network is never used: remote schemas, DTDs and XIncludes are refused.
    """
    from tei.diagnostics import render_json, render_text
    from tei.errors import ExitCode
    from tei.validate import ValidationOptions, fails, iter_results
    from tei.validate.report import render_junit, render_sarif

    _refuse_missing(files)
    options = ValidationOptions(schema, not no_schematron, not no_apparatus_rules, strict, jobs, phase)
    results = []
    with _progress(len(files)) as progress:
        for result in iter_results(files, options):
            results.append(result)
            if output_format == "text":
                _echo_err(render_text(result.diagnostics))
            progress.update(1)
    diagnostics = [d for r in results for d in r.diagnostics]
    if output_format == "json":
        click.echo(render_json(diagnostics), nl=False)
    elif output_format == "junit":
        click.echo(render_junit(results, strict), nl=False)
    elif output_format == "sarif":
        click.echo(render_sarif(results), nl=False)
    failed = sum(1 for r in results if any(fails(d, strict) for d in r.diagnostics))
    if output_format == "text":
        _echo_err(f"{len(results)} file(s) checked: {len(results) - failed} passed, {failed} failed\n")
    ctx.exit(ExitCode.INVALID if failed else ExitCode.OK)


def _refuse_missing(files) -> None:
    """Files that do not exist stop the command before anything is checked (exit 3); `-` is standard input."""
    from tei.diagnostics import error
    from tei.errors import MissingResourceError

    missing = [error("IO001", "XML file does not exist", f) for f in files if str(f) != "-" and not f.exists()]
    if missing:
        raise MissingResourceError(*missing)


def _echo_err(text: str) -> None:
    if text:
        click.echo(text, err=True, nl=False)


def _progress(total: int):
    """A progress bar on stderr when it is a terminal and there is more than one file; else nothing shown."""
    show = total > 1 and sys.stderr.isatty()
    return click.progressbar(length=total, file=sys.stderr if show else _Discard(), label="validating")


class _Discard:
    """A stream that swallows the progress bar when stderr is not a terminal."""

    def write(self, _text):
        return 0

    def flush(self):
        pass

    def isatty(self):
        return False
