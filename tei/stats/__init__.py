"""Statistics of an edition, read from its XML: agreement of witness pairs, units and readings by type, density.

Everything is read through tei.apparatus.Apparatus (a base-text method is folded into parallel
segmentation there, where each witness's way through the units is explicit). Each witness's path gives,
for every unit it passes, the reading it takes: a lem or rdg, `NOTHING` (a unit without lem, whose words
it lacks: an addition against the base text), `LACUNOSE` or nothing at all (a positive apparatus that does
not cite it). Two witnesses are compared over the units both pass with a reading (an element or
NOTHING; a lacuna is no reading) and agree where they take the same one. A unit without lem counts as
an "addition" unit (`units_by_type`) when some witness reads nothing there, and that implicit empty
reading as an "addition" reading.

The pairs are as many as witnesses squared (10,000 witnesses: 50 million), so they are never all held:
`Agreement` keeps one small integer a witness and unit (the reading it takes, numbered within the unit;
-1 for none) and yields the pairs one first witness at a time, each row computed over the array at once.
Memory is linear in witnesses × units; the tables stream the pairs out as they come (tei.stats.tables).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy
from lxml import etree

from tei.apparatus import LACUNOSE, LEM, NOTHING, RDG, RDG_GRP, Apparatus, assume_tei_namespace
from tei.apparatus.walk import Reading, Unit
from tei.xmlio import parse_file

UNTYPED = "untyped"
LEMMA = "lemma"
ADDITION = "addition"
TRANSPOSITION = "transposition"


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


class Agreement:
    """Every pair of witnesses (in the order of itertools.combinations) with its PairAgreement, computed as
    it is iterated: `codes[w, u]` is the number of the reading witness w takes in unit u, -1 where it takes
    none (not cited, or lacunose). For a first witness, compared = the later witnesses with a code >= 0 in
    the units where it has one, agreeing = those with the same code there; one numpy row at a time, so
    the memory is that of `codes` and one row, never of the pairs."""

    def __init__(self, witnesses: tuple[str, ...], codes: numpy.ndarray):
        self.witnesses = witnesses
        self.codes = codes

    def __len__(self) -> int:
        return len(self.witnesses) * (len(self.witnesses) - 1) // 2

    def __iter__(self) -> Iterator[PairAgreement]:
        for counts in self.counts():
            yield PairAgreement(*counts)

    def counts(self) -> Iterator[tuple[str, str, int, int]]:
        """(first, second, compared, agreeing) for every pair, as plain tuples (what the tables write)."""
        codes, witnesses = self.codes, self.witnesses
        for index, first in enumerate(witnesses[:-1]):
            row, later = codes[index], codes[index + 1 :]
            has = row >= 0
            compared = (later[:, has] >= 0).sum(axis=1).tolist()
            agreeing = (later[:, has] == row[has]).sum(axis=1).tolist()
            yield from zip((first,) * len(compared), witnesses[index + 1 :], compared, agreeing)


@dataclass(frozen=True)
class Statistics:
    witnesses: tuple[str, ...]
    sigla: dict[str, str]
    units: int
    readings: int
    units_by_type: dict[str, int]  # units with at least one reading of the type
    readings_by_type: dict[str, int]  # lem and rdg elements; a lem without a type counts as 'lemma'
    agreement: Agreement  # an iterable of PairAgreement, every pair once, streamed
    reference: str  # the witness along whose text the density is measured
    reference_length: int
    unit_offsets: tuple[int, ...]  # where each unit the reference witness passes through starts in its text
    units_at_offsets: tuple[int, ...]  # how many units count there: itself, and units inside readings it skips
    diagnostics: tuple = ()  # what the apparatus reader warned about (hands, undeclared sigla)


def reading_type(reading: Reading) -> str:
    """@type of a reading, else of its rdgGrp; else 'transposition' for a reading of a transposition by
    reference that reads the units in another order than the document's (Reading.reorders, as the print
    and the web edition call it); else a lem is 'lemma', a rdg 'untyped'."""
    element = reading.element
    group = element.getparent()
    found = element.get("type") or (group.get("type") if group is not None and group.tag == RDG_GRP else None)
    if found:
        return found
    if reading.reorders:
        return TRANSPOSITION
    return LEMMA if element.tag == LEM else UNTYPED


def read_statistics(edition: Path, assume_tei: bool = False) -> Statistics:
    """The statistics of an edition file; with `assume_tei`, elements in no namespace are read as TEI's."""
    tree = parse_file(edition)
    return statistics(assume_tei_namespace(tree) if assume_tei else tree, str(edition))


