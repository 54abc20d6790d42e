"""Puts the markup of scholars' transcriptions (tei.model.Mark) into edition.xml at its place in each witness.

The edition's writer walks its body in document order, and every string it writes is read by a known set
of witnesses (all of them in shared text, a reading's witnesses inside it). `Placer` follows each
witness's offset in its own text through that walk, so each mark lands where it stood:

- a milestone (`pb`, `cb`, `lb`, `milestone`; `handShift` and `space` as `milestone unit="..."`) is written
  empty, with `@ed="#W"`, at its offset, the first time the walk reaches it (in shared text or in W's
  reading); `@facs` pointing into the transcription (`#f1r`) is made to point there (`W.xml#f1r`);
- a span (`hi`, `persName`, `unclear`, `supplied`, ...) wraps the text it spans, cut at the edges of the
  strings it crosses; the same span in every witness reading a string is written once, a span of some
  of them carries `@source` naming them;
- a `choice` wraps the collated form, marked `@ana="#collated"` (so the rebuild reads it:
  docs/edition-format.md), beside each witness's other form, whose `@source` names the witnesses;
- a lacuna (`gap`) makes its witness lacunose in the unit where it reads nothing at that place
  (`witDetail type="lac"`, the witness left out of that unit's empty reading); where no such unit is, in
  the middle of a string, a unit of its own is written: `<app><lem/><witDetail type="lac" wit="#W"/></app>`.

Markup differences alone never split shared text: markup is placed after collation, on the collated text.
Nothing here adds a character to the text: the rebuild of every witness is unchanged.
"""

from __future__ import annotations

from collections import defaultdict

from lxml import etree

from tei.model import Mark, VariationUnit, Work, text_read
from tei.writers.marked_text import write_marked
from tei.xmlio import tei, xml

COLLATED = "collated"  # the category id that a choice's collated form points to (@ana)
ALLOWED = {  # the attributes the project schema takes on each element written (att.global aside)
    "pb": {"facs", "break"},
    "cb": {"facs", "break"},
    "lb": {"facs", "break"},
    "milestone": {"unit"},
    "persName": {"type", "ref"},
    "placeName": {"type", "ref"},
    "orgName": {"type", "ref"},
    "name": {"type", "ref"},
    "rs": {"type", "ref"},
    "term": {"type"},
    "title": {"type"},
    "seg": {"type", "subtype"},
    "unclear": {"reason", "cert"},
    "supplied": {"reason", "cert"},
    "damage": {"type", "cert"},
    "g": {"type"},
    "num": {"type"},
    "date": {"when"},
    "abbr": {"type"},
    "corr": {"type"},
    "reg": {"type"},
}
GLOBAL = {"n", "rend", "xml:lang"}
AS_MILESTONE = {"handShift": "new", "space": None}  # written as milestone unit="handShift" / "space"


