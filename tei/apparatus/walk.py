"""The rebuild rule of parallel segmentation (docs/edition-format.md): a witness's text, unit by unit.

The text of a container (`body`, a reading) is compiled once into a `Program`, a flat list of steps, and
each witness then runs through that list. Compiling reads the XML by TEI's rules:

- text outside `xml:space="preserve"` is normalised as TEI prescribes: each run of XML whitespace becomes
  one space, and a block (`p`, `ab`, `l`, `head`, `div`, ...) begins and ends with none; a `<w>` or `<pc>`
  token, a block, and `<lb/>`, `<cb/>`, `<pb/>`, `<caesura/>` (unless `@break="no"`) separate what stands on either side
  with one space (a "soft" space, which merges with any whitespace next to it), except where `@join`
  joins a token to its neighbour; a `<pc>` without `@join` joins as its Unicode category says (opening
  punctuation to what follows, a dash to neither, any other punctuation to what precedes it). Inside `xml:space="preserve"` (every `ab` the toolkit writes, every
  paragraph of its transcriptions) the text is taken exactly as written, character for character;
- whitespace directly inside element-only containers (`body`, `div`, `app`, `rdgGrp`, ...) is layout;
- an empty `<c type="space"/>` or `<space/>` is a space; an element declaring xml:space="preserve" that
  writes its spaces so is read as not preserved (its whitespace between elements is the file's layout);
- `note`, `wit`, `witDetail`, `listTranspose`, comments and processing instructions carry no witness text;
  `<g type="char" n="U+XXXX"/>` stands for U+XXXX; of `choice` (or a pair such as `orig`/`reg` side by
  side), the witness reads the form marked `@ana="#collated"`, else what it has: `orig`, `sic`, `abbr`,
  else the first alternative;
- `<gap/>`, `lacunaStart`/`lacunaEnd` and `witEnd`/`witStart` are steps that change the witness's state.

Running a witness through the steps: text is added unless the witness is inside a lacuna; each unit (app)
contributes the one reading that witness takes there (`Unit.choose`): a reading whose `@wit` names it
(groups expanded, by tei.apparatus.witnesses); else, for X whose first hand X* is named, X*'s reading; else, for a hand derived from witness X (`X*`, `XC1`),
what X reads there (a hand is cited only where it differs); else, when it is lacunose there (a `witDetail` of type
`lac` or `ambiguous` naming it, or an open lacuna), nothing but the lacuna marker; else a `lem` without
`@wit` (the negative apparatus: it stands for every witness not cited and not lacunose); else, in a unit
without `lem`, nothing (the unit is an addition against the base text: `NOTHING`); else nothing at all
(a positive apparatus that forgot it: `None`). A lacuna is one marker where it begins, however many
units it spans. `Path` keeps what the statistics and the CollateX table need: each unit passed, the
reading taken, where it starts and ends in the witness's text and how deeply it is nested.

A transposition by reference (teiphy's Ephesians: `<app><rdg wit="..."><ref target="#U12"/><ref
target="#U18"/><ref target="#U14-16"/></rdg>...</app>`): a reading made only of `<ref>`/`<ptr>` elements
(and whitespace, comments) each of whose `@target`s is `#` and the `xml:id` of a unit (app) compiled with
it, none of them the unit itself, one of its ancestors or a unit inside it, and none twice, carries no
text of its own. The units it lists are *slots*, taken in document order; a witness that takes the reading
reads, in the k-th slot, what it reads in the k-th unit the reading lists (that unit's own reading for the
witness, by the rule above), so the text between the slots stays in place and only the units' contents
move: 01 reads `ινα παρρησιασωμαι εν αυτω` where UBS reads `ινα εν αυτω παρρησιασωμαι`. A witness that
takes another reading of the transposing unit (or none, in a unit without lem) reads each slot as usual.
The transposition is linked when the whole container is compiled (`Compiler.compile`): a reference to a
unit outside it, or to a unit an earlier transposition already moves, leaves the reading as text, as any
other `<ref>` is (its content is read). On the witness's path each unit is still passed once, in the order
of its text: the passage names the unit whose reading is read (`app`, so who reads what in each unit is
unchanged: statistics, apparatus entries), its offsets in the text, and `place`, the unit in whose slot it
stands when a transposition moved it (else None). The passages at depth 0 are thus in the same order, slot
by slot, for every witness: the CollateX table's k-th column is the k-th slot, the words each witness
reads there.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from lxml import etree

from tei.apparatus.elements import (
    APP,
    ELEMENT_ONLY,
    LEM,
    NO_WITNESS_TEXT,
    RDG,
    RDG_GRP,
    G,
    mapped_character,
    pointer_ids,
)
from tei.xmlio import tei, xml

XML_ID = xml("id")
LACUNA_MARKER = "[…]"
WHITESPACE = re.compile(r"[ \t\r\n]+")
BLOCKS = frozenset(
    tei(t)
    for t in (
        "ab", "p", "l", "lg", "head", "div", "div1", "div2", "div3", "div4", "div5", "div6", "div7", "item",
        "list", "sp", "speaker", "stage", "trailer", "byline", "dateline", "opener", "closer", "salute",
        "signed", "argument", "epigraph", "table", "row", "cell", "body", "front", "back", "group", "text",
        "listApp", "castList", "castItem", "figure", "postscript",
    )
)  # fmt: skip
PC, C = tei("pc"), tei("c")
SPACES = frozenset((C, tei("space")))  # an empty <c type="space"/> or <space/>: a space written as an element
TOKENS = frozenset((tei("w"), PC))
BREAKS = frozenset((tei("lb"), tei("cb"), tei("pb"), tei("caesura")))
LAYOUT = frozenset((tei("lb"), tei("cb"), tei("pb"), tei("milestone")))  # recorded as Break steps
CHOICE = tei("choice")
# Of alternatives, what a witness reads: its own form first.
FIRST_ALTERNATIVES = (tei("orig"), tei("sic"), tei("abbr"))
SECOND_ALTERNATIVES = {tei("reg"): tei("orig"), tei("corr"): tei("sic"), tei("expan"): tei("abbr")}
GAP = tei("gap")
REFERENCES = frozenset((tei("ref"), tei("ptr")))
OPENERS = frozenset((tei("lacunaStart"), tei("witEnd")))
CLOSERS = frozenset((tei("lacunaEnd"), tei("witStart")))
LACUNOSE_DETAILS = frozenset(("lac", "ambiguous"))
WIT_DETAIL = tei("witDetail")


class _Sentinel:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


NOTHING = _Sentinel("NOTHING")  # a unit without lem: a witness it does not cite reads nothing there
LACUNOSE = _Sentinel("LACUNOSE")  # the witness is lacunose in the unit
SOFT = _Sentinel("SOFT")  # one space between what stands on either side, unless whitespace is there already
JOIN = _Sentinel("JOIN")  # no space here: @join joins a token to its neighbour (cancels soft spaces around it)
GAP_STEP = _Sentinel("GAP")


class Soft:
    """Normalised text (outside xml:space="preserve"): its core, and whether a space stood before or after it
    (each merges with the soft spaces around it)."""

    __slots__ = ("lead", "core", "trail")

    def __init__(self, text: str):
        collapsed = WHITESPACE.sub(" ", text)
        self.lead, self.core, self.trail = collapsed[0] == " ", collapsed.strip(" "), collapsed[-1] == " "


@dataclass(frozen=True)
class Marker:
    """lacunaStart/witEnd (opens) or lacunaEnd/witStart (closes), for its own @wit or its reading's witnesses."""

    element: etree._Element
    opens: bool
    witnesses: tuple[str, ...] | None  # None: the witnesses of the reading it stands in


