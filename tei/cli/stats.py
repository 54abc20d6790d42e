"""`tei stats`: agreement between witnesses, units and readings by type, variation density; tables and plots."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import assume_tei_namespace_option, echo_backup, echo_written, output_options

TABLE_NAMES = ("text", "json", "csv")  # the names of tei.stats.tables.TABLES, so --help needs no matplotlib


@click.command("stats")
@click.argument("edition", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--table",
    "table",
    type=click.Choice(TABLE_NAMES),
    default="text",
    show_default=True,
    help="Form of the figures printed on stdout.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    help="Instead, write a folder: statistics.txt/.json/.csv, agreement.svg, density.svg.",
)
@click.option("--png", is_flag=True, help="With -o: also write agreement.png and density.png (needs matplotlib).")
@assume_tei_namespace_option
@output_options
def command(edition, table, output, png, assume_tei_namespace, force, output_format):
    """Statistics of EDITION, read from its XML (any of the three apparatus methods).

    Agreement: for each pair of witnesses, the units both pass through and how many of them they read
    alike (the same lem or rdg; a lacunose witness has none there; in a unit without lem, a witness not
    cited reads nothing, which counts as a reading). Units by type: units with at least one rdg of that
    type, and 'addition' for units without lem that some witness lacks. Density:
    units per twentieth of the first witness's text, with units inside readings it does not take
    counted where it passes their enclosing unit.
    """
    from tei.outputs import write_files

    if output is None:
        from tei.cli import report
        from tei.stats import read_statistics
        from tei.stats.tables import CHUNKS

        stats = read_statistics(edition, assume_tei_namespace)
        report(click.get_current_context(), stats.diagnostics)
        for piece in CHUNKS[table](stats):  # streamed: the pairs are as many as witnesses squared
            click.echo(piece, nl=False)
        return
    from tei.stats.files import statistics_files

    files = statistics_files(edition, output, png, assume_tei_namespace)
    echo_written(write_files(files, force, echo_backup, inputs=[edition]), output_format)
