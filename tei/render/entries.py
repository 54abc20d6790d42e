"""The apparatus reader's verdicts, written into a copy of the edition for the stylesheets to print.

XSLT 1.0 cannot apply the rebuild rule of tei.apparatus (TEI whitespace, `<w>` spacing, groups, hands,
lacunae, the negative apparatus), and it must not try: one rule, one place. `annotated(tree)` reads the
edition once with `tei.apparatus.Apparatus` and returns a copy carrying what the reader found, in the
namespace TK_NS (prefix `tk`); the edition on disk stays the scholar's XML. The stylesheets of
xslt/common/apparatus.xsl (named templates `sigla`, `reader-witnesses`, `lacunose-sigla`, `addition-place`
and the mode witness-text) print it when it is there, and fall back to their plain reading of @wit when a
stylesheet is run on an edition file by itself (xsltproc).

The copy carries:
- `tk:id` on every app ("u<n>", n its number in document order, as xsl:number counts it) and on each of
  its lem and rdg ("u<n>.<i>", i its place among the app's readings, rdgGrp included);
- `tk:wit` on every lem and rdg: the witness ids that read it, by the reader (groups expanded, a hand
  that a unit does not cite reads with its witness, a lem without @wit for every witness not cited): whose
  way passes through it, what the web page's witness switch follows;
- `tk:shown` on every app inside a reading: the tk:id of the reading an entry prints for it (see
  _containers), which the stylesheets' mode reading-content follows;
- at the end of the root, one `tk:apparatus` holding
  - `tk:witness` (id, siglum, kind: declared, hand, undeclared; hand-of) for every witness the reader knows;
  - `tk:unit of="u<n>"` for every unit, with an `addition-after` attribute (the word the witnesses
    without the added words read before the unit, for a unit without lem), a `tk:reading of="u<n>.<i>"`
    for each reading (its sigla those of tk:wit, but of a reading holding units only the witnesses
    whose text there is the words its entry prints: see _containers), `tk:base` for the witnesses
    reading the base text of a unit attached to it
    (location-referenced, double end-point: folded, that text becomes a lem) and `tk:lacuna` for the
    witnesses lacunose there; each holds the sigla to print as `tk:s` elements (`ids`: the witnesses a
    siglum stands for): a group's siglum where all its members agree (groups the edition cites), a hand
    left out where it reads with its witness, three or more sigla with one prefix and consecutive
    numbers as a range ("Q1–4", as the print edition writes them);
  - `tk:group` (id, siglum, members: the witness ids, members-sigla: how they print) for every group of
    witnesses the edition declares (a listWit or witness with an id holding witnesses);
  - `tk:text wit="..."`: each witness's text, as `tei witness` gives it;
- for a transposition by reference (a unit whose readings list other units by `<ref>`, read by
  tei.apparatus.walk): `tk:transposition` on its app, the lemma: the base texts of the units it moves
  (each unit's lem, else its first reading, as a witness reading it reads it) in document order, with the
  text between them; `tk:transposed` on each such reading, the same base texts in its order; and
  `tk:transposed-by` on the first unit it moves (in document order): the tk:id of the transposing unit,
  whose entry the print keys to that unit's line (the transposing unit prints nothing in the text); and
  in tk:apparatus, for each unit moved into another's slot, `tk:moved into="u<n>" reading="u<m>.<i>"
  wit="..."`: the witnesses that read that reading (reading "": nothing) in slot u<n> (the web page shows
  it there for them, before the slot's own readings);
- in an edition whose lacunae are opened and closed by elements (lacunaStart/lacunaEnd, witEnd/witStart),
  `tk:lacking` on each of those elements and on every app: the witnesses inside such a lacuna right after
  it, of those whose way passes it, and `lacking-at-start` on `tk:apparatus` (a witness whose first marker
  is a witStart): whoever is in that set lacks the text that follows, up to the next element carrying one.
"""

from __future__ import annotations

import copy
import importlib
import re
from dataclasses import dataclass

