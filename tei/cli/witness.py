"""`tei witness`: print the exact text of one witness, rebuilt from an edition's apparatus."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("witness")
@click.argument("edition", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--wit", "witness_id", required=True, help="The witness id (listWit/witness/@xml:id).")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, allow_dash=True),
    default="-",
    show_default=True,
    help="Where to write the text (- is stdout).",
)
def command(edition, witness_id, output):
    """Print the text of witness WIT exactly as the apparatus of EDITION gives it.

    EDITION is TEI in any of the three apparatus methods, or CollateX JSON. Nothing is added, not even a
    final newline; the output is UTF-8.
    """
    from tei.app.convert import read_apparatus
    from tei.apparatus import all_witnesses, witness_text
    from tei.diagnostics import error
    from tei.errors import InvalidInputError
    from tei.outputs import write_files

    tree = read_apparatus(edition)
    known = all_witnesses(tree)
    if witness_id not in known:
        raise InvalidInputError(
            error(
                "A002",
                f"no witness '{witness_id}' in this edition",
                edition,
                hint=f"the witnesses are: {', '.join(known) or 'none'}",
            )
        )
    write_files({output: witness_text(tree, witness_id, str(edition)).encode("utf-8")})
