"""Places of variation: a run of adjacent units, read as one unit, the way a printed apparatus gives it.

A collation cuts its units as fine as the alignment (docs/collation.md): where three free translations
differ for a whole clause, that clause is a dozen word-level units side by side, and an apparatus that
prints one entry for each gives `4 and] he add. B C   4 and] reviewed add. B; looked at add. C ...`,
the same lemma again and again. A scholar's apparatus gives one entry for the place: the lemma phrase and,
for each witness, what it reads there. `by_place(tree)` returns a copy of the edition in which each such
place is one `app`; the edition itself keeps its fine units (the TEI a machine reads, and the scholar edits).

A *place* is a run of two or more sibling `app` elements with nothing but whitespace between them, each of
them *plain*: `lem`, `rdg` and `rdgGrp` only, no unit inside (a container of nested units, such as a
paraphrase's clause, is never merged, though its lemma's units are), no `note`, `witDetail`, lacuna or gap,
no attribute on a reading but `@wit`, `@type`, `@n` and `@xml:id` (a conjecture, a hand's `@resp`, a
`@cause` keep their own entries), and every witness attested in it; a transposition by reference and the
units it moves (tei.apparatus.walk) keep theirs too. An edition with lacunae opened and closed by elements
is left as it is.

The merged unit is built from what the apparatus reader says each witness reads (one rule, one place):
its `lem` holds the lemmas of the units and the whitespace between them, in order, with their markup; the
witnesses whose every choice is that lemma read it; every other witness reads the concatenation of its own
readings (markup kept), and witnesses with the same words share one `rdg`. So each witness's text is
rebuilt from the copy exactly as from the edition. A run that no witness reads as its lemma (an eclectic
text made from several witnesses) is left unmerged: its entries keep their own lemma sigla.

The type of a merged reading: `omission` where the witness reads nothing there, `addition` where the
lemma is empty; otherwise the type its parts share, and where they differ `substitution` if any part is a
substitution, omission or addition, else the first of their types in the order the edition's taxonomy
(`classDecl/taxonomy/category`) declares them — the toolkit's own declares the substantive types first.
"""

from __future__ import annotations

import copy

from lxml import etree

from tei.apparatus.elements import APP, LEM, NO_WITNESS_TEXT, RDG, RDG_GRP, body, readings
from tei.apparatus.reader import Apparatus
from tei.apparatus.walk import CLOSERS, GAP, NOTHING, OPENERS
from tei.errors import TeiError
from tei.xmlio import tei, xml

READING_ATTRIBUTES = frozenset(("wit", "type", "n", xml("id")))
NOT_MERGED = frozenset((APP, GAP, *NO_WITNESS_TEXT, *OPENERS, *CLOSERS))
WORDS_CHANGED = ("substitution", "omission", "addition")
CATEGORY = tei("category")


def by_place(tree: etree._ElementTree, name: str = "<edition>", reader: Apparatus | None = None) -> etree._ElementTree:
    """A copy of an edition in parallel segmentation with each place of variation one unit (see above);
    the tree itself when the reader cannot read it or it has nothing to merge. `reader`: the apparatus
    reader of this tree when the caller has one, so that the witnesses are not read a second time."""
    if next(tree.getroot().iter(*OPENERS, *CLOSERS), None) is not None:
        return tree
    try:
        reader = reader or Apparatus(tree, name)
        if reader.parallel is not tree:
            return tree
        read = reader.attestations()
        body(tree, name)
    except TeiError:  # the reader refuses it: the stages that print say why
        return tree
    result = copy.deepcopy(tree)
    twin = dict(zip(tree.iter(), result.iter()))  # each node of the tree -> its node in the copy
    chosen = {
        twin[app]: {twin.get(reading, reading): ids for reading, ids in taken.items()} for app, taken in read.items()
    }
    order = [c.get(xml("id")) for c in result.getroot().iter(CATEGORY)]
    moved = {
        twin[app]
        for unit in reader.units()
        if unit.transposes
        for app in (unit.app, *(slot.app for r in unit.readings if r.moves for slot in r.moves))
    }
    runs = [run for run in _runs(body(result, name), chosen, moved) if len(run) > 1]
    for run in runs:
        _merge(run, chosen, reader.ids, order)
    return result if runs else tree