@dataclass(frozen=True)
class Break:
    """A pb, cb, lb or milestone: where a page, column or line of the witnesses its @ed names (all, without
    @ed) begins. It carries no text; a witness's path records where it stands (`tei witness --layout`)."""

    element: etree._Element

    def names(self, witness: str) -> bool:
        ed = self.element.get("ed")
        return ed is None or witness in pointer_ids(ed)


class Reading:
    """A lem or rdg of a unit: the witnesses it stands for (None: a lem without @wit) and its steps.

    `order`: for a reading made only of references to units, their ids in its order (a transposition
    candidate, see the module docstring); `moves`: once linked, each slot (Unit) -> the Unit read there."""

    __slots__ = ("element", "witnesses", "steps", "order", "moves")

    def __init__(
        self,
        element: etree._Element,
        witnesses: tuple[str, ...] | None,
        steps: list,
        order: tuple[str, ...] | None = None,
    ):
        self.element, self.witnesses, self.steps = element, witnesses, steps
        self.order = order
        self.moves: dict | None = None

    @property
    def reorders(self) -> bool:
        """A transposition by reference that reads some slot's place with another unit: the witnesses of this
        reading have the units in another order than the document's (the print types it 'transposition')."""
        return self.moves is not None and any(slot is not unit for slot, unit in self.moves.items())