class Placer:
    """Each marked witness's offset in its text during the writer's walk, and the marks not yet placed."""

    def __init__(self, work: Work, transcriptions: dict[str, str]):
        self.order = {w.id: n for n, w in enumerate(work.witnesses)}
        self.marked = {w.id for w in work.witnesses if w.marks}
        self.offset = dict.fromkeys(self.marked, 0)
        self.points = {w.id: [m for m in w.marks if m.kind in ("milestone", "lacuna")] for w in work.witnesses}
        self.next_point = dict.fromkeys(self.marked, 0)
        self.spans = {w.id: [m for m in w.marks if m.kind in ("span", "choice") and m.end > m.start]
                      for w in work.witnesses}  # fmt: skip
        self.next_span = dict.fromkeys(self.marked, 0)
        self.active: dict[str, list[Mark]] = {wid: [] for wid in self.marked}
        self.links = transcriptions
        self.layer_of = {w.id: w.layer_of for w in work.witnesses if w.layer_of}
        self.lacunae = 0

    def lacunose(self, unit: VariationUnit, scope) -> set[str]:
        """Marked witnesses that read nothing in the unit where a lacuna of theirs stands: lacunose there."""
        found = set()
        for wid in scope:
            if wid not in self.marked:
                continue
            point = self._point(wid)
            if point is None or point.kind != "lacuna" or point.start != self.offset[wid]:
                continue
            own = next((r for r in unit.readings() if wid in r.witnesses), None)
            if own is not None and text_read(own.content, wid) == "":
                found.add(wid)
        return found

    def consume_lacunae(self, wid: str) -> None:
        """Every lacuna of the witness at its current offset is placed (in the unit just written)."""
        while (point := self._point(wid)) is not None and point.kind == "lacuna" and point.start == self.offset[wid]:
            self.next_point[wid] += 1

    def write(self, parent, last, text: str, scope, language: str, find, deferred: set[str]):
        """Write `text`, read here by the witnesses of `scope`, with their marks; the new last child.
        `deferred`: witnesses whose lacuna at the end of this text is left to what follows (a unit where
        they read nothing, which is then lacunose; or, at the end of a reading, what follows the unit)."""
        points: list[tuple[int, int, etree._Element]] = []
        spans: dict[tuple, list[str]] = defaultdict(list)
        scope = [wid for wid in scope if wid in self.marked]
        for wid in scope:
            start = self.offset[wid]
            end = start + len(text)
            while (point := self._point(wid)) is not None and (
                point.start < end or (point.start == end and not (point.kind == "lacuna" and wid in deferred))
            ):
                points.append((point.start - start, self.order[wid], self._milestone(point, wid, parent)))
                self.next_point[wid] += 1
            for span in self._spans(wid, start, end):
                piece_start, piece_end = max(span.start, start) - start, min(span.end, end) - start
                other = span.other if span.start >= start else None
                spans[(piece_start, piece_end, span.kind, span.tag, span.attributes, other)].append(wid)
            self.offset[wid] = end
        if not points and not spans:
            return write_marked(parent, last, text, language, find)
        merged = _merged(spans, scope)
        return _emit(parent, last, text, 0, len(text), sorted(points, key=lambda p: p[:2]), merged, language, find)

    def _point(self, wid: str) -> Mark | None:
        points = self.points[wid]
        index = self.next_point[wid]
        return points[index] if index < len(points) else None

    def _spans(self, wid: str, start: int, end: int) -> list[Mark]:
        spans = self.spans[wid]
        active = self.active[wid]
        while self.next_span[wid] < len(spans) and spans[self.next_span[wid]].start < end:
            active.append(spans[self.next_span[wid]])
            self.next_span[wid] += 1
        active[:] = [span for span in active if span.end > start]
        return [span for span in active if span.start < end]

    def _milestone(self, point: Mark, wid: str, parent) -> etree._Element:
        if point.kind == "lacuna":
            self.lacunae += 1
            if parent.tag in (tei("lem"), tei("rdg")):  # in a reading: a lacuna opened and closed here
                pair = etree.Element(tei("seg"))  # (unwrapped by _emit)
                etree.SubElement(pair, tei("lacunaStart"), wit=f"#{wid}")
                etree.SubElement(pair, tei("lacunaEnd"), wit=f"#{wid}")
                return pair
            app = etree.Element(tei("app"))  # in shared text: a unit where the others read nothing
            etree.SubElement(app, tei("lem"))
            etree.SubElement(app, tei("witDetail"), type="lac", wit=f"#{wid}")
            return app
        tag = point.tag
        attributes = dict(point.attributes)
        if tag in AS_MILESTONE:
            element = etree.Element(tei("milestone"), unit=tag)
            value = attributes.get(AS_MILESTONE[tag]) if AS_MILESTONE[tag] else None
            if value:
                element.set("n", value.lstrip("#"))
        else:
            element = etree.Element(tei(tag))
            _set_attributes(element, tag, attributes)
            facs = element.get("facs")
            if facs and facs.startswith("#") and self.links.get(wid):
                element.set("facs", " ".join(f"{self.links[wid]}{f}" for f in facs.split()))
        element.set("ed", f"#{wid}")
        return element