from lxml import etree

from tei.apparatus import APP, LACUNOSE, LEM, NOTHING, RDG, Apparatus, Path, Witnesses, pointer_ids, readings, run
from tei.apparatus.walk import CLOSERS, OPENERS, Marker, Reading, Unit
from tei.errors import TeiError
from tei.hadith.sections import collated_as_isnad
from tei.xmlio import tei, xml

TK_NS = "urn:x-tei-toolkit:render"
TK_ID = f"{{{TK_NS}}}id"
TK_WIT = f"{{{TK_NS}}}wit"
NUMBERED = re.compile(r"(?P<prefix>.*?)(?P<number>\d+)")
RANGE_DASH = "\u2013"
LIST_WIT, WITNESS = tei("listWit"), tei("witness")
NOT_XML = re.compile("([^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff])")


def tk(name: str) -> str:
    return f"{{{TK_NS}}}{name}"


@dataclass(frozen=True)
class Siglum:
    """One siglum as printed, and the witnesses it stands for."""

    text: str
    ids: tuple[str, ...]
    group: bool = False


_LAST: list[tuple[tuple, etree._ElementTree]] = []  # the last edition annotated in this process, and its copy


def annotated(tree: etree._ElementTree, name: str = "<edition>") -> etree._ElementTree:
    """A copy of the edition with the reader's verdicts in TK_NS; without them when the reader refuses it
    (no TEI namespace, no body, a group holding itself): the stylesheets then report what they can.

    The last edition annotated is remembered by its name, URL and serialised bytes, so that the web and the
    print edition of one build (each stage parses edition.xml anew) read it once; each call returns a copy
    of its own, which the caller may change."""
    key = (name, tree.docinfo.URL, etree.tostring(tree))
    if not _LAST or _LAST[0][0] != key:
        _LAST[:] = [(key, _annotated(tree, name))]
    return copy.deepcopy(_LAST[0][1])


def _annotated(tree: etree._ElementTree, name: str) -> etree._ElementTree:
    result = copy.deepcopy(tree)
    root = result.getroot()
    apps = list(root.iter(APP))
    for number, app in enumerate(apps, 1):
        app.set(TK_ID, f"u{number}")
        for place, reading in enumerate(readings(app), 1):
            reading.set(TK_ID, f"u{number}.{place}")
    try:
        apparatus = Apparatus(result, name)
        if apparatus.folding_refused is None:  # each witness run once: its text and the units it passes
            paths = {witness: apparatus.path(witness) for witness in apparatus.ids}
            texts = {witness: path.text for witness, path in paths.items()}
        else:
            paths, texts = {}, {witness: apparatus.text(witness) for witness in apparatus.ids}
    except TeiError:
        return result
    container = etree.SubElement(root, tk("apparatus"), nsmap={"tk": TK_NS})
    container.tail = "\n"
    for witness in apparatus.ids:
        found = apparatus.witnesses.by_id[witness]
        element = etree.SubElement(container, tk("witness"), id=witness, siglum=found.siglum, kind=found.kind)
        if found.hand_of:
            element.set("hand-of", found.hand_of)
    _groups(root, apparatus.witnesses, container)
    if paths:
        _units(apparatus, paths, {app.get(TK_ID): app for app in apps}, container)
        if apparatus.parallel is result:
            _transpositions(apparatus, paths, container)
        if apparatus.parallel is result and next(root.iter(*OPENERS, *CLOSERS), None) is not None:
            _lacunae(apparatus, container)
    for witness, text in texts.items():
        _text(etree.SubElement(container, tk("text"), wit=witness), text)
    return result


def isnad_diagram(tree: etree._ElementTree, source: str, copy: etree._ElementTree) -> str:
    """The isnad diagram's SVG ('' unless the edition is collated as isnad and matn), drawn from the witness
    texts the annotated copy carries (read once). The diagram's module is loaded only for such an edition:
    with the chain reader beneath it, it was a fifth of a render's start (see tei.hadith.sections)."""
    if not collated_as_isnad(tree):
        return ""
    return importlib.import_module("tei.hadith.diagram").edition_svg(tree, source, witness_texts(copy))


