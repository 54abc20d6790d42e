"""Which of the three TEI apparatus methods a document uses, checked against what its header declares.

The header's `variantEncoding/@method` is believed when present, but only if the apparatus agrees with it;
a document that declares nothing is read as parallel segmentation unless its `app`s point into the text
with `@from` (double end-point attachment). Location reference is never guessed: it must be declared.
Also here: setting the declared method, for a converted document.
"""

from __future__ import annotations

from lxml import etree

from tei.apparatus.elements import APP, LEM, RDG
from tei.diagnostics import Diagnostic, error
from tei.errors import InvalidInputError
from tei.xmlio import tei

PARALLEL_SEGMENTATION = "parallel-segmentation"
LOCATION_REFERENCED = "location-referenced"
DOUBLE_END_POINT = "double-end-point"
METHODS = (PARALLEL_SEGMENTATION, LOCATION_REFERENCED, DOUBLE_END_POINT)

VARIANT_ENCODING = tei("variantEncoding")


def outer_apps(root: etree._Element) -> list[etree._Element]:
    """The apps of the document that are not inside another app: those attached to the base text."""
    return [app for app in root.iter(APP) if not any(a.tag in (APP, LEM, RDG) for a in app.iterancestors())]


def points_into_text(app: etree._Element) -> bool:
    """True if the app's @from (or, for an app standing at the start of its lemma, @to) is a same-document
    pointer, as in double end-point attachment."""
    return app.get("from", "").startswith("#") or ("from" not in app.attrib and app.get("to", "").startswith("#"))


def declared_method(tree: etree._ElementTree) -> str | None:
    found = next(tree.getroot().iter(VARIANT_ENCODING), None)
    return None if found is None else found.get("method")


def apparatus_method(tree: etree._ElementTree, name: str) -> str:
    """The method the document's apparatus uses; a diagnostic if it contradicts the declared one."""
    declared = declared_method(tree)
    apps = outer_apps(tree.getroot())
    if declared is None:
        return DOUBLE_END_POINT if any(points_into_text(app) for app in apps) else PARALLEL_SEGMENTATION
    if declared not in METHODS:
        raise InvalidInputError(
            error(
                "CV001",
                f"variantEncoding declares the unknown method '{declared}'",
                name,
                next(tree.getroot().iter(VARIANT_ENCODING)).sourceline,
                hint=f"TEI knows {', '.join(METHODS)}",
            )
        )
    for app in apps:
        if points_into_text(app) != (declared == DOUBLE_END_POINT):
            raise InvalidInputError(_mismatch(app, declared, name))
    return declared


def _mismatch(app: etree._Element, declared: str, name: str) -> Diagnostic:
    if declared == DOUBLE_END_POINT:
        found = "has no @from (or @to) pointing into the text"
    else:
        found = f'points into the text with from="{app.get("from")}", as only double end-point attachment does'
    return error(
        "CV002",
        f"the header declares the {declared} method, but this app {found}",
        name,
        app.sourceline,
        hint="correct variantEncoding/@method in the teiHeader, or the app",
    )


def set_declared_method(tree: etree._ElementTree, method: str) -> None:
    """Declare the method in the header: change variantEncoding, or add it (and encodingDesc) after fileDesc."""
    root = tree.getroot()
    found = next(root.iter(VARIANT_ENCODING), None)
    if found is None:
        header = root.find(tei("teiHeader"))
        if header is None:
            return
        encoding = header.find(tei("encodingDesc"))
        if encoding is None:
            encoding = etree.Element(tei("encodingDesc"))
            file_desc = header.find(tei("fileDesc"))
            if file_desc is None:
                header.insert(0, encoding)
            else:
                file_desc.addnext(encoding)
        found = etree.SubElement(encoding, VARIANT_ENCODING, location="internal")
    found.set("method", method)