class Unit:
    """An app: its readings, which reading each cited witness takes, and the witnesses lacunose in it."""

    __slots__ = (
        "app", "depth", "readings", "cited", "lacunose", "open_lem", "has_lem", "hand_of", "transposed_by",
        "first_hand",
    )  # fmt: skip

    def __init__(
        self,
        app: etree._Element,
        depth: int,
        readings: list[Reading],
        lacunose: frozenset[str],
        hand_of: dict[str, str] | None = None,
        first_hand: dict[str, str] | None = None,
    ):
        self.app, self.depth, self.readings, self.lacunose = app, depth, readings, lacunose
        self.hand_of = hand_of or {}
        self.first_hand = first_hand or {}  # witness X -> its first hand X* (the NT convention)
        self.cited: dict[str, Reading] = {}
        for reading in readings:
            for witness in reading.witnesses or ():
                self.cited.setdefault(witness, reading)
        self.open_lem = next((r for r in readings if r.witnesses is None and r.element.tag == LEM), None)
        self.has_lem = any(r.element.tag == LEM for r in readings)
        self.transposed_by: Unit | None = None  # the unit whose readings may move this one (a slot of it)

    def choose(self, witness: str, in_lacuna: bool = False):
        """The Reading the witness takes here, or LACUNOSE, NOTHING (an addition it lacks), None (unattested)."""
        if witness in self.lacunose:
            return LACUNOSE
        found = self.cited.get(witness)
        if found is not None:
            return found
        first = self.first_hand.get(witness)
        if first is not None and first in self.cited:  # X* cited and X not: X reads its first hand (ECM, NA)
            return self.cited[first]
        base = self.hand_of.get(witness)
        if base is not None:  # a hand not cited here reads what its witness reads
            return self.choose(base, in_lacuna)
        if in_lacuna:
            return LACUNOSE
        if self.open_lem is not None:
            return self.open_lem
        return None if self.has_lem else NOTHING

    @property
    def is_addition(self) -> bool:
        """A unit without lem: the words of its readings are missing from the base text."""
        return not self.has_lem

    @property
    def transposes(self) -> bool:
        """Some reading of the unit is a transposition by reference (linked: it moves units)."""
        return any(r.moves is not None for r in self.readings)

    def played(self, slot: Unit, witness: str, in_lacuna: bool) -> Unit:
        """The unit the witness reads in the slot (one of the units this one transposes)."""
        taken = self.choose(witness, in_lacuna)
        if type(taken) is Reading and taken.moves is not None:
            return taken.moves.get(slot, slot)
        return slot


@dataclass(slots=True)
class Passage:
    """A unit on a witness's way through the text: the reading it takes there, and which characters."""

    app: etree._Element
    reading: etree._Element | _Sentinel | None  # the lem/rdg, NOTHING, LACUNOSE, or None
    offset: int  # where the reading starts in the witness's text
    end: int  # and where it ends
    depth: int  # 0 for an app in the text, 1 for an app inside a reading of another, ...
    place: etree._Element | None = None  # the unit in whose slot it stands, when a transposition moved it