def _merged(spans: dict[tuple, list[str]], scope: list[str]) -> list[tuple]:
    """The spans of one string, one per element written: (start, end, element maker), outermost first."""
    found: dict[tuple, dict] = {}
    for (start, end, kind, tag, attributes, other), wids in spans.items():
        key = (start, end, kind, tag, attributes if kind == "span" else ())
        entry = found.setdefault(key, {"wids": [], "others": defaultdict(list), "attributes": attributes})
        entry["wids"].extend(wids)
        if other is not None:
            for wid in wids:
                entry["others"][other].append(wid)
    result = []
    for (start, end, kind, tag, _), entry in found.items():
        source = None if sorted(entry["wids"]) == sorted(scope) else " ".join(f"#{w}" for w in entry["wids"])
        result.append((start, end, kind, tag, entry["attributes"], source, dict(entry["others"])))
    return sorted(result, key=lambda s: (s[0], -s[1], s[2] != "choice"))


def _emit(parent, last, text, low, high, points, spans, language, find):
    """Text[low:high] with its points and spans (all within it), nested; returns the last child written."""
    position = low
    while spans or points:
        next_span = spans[0] if spans else None
        if points and (next_span is None or points[0][0] <= next_span[0]):
            at, _, element = points.pop(0)
            last = write_marked(parent, last, text[position:at], language, find)
            position = at
            for placed in list(element) if element.tag == tei("seg") else [element]:
                parent.append(placed)
                last = placed
            continue
        span = spans.pop(0)
        start, end = span[0], span[1]
        inner_spans, rest = [], []
        for other in spans:
            if other[1] <= end:
                inner_spans.append(other)
            elif other[0] < end:  # crosses this one's end: cut in two
                inner_spans.append((other[0], end, *other[2:]))
                rest.append((end, *other[1:6], {}))
            else:
                rest.append(other)
        spans[:] = sorted(rest, key=lambda s: (s[0], -s[1], s[2] != "choice"))
        inner_points = [p for p in points if (p[0] < end or (p[0] == end and start == end)) and not _lacuna(p[2])]
        points[:] = [p for p in points if p not in inner_points]
        for index, point in enumerate(points):  # a lacuna stands outside markup: at the end of the span
            if _lacuna(point[2]) and point[0] < end:
                points[index] = (end, *point[1:])
        last = write_marked(parent, last, text[position:start], language, find)
        element, holder = _span_element(span)
        parent.append(element)
        _emit(holder, None, text, start, end, inner_points, inner_spans, language, find)
        last = element
        position = end
    return write_marked(parent, last, text[position:high], language, find)


def _lacuna(element) -> bool:
    """A lacuna's unit or its lacunaStart/lacunaEnd pair: TEI allows neither inside a phrase."""
    return element.tag in (tei("app"), tei("seg"))


def _span_element(span) -> tuple[etree._Element, etree._Element]:
    """The element of a span and the element its text goes in (the collated form, for a choice)."""
    start, end, kind, tag, attributes, source, others = span
    if kind != "choice":
        element = etree.Element(tei(tag))
        _set_attributes(element, tag, dict(attributes))
        if source:
            element.set("source", source)
        return element, element
    choice = etree.Element(tei("choice"))
    collated = etree.SubElement(choice, tei(tag))
    _set_attributes(collated, tag, dict(attributes))
    collated.set("ana", f"#{COLLATED}")
    for (other_tag, other_text), wids in others.items():
        alternative = etree.SubElement(choice, tei(other_tag))
        alternative.text = other_text
        alternative.set("source", " ".join(f"#{w}" for w in wids))
    if len(choice) == 1:  # a piece after the first of a choice cut by the collation: its form alone
        return collated, collated
    return choice, collated


def _set_attributes(element, tag, attributes: dict) -> None:
    allowed = ALLOWED.get(tag, set()) | GLOBAL
    for name, value in attributes.items():
        if name not in allowed or (name == "ref" and value.startswith("#")):
            continue
        element.set(xml("lang") if name == "xml:lang" else name, value)
