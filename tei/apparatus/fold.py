"""From an apparatus attached to a base text (location-referenced, double end-point) to parallel segmentation.

Each outer app moves to where its lemma stands in the base text, and that stretch of text goes into the
app: into a new `lem` when the app has none; when it has one, the stretch is dropped if the lem gives
the same text with the same markup (as this toolkit's own conversions write it), or fills a plain-text
lem of the same text. Anything that would be lost instead is refused: a lem that reads otherwise than
the text it is attached to, a lem and a text each with markup the other lacks, a lemma that runs across
element boundaries. Anchors that only served the
apparatus are removed. A new lem has no @wit: it stands for the witnesses no reading names, who read the
base text in these methods.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from lxml import etree

from tei.apparatus.attached import (
    LIST_APP,
    Attachment,
    attachments,
    base_reading,
    base_string,
    ids_of,
    pointed,
    read_base,
)
from tei.apparatus.elements import APP, LEM, RDG, pointer_ids, readings
from tei.apparatus.methods import DOUBLE_END_POINT, LOCATION_REFERENCED
from tei.apparatus.tree import ANCHOR, READING_ONLY, detach, references, take_between
from tei.apparatus.witnesses import all_witnesses
from tei.diagnostics import error
from tei.errors import InvalidInputError, OutputRefusedError
from tei.xmlio import tei, xml


class Folding:
    """The state of one folding: the document, its base text, and the anchors made or found on the way."""

    def __init__(self, tree: etree._ElementTree, method: str, name: str):
        self.root = tree.getroot()
        self.name = name
        self.base, self.top = attachments(tree, method, name)
        self.ids = ids_of(self.root)
        self.witnesses = all_witnesses(tree)
        self.temporary: set[etree._Element] = set()
        self.apparatus_anchors = _apparatus_anchors(self.root, self.ids)

    def marker_at_start(self, element: etree._Element) -> etree._Element:
        """A marker where an element's content starts (an empty element is a place itself), after any
        marker made there before: made in the order of the nesting, markers at one place keep it."""
        if len(element) == 0 and not element.text:
            return self._split_after(self._past_markers(element), 0)
        if element.text or element[0] not in self.temporary:
            marker = self._temporary()
            marker.tail, element.text = element.text, None
            element.insert(0, marker)
            return marker
        return self._split_after(self._past_markers(element[0]), 0)

    def marker_at_end(self, element: etree._Element) -> etree._Element:
        """A marker where an element's content ends, after any marker made there before."""
        if len(element) == 0 and not element.text:
            return self._split_after(self._past_markers(element), 0)
        marker = self._temporary()
        element.append(marker)
        return marker

    def _past_markers(self, node: etree._Element) -> etree._Element:
        while not node.tail and node.getnext() is not None and node.getnext() in self.temporary:
            node = node.getnext()
        return node

    def marker_at_place(self, app: etree._Element, place: tuple[int, int]) -> etree._Element:
        """A marker at a place of the base text before the app, in the app's parent.

        Walking back from the app, the marker goes where the place's character is; at a boundary it goes
        before an app or empty element whose own place is not earlier (so nesting found by place is kept).
        """
        offset = place[0]
        position = self.base.app_places[app][0]
        node = app.getprevious()
        while node is not None:
            tail = node.tail or ""
            length = self.base.ends[node][0] - self.base.starts[node][0] if node in self.base.starts else 0
            node_place = self.base.app_places.get(node) or self.base.starts.get(node)
            passable = length == 0 and node_place is not None and node_place >= place
            if position - len(tail) < offset <= position or (offset == position - len(tail) and not passable):
                return self._split_after(node, offset - (position - len(tail)))
            position -= len(tail)
            if position - length < offset < position:
                raise InvalidInputError(
                    error(
                        "CV008",
                        f"the lemma of this app starts inside <{etree.QName(node).localname}> (line {node.sourceline})",
                        self.name,
                        app.sourceline,
                        hint="parallel segmentation needs the lemma to start and end in the same element",
                    )
                )
            position -= length
            node = node.getprevious()
        marker = self._temporary()
        parent = app.getparent()
        split = offset - (position - len(parent.text or ""))
        marker.tail, parent.text = (parent.text or "")[split:] or None, (parent.text or "")[:split] or None
        parent.insert(0, marker)
        return marker

    def _split_after(self, node: etree._Element, split: int) -> etree._Element:
        marker = self._temporary()
        tail = node.tail or ""
        node.tail, marker.tail = tail[:split] or None, tail[split:] or None
        node.addnext(marker)
        return marker

    def _temporary(self) -> etree._Element:
        marker = etree.Element(ANCHOR)
        self.temporary.add(marker)
        return marker

    def removable(self, marker: etree._Element) -> bool:
        return marker in self.temporary or marker in self.apparatus_anchors


