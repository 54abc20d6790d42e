"""`tei stats`: agreement between witnesses, units and readings by type, variation density; tables and plots."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import echo_backup, echo_written, force_option, format_option

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
@force_option
@format_option
def command(edition, table, output, png, force, output_format):
    """Statistics of EDITION, read from its XML (any of the three apparatus methods).

    Agreement: for each pair of witnesses, the units both pass through and how many of them they read
    alike (the same lem or rdg). Units by type: units with at least one rdg of that type. Density:
    units per twentieth of the first witness's text, with units inside readings it does not take
    counted where it passes their enclosing unit.
    """
    from tei.outputs import write_files

    if output is None:
        from tei.stats import statistics
        from tei.stats.tables import TABLES
        from tei.xmlio import parse_file

        click.echo(TABLES[table](statistics(parse_file(edition), str(edition))), nl=False)
        return
    from tei.stats.files import statistics_files

    echo_written(write_files(statistics_files(edition, output, png), force, echo_backup), output_format)
