"""The figures of `tei stats` as a table a person reads (text), or a program reads (JSON, CSV); by name.

Each table is written by a generator of pieces (`CHUNKS`), the agreement pairs streamed from
tei.stats.Agreement a few thousand lines a piece, so a table of 50 million pairs is written without
being held; `TABLES` joins the pieces into one string for the small cases (files, tests)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from tei.stats import PairAgreement, Statistics

DENSITY_WINDOWS = 20
PIECE = 4096  # agreement lines a piece of streamed output


def density(stats: Statistics, windows: int = DENSITY_WINDOWS) -> list[tuple[int, int, int]]:
    """(start, end, units) for equal windows of the reference witness's text: the units starting in each."""
    length = max(stats.reference_length, 1)
    bounds = [round(length * i / windows) for i in range(windows + 1)]
    counts = [0] * windows
    for offset, units in zip(stats.unit_offsets, stats.units_at_offsets):
        counts[min(offset * windows // length, windows - 1)] += units
    return [(bounds[i], bounds[i + 1], counts[i]) for i in range(windows)]


def pair_record(pair: PairAgreement) -> dict:
    return {
        "first": pair.first,
        "second": pair.second,
        "compared": pair.compared,
        "agreeing": pair.agreeing,
        "share": None if pair.share is None else round(pair.share, 4),
    }


def _records(stats: Statistics, agreement) -> dict:
    return {
        "witnesses": [{"id": w, "siglum": stats.sigla[w]} for w in stats.witnesses],
        "units": stats.units,
        "readings": stats.readings,
        "units_by_type": dict(sorted(stats.units_by_type.items())),
        "readings_by_type": dict(sorted(stats.readings_by_type.items())),
        "agreement": agreement,
        "density": {
            "reference": stats.reference,
            "characters": stats.reference_length,
            "windows": [{"start": s, "end": e, "units": n} for s, e, n in density(stats)],
        },
    }


def as_records(stats: Statistics) -> dict:
    """Every figure as plain data (every pair held: for the small cases and tests)."""
    return _records(stats, [pair_record(p) for p in stats.agreement])


def _pieces(lines: Iterable[str]) -> Iterator[str]:
    """Lines (each ending in its newline) joined PIECE at a time."""
    lines = iter(lines)
    while piece := "".join(islice(lines, PIECE)):
        yield piece


_SLOT = "\x00agreement\x00"  # where the pairs go in the JSON; XML (so no siglum) cannot hold U+0000


def json_chunks(stats: Statistics) -> Iterator[str]:
    """The JSON of as_records, with indent 2, the pairs written one by one where the list goes: the same
    bytes as json.dumps of the whole, each pair dumped alone and indented to its depth (4 spaces)."""
    head, tail = json.dumps(_records(stats, _SLOT), ensure_ascii=False, indent=2).split(json.dumps(_SLOT), 1)
    yield head
    string, opening = json.JSONEncoder(ensure_ascii=False).encode, ("[\n", ",\n")
    pairs = (
        f'{opening[index > 0]}    {{\n      "first": {string(first)},\n      "second": {string(second)},\n'
        f'      "compared": {compared},\n      "agreeing": {agreeing},\n'
        f'      "share": {repr(round(agreeing / compared, 4)) if compared else "null"}\n    }}'
        for index, (first, second, compared, agreeing) in enumerate(stats.agreement.counts())
    )
    written = False
    for piece in _pieces(pairs):
        written = True
        yield piece
    yield ("\n  ]" if written else "[]") + tail + "\n"


def csv_chunks(stats: Statistics) -> Iterator[str]:
    """One row a figure: measure, key, second key, value (agreement rows carry compared and agreeing too)."""
    records = _records(stats, None)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")

    def taken() -> str:
        text = out.getvalue()
        out.seek(0)
        out.truncate()
        return text

    writer.writerow(["measure", "key", "other", "value", "compared", "agreeing"])
    writer.writerow(["units", "", "", records["units"], "", ""])
    writer.writerow(["readings", "", "", records["readings"], "", ""])
    for measure in ("units_by_type", "readings_by_type"):
        for kind, count in records[measure].items():
            writer.writerow([measure, kind, "", count, "", ""])
    yield taken()
    rows = (
        ("agreement", first, second, round(agreeing / compared, 4) if compared else None, compared, agreeing)
        for first, second, compared, agreeing in stats.agreement.counts()
    )
    while batch := list(islice(rows, PIECE)):
        writer.writerows(batch)
        yield taken()
    for window in records["density"]["windows"]:
        writer.writerow(["density", window["start"], window["end"], window["units"], "", ""])
    yield taken()


def text_chunks(stats: Statistics) -> Iterator[str]:
    records = _records(stats, None)
    lines = [
        f"witnesses: {', '.join(w['siglum'] for w in records['witnesses'])}",
        f"variation units: {records['units']}",
        f"readings: {records['readings']}",
        "",
        "units by reading type:",
    ]
    lines += [f"  {kind:<16}{count:>6}" for kind, count in records["units_by_type"].items()]
    lines += ["", "readings by type:"]
    lines += [f"  {kind:<16}{count:>6}" for kind, count in records["readings_by_type"].items()]
    lines += ["", "agreement (same reading, over the units both witnesses pass through):"]
    yield "\n".join(lines) + "\n"
    sigla = stats.sigla
    yield from _pieces(
        f"  {sigla[first]:>8} {sigla[second]:<8}{_text_share(compared, agreeing)}  ({agreeing} of {compared})\n"
        for first, second, compared, agreeing in stats.agreement.counts()
    )
    lines = ["", f"variation density along witness {stats.sigla.get(stats.reference, '')} (units per window):"]
    lines += [f"  {w['start']:>7}-{w['end']:<7}{'#' * w['units']} {w['units']}" for w in records["density"]["windows"]]
    yield "\n".join(lines) + "\n"


def _text_share(compared: int, agreeing: int) -> str:
    """The share as the text table prints it: rounded to four places first (as in JSON and CSV), then as %."""
    return f"{round(agreeing / compared, 4):>6.1%}" if compared else "   n/a"


def as_json(stats: Statistics) -> str:
    return "".join(json_chunks(stats))


def as_csv(stats: Statistics) -> str:
    return "".join(csv_chunks(stats))


def as_text(stats: Statistics) -> str:
    return "".join(text_chunks(stats))


CHUNKS: dict[str, Callable[[Statistics], Iterator[str]]] = {"text": text_chunks, "json": json_chunks, "csv": csv_chunks}
TABLES: dict[str, Callable[[Statistics], str]] = {"text": as_text, "json": as_json, "csv": as_csv}
EXTENSIONS = {"text": "txt", "json": "json", "csv": "csv"}
