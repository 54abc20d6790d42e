"""How fast tei.apparatus reads the largest shared edition (open-cbgm's 3 John: 140 witnesses), beside the old readers.

The work timed is what the stages ask of a reader for every witness: its text (`tei witness`, the
validator, convert) and its path through the units (stats, the CollateX table). The new reader builds one
`Apparatus` (witnesses resolved, the body compiled once) and runs every witness through it; the old
readers, loaded from git as they were at commit c0f6142 (tei/apparatus.py, tei/stats/walk.py,
tei/convert/attached.py; nothing of them is kept in tei/), walked the XML once per witness and per use.
Parsing is the same for both and is timed apart. Target: the new reader under 0.3 s.

    python benchmarks/read_apparatus.py [--runs 5] [--sample PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

from tei.apparatus import Apparatus
from tei.xmlio import parse_file

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT.parent / "shared/corpora/tei-apparatus/open-cbgm_3_john_collation.xml"
OLD_COMMIT = "c0f6142"
TARGET = 0.3


def old_module(name: str, path: str, replacements: dict[str, str]) -> types.ModuleType:
    """A module of the old code, read from git and imported under another name (its imports redirected)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD_COMMIT}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    for old, new in replacements.items():
        source = source.replace(old, new)
    module = types.ModuleType(name)
    module.__file__ = f"{OLD_COMMIT}:{path}"
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def old_readers() -> tuple[types.ModuleType, types.ModuleType, types.ModuleType]:
    apparatus = old_module(
        "old_apparatus",
        "tei/apparatus.py",
        {"tei.convert.attached": "old_convert_attached", "tei.convert.methods": "tei.apparatus.methods"},
    )
    walk = old_module("old_stats_walk", "tei/stats/walk.py", {"from tei.apparatus import": "from old_apparatus import"})
    attached = old_module(
        "old_convert_attached",
        "tei/convert/attached.py",
        {"from tei.apparatus import": "from old_apparatus import", "tei.convert.methods": "tei.apparatus.methods"},
    )
    return apparatus, walk, attached


def timed(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sample", type=Path, default=SAMPLE)
    arguments = parser.parse_args()
    path = arguments.sample
    parsing = timed(lambda: parse_file(path), arguments.runs)
    tree = parse_file(path)
    old_apparatus, old_walk, _old_attached = old_readers()
    witnesses = Apparatus(tree, str(path)).ids
    body = old_apparatus.body(tree)

    def new_reader():
        apparatus = Apparatus(tree, str(path))
        for witness in apparatus.ids:
            apparatus.text(witness)
            apparatus.path(witness)

    def old_reader():
        for witness in old_apparatus.witness_ids(tree):
            old_apparatus.witness_text(tree, witness)
            old_walk.follow(body, witness)

    new, old = timed(new_reader, arguments.runs), timed(old_reader, arguments.runs)
    print(f"{path.name}: {path.stat().st_size / 1024:.0f} KB, {len(witnesses)} witnesses; parsing {parsing:.3f} s")
    print(f"  new reader (tei.apparatus): {new:.3f} s for every witness's text and path (target <= {TARGET} s)")
    print(f"  old readers ({OLD_COMMIT}):      {old:.3f} s for the same")
    print(f"  {'within' if new <= TARGET else 'OVER'} target; {old / new:.1f}x the old readers' speed")


if __name__ == "__main__":
    main()
