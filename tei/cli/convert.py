"""`tei convert`: rewrite an apparatus by another TEI method, refusing any result that changes a witness."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_written, force_option, format_option

# The names of tei.convert.methods.METHODS, spelled out so that `tei --help` need not load the converter.
METHOD_NAMES = ("parallel-segmentation", "location-referenced", "double-end-point")


@click.command("convert")
@click.argument("source", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--method", required=True, type=click.Choice(METHOD_NAMES), help="The method to convert to.")
@click.option("-o", "--output", type=click.Path(path_type=Path, allow_dash=True), default="-",
              show_default=True, help="Where to write the converted document (- is stdout).")
@force_option
@format_option
def command(source, method, output, force, output_format):
    """Convert the apparatus of SOURCE (any TEI document with app elements) to another method.

    Parallel segmentation, location-referenced and double end-point attached apparatus convert into one
    another; everything else in the document is kept as it is. Every witness's text is rebuilt from the
    result and compared with the input's: if any would change, nothing is written and the command says
    which witness, where. Witnesses named in @wit but not declared in listWit are reported as warnings.
    """
    from tei.cli import report
    from tei.convert import convert_checked
    from tei.outputs import write_files
    from tei.xmlio import parse_file

    data, warnings = convert_checked(parse_file(source), method, str(source))
    report(click.get_current_context(), warnings)
    echo_written(write_files({output: data}, force), output_format)