def witness_texts(copy: etree._ElementTree) -> list[tuple[str, str]] | None:
    """Each witness's text as the annotated copy carries it (`tei witness`'s text); None without annotation."""
    container = copy.getroot().find(tk("apparatus"))
    if container is None:
        return None
    return [(element.get("wit"), _read_text(element)) for element in container.iter(tk("text"))]


def _read_text(element: etree._Element) -> str:
    parts = [element.text or ""]
    for child in element:
        parts.append(chr(int(child.get("code"), 16)) + (child.tail or ""))
    return "".join(parts)


def _text(element: etree._Element, text: str) -> None:
    """The text, with each character XML cannot hold as <tk:c code="XXXX"/> (as <g type="char"> in TEI)."""
    parts = NOT_XML.split(text)
    element.text = parts[0]
    for code, rest in zip(parts[1::2], parts[2::2]):
        etree.SubElement(element, tk("c"), code=f"{ord(code):04X}").tail = rest


def _units(apparatus: Apparatus, paths: dict, by_id: dict[str, etree._Element], container: etree._Element) -> None:
    """Each unit: which witnesses read each reading, which are lacunose, and where an addition stands."""
    taken: dict[str, dict[str, list[str]]] = {}  # unit id -> reading id ('base', 'lacuna', 'nothing') -> witnesses
    # unit without lem -> the word before it: in the text of a witness without the addition, else of any
    before: dict[str, str] = {}
    before_any: dict[str, str] = {}
    choice: dict[tuple[str, str], str] = {}  # (witness, unit id) -> the reading id it takes there
    read_in: dict[str, dict[str, str]] = {}  # reading id of a container -> witness -> its text there
    for witness, path in paths.items():
        text = path.text
        for passage in path.passages:
            unit = passage.app.get(TK_ID)
            if unit is None:
                continue
            reading = passage.reading
            if reading is LACUNOSE:
                key = "lacuna"
            elif reading is NOTHING:
                key = "nothing"
            elif reading is None:
                continue
            else:
                key = reading.get(TK_ID) or "base"
                choice[witness, unit] = key
                if next(reading.iter(APP), None) is not None:
                    read_in.setdefault(key, {})[witness] = text[passage.offset : passage.end]
            taken.setdefault(unit, {}).setdefault(key, []).append(witness)
            if unit not in before and not _has_lem(passage.app):
                words = text[: passage.offset].split()
                word = words[-1] if words else ""
                if key == "nothing":
                    before[unit] = word
                else:
                    before_any.setdefault(unit, word)
    witnesses = apparatus.witnesses
    groups = _cited_groups(apparatus.tree.getroot(), witnesses)
    printed = _containers(apparatus, by_id, taken, choice, read_in) if read_in else {}
    for unit, app in by_id.items():
        element = etree.SubElement(container, tk("unit"), of=unit)
        found = taken.get(unit, {})
        if not _has_lem(app) and not (app.get("from") or app.get("to") or app.get("loc")):
            element.set("addition-after", before.get(unit, before_any.get(unit, "")))
        for reading in readings(app):
            ids = found.get(reading.get(TK_ID), [])
            reading.set(TK_WIT, " ".join(ids))
            named = printed.get(reading.get(TK_ID), ids)
            _sigla(etree.SubElement(element, tk("reading"), of=reading.get(TK_ID)), named, witnesses, groups)
        if found.get("base"):
            _sigla(etree.SubElement(element, tk("base")), found["base"], witnesses, groups)
        if found.get("lacuna"):
            _sigla(etree.SubElement(element, tk("lacuna")), found["lacuna"], witnesses, groups)
        app.set(tk("lacunose"), " ".join(found.get("lacuna", [])))


