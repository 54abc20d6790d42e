"""The registry of output formats by name (html, pdf, ...) and the one entry point that renders an edition.

A format lives in its own module of this package and declares itself with a module-level tuple

    FORMATS = (OutputFormat("html", "a static web site", render_html),)

so a new format is added by adding a module, without touching this one or another format's code.
Every format works from the edition XML itself (a hand-edited file is as good as a generated one).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lxml import etree

from tei.diagnostics import Diagnostic, error
from tei.errors import UsageError
from tei.resources import resource
from tei.xmlio import parse_file

XSL_NS = "http://www.w3.org/1999/XSL/Transform"
VALUES = "{urn:x-tei-toolkit:render}values"  # on an xsl:param: the values it accepts, space-separated


@dataclass(frozen=True)
class RenderRequest:
    """What every format receives: the parsed edition, where it came from, where to write, and parameters."""

    edition: Path
    tree: etree._ElementTree
    output: Path
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Rendered:
    """What every format returns: the files to write (all or none) and the warnings met on the way."""

    files: dict[Path, bytes]
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class OutputFormat:
    name: str
    description: str
    render: Callable[[RenderRequest], Rendered]
    param_files: tuple[str, ...] = ()  # shipped xslt/ files whose top-level xsl:param are its parameters
    options: tuple[str, ...] = ()  # parameters the format reads itself (e.g. the PDF engine)
    prepare: Callable[[dict[str, str]], None] | None = None  # loads ahead what a first rendering loads (below)

    def parameters(self) -> tuple[str, ...] | None:
        """Every parameter the format takes, sorted; None when it declares none (then any is passed on)."""
        if not self.param_files and not self.options:
            return None
        return tuple(sorted({*self.options, *(p.get("name") for p in declarations(self.param_files))}))

    def values(self) -> dict[str, tuple[str, ...]]:
        """The parameters that take one of a few values (tk:values on their xsl:param), with those values."""
        return {p.get("name"): tuple(p.get(VALUES).split()) for p in declarations(self.param_files) if p.get(VALUES)}


@cache
def declarations(param_files: tuple[str, ...]) -> tuple[etree._Element, ...]:
    """The top-level xsl:param of the param files and of the stylesheets they include: read once per process
    (the shipped files do not change while it runs; a corpus build checks every work's parameters)."""
    found: list[etree._Element] = []
    pending = [resource("xslt", param_file) for param_file in param_files]
    while pending:
        stylesheet = parse_file(pending.pop(0)).getroot()
        found.extend(stylesheet.findall(f"{{{XSL_NS}}}param"))
        base = Path(stylesheet.getroottree().docinfo.URL or "")
        pending.extend(base.parent / i.get("href") for i in stylesheet.findall(f"{{{XSL_NS}}}include"))
    return tuple(found)


@cache
def formats() -> dict[str, OutputFormat]:
    """Every format declared by a module of this package, by name."""
    found: dict[str, OutputFormat] = {}
    for module in pkgutil.iter_modules(__path__):
        for output_format in getattr(importlib.import_module(f"{__name__}.{module.name}"), "FORMATS", ()):
            found[output_format.name] = output_format
    return dict(sorted(found.items()))


def output_format(name: str) -> OutputFormat:
    known = formats()
    if name not in known:
        raise UsageError(
            error("R101", f"unknown output format '{name}'", hint=f"the formats are: {', '.join(known) or 'none'}")
        )
    return known[name]


def check_params(chosen: OutputFormat, params: dict[str, str], where: str = "--param") -> None:
    """A parameter the format does not take, or a value it does not accept, is a usage error naming the right ones."""
    known = chosen.parameters()
    unknown = sorted(set(params) - set(known)) if known is not None else []
    if unknown:
        raise UsageError(
            error(
                "R102",
                f"the {chosen.name} format has no parameter '{unknown[0]}'",
                where,
                hint=f"its parameters are: {', '.join(known)}",
            )
        )
    for name, accepted in chosen.values().items():
        if name in params and params[name] not in accepted:
            raise UsageError(
                error(
                    "R103",
                    f"the {chosen.name} parameter '{name}' has no value '{params[name]}'",
                    where,
                    hint=f"its values are: {', '.join(accepted)}",
                )
            )


def prepare(format_name: str, params: dict[str, str] | None = None) -> None:
    """Load what the first rendering in this format costs a process before it reads an edition (stylesheets
    compiled, an engine's module and fonts), ahead of it: `tei build` does it while the edition is collated,
    and the workers of its later stages start with it loaded."""
    chosen = output_format(format_name)
    if chosen.prepare is not None:
        chosen.prepare(dict(params or {}))


def render(edition: Path, format_name: str, output: Path, params: dict[str, str] | None = None) -> Rendered:
    """Parse the edition and render it in one format; nothing is written here."""
    chosen = output_format(format_name)
    check_params(chosen, dict(params or {}))
    return chosen.render(RenderRequest(edition, parse_file(edition), output, dict(params or {})))
