"""The "html" output format: a static web edition (index.html, edition.css, edition.js) made by xslt/html/."""

from __future__ import annotations

import os

from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.render import OutputFormat, Rendered, RenderRequest
from tei.render.xslt import transform
from tei.resources import resource

STYLESHEET = "html/edition.xsl"
ASSETS = ("edition.css", "edition.js")


def render_html(request: RenderRequest) -> Rendered:
    """The site in folder request.output; links to transcriptions are made relative to that folder.

    A document the page cannot show at all (no TEI text) is refused; lesser problems are warnings,
    reported and also shown in the page.
    """
    edition_folder = request.edition.absolute().parent
    site = request.output.absolute()
    base = os.path.relpath(edition_folder, site).replace(os.sep, "/")
    params = {"edition-base": "" if base == "." else base + "/", **request.params}
    transformed = transform(STYLESHEET, request.tree, str(request.edition), params)
    errors = [d for d in transformed.diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise InvalidInputError(*errors)
    files = {request.output / "index.html": bytes(transformed)}
    for name in ASSETS:
        files[request.output / name] = resource("xslt", f"html/{name}").read_bytes()
    return Rendered(files, transformed.diagnostics)


FORMATS = (OutputFormat("html", "a static web edition: index.html with its CSS and JavaScript", render_html),)