def _containers(
    apparatus: Apparatus,
    by_id: dict[str, etree._Element],
    taken: dict[str, dict[str, list[str]]],
    choice: dict[tuple[str, str], str],
    read_in: dict[str, dict[str, str]],
) -> dict[str, list[str]]:
    """For each reading holding units of its own (a container: the close witnesses' text in the lem of an
    `app type="paraphrase"`), the witnesses whose text there is the words an entry prints for it; and
    `tk:shown` on each unit inside a reading: the tk:id of the reading an entry prints for it.

    A container's entry prints one text, not each witness's: inside the base reading of a unit, a nested
    unit shows its own base reading (the first lem, else the first reading), as the text above the
    apparatus does; inside a variant reading, the reading that the first witness of that reading takes
    there (that witness's own words; its base reading where that witness takes none). The words so printed
    are rebuilt by the reader's rule (tei.apparatus.walk.run, each nested unit through its shown reading),
    and a witness of the container is named only where its own text there (cut from its path) is those
    words, whitespace aside: where B and C word a clause otherwise than A, the entry of the clause names A
    alone (or none, when no witness reads the printed words), and B's and C's words stay in the entries of
    the nested units, which name them."""
    shown: dict[str, str] = {}  # a nested unit's tk:id -> that of the reading an entry prints for it
    for unit, app in by_id.items():
        outer = next(app.iterancestors(LEM, RDG), None)
        if outer is None:
            continue
        base = _base_of(app)
        own = base
        if outer is not _base_of(_app_of(outer)):
            first = next(iter(taken.get(_app_of(outer).get(TK_ID), {}).get(outer.get(TK_ID), [])), None)
            wanted = choice.get((first, unit))
            own = next((r for r in readings(app) if r.get(TK_ID) == wanted), base)
        if own is not None:
            app.set(tk("shown"), own.get(TK_ID))
            shown[unit] = own.get(TK_ID)
    result: dict[str, list[str]] = {}
    for unit in apparatus.units():
        for reading in unit.readings:
            key = reading.element.get(TK_ID)
            if key not in read_in:
                continue
            path = Path("", record=False)
            _run_shown(reading.steps, path, reading.witnesses, shown)
            words, texts = path.text.split(), read_in[key]
            ids = taken.get(unit.app.get(TK_ID), {}).get(key, [])
            result[key] = [w for w in ids if texts.get(w, "").split() == words]
    return result


def _run_shown(steps: list, path: Path, holders: tuple[str, ...] | None, shown: dict[str, str]) -> None:
    """Run the steps as `run` does, each unit through the reading an entry shows for it (by tk:id)."""
    for step in steps:
        if type(step) is Unit:
            key = shown.get(step.app.get(TK_ID))
            found = next((r for r in step.readings if r.element.get(TK_ID) == key), None)
            if found is not None:
                _run_shown(found.steps, path, found.witnesses, shown)
        else:
            run([step], path, holders)


def _app_of(reading: etree._Element) -> etree._Element:
    """The app a lem or rdg belongs to (through any rdgGrp)."""
    return next(reading.iterancestors(APP))


def _base_of(app: etree._Element) -> etree._Element | None:
    """The reading the text prints for a unit: the first lem, else the first reading (is-base-reading)."""
    found = readings(app)
    return next((r for r in found if r.tag == LEM), found[0] if found else None)


