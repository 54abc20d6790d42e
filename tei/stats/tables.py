"""The figures of `tei stats` as a table a person reads (text), or a program reads (JSON, CSV); by name."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from tei.stats import Statistics

DENSITY_WINDOWS = 20


def density(stats: Statistics, windows: int = DENSITY_WINDOWS) -> list[tuple[int, int, int]]:
    """(start, end, units) for equal windows of the reference witness's text: the units starting in each."""
    length = max(stats.reference_length, 1)
    bounds = [round(length * i / windows) for i in range(windows + 1)]
    counts = [0] * windows
    for offset, units in zip(stats.unit_offsets, stats.units_at_offsets):
        counts[min(offset * windows // length, windows - 1)] += units
    return [(bounds[i], bounds[i + 1], counts[i]) for i in range(windows)]


def as_records(stats: Statistics) -> dict:
    return {
        "witnesses": [{"id": w, "siglum": stats.sigla[w]} for w in stats.witnesses],
        "units": stats.units,
        "readings": stats.readings,
        "units_by_type": dict(sorted(stats.units_by_type.items())),
        "readings_by_type": dict(sorted(stats.readings_by_type.items())),
        "agreement": [
            {
                "first": p.first,
                "second": p.second,
                "compared": p.compared,
                "agreeing": p.agreeing,
                "share": None if p.share is None else round(p.share, 4),
            }
            for p in stats.agreement
        ],
        "density": {
            "reference": stats.reference,
            "characters": stats.reference_length,
            "windows": [{"start": s, "end": e, "units": n} for s, e, n in density(stats)],
        },
    }


def as_json(stats: Statistics) -> str:
    return json.dumps(as_records(stats), ensure_ascii=False, indent=2) + "\n"


def as_csv(stats: Statistics) -> str:
    """One row a figure: measure, key, second key, value (agreement rows carry compared and agreeing too)."""
    records = as_records(stats)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["measure", "key", "other", "value", "compared", "agreeing"])
    writer.writerow(["units", "", "", records["units"], "", ""])
    writer.writerow(["readings", "", "", records["readings"], "", ""])
    for measure in ("units_by_type", "readings_by_type"):
        for kind, count in records[measure].items():
            writer.writerow([measure, kind, "", count, "", ""])
    for pair in records["agreement"]:
        writer.writerow(["agreement", pair["first"], pair["second"], pair["share"], pair["compared"], pair["agreeing"]])
    for window in records["density"]["windows"]:
        writer.writerow(["density", window["start"], window["end"], window["units"], "", ""])
    return out.getvalue()


def as_text(stats: Statistics) -> str:
    records = as_records(stats)
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
    for pair in records["agreement"]:
        share = "   n/a" if pair["share"] is None else f"{pair['share']:>6.1%}"
        lines.append(
            f"  {stats.sigla[pair['first']]:>8} {stats.sigla[pair['second']]:<8}{share}"
            f"  ({pair['agreeing']} of {pair['compared']})"
        )
    lines += ["", f"variation density along witness {stats.sigla.get(stats.reference, '')} (units per window):"]
    lines += [f"  {w['start']:>7}-{w['end']:<7}{'#' * w['units']} {w['units']}" for w in records["density"]["windows"]]
    return "\n".join(lines) + "\n"


TABLES: dict[str, Callable[[Statistics], str]] = {"text": as_text, "json": as_json, "csv": as_csv}
EXTENSIONS = {"text": "txt", "json": "json", "csv": "csv"}
