"""`tei convert`: rewrite an apparatus by another TEI method, refusing any result that changes a witness."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import assume_tei_namespace_option, echo_backup, echo_written, output_options

# The names of tei.apparatus.methods.METHODS, spelled out so that `tei --help` need not load the converter.
METHOD_NAMES = ("parallel-segmentation", "location-referenced", "double-end-point")


@click.command("convert")
@click.argument("source", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--method", type=click.Choice(METHOD_NAMES), help="The TEI method to convert to.")
@click.option(
    "--alignment-table",
    is_flag=True,
    help="Write a CollateX-style JSON alignment table instead (lossy: types, groups, markup go).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, allow_dash=True),
    default="-",
    show_default=True,
    help="Where to write the result (- is stdout).",
)
@assume_tei_namespace_option
@output_options
def command(source, method, alignment_table, output, assume_tei_namespace, force, output_format):
    """Convert the apparatus of SOURCE (any TEI document with app elements) to another method.

    Parallel segmentation, location-referenced and double end-point attached apparatus convert into one
    another; everything else in the document is kept as it is. Every witness's text is rebuilt from the
    result and compared with the input's: if any would change, nothing is written and the command says
    which witness, where. Witnesses named in @wit but not declared in listWit are reported as warnings.

    SOURCE may also be CollateX JSON (*.json): an alignment table is taken as it stands, witness input
    is collated first; the result is a TEI edition in the chosen method.
    """
    from tei.app.convert import read_apparatus
    from tei.cli import report
    from tei.convert import convert_checked
    from tei.diagnostics import error
    from tei.errors import UsageError
    from tei.outputs import write_files

    if (method is None) == (not alignment_table):
        raise UsageError(error("CV013", "give exactly one of --method and --alignment-table", str(source)))
    tree = read_apparatus(source, assume_tei_namespace)
    if alignment_table:
        from tei.convert.collatex import alignment_table_bytes

        data, warnings = alignment_table_bytes(tree, str(source)), []
    else:
        data, warnings = convert_checked(tree, method, str(source))
    report(click.get_current_context(), warnings)
    echo_written(write_files({output: data}, force, echo_backup, inputs=[source]), output_format)