class Compiler:
    """Turns an element's content into steps; `resolve` gives the witnesses of a @wit value, `hand_of` the
    witness each undeclared hand derives from."""

    def __init__(self, resolve, hand_of: dict[str, str] | None = None):
        self.resolve = resolve
        self.hand_of = hand_of or {}
        self.first_hand = {base: hand for hand, base in self.hand_of.items() if hand.endswith("*")}
        self._unit_ids: dict[int, frozenset[str]] = {}  # the app ids of each document compiled

    def compile(self, element: etree._Element, preserve: bool | None = None, depth: int = 0) -> list:
        if preserve is None:
            preserve = _preserved(element)
        steps: list = []
        self._content(element, preserve, depth, steps)
        link_transpositions(steps)
        return steps

    def _content(self, element: etree._Element, preserve: bool, depth: int, steps: list) -> None:
        layout = element.tag in ELEMENT_ONLY
        if not layout:
            self._text(element.text, preserve, steps)
        pairs = _has_alternatives(element)
        for child in element:
            tag = child.tag
            if isinstance(tag, str) and tag not in NO_WITNESS_TEXT and not (pairs and _second(child, element)):
                self._element(child, _space(child, preserve), depth, steps)
            if not layout:
                self._text(child.tail, preserve, steps)

    def _element(self, child: etree._Element, preserve: bool, depth: int, steps: list) -> None:
        tag = child.tag
        if tag == APP:
            steps.append(self.unit(child, depth, preserve))
        elif tag == G and child.get("type") == "char":
            steps.append(mapped_character(child))
        elif tag in OPENERS or tag in CLOSERS:
            wit = child.get("wit")
            steps.append(Marker(child, tag in OPENERS, self.resolve(wit) if wit is not None else None))
        elif tag == GAP:
            steps.append(GAP_STEP)
        elif tag == CHOICE:
            chosen = _alternative(child)
            if chosen is not None:
                self._element(chosen, _space(chosen, preserve), depth, steps)
        elif tag in SPACES and child.get("type", "space") == "space" and len(child) == 0 and not child.text:
            steps.append(" " if preserve else SOFT)  # a space written as an element
        elif tag in LAYOUT and preserve:
            steps.append(Break(child))  # a page, column or line of some witness (@ed): no text
        elif preserve:
            self._content(child, preserve, depth, steps)
        elif tag in TOKENS:
            join = child.get("join") or (_punctuation_join(child) if tag == PC else None)
            steps.append(JOIN if join in ("left", "both") else SOFT)
            self._content(child, preserve, depth, steps)
            steps.append(JOIN if join in ("right", "both") else SOFT)
        elif tag in BREAKS:
            if tag in LAYOUT:
                steps.append(Break(child))
            if child.get("break") != "no":
                steps.append(SOFT)
        elif tag in BLOCKS:
            steps.append(SOFT)
            self._content(child, preserve, depth, steps)
            steps.append(SOFT)
        else:
            self._content(child, preserve, depth, steps)

    def _text(self, text: str | None, preserve: bool, steps: list) -> None:
        if not text:
            return
        if preserve:
            steps.append(text)
        else:
            steps.append(Soft(text))

    def unit(self, app: etree._Element, depth: int = 0, preserve: bool | None = None) -> Unit:
        """The steps of each reading of an app, and the witnesses a witDetail marks lacunose in it."""
        if preserve is None:
            preserve = _preserved(app)
        found, lacunose = [], set()
        for child in _reading_elements(app):
            if child.tag == WIT_DETAIL:
                if child.get("type") in LACUNOSE_DETAILS:
                    lacunose.update(self.resolve(child.get("wit")))
                continue
            wit = child.get("wit")
            witnesses = self.resolve(wit) if wit is not None else (None if child.tag == LEM else ())
            steps: list = []
            self._content(child, _space(child, preserve), depth + 1, steps)
            found.append(Reading(child, witnesses, steps, transposed_order(child, self.unit_ids(app))))
        return Unit(app, depth, found, frozenset(lacunose), self.hand_of, self.first_hand)

    def unit_ids(self, element: etree._Element) -> frozenset[str]:
        """The xml:ids of every app of the element's document (read once per document)."""
        root = element.getroottree().getroot()
        found = self._unit_ids.get(id(root))
        if found is None:
            found = self._unit_ids[id(root)] = frozenset(
                i for i in (app.get(XML_ID) for app in root.iter(APP)) if i is not None
            )
        return found


def transposed_order(reading: etree._Element, unit_ids: frozenset[str]) -> tuple[str, ...] | None:
    """The ids of the units a reading lists when it is made only of `<ref>`/`<ptr>` elements (whitespace and
    comments aside) whose every target is '#' and a unit's id, none twice; else None (a reading of text)."""
    if not unit_ids or (reading.text or "").strip() or not len(reading):
        return None
    order: list[str] = []
    for child in reading:
        if (child.tail or "").strip():
            return None
        if not isinstance(child.tag, str):
            continue
        if child.tag not in REFERENCES:
            return None
        targets = (child.get("target") or "").split()
        if not targets or any(not t.startswith("#") or t[1:] not in unit_ids for t in targets):
            return None
        order.extend(t[1:] for t in targets)
    return tuple(order) if len(set(order)) == len(order) else None