def _transpositions(apparatus: Apparatus, paths: dict[str, Path], container: etree._Element) -> None:
    """tk:transposition, tk:transposed, tk:transposed-by and tk:moved (see the module's docstring)."""
    moving = [unit for unit in apparatus.units() if unit.transposes]
    if not moving:
        return
    moved: dict[tuple[str, str], list[str]] = {}  # (slot's tk:id, reading's tk:id or '') -> witnesses
    for witness, path in paths.items():
        for passage in path.passages:
            if passage.place is not None and passage.reading is not LACUNOSE:
                reading = passage.reading.get(TK_ID, "") if isinstance(passage.reading, etree._Element) else ""
                moved.setdefault((passage.place.get(TK_ID), reading), []).append(witness)
    for (slot, reading), ids in moved.items():
        etree.SubElement(container, tk("moved"), into=slot, reading=reading, wit=" ".join(ids))
    slots = {slot: None for unit in moving for r in unit.readings if r.moves for slot in r.moves}
    base = {slot: _base_reading(slot) for slot in slots}
    texts: dict[Unit, str] = {}  # each slot's base text, as a witness reading it reads it
    spans: dict[Unit, tuple[str, int, int]] = {}  # a witness's (id, offset, end) in each slot, in its place
    by_app = {slot.app: slot for slot in slots}
    for witness, path in paths.items():
        for passage in path.passages:
            slot = by_app.get(passage.app)
            if slot is None:
                continue
            if slot not in texts and passage.reading is base[slot].element:
                texts[slot] = path.text[passage.offset : passage.end]
            if passage.place is None and isinstance(passage.reading, etree._Element):
                spans.setdefault(slot, (witness, passage.offset, passage.end))
    for slot in slots:
        if slot not in texts:  # no witness reads the base reading (a conjecture): read as no witness reads it
            path = Path("", record=False)
            run(base[slot].steps, path, base[slot].witnesses)
            texts[slot] = path.text
    for unit in moving:
        order = next(list(r.moves) for r in unit.readings if r.moves)
        between = [_between(paths, spans, first, second) for first, second in zip(order, order[1:])]
        unit.app.set(tk("transposition"), _joined([texts[s] for s in order], between))
        for reading in unit.readings:
            if reading.moves:
                listed = [reading.moves[s] for s in reading.moves]
                reading.element.set(tk("transposed"), _joined([texts[u] for u in listed], between))
        first = order[0].app
        first.set(tk("transposed-by"), " ".join(filter(None, (first.get(tk("transposed-by")), unit.app.get(TK_ID)))))


def _base_reading(unit: Unit) -> Reading:
    """The reading the text prints: the first lem, else the first reading."""
    return next((r for r in unit.readings if r.element.tag == LEM), unit.readings[0])


def _between(paths: dict, spans: dict, first: Unit, second: Unit) -> str:
    """The text between two slots, as a witness that reads both in their own places reads it (else a space)."""
    one, other = spans.get(first), spans.get(second)
    if one and other and one[0] == other[0] and one[2] <= other[1]:
        return paths[one[0]].text[one[2] : other[1]]
    return " "


def _joined(parts: list[str], between: list[str]) -> str:
    """Texts with what stands between them (at least a space: the units are words of their own),
    whitespace collapsed as a lemma is printed."""
    gaps = [f" {b} " if b.strip() else " " for b in between]
    return " ".join("".join(p + b for p, b in zip(parts, [*gaps, ""])).split())


def _lacunae(apparatus: Apparatus, container: etree._Element) -> None:
    """tk:lacking on every lacuna marker and unit (see the module's docstring). Each witness follows its way
    through the units (Unit.choose) and each marker changes its state by the reader's own rule (run)."""
    lacking: dict[etree._Element, list[str]] = {}
    start = [w for w in apparatus.ids if w in apparatus.lacunose_at_start]
    for witness in apparatus.ids:
        _follow(apparatus.steps, Path(witness, False, "", witness in start), None, lacking)
    container.set("lacking-at-start", " ".join(start))
    for element, ids in lacking.items():
        element.set(tk("lacking"), " ".join(ids))


def _follow(steps: list, path: Path, holders: tuple[str, ...] | None, lacking: dict) -> None:
    for step in steps:
        kind = type(step)
        if kind is Marker:
            run([step], path, holders)
            element = step.element
        elif kind is Unit:
            chosen = step.choose(path.witness_id, path.in_lacuna)
            if type(chosen) is Reading:
                _follow(chosen.steps, path, chosen.witnesses, lacking)
            element = step.app
        else:
            continue
        found = lacking.setdefault(element, [])
        if path.in_lacuna:
            found.append(path.witness_id)