def _apparatus_anchors(root: etree._Element, ids: dict) -> set:
    """Anchors that carry only an id and are pointed to by nothing but app/@from and app/@to."""
    from_apps: Counter = Counter()
    for app in root.iter(APP):
        from_apps.update(value[1:] for value in (app.get("from"), app.get("to")) if value and value[:1] == "#")
    counts = references(root)
    return {
        element
        for identifier, element in ids.items()
        if element.tag == ANCHOR and set(element.attrib) == {xml("id")} and counts[identifier] == from_apps[identifier]
    }


def end_point_start(folding: Folding, attachment: Attachment) -> etree._Element:
    app = attachment.app
    if app.get("from") is None:  # the app stands where its lemma starts
        marker = folding._temporary()
        app.addprevious(marker)
        return marker
    return folding.marker_at_start(pointed(app, "from", folding.ids, folding.name))


def end_point_end(folding: Folding, attachment: Attachment) -> etree._Element:
    app = attachment.app
    if app.get("to"):
        return folding.marker_at_end(pointed(app, "to", folding.ids, folding.name))
    if folding.base.app_places.get(app) == attachment.end:
        return app
    return folding.marker_at_end(pointed(app, "from", folding.ids, folding.name))


def location_start(folding: Folding, attachment: Attachment) -> etree._Element:
    return folding.marker_at_place(attachment.app, attachment.start)


def location_end(folding: Folding, attachment: Attachment) -> etree._Element:
    app = attachment.app
    return app if folding.base.app_places[app] == attachment.end else folding.marker_at_place(app, attachment.end)


# Where each method's lemma starts and ends in the tree: (start marker, end marker) makers.
MARKERS: dict[str, tuple[Callable, Callable]] = {
    DOUBLE_END_POINT: (end_point_start, end_point_end),
    LOCATION_REFERENCED: (location_start, location_end),
}


def _mark(folding: Folding, stretches: list[Attachment], makers: tuple[Callable, Callable], found: dict) -> dict:
    """Markers for every stretch: starts in pre-order, ends in post-order, so shared places nest right."""
    start_of, end_of = makers
    for attachment in stretches:
        start = start_of(folding, attachment)
        _mark(folding, attachment.inner, makers, found)
        found[attachment.app] = (start, end_of(folding, attachment))
    return found


def fold(tree: etree._ElementTree, method: str, name: str) -> None:
    """Rewrite a base-text document in place into parallel segmentation (refusing anything lossy)."""
    folding = Folding(tree, method, name)
    ordered = _outer_first(folding.top)
    markers = _mark(folding, folding.top, MARKERS[method], {})
    for attachment in ordered:
        if attachment.app.getroottree().getroot() is folding.root:  # not dropped with an enclosing lemma
            _fold_one(folding, attachment, *markers[attachment.app])
    for marker in [*folding.temporary, *folding.apparatus_anchors]:
        if marker.getparent() is not None:
            detach(marker)
    for emptied in [e for e in folding.root.iter(LIST_APP) if e.find(tei("app")) is None]:
        detach(emptied)


def _outer_first(top: list[Attachment]) -> list[Attachment]:
    return [found for a in top for found in (a, *_outer_first(a.inner))]