def link_transpositions(steps: list) -> None:
    """Each reading that lists units (Reading.order) becomes a transposition when every unit it lists was
    compiled with it and is not the unit itself, one around it or one inside it, and no earlier
    transposition moves them: it then carries no text, and each of its slots knows the unit that moves it
    (see the module docstring). Any other such reading keeps its text (the content of its refs)."""
    units: list[Unit] = []
    collect_units(steps, units)
    candidates = [u for u in units if any(r.order for r in u.readings)]
    if not candidates:
        return
    by_id = {u.app.get(XML_ID): u for u in units if u.app.get(XML_ID) is not None}
    position = {id(u): n for n, u in enumerate(units)}  # document order: each unit before the ones inside it
    for unit in candidates:
        around = {id(a) for a in unit.app.iterancestors(APP)}
        for reading in unit.readings:
            listed = [by_id.get(i) for i in reading.order or ()]
            if not listed or any(
                u is None
                or u is unit
                or id(u.app) in around
                or any(a is unit.app for a in u.app.iterancestors(APP))
                or (u.transposed_by is not None and u.transposed_by is not unit)
                for u in listed
            ):
                reading.order = None
                continue
            slots = sorted(listed, key=lambda u: position[id(u)])
            reading.moves = dict(zip(slots, listed))
            reading.steps = []
            for slot in slots:
                slot.transposed_by = unit


def collect_units(steps: list, found: list[Unit]) -> None:
    """Every unit of the steps, nested ones after their own, in text order, appended to `found`."""
    for step in steps:
        if type(step) is Unit:
            found.append(step)
            for reading in step.readings:
                collect_units(reading.steps, found)


def _punctuation_join(pc: etree._Element) -> str | None:
    """Where a <pc> without @join attaches: opening punctuation to what follows, a dash to neither, any
    other (, . ; : ! ? closing brackets and quotes) to what precedes it, as the Unicode category says."""
    text = "".join(pc.itertext()).strip()
    category = unicodedata.category(text[0]) if text else ""
    if category in ("Ps", "Pi"):
        return "right"
    return None if category == "Pd" or not category.startswith("P") else "left"


def _reading_elements(app: etree._Element):
    for child in app:
        if child.tag in (LEM, RDG, WIT_DETAIL):
            yield child
        elif child.tag == RDG_GRP:
            yield from _reading_elements(child)


def _space(element: etree._Element, inherited: bool) -> bool:
    value = element.get(xml("space"))
    return inherited if value is None else _declares_preserve(element, value)


def _preserved(element: etree._Element | None) -> bool:
    """Whether xml:space="preserve" is in effect on an element (inherited from its nearest declaring ancestor)."""
    while element is not None:
        value = element.get(xml("space")) if isinstance(element.tag, str) else None
        if value is not None:
            return _declares_preserve(element, value)
        element = element.getparent()
    return False


def _declares_preserve(element: etree._Element, value: str) -> bool:
    """xml:space="preserve", unless the encoder wrote the spaces as elements (`<c type="space"/>`) inside:
    then the whitespace between elements is the file's layout (as in Konrad's Herzmaere), not text."""
    return value == "preserve" and not any(c.get("type") == "space" for c in element.iter(C))


def _has_alternatives(element: etree._Element) -> bool:
    tags = {child.tag for child in element}
    return any(second in tags and first in tags for second, first in SECOND_ALTERNATIVES.items())


def _second(child: etree._Element, parent: etree._Element) -> bool:
    """An alternative (reg, corr, expan) standing beside the witness's own form (orig, sic, abbr)."""
    first = SECOND_ALTERNATIVES.get(child.tag)
    return first is not None and parent.find(first) is not None


def _alternative(choice: etree._Element) -> etree._Element | None:
    """The alternative a witness reads: the one an edition marks as collated (`@ana="#collated"`, written
    from a scholar's transcription), else its own form (orig, sic, abbr), else the first."""
    children = [c for c in choice if isinstance(c.tag, str)]
    collated = next((c for c in children if "#collated" in (c.get("ana") or "").split()), None)
    if collated is not None:
        return collated
    return next((c for c in children if c.tag in FIRST_ALTERNATIVES), children[0] if children else None)


