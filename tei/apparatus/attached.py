"""The stretches of an apparatus attached to a base text (location-referenced, double end-point attached).

The base text is the text of `body` read exactly (character for character) with every outer `app` left
out. Each outer app replaces one stretch of it (its lemma):
- double end-point: from the start of the element its `@from` points to (without `@from`, as the
  Classical Text Editor writes it, from the app itself, which stands where its lemma starts) to the end
  of the element its `@to` points to; without `@to`, to the app itself when the app stands in the text
  beside its lemma (its parent is or holds the `@from` element), else to the end of the `@from` element
  (an apparatus kept apart from the text);
- location-referenced: the text of its `lem`, found in the base text of the app's parent element before
  the app: right before it, or else at the one place where it occurs (no `lem`, or two places: no rule).
Lemmata may nest; two that overlap have no single answer and are refused.

These stretches are what tei.apparatus.fold needs to move each app to its lemma; every stage then reads
the folded document. `AttachedReading` reads a witness's text straight from the stretches, for a
document whose folding must be refused: the base text with each lemma replaced by the reading the
witness takes there (tei.apparatus.walk.Unit.choose: groups, hands, negative apparatus, lacunae), the
base reading (the first `lem`) or no citation in an app without `lem` giving the stretch of base text
itself, and a positive apparatus (a `lem` with `@wit`) that does not name the witness giving nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from lxml import etree

from tei.apparatus.elements import (
    APP,
    ELEMENT_ONLY,
    LEM,
    NO_WITNESS_TEXT,
    RDG,
    body,
    readings,
)
from tei.apparatus.methods import DOUBLE_END_POINT, LOCATION_REFERENCED, outer_apps
from tei.apparatus.walk import LACUNA_MARKER, LACUNOSE, NOTHING, Path, Unit, run
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import tei, xml

LIST_APP = tei("listApp")
LAYOUT = ELEMENT_ONLY | {LIST_APP}


def base_reading(app: etree._Element) -> etree._Element | None:
    """The reading a base text carries for an app: its lem, else its first reading."""
    found = readings(app)
    return next((r for r in found if r.tag == LEM), found[0] if found else None)


@dataclass
class BaseText:
    """The base text of an element, with where each element starts and ends and where each outer app stands.

    A place in it is (character offset, event number): events (text, tags, apps) are counted in document
    order, so that places at the same character, such as an anchor and an app with no text between them,
    keep the order they have in the document.
    """

    parts: list[str] = field(default_factory=list)
    length: int = 0
    events: int = 0
    starts: dict = field(default_factory=dict)
    ends: dict = field(default_factory=dict)
    app_places: dict = field(default_factory=dict)
    chunks: list[tuple[int, int]] = field(default_factory=list)  # (character offset, event) where text starts

    def add(self, text: str | None) -> None:
        if text:
            self.chunks.append((self.length, self.event()[1]))
            self.parts.append(text)
            self.length += len(text)

    def event(self) -> tuple[int, int]:
        """The place before the next event, counting that event."""
        self.events += 1
        return self.length, self.events

    def place_at(self, offset: int, before: tuple[int, int]) -> tuple[int, int]:
        """The latest place at a character offset, not later than `before`: inside, or right before, its text."""
        if offset >= before[0]:
            return before
        return offset, self.chunks[bisect_right(self.chunks, (offset, self.events + 1)) - 1][1]

    @property
    def text(self) -> str:
        return "".join(self.parts)


def read_base(element: etree._Element, base: BaseText | None = None, in_reading: bool = False) -> BaseText:
    """Walk an element by the rebuild rule; outer apps add nothing, apps inside readings add their base reading."""
    base = base if base is not None else BaseText()
    base.starts[element] = base.event()
    layout = element.tag in LAYOUT
    if not layout:
        base.add(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in NO_WITNESS_TEXT:
            _read_child(child, base, in_reading)
        if not layout:
            base.add(child.tail)
    # an empty element (an anchor) is one place: where its start is, there its end is
    base.ends[element] = base.starts[element] if len(element) == 0 and not element.text else base.event()
    return base


def _read_child(child: etree._Element, base: BaseText, in_reading: bool) -> None:
    if child.tag == APP and not in_reading:
        base.app_places[child] = base.event()
    elif child.tag == APP:
        reading = base_reading(child)
        if reading is not None:
            read_base(reading, base, True)
    elif child.tag == tei("g") and child.get("type") == "char" and child.get("n", "").startswith("U+"):
        base.add(chr(int(child.get("n")[2:], 16)))
    else:
        read_base(child, base, in_reading or child.tag in (LEM, RDG))


def base_string(element: etree._Element) -> str:
    """The text an element contributes to a base text (a lem's text, with nested apps read at their base)."""
    return read_base(element, in_reading=element.tag in (LEM, RDG)).text


@dataclass
class Attachment:
    """An outer app and the stretch [start, end) of the base text its readings replace."""

    app: etree._Element
    start: tuple[int, int]  # (character offset, event): see BaseText
    end: tuple[int, int]
    inner: list[Attachment] = field(default_factory=list)


def ids_of(root: etree._Element) -> dict[str, etree._Element]:
    return {e.get(xml("id")): e for e in root.iter() if isinstance(e.tag, str) and e.get(xml("id"))}


def pointed(app: etree._Element, attribute: str, ids: dict, name: str) -> etree._Element:
    """The element an app's @from or @to points to in this document."""
    value = app.get(attribute)
    target = ids.get(value[1:]) if value.startswith("#") else None
    if target is None:
        raise InvalidInputError(
            error(
                "CV004",
                f'app/@{attribute}="{value}" points to no element of this document',
                name,
                app.sourceline,
                hint='anchor the lemma with <anchor xml:id="..."/> in the base text',
            )
        )
    return target


Place = tuple[int, int]


def end_point_stretch(app, base: BaseText, ids: dict, name: str) -> tuple[Place, Place]:
    """The stretch a double end-point app varies: from the start of its @from element to the end of its @to
    element. Without @from (as the Classical Text Editor writes it) the app stands where the lemma starts;
    without @to, the lemma ends at the app when the app stands in the text beside it (in the element that
    holds the @from element), else at the end of the @from element (an apparatus kept apart)."""
    if app.get("from") is None:
        start = base.app_places.get(app)
        start_element = None
    else:
        start_element = pointed(app, "from", ids, name)
        start = base.starts.get(start_element)
    if app.get("to"):
        end = base.ends.get(pointed(app, "to", ids, name))
    elif app in base.app_places and _beside(app, start_element):
        end = base.app_places[app]
    else:
        end = base.ends.get(start_element)
    if start is None or end is None or end < start:
        raise InvalidInputError(
            error(
                "CV005",
                "this app's @from/@to do not mark a stretch of the text (outside body, or reversed)",
                name,
                app.sourceline,
            )
        )
    return start, end


def _beside(app: etree._Element, start_element: etree._Element | None) -> bool:
    """True if the app stands in the text of its lemma: its parent is, or holds, the element @from points to."""
    parent = app.getparent()
    return start_element is None or parent is start_element or any(a is parent for a in start_element.iterancestors())


def located_stretch(app, base: BaseText, _ids: dict, name: str) -> tuple[Place, Place]:
    """Where a location-referenced app's lem stands in the base text of the app's parent, before the app."""
    lemma = next((r for r in readings(app) if r.tag == LEM), None)
    end = base.app_places.get(app)
    if lemma is None or end is None:
        why = "has no lem" if lemma is None else "stands outside the text (an external apparatus)"
        raise InvalidInputError(
            error(
                "CV006",
                f"this location-referenced app {why}, so the text it varies cannot be found exactly",
                name,
                app.sourceline,
                hint="give the app a lem with the base text it replaces, right after that text",
            )
        )
    wanted = base_string(lemma)
    block_start = base.starts[app.getparent()][0]
    block = base.text[block_start : end[0]]
    if block.endswith(wanted):
        return _with_nested_apps(base, lemma, base.place_at(end[0] - len(wanted), end), end), end
    if block.count(wanted) == 1 and wanted:
        start = block_start + block.index(wanted)
        return base.place_at(start, end), base.place_at(start + len(wanted), end)
    where = "nowhere" if wanted not in block or not wanted else "more than once"
    raise InvalidInputError(
        error(
            "CV006",
            f"the lem '{wanted}' of this location-referenced app occurs {where} in the text before it",
            name,
            app.sourceline,
            hint="place the app right after the text its lem gives",
        )
    )


def _with_nested_apps(base: BaseText, lemma, start: Place, end: Place) -> Place:
    """Move the start back over apps that stand, with no text between, right before the lemma, as long as
    the lem holds more apps than the stretch does: so a lem copied with its apps (as unfold writes it) keeps
    them inside, while apps merely next to a lemma stay outside."""
    needed = sum(1 for _ in base_apps(lemma))
    places = sorted(base.app_places.values())
    inside = sum(1 for place in places if start <= place < end)
    waiting = [place for place in places if place[0] == start[0] and place < start]
    missing = needed - inside
    return waiting[-missing] if 0 < missing <= len(waiting) else start


def base_apps(reading: etree._Element):
    """The apps a reading holds as a base text shows them: nested apps and those of their base readings."""
    for child in reading:
        if child.tag == APP:
            yield child
            found = base_reading(child)
            if found is not None:
                yield from base_apps(found)
        elif isinstance(child.tag, str):
            yield from base_apps(child)


STRETCH = {DOUBLE_END_POINT: end_point_stretch, LOCATION_REFERENCED: located_stretch}


def attachments(tree: etree._ElementTree, method: str, name: str) -> tuple[BaseText, list[Attachment]]:
    """The base text of body and the nested stretches of its outer apps (overlaps refused)."""
    root = tree.getroot()
    base = read_base(body(tree, name))
    ids = ids_of(root)
    stretch = STRETCH[method]
    found = []
    for order, app in enumerate(outer_apps(root)):
        start, end = stretch(app, base, ids, name)
        found.append((start, (-end[0], -end[1]), order, Attachment(app, start, end)))
    return base, nest([attachment for *_, attachment in sorted(found, key=lambda f: f[:3])], name)


def nest(ordered: list[Attachment], name: str) -> list[Attachment]:
    """Arrange stretches sorted by (start, longest first) into a tree; overlapping ones are an error."""
    top: list[Attachment] = []
    open_stack: list[Attachment] = []
    for attachment in ordered:
        while open_stack and attachment.start >= open_stack[-1].end:
            open_stack.pop()
        if open_stack and attachment.end > open_stack[-1].end:
            raise InvalidInputError(_overlap(open_stack[-1], attachment, name))
        (open_stack[-1].inner if open_stack else top).append(attachment)
        open_stack.append(attachment)
    return top


def _overlap(first: Attachment, second: Attachment, name: str):
    return error(
        "CV007",
        f"the lemma of this app overlaps that of the app on line {first.app.sourceline} without nesting "
        "in it, so a witness with readings in both has no single text",
        name,
        second.app.sourceline,
        hint="split the apps where the lemmata meet, so that they nest or follow each other",
    )


class AttachedReading:
    """Witness texts of a base-text document: its base text and stretches found once, each witness spliced.

    Each outer app chooses the witness's reading as in parallel segmentation (tei.apparatus.walk.Unit:
    groups, negative apparatus, lacunae), with one difference the methods make: a witness an app without
    `lem` does not cite reads the base text there (the lemma is the text the app is attached to).
    """

    def __init__(self, apparatus):
        self.apparatus = apparatus
        self.base, self.top = attachments(apparatus.tree, apparatus.method, apparatus.name)
        self.units: dict = {}

    def unit(self, app: etree._Element) -> Unit:
        found = self.units.get(app)
        if found is None:
            found = self.units[app] = self.apparatus.compiler.unit(app)
        return found

    def path(self, witness_id: str, marker: str = LACUNA_MARKER) -> Path:
        path = Path(witness_id, record=False, marker=marker)
        self._splice(0, self.base.length, self.top, path)
        return path

    def text(self, witness_id: str, marker: str = LACUNA_MARKER) -> str:
        return self.path(witness_id, marker).text

    def _splice(self, start: int, end: int, stretches: list[Attachment], path: Path) -> None:
        text, position = self.base.text, start
        for stretch in stretches:
            if not path.in_lacuna:
                path.add(text[position : stretch.start[0]])
            chosen = self.unit(stretch.app).choose(path.witness_id, path.in_lacuna)
            if chosen is LACUNOSE:
                path.lacunose_units += 1
                path.mark()
            elif chosen is None:
                pass  # a positive apparatus: a witness it does not name has no text here
            elif chosen is NOTHING or chosen.element is base_reading(stretch.app) and chosen.element.tag == LEM:
                self._splice(stretch.start[0], stretch.end[0], stretch.inner, path)
            else:
                run(chosen.steps, path, chosen.witnesses)
            position = stretch.end[0]
        if not path.in_lacuna:
            path.add(text[position:end])
