"""`tei serve`: a live preview of the edition while its XML is edited, on 127.0.0.1 only."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("serve")
@click.argument("source", required=False, default=".", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("build"),
    show_default=True,
    help="The folder to build into (with a manifest; an edition.xml is built in its own folder).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port.")
@click.option("--pdf", is_flag=True, help="Rebuild the PDF with every change (else on request, from the page).")
def command(source, output, port, pdf):
    """Build SOURCE once, serve its web edition on 127.0.0.1, and rebuild it as its files change.

    SOURCE is a manifest (edition.toml, or a folder holding one) built into the output folder, or an
    edition.xml built in its own folder. The manifest, its witness texts, edition.xml and the
    transcriptions are watched; only the stages whose inputs changed run again, and the open page reloads
    at the unit it showed. While the edition is invalid, the page shows the diagnostics over the last good
    build. A reading corrected in edition.xml is written into the transcriptions (as `tei sync` does) when
    that difference is all the validator finds. Ctrl-C stops the server.
    """
    from tei.app.desk import Desk
    from tei.app.serve import serve

    desk = Desk(source, output, pdf)

    def ready(url: str) -> None:
        for diagnostic in desk.state.diagnostics:
            click.echo(diagnostic.to_text(), err=True)
        click.echo(f"tei serve: {url} (Ctrl-C stops)", err=True)

    try:
        serve(desk, port, ready)
    except KeyboardInterrupt:
        click.echo("tei serve: stopped", err=True)
    except OSError as exc:
        from tei.diagnostics import error
        from tei.errors import UsageError

        raise UsageError(
            error("SV001", f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", "--port")
        ) from None