class Path:
    """One witness's run through the steps: its text in parts, the units passed, the lacunae marked."""

    def __init__(self, witness_id: str, record: bool = True, marker: str = LACUNA_MARKER, lacunose: bool = False):
        self.witness_id = witness_id
        self.record = record
        self.marker = marker
        self.length = 0
        self.passages: list[Passage] = []
        self.parts: list[str] = []
        self.in_lacuna = lacunose  # inside a lacuna opened by lacunaStart/witEnd (or before its witStart)
        self.marked = False  # the last thing added is a lacuna marker
        self.pending = False  # a soft space waits for the next text
        self.lacunae = 0  # lacunae marked (a stretch of lacunose units is one)
        self.lacunose_units = 0  # units passed where the witness is lacunose
        self.ends_in_space = True  # at the start, a soft space is dropped
        self.joined = False  # a token's @join holds the next text to the last (no soft space between)
        self.breaks: list[tuple[int, etree._Element]] = []  # (offset, pb/cb/lb/milestone) of this witness
        if lacunose:
            self.mark()  # the witness begins later (its first marker is a witStart): its text begins with a lacuna

    def add(self, text: str) -> None:
        if not text:
            return
        if self.pending and not self.ends_in_space and not text[0].isspace():
            self.parts.append(" ")
            self.length += 1
        self.pending = self.joined = False
        self.parts.append(text)
        self.length += len(text)
        self.ends_in_space = text[-1].isspace()
        self.marked = False

    def add_soft(self, text: Soft) -> None:
        if text.lead and not self.joined:
            self.pending = True
        if text.core:
            self.add(text.core)
        if text.trail:
            self.pending = True

    def mark(self) -> None:
        """A lacuna here: the marker, once for a stretch with nothing read in between."""
        if self.marked:
            return
        self.lacunae += 1
        if self.marker:
            self.add(self.marker)
        self.marked = True

    @property
    def text(self) -> str:
        return "".join(self.parts)


def run(steps: list, path: Path, holders: tuple[str, ...] | None = None) -> None:
    """Run one witness through the steps; `holders` are the witnesses of the reading the steps belong to."""
    witness = path.witness_id
    for step in steps:
        kind = type(step)
        if kind is Soft:
            if not path.in_lacuna:
                path.add_soft(step)
        elif kind is str:
            if not path.in_lacuna:
                path.add(step)
        elif kind is Unit:
            _pass(step, path)
        elif step is SOFT:
            if not path.in_lacuna and not path.joined:
                path.pending = True
        elif step is JOIN:
            if not path.in_lacuna:
                path.pending, path.joined = False, True
        elif kind is Marker:
            named = step.witnesses if step.witnesses is not None else holders
            if named is None or witness in named:
                if step.opens and not path.in_lacuna:
                    path.in_lacuna = True
                    path.mark()
                elif not step.opens:
                    path.in_lacuna = False
        elif step is GAP_STEP and not path.in_lacuna:
            path.mark()
        elif kind is Break and step.names(witness):
            path.breaks.append((path.length, step.element))


def _pass(slot: Unit, path: Path) -> None:
    unit = slot if slot.transposed_by is None else slot.transposed_by.played(slot, path.witness_id, path.in_lacuna)
    chosen = unit.choose(path.witness_id, path.in_lacuna)
    start = path.length
    index = len(path.passages)
    if path.record:
        path.passages.append(None)  # its place in document order, filled once the reading is read
    if chosen is LACUNOSE:
        path.lacunose_units += 1
        path.mark()
        reading = LACUNOSE
    elif chosen is None or chosen is NOTHING:
        reading = chosen
    else:
        run(chosen.steps, path, chosen.witnesses)
        reading = chosen.element
    if path.record:
        place = None if unit is slot else slot.app
        path.passages[index] = Passage(unit.app, reading, start, path.length, slot.depth, place)


def lacunose_from_start(steps: list, witnesses: list[str]) -> set[str]:
    """Witnesses whose first lacuna marker closes a lacuna (witStart, lacunaEnd): lacunose until then."""
    first: dict[str, bool] = {}
    _first_markers(steps, None, first, set(witnesses))
    return {w for w, opens in first.items() if not opens}


def _first_markers(steps: list, holders, first: dict, wanted: set) -> None:
    for step in steps:
        if type(step) is Marker:
            for witness in step.witnesses if step.witnesses is not None else holders or ():
                first.setdefault(witness, step.opens)
        elif type(step) is Unit:
            for reading in step.readings:
                if reading.witnesses:
                    _first_markers(reading.steps, reading.witnesses, first, wanted)
