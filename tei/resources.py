"""Finds the shipped schemas and stylesheets, in a wheel, an editable install or a checkout."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from tei import __version__
from tei.diagnostics import error
from tei.errors import MissingResourceError

_PACKAGE = Path(__file__).resolve().parent


def resource_root(kind: str) -> Path:
    """The folder of shipped resources of one kind ('schemas' or 'xslt').

    A wheel carries them inside the package (tei/schemas); a checkout and an editable install
    keep them at the top level of the project (schemas/), next to the package.
    """
    for candidate in (_PACKAGE / kind, _PACKAGE.parent / kind):
        if candidate.is_dir():
            return candidate
    raise MissingResourceError(error("R001", f"the shipped '{kind}' folder cannot be found", _PACKAGE))


def resource(kind: str, name: str) -> Path:
    path = resource_root(kind) / name
    if not path.is_file():
        raise MissingResourceError(error("R002", f"the shipped resource {kind}/{name} does not exist", path))
    return path


def shipped(kind: str, suffixes: tuple[str, ...]) -> list[Path]:
    """Every shipped file of one kind with one of the suffixes, sorted."""
    root = resource_root(kind)
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes and p.is_file())


@cache
def toolkit_digest() -> str:
    """A digest of the toolkit as installed: its version, its Python modules, schemas and stylesheets.

    `tei build` stamps each stage with it, so that a stage is run again when the toolkit that made its files
    has changed, also where the version has not (a checkout or an editable install between releases).
    Reading the files costs a few milliseconds, once per process."""
    digest = hashlib.sha256(__version__.encode("utf-8"))
    roots = [("tei", _PACKAGE)] + [(kind, resource_root(kind)) for kind in ("schemas", "xslt")]
    for label, root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            if label == "tei" and path.suffix != ".py":
                continue  # a wheel's resources inside the package are read under their own kind
            digest.update(f"\0{label}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
