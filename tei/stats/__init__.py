"""Statistics of an edition, read from its XML: agreement of witness pairs, units and readings by type, density.

An edition in any of the three methods is read; a base-text method is first converted (in memory, and
checked) to parallel segmentation, where each witness's way through the units is explicit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from lxml import etree

from tei.apparatus import APP, LEM, RDG, RDG_GRP, as_parallel_segmentation, body, follow, readings, witness_ids
from tei.xmlio import xml

UNTYPED = "untyped"
LEMMA = "lemma"


@dataclass(frozen=True)
class PairAgreement:
    """Two witnesses over the units both pass through: how many, and in how many they take the same reading."""

    first: str
    second: str
    compared: int
    agreeing: int

    @property
    def share(self) -> float | None:
        return self.agreeing / self.compared if self.compared else None


@dataclass(frozen=True)
class Statistics:
    witnesses: tuple[str, ...]
    sigla: dict[str, str]
    units: int
    readings: int
    units_by_type: dict[str, int]  # units with at least one reading of the type
    readings_by_type: dict[str, int]  # lem and rdg elements; a lem without a type counts as 'lemma'
    agreement: tuple[PairAgreement, ...]
    reference: str  # the witness along whose text the density is measured
    reference_length: int
    unit_offsets: tuple[int, ...]  # where each unit the reference witness passes through starts in its text
    units_at_offsets: tuple[int, ...]  # how many units count there: itself, and units inside readings it skips


def reading_type(reading: etree._Element) -> str:
    """@type of a reading, else of its rdgGrp; a lem with neither is 'lemma', a rdg 'untyped'."""
    group = reading.getparent()
    found = reading.get("type") or (group.get("type") if group is not None and group.tag == RDG_GRP else None)
    return found or (LEMMA if reading.tag == LEM else UNTYPED)


def statistics(tree: etree._ElementTree, name: str) -> Statistics:
    """Every figure of `tei stats` for a document (converted to parallel segmentation first if need be)."""
    tree = as_parallel_segmentation(tree, name)
    text = body(tree, name)
    witnesses = tuple(witness_ids(tree))
    apps = list(text.iter(APP))
    all_readings = [r for app in apps for r in readings(app)]
    paths = {w: follow(text, w) for w in witnesses}
    taken = {w: {id(p.app): p.reading for p in paths[w].passages if p.reading is not None} for w in witnesses}
    reference = witnesses[0] if witnesses else ""
    passages = paths[reference].passages if witnesses else []
    return Statistics(
        witnesses=witnesses,
        sigla=_sigla(tree, witnesses),
        units=len(apps),
        readings=len(all_readings),
        units_by_type=dict(
            Counter(t for app in apps for t in {reading_type(r) for r in readings(app) if r.tag == RDG})
        ),
        readings_by_type=dict(Counter(reading_type(r) for r in all_readings)),
        agreement=tuple(_agreement(a, b, taken) for a, b in combinations(witnesses, 2)),
        reference=reference,
        reference_length=paths[reference].length if witnesses else 0,
        unit_offsets=tuple(p.offset for p in passages),
        units_at_offsets=_units_at(passages, apps),
    )


def _units_at(passages, apps) -> tuple[int, ...]:
    """Each unit the reference passes counts at its place, with the units nested in readings it does not take."""
    on_path = {id(p.app): index for index, p in enumerate(passages)}
    counts = [0] * len(passages)
    for app in apps:
        holder = next((a for a in (app, *app.iterancestors(APP)) if id(a) in on_path), None)
        if holder is not None:
            counts[on_path[id(holder)]] += 1
    return tuple(counts)


def _agreement(first: str, second: str, taken: dict) -> PairAgreement:
    both = taken[first].keys() & taken[second].keys()
    agreeing = sum(1 for unit in both if taken[first][unit] is taken[second][unit])
    return PairAgreement(first, second, len(both), agreeing)


def _sigla(tree: etree._ElementTree, witnesses: tuple[str, ...]) -> dict[str, str]:
    declared = {w.get(xml("id")): w.get("n") for w in tree.getroot().iter("{*}witness")}
    return {w: declared.get(w) or w for w in witnesses}