def statistics(tree: etree._ElementTree, name: str) -> Statistics:
    """Every figure of `tei stats` for a document (read through tei.apparatus)."""
    apparatus = Apparatus(tree, name)
    witnesses = tuple(apparatus.ids)
    units = apparatus.units()
    all_readings = [r for unit in units for r in unit.readings]
    paths = {w: apparatus.path(w, marker="") for w in witnesses}
    codes = _reading_codes(witnesses, paths)
    additions = {id(p.app) for w in witnesses for p in paths[w].passages if p.reading is NOTHING}
    reference = witnesses[0] if witnesses else ""
    passages = paths[reference].passages if witnesses else []
    return Statistics(
        witnesses=witnesses,
        sigla={w: apparatus.witnesses.siglum(w) for w in witnesses},
        units=len(units),
        readings=len(all_readings),
        units_by_type=dict(Counter(t for unit in units for t in _unit_types(unit, additions))),
        readings_by_type=dict(
            Counter([reading_type(r) for r in all_readings] + [ADDITION for u in units if id(u.app) in additions])
        ),
        agreement=Agreement(witnesses, codes),
        reference=reference,
        reference_length=paths[reference].length if witnesses else 0,
        unit_offsets=tuple(p.offset for p in passages),
        units_at_offsets=_units_at(passages, [u.app for u in units]),
        diagnostics=tuple(apparatus.witnesses.diagnostics),
    )


def _unit_types(unit: Unit, additions: set[int]) -> set[str]:
    """The types of a unit's rdg elements, and 'addition' for a unit without lem where some witness reads
    nothing (the words of its readings are added against the base text)."""
    found = {reading_type(r) for r in unit.readings if r.element.tag == RDG}
    if id(unit.app) in additions:
        found.add(ADDITION)
    return found


def _units_at(passages, apps) -> tuple[int, ...]:
    """Each unit the reference passes counts at its place, with the units nested in readings it does not take."""
    on_path = {id(p.app): index for index, p in enumerate(passages)}
    counts = [0] * len(passages)
    for app in apps:
        holder = next((a for a in (app, *app.iterancestors(app.tag)) if id(a) in on_path), None)
        if holder is not None:
            counts[on_path[id(holder)]] += 1
    return tuple(counts)


def _reading_codes(witnesses: tuple[str, ...], paths: dict) -> numpy.ndarray:
    """witnesses × units the witnesses pass: the number of the reading (an element, or NOTHING) each takes in
    each unit, the same number for the same reading of one unit; -1 where it takes none (a lacuna, or a
    unit it does not pass). Compared as numbers, two witnesses agree in a unit exactly where they take the
    same reading object there."""
    columns: dict[int, int] = {}
    numbers: dict[tuple[int, int], int] = {}
    cells: dict[tuple[int, int], int] = {}  # a unit passed twice: the later passage, as a dict by unit kept it
    for row, witness in enumerate(witnesses):
        for passage in paths[witness].passages:
            reading = passage.reading
            if reading is None or reading is LACUNOSE:
                continue
            column = columns.setdefault(id(passage.app), len(columns))
            cells[row, column] = numbers.setdefault((column, id(reading)), len(numbers))
    codes = numpy.full((len(witnesses), len(columns)), -1, dtype=numpy.int32 if len(numbers) < 2**31 else numpy.int64)
    if cells:
        rows, cols = zip(*cells)
        codes[list(rows), list(cols)] = list(cells.values())
    return codes