def _fold_one(folding: Folding, attachment: Attachment, start: etree._Element, end: etree._Element) -> None:
    app = attachment.app
    parent = start.getparent()
    if parent is not end.getparent() or parent.index(start) >= parent.index(end):
        raise InvalidInputError(
            error(
                "CV008",
                f"the lemma of this app runs from line {start.sourceline} across element boundaries",
                folding.name,
                app.sourceline,
                hint="parallel segmentation needs the lemma to start and end in the same element",
            )
        )
    if end is not app:
        detach(app)
        app.tail = None
        end.addprevious(app)
    stretch = etree.Element(tei("seg"))  # the lemma's text and nodes, cut out of the base text
    stretch.text, taken = take_between(start, app)
    stretch.extend(taken)
    lemma = next((r for r in readings(app) if r.tag == LEM), None)
    if lemma is None:
        if not _first_reading_stands_for(folding, attachment, stretch):
            lemma = etree.Element(LEM)
            lemma.tail, app.text = app.text, app.text
            app.insert(0, lemma)
            _move_content(stretch, lemma)
    elif not _stands_for(folding, attachment, lemma, stretch):
        _fill_plain_lem(folding, attachment, lemma, stretch)
    for attribute in ("from", "to"):
        app.attrib.pop(attribute, None)


def _move_content(source: etree._Element, target: etree._Element) -> None:
    target.text = source.text
    target.extend(list(source))


def _stands_for(folding: Folding, attachment: Attachment, reading, stretch) -> bool:
    """True if the reading gives the stretch's text with all its markup and lemmata (a copy, as unfold
    writes it): then the stretch can go."""
    if read_base(stretch).text != base_string(reading):
        return False
    lost = _markup(stretch, False, folding) - _markup(reading, True, folding)
    return not lost and not any(a.app.getroottree().getroot() is folding.root for a in attachment.inner)


def _first_reading_stands_for(folding: Folding, attachment: Attachment, stretch) -> bool:
    """An app without lem keeps its shape if its first reading is the stretch and it names every witness
    (a new lem would stand for nobody)."""
    found = readings(attachment.app)
    named = {w for r in found for w in pointer_ids(r.get("wit"))}
    return bool(found) and named >= set(folding.witnesses) and _stands_for(folding, attachment, found[0], stretch)


def _fill_plain_lem(folding: Folding, attachment: Attachment, lemma, stretch) -> None:
    """A plain-text lem of the same text takes the stretch's nodes (its markup, inner lemmata); else refused."""
    attached, own = read_base(stretch).text, base_string(lemma)
    if attached != own:
        raise OutputRefusedError(
            error(
                "CV009",
                f"the lem reads '{own}' but the text it is attached to reads '{attached}'; "
                "parallel segmentation keeps only one of them",
                folding.name,
                attachment.app.sourceline,
                hint="make the lem give the base text exactly (or remove it)",
            )
        )
    if len(lemma):
        lost = _markup(stretch, False, folding) - _markup(lemma, True, folding)
        raise OutputRefusedError(
            error(
                "CV010",
                f"the text this app is attached to carries markup its lem lacks "
                f"({', '.join(sorted(lost)) or 'the lemmata of other apps'}), and the lem markup of its own; "
                "parallel segmentation would lose one of them",
                folding.name,
                attachment.app.sourceline,
                hint="give the lem the same markup as the text",
            )
        )
    _move_content(stretch, lemma)


def _markup(container: etree._Element, in_reading: bool, folding: Folding, found: Counter | None = None) -> Counter:
    """Element names counted as the base text shows them (nested apps of a reading read at their base)."""
    found = Counter() if found is None else found
    for child in container:
        if not isinstance(child.tag, str) or child.tag in READING_ONLY or folding.removable(child):
            continue
        found[etree.QName(child).localname] += 1
        if child.tag == APP:
            base = base_reading(child)
            if in_reading and base is not None:
                _markup(base, True, folding, found)
        else:
            _markup(child, in_reading or child.tag in (LEM, RDG), folding, found)
    return found
