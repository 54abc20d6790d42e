"""Placing the RELAX NG errors of invalid documents against tei_all: `tei validate`'s error placing beside jing.

    python benchmarks/validate_locate.py [--count 120] [--seed 5] [--rounds 3]

The documents are those of tests/validate/test_locate.py: corpus TEI documents of ../shared/corpora with one
or two random edits (120 with seed 5, of which 94 are invalid). For the invalid ones, `tei validate` walks the
grammar's derivatives over each document to place its errors where jing does and in jing's words
(tei.validate.locate); that walk is what is timed here, fresh (patterns read as the documents need them) and
again (the patterns already derived), and the whole grammar check (pruning, libxml2's verdict, the
placing) beside it. jing reads the same invalid documents in one run (JVM start and tei_all's compilation
included), as a scholar's `jing tei_all.rng *.xml` would. Times are medians of --rounds, CPU and wall.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "tests"))
from validate.test_locate import mutated_corpus_documents  # noqa: E402

from tei.validate.document import read_document  # noqa: E402
from tei.validate.relaxng_grammar import Grammar  # noqa: E402
from tei.validate.schema import load_schema  # noqa: E402

SHARED = PROJECT.parent / "shared"
TEI_ALL = SHARED / "corpora" / "tei-p5-schema" / "4.12.0" / "tei_all.rng"


def timed(function) -> tuple[float, float, object]:
    """CPU and wall seconds of one call, and its result."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = function()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def _children_cpu() -> float:
    """CPU seconds of the child processes waited for (jing's JVM, all its threads)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    jing = shutil.which("jing")
    if not (jing and TEI_ALL.is_file()):
        sys.exit("needs jing and the tei_all schema (../shared/corpora)")
    with tempfile.TemporaryDirectory() as folder:
        documents = mutated_corpus_documents(SHARED, Path(folder), arguments.count, arguments.seed)
        (engine, *_rules) = load_schema(TEI_ALL)
        trees = [read_document(d) for d in documents]
        invalid = [(d, t) for d, t in zip(documents, trees, strict=True) if not engine.validator_for(t).validate(t)]
        rows: dict[str, list[tuple[float, float]]] = {}
        for _ in range(arguments.rounds):
            engine._derivatives = Grammar(engine.grammar)  # patterns derived anew: as in a fresh process
            cpu, wall, fresh = timed(lambda: [engine.jing_errors(t) for _d, t in invalid])
            rows.setdefault("tei: placing, fresh patterns", []).append((cpu, wall))
            cpu, wall, again = timed(lambda: [engine.jing_errors(t) for _d, t in invalid])
            assert again == fresh
            rows.setdefault("tei: placing again", []).append((cpu, wall))
            cpu, wall, _ = timed(lambda: [list(engine.check(t, str(d))) for d, t in invalid])
            rows.setdefault("tei: grammar check (verdict + placing)", []).append((cpu, wall))
            before, start = _children_cpu(), time.perf_counter()
            subprocess.run([jing, str(TEI_ALL), *(str(d) for d, _t in invalid)], capture_output=True)
            rows.setdefault("jing: one run", []).append((_children_cpu() - before, time.perf_counter() - start))
    errors = sum(len(found) for found in fresh)
    print(f"{len(invalid)} invalid of {len(documents)} mutated corpus documents, {errors} errors placed")
    print(f"{'':42} {'CPU s':>7} {'wall s':>7}")
    for label, times in rows.items():
        cpu = statistics.median(c for c, _w in times)
        print(f"{label:42} {cpu:7.2f} {statistics.median(w for _c, w in times):7.2f}")


if __name__ == "__main__":
    main()
