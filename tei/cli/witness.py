"""`tei witness`: print the exact text of one witness, rebuilt from an edition's apparatus, or list them all."""

from __future__ import annotations

from pathlib import Path

import click

from tei.cli.options import assume_tei_namespace_option

LACUNA_MARKER = "[…]"  # tei.apparatus.LACUNA_MARKER, spelled out so that `tei --help` loads no lxml


@click.command("witness")
@click.argument("edition", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--wit", "witness_id", help="The witness: its id (listWit/witness/@xml:id) or siglum (@n).")
@click.option(
    "--list",
    "list_witnesses",
    is_flag=True,
    help="Instead, list every witness: its siglum, kind, groups, hands and the units where it is lacunose.",
)
@click.option(
    "--all",
    "every_witness",
    is_flag=True,
    help="Instead, write every witness's text into the folder -o, one file <id>.txt a witness (read once); prints each witness with its file.",
)
@click.option(
    "--lacuna-marker",
    default=LACUNA_MARKER,
    show_default=True,
    help="What stands where the witness is lacunose (lacunaStart/End, witStart/End, witDetail lac, gap).",
)
@click.option(
    "--layout",
    is_flag=True,
    help="With --wit: the text by the witness's pages, columns and lines (pb, cb, lb with its @ed, or none).",
)
@assume_tei_namespace_option
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, allow_dash=True),
    default="-",
    show_default=True,
    help="Where to write the text (- is stdout); with --all, the folder.",
)
def command(edition, witness_id, list_witnesses, every_witness, lacuna_marker, layout, assume_tei_namespace, output):
    """Print the text of witness WIT exactly as the apparatus of EDITION gives it.

    EDITION is TEI in any of the three apparatus methods, CollateX JSON, or a transcription (one witness). Groups cited in @wit stand for
    their members; a lem without @wit for every witness not cited and not lacunose. Where the witness is
    lacunose its text is the lacuna marker, and one warning gives the count. Nothing is added, not even a
    final newline; the output is UTF-8.
    """
    from tei.app.convert import read_apparatus, transcription_witness
    from tei.apparatus import Apparatus
    from tei.cli import report
    from tei.diagnostics import error
    from tei.errors import InvalidInputError, UsageError
    from tei.outputs import write_files

    if (witness_id is not None) + list_witnesses + every_witness != 1:
        raise UsageError(error("A009", "give exactly one of --wit, --list and --all", str(edition)))
    if every_witness and str(output) == "-":
        raise UsageError(error("A009", "--all writes one file a witness: give the folder with -o", str(edition)))
    tree = read_apparatus(edition, assume_tei_namespace)
    alone = transcription_witness(tree, str(edition))
    if alone is not None:  # a transcription: one witness, its whole text
        _one_transcription(edition, alone, witness_id, list_witnesses, output)
        return
    apparatus = Apparatus(tree, str(edition))
    diagnostics = list(apparatus.witnesses.diagnostics)
    if list_witnesses:
        report(click.get_current_context(), diagnostics)
        write_files({output: witness_list(apparatus).encode("utf-8")}, inputs=[edition])
        return
    if every_witness:  # one reading of the edition for all (a 140-witness apparatus: not 140 readings)
        from tei.outputs import file_names

        texts, names = {}, file_names(list(apparatus.ids), ".txt")
        for known in apparatus.ids:
            path = apparatus.read(known, lacuna_marker)
            diagnostics += _lacunose(known, path, lacuna_marker, edition)
            texts[output / names[known]] = path.text.encode("utf-8")
        report(click.get_current_context(), diagnostics)
        write_files(texts, inputs=[edition])
        for known in apparatus.ids:  # which file holds which witness: a siglum is not always a file name
            click.echo(f"{known}\t{output / names[known]}")
        return
    known = apparatus.witnesses.known(witness_id)
    members = apparatus.witnesses.groups.get(witness_id)
    if members is not None:
        raise InvalidInputError(
            error(
                "A002",
                f"'{witness_id}' is a group of witnesses, not a witness",
                edition,
                hint=f"its witnesses are: {', '.join(members) or 'none'}; give one of them",
            )
        )
    if known is None:
        raise InvalidInputError(
            error(
                "A002",
                f"no witness '{witness_id}' in this edition",
                edition,
                hint=f"the witnesses are: {', '.join(apparatus.ids) or 'none'}",
            )
        )
    path = apparatus.read(known, lacuna_marker)
    diagnostics += _lacunose(witness_id, path, lacuna_marker, edition)
    report(click.get_current_context(), diagnostics)
    if layout:
        from tei.apparatus.layout import laid_out

        write_files({output: laid_out(path.text, path.breaks).encode("utf-8")}, inputs=[edition])
        return
    write_files({output: path.text.encode("utf-8")}, inputs=[edition])


def _one_transcription(edition, alone, witness_id, list_witnesses, output) -> None:
    """`tei witness` on a transcription: --wit its id, --list its one line, --all its one file."""
    from tei.diagnostics import error
    from tei.errors import InvalidInputError
    from tei.outputs import file_names, write_files

    known, text = alone
    if list_witnesses:
        write_files({output: f"{known}\tsiglum {known}\ttranscription\n".encode()}, inputs=[edition])
    elif witness_id is None:
        target = output / file_names([known], ".txt")[known]
        write_files({target: text.encode("utf-8")}, inputs=[edition])
        click.echo(f"{known}\t{target}")
    elif witness_id != known:
        raise InvalidInputError(
            error("A002", f"no witness '{witness_id}' in this transcription", edition, hint=f"it is '{known}'")
        )
    else:
        write_files({output: text.encode("utf-8")}, inputs=[edition])


def _lacunose(witness_id, path, lacuna_marker, edition) -> list:
    """One warning A010 when the witness's text holds lacunae: how many, in how many units."""
    from tei.diagnostics import warning

    if not path.lacunae:
        return []
    return [
        warning(
            "A010",
            f"witness '{witness_id}' is lacunose in {path.lacunose_units} unit(s); "
            f"{path.lacunae} lacuna(e) are marked {lacuna_marker!r} in its text",
            edition,
            hint="--lacuna-marker sets the marker; --list shows where each witness is lacunose",
        )
    ]


def witness_list(apparatus) -> str:
    """One line a witness: id, siglum, kind (declared, hand of X, undeclared), groups, hands, lacunae."""
    lines = []
    for witness_id in apparatus.ids:
        found = apparatus.witnesses.by_id[witness_id]
        kind = found.kind if found.hand_of is None else f"{found.kind} hand of {found.hand_of}".removeprefix("hand ")
        fields = [witness_id, f"siglum {found.siglum}", kind]
        if found.groups:
            fields.append(f"groups {' '.join(found.groups)}")
        if found.hands:
            fields.append(f"hands {' '.join(found.hands)}")
        lacunose = apparatus.lacunose_units(witness_id) if apparatus.folding_refused is None else []
        if lacunose:
            places = [_unit_name(app) for app in lacunose]
            fields.append(f"lacunose in {len(places)} unit(s): {' '.join(places)}")
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def _unit_name(app) -> str:
    from tei.xmlio import xml

    return app.get(xml("id")) or app.get("n") or f"line {app.sourceline}"
