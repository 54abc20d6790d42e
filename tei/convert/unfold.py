"""From parallel segmentation to an apparatus attached to a base text (location-referenced or double end-point).

Each outer app keeps its place and its readings untouched; the text its base reading gives (the lem, or
the first reading) is copied into the text right before it, so that the base text reads on by itself.
Double end-point marks where that copy starts with an `<anchor>` the app's `@from` points to (the app
itself marks the end, as in the Guidelines' in-line example); location reference needs a `lem` holding
the copied text, so an app without one has its first reading made the lem. Apps nested in the base
reading come out into the copy and are treated the same way; apps nested in other readings stay as they
are (parallel segmentation inside a reading). An app without lem that some witness does not cite (words
added against the base text: that witness reads nothing there, as tei.apparatus reads it) gets an empty
`<lem/>` first: the base text has nothing there, the uncited witnesses read that nothing in every
method, and no reading of the editor's becomes the lemma.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from lxml import etree

from tei.apparatus import APP, LEM, NOTHING, RDG, RDG_GRP, Apparatus, body
from tei.apparatus.attached import LAYOUT, base_reading, ids_of
from tei.apparatus.methods import DOUBLE_END_POINT, LOCATION_REFERENCED, outer_apps
from tei.apparatus.tree import ANCHOR, base_copy, insert_before, unique_id
from tei.diagnostics import error
from tei.errors import OutputRefusedError
from tei.xmlio import tei, xml


def attach_at_end_points(app: etree._Element, text: str | None, copied: list, taken: set[str], name: str) -> None:
    foreign = {a: app.get(a) for a in ("from", "to") if app.get(a) is not None}
    if foreign:
        raise OutputRefusedError(
            error(
                "CV012",
                "this app already has "
                + " ".join(f'{a}="{v}"' for a, v in foreign.items())
                + ", not a pointer into this text (another program's numbering); double end-point attachment "
                "needs @from and @to for its own pointers, so these values would be lost",
                name,
                app.sourceline,
                hint="keep this document in parallel segmentation or location reference, or move the values to another attribute",
            )
        )
    anchor = etree.Element(ANCHOR)
    anchor.set(xml("id"), unique_id(f"{app.get(xml('id')) or 'app'}-from", taken))
    anchor.tail = text
    insert_before(app, None, [anchor, *copied])
    app.set("from", f"#{anchor.get(xml('id'))}")


def attach_by_location(app: etree._Element, text: str | None, copied: list, taken: set[str], _name: str) -> None:
    insert_before(app, text, copied)
    base = base_reading(app)
    if base.tag != LEM:
        base.tag = LEM
        if base.getparent() is app and app.index(base) != 0:
            app.insert(0, base)  # a lem comes first in an app


ATTACH: dict[str, Callable] = {DOUBLE_END_POINT: attach_at_end_points, LOCATION_REFERENCED: attach_by_location}


def unfold(tree: etree._ElementTree, method: str, name: str) -> None:
    """Rewrite a parallel-segmentation document in place into the given base-text method."""
    root = tree.getroot()
    attach = ATTACH[method]
    apparatus = Apparatus(tree, name)
    additions = {p.app for w in apparatus.ids for p in apparatus.path(w).passages if p.reading is NOTHING}
    taken = set(ids_of(root))
    pending = deque(outer_apps(body(tree, name)))
    while pending:
        app = pending.popleft()
        if app in additions:
            _empty_lem(app)
        base = base_reading(app)
        if base is None:
            continue
        if app.getparent().tag in LAYOUT:
            _wrap_in_ab(app)
        text, copied = base_copy(base)
        pending.extend(found for element in copied for found in _outer_apps_in(element))
        attach(app, text, copied, taken, name)


def _outer_apps_in(element: etree._Element) -> list[etree._Element]:
    if element.tag == APP:
        return [element]
    if element.tag in (LEM, RDG) or not isinstance(element.tag, str):
        return []
    return [found for child in element for found in _outer_apps_in(child)]


def _wrap_in_ab(app: etree._Element) -> None:
    """An app in element-only content (body, div) gets an <ab> of its own, where a base text may stand."""
    block = etree.Element(tei("ab"))
    tail, app.tail = app.tail, None
    app.addprevious(block)
    block.append(app)
    block.tail = tail


def _empty_lem(app: etree._Element) -> None:
    """An empty lem first in an app without one: the base text has nothing where witnesses add words."""
    if any(child.tag == LEM for child in app) or app.find(f"{RDG_GRP}/{LEM}") is not None:
        return
    lemma = etree.Element(LEM)
    lemma.tail, app.text = app.text, app.text
    app.insert(0, lemma)