def _has_lem(app: etree._Element) -> bool:
    return any(r.tag == LEM for r in readings(app))


def _sigla(element: etree._Element, ids: list[str], witnesses: Witnesses, groups: list[Siglum]) -> None:
    element.set("wit", " ".join(ids))
    for siglum in compact(ids, witnesses, groups):
        shown = etree.SubElement(element, tk("s"), ids=" ".join(siglum.ids))
        if siglum.group:
            shown.set("group", "yes")
        shown.text = siglum.text


def _groups(root: etree._Element, witnesses: Witnesses, container: etree._Element) -> None:
    """Each declared group with its members (expanded by the reader) and their sigla, for the witness menu."""
    for element in root.iter(LIST_WIT, WITNESS):
        group = element.get(xml("id"))
        members = witnesses.groups.get(group or "")
        if members:
            sigla = " ".join(s.text for s in compact(members, witnesses, []))
            siglum = element.get("n") or group
            etree.SubElement(container, tk("group"), id=group, siglum=siglum, members=" ".join(members)).set(
                "members-sigla", sigla
            )


def _cited_groups(root: etree._Element, witnesses: Witnesses) -> list[Siglum]:
    """The groups a @wit of the edition names, largest first: those are sigla the edition prints."""
    cited = {
        token for element in root.iter() if isinstance(element.tag, str) for token in pointer_ids(element.get("wit"))
    }
    found = []
    for element in root.iter(LIST_WIT, WITNESS):
        group = element.get(xml("id"))
        if group in witnesses.groups and group in cited and len(witnesses.groups[group]) > 1:
            found.append(Siglum(element.get("n") or group, tuple(witnesses.groups[group]), group=True))
    return sorted(found, key=lambda g: -len(g.ids))


def compact(ids: list[str], witnesses: Witnesses, groups: list[Siglum]) -> list[Siglum]:
    """The sigla that print a set of witnesses: groups, hands reading with their witness left out, ranges."""
    chosen = set(ids)
    order = [w for w in witnesses.ids if w in chosen] + [w for w in ids if w not in witnesses.by_id]
    hand_of = witnesses.hand_of
    hands: dict[str, list[str]] = {}  # witness -> its hands that read with it here (left out)
    for w in order:
        if hand_of.get(w) in chosen:
            hands.setdefault(hand_of[w], []).append(w)
    implied = {h for found in hands.values() for h in found}
    items = [Siglum(witnesses.siglum(w), (w, *hands.get(w, ()))) for w in order if w not in implied]
    for group in groups:
        present = {i for item in items if not item.group for i in item.ids[:1]}
        if not set(group.ids) <= present:
            continue
        members = set(group.ids)
        first = next(n for n, item in enumerate(items) if not item.group and item.ids[0] in members)
        stands = tuple(i for item in items if not item.group and item.ids[0] in members for i in item.ids)
        items = [
            Siglum(group.text, stands, True) if n == first else item
            for n, item in enumerate(items)
            if n == first or item.group or item.ids[0] not in members
        ]
    return _ranges(items)


def _ranges(items: list[Siglum]) -> list[Siglum]:
    """Three or more sigla in a row, with one prefix and consecutive numbers, as one range: 'Q1–4'."""
    result: list[Siglum] = []
    start = 0
    while start < len(items):
        end = start + 1
        first = None if items[start].group else NUMBERED.fullmatch(items[start].text)
        if first and first["prefix"]:
            number = int(first["number"])
            while end < len(items) and not items[end].group:
                following = NUMBERED.fullmatch(items[end].text)
                if not following or following["prefix"] != first["prefix"] or int(following["number"]) != number + 1:
                    break
                number += 1
                end += 1
        if end - start >= 3:
            run = items[start:end]
            text = f"{run[0].text}{RANGE_DASH}{number}"
            result.append(Siglum(text, tuple(i for item in run for i in item.ids)))
        else:
            end = start + 1
            result.append(items[start])
        start = end
    return result