def _plain(app: etree._Element, chosen: dict) -> bool:
    if app.get("from") or app.get("to") or app.get("loc"):
        return False
    for child in app:
        if child.tag not in (LEM, RDG, RDG_GRP):
            return False
    for reading in readings(app):
        if set(reading.attrib) - READING_ATTRIBUTES:
            return False
        if next(reading.iter(*NOT_MERGED), None) is not None:
            return False
    taken = chosen.get(app, {})
    return bool(taken) and all(isinstance(r, etree._Element) or r is NOTHING for r in taken)


def _runs(container: etree._Element, chosen: dict, moved: set) -> list[list[etree._Element]]:
    """Every run of adjacent plain units, in document order, under any element of the container."""
    found: list[list[etree._Element]] = []
    for parent in container.iter():
        if not isinstance(parent.tag, str):
            continue
        current: list[etree._Element] = []
        for child in parent:
            joined = bool(current) and not (current[-1].tail or "").strip()
            if child.tag == APP and child not in moved and _plain(child, chosen):
                if current and not joined:
                    found.append(current)
                    current = []
                current.append(child)
            else:
                if current:
                    found.append(current)
                current = []
        if current:
            found.append(current)
    return found


def _append_text(target: etree._Element, text: str | None) -> None:
    if not text:
        return
    if len(target):
        target[-1].tail = (target[-1].tail or "") + text
    else:
        target.text = (target.text or "") + text


def _append_content(target: etree._Element, source: etree._Element) -> None:
    _append_text(target, source.text)
    for child in source:
        target.append(copy.deepcopy(child))


def _type(reading: etree._Element) -> str | None:
    parent = reading.getparent()
    return reading.get("type") or (parent.get("type") if parent is not None and parent.tag == RDG_GRP else None)


def _merge(run: list[etree._Element], chosen: dict, witnesses: list[str], order: list[str]) -> None:
    lemmas = [next((r for r in readings(app) if r.tag == LEM), None) for app in run]
    choice = {w: [] for w in witnesses}
    for app in run:
        for reading, ids in chosen[app].items():
            for witness in ids:
                choice[witness].append(reading)
    lemma = etree.Element(LEM)
    for index, app in enumerate(run):
        if lemmas[index] is not None:
            _append_content(lemma, lemmas[index])
        if index < len(run) - 1:
            _append_text(lemma, app.tail)
    lemma_key = _content_key(lemma)
    by_text: dict[bytes, tuple[etree._Element, list[str], list[str | None]]] = {}
    lemma_readers: list[str] = []
    for witness in witnesses:
        taken = choice[witness]
        if not taken:  # the run stands in a reading the witness does not take (a container's lemma)
            continue
        if len(taken) != len(run):  # it passes some of the units only: leave the run be
            return
        if all(r is lemmas[i] or (r is NOTHING and lemmas[i] is None) for i, r in enumerate(taken)):
            lemma_readers.append(witness)
            continue
        reading = etree.Element(RDG)
        for index, app in enumerate(run):
            if isinstance(taken[index], etree._Element):
                _append_content(reading, taken[index])
            if index < len(run) - 1:
                _append_text(reading, app.tail)
        key = _content_key(reading)
        if key == lemma_key:
            lemma_readers.append(witness)
            continue
        parts = [_type(r) for i, r in enumerate(taken) if isinstance(r, etree._Element) and r is not lemmas[i]]
        found = by_text.setdefault(key, (reading, [], parts))
        found[1].append(witness)
    if not lemma_readers:
        return
    merged = etree.Element(APP)
    lemma.set("wit", " ".join(f"#{w}" for w in lemma_readers))
    merged.append(lemma)
    empty_lemma = not "".join(lemma.itertext()).strip()
    for reading, ids, parts in by_text.values():
        reading.set("wit", " ".join(f"#{w}" for w in ids))
        kind = _merged_type(parts, not "".join(reading.itertext()).strip(), empty_lemma, order)
        if kind:
            reading.set("type", kind)
        merged.append(reading)
    first = run[0]
    merged.tail = run[-1].tail
    parent = first.getparent()
    parent.replace(first, merged)
    for app in run[1:]:
        parent.remove(app)


def _merged_type(parts: list[str | None], empty: bool, empty_lemma: bool, order: list[str]) -> str | None:
    if empty:
        return "omission"
    if empty_lemma:
        return "addition"
    kinds = set(parts)
    if len(kinds) == 1:
        return parts[0]
    if None in kinds:
        return None
    if kinds & set(WORDS_CHANGED):
        return "substitution"
    return min(kinds, key=lambda k: order.index(k) if k in order else -1)


def _content_key(element: etree._Element) -> bytes:
    holder = etree.Element("content")
    _append_content(holder, element)
    return etree.tostring(holder)
