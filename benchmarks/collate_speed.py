"""Collation speed and peak memory, ours side by side with CollateX (pip install -e '.[bench]').

Each measurement runs in a fresh Python process, so peak memory (the process's maximum resident set,
interpreter included) is its own. Time is wall-clock and CPU time of collating and writing the TEI
edition (imports excluded); the speed-up compares CPU time, which a busy machine disturbs less.
Cases: the four seeds; 4 synthetic witnesses x 1,000 and x 2,000 words; 4 x 100,000 words; many
witnesses: 111 x 150 words (the size of the 3 John collation) and 500 x 1,000 words. CollateX is not
run where it cannot finish within the timeout (4 x 100,000, and 500 x 1,000: its time grows
quadratically or worse in words and in witnesses; a note says so); a CollateX run longer than
--collatex-timeout is stopped and shown as "> N s".

    python benchmarks/collate_speed.py [--cases seeds,1000,2000,100000,111x150,500x1000] [--no-collatex]
                                       [--collatex-timeout 600]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = HERE.parent / "seeds"
CASES = {
    "seeds": None,
    "1000": (4, 1000),
    "2000": (4, 2000),
    "100000": (4, 100000),
    "111x150": (111, 150),
    "500x1000": (500, 1000),
}  # witnesses and words per witness
COLLATEX_SKIPPED = {
    "100000": "CollateX not run: 4 x 2,000 words already take it over 600 s",
    "500x1000": "CollateX not run: 111 x 150 words already take it near or over 600 s",
}


def witness_texts(case: str) -> dict[str, str]:
    if case == "seeds":
        from tei.readers.manifest import read_manifest

        return {w.id: w.text for w in read_manifest(SEEDS / "edition.toml").witnesses}
    sys.path.insert(0, str(HERE))
    from synthetic_witnesses import generate

    witnesses, words = CASES[case]
    return generate(words, witnesses, seed=1).texts


WARM_UP = {
    "A": 'warm up (ﷺ) said: "Allah [8:9]" (Qur’an 8:9) عز وجل',
    "B": "warm up the imports (peace and blessings be upon him), 1.",
}


def run_ours(texts: dict[str, str]) -> int:
    """Collate with A as base under hadith-en and write the TEI; the number of bytes written."""
    from tei.collate import collate
    from tei.model import Witness, Work
    from tei.writers.edition import edition_bytes

    witnesses = tuple(Witness(wid, wid, text) for wid, text in texts.items())
    edition = collate(Work("bench", "Benchmark", base="A", profile="hadith-en", witnesses=witnesses))
    return len(edition_bytes(edition))


def run_collatex(texts: dict[str, str]) -> int:
    from collatex import Collation, collate

    collation = Collation()
    for wid, text in texts.items():
        collation.add_plain_witness(wid, text)
    return len(collate(collation, output="tei"))


def measure_here(aligner: str, case: str) -> None:
    texts = witness_texts(case)
    run = run_ours if aligner == "tei" else run_collatex
    run(WARM_UP)  # imports and lazily compiled patterns (formulas, citations) are not timed
    started, cpu_started = time.perf_counter(), time.process_time()
    size = run(texts)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    words = sum(len(t.split()) for t in texts.values())
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb, "words": words, "output_bytes": size}))


def measure(aligner: str, case: str, timeout: float | None = None) -> dict:
    try:
        result = subprocess.run(
            [sys.executable, __file__, "--one", aligner, case], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"error": f"> {timeout:.0f} s", "timeout": timeout}
    if result.returncode:
        return {"error": result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"}
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="seeds,1000,2000,100000,111x150,500x1000")
    parser.add_argument("--no-collatex", action="store_true")
    parser.add_argument(
        "--collatex-timeout",
        type=float,
        default=600,
        help="seconds after which a CollateX run is stopped and reported as '> N s'",
    )
    parser.add_argument("--one", nargs=2, metavar=("ALIGNER", "CASE"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.one:
        measure_here(*arguments.one)
        return
    print("wall-clock seconds (CPU seconds of the process in brackets), peak resident memory in MB")
    print(f"{'':<8} {'':>7} {'':>16} {'':>7} (machine load when started: {os.getloadavg()[0]:.1f})")
    print(
        f"{'case':<8} {'words':>7} {'tei s (cpu)':>16} {'tei MB':>7} {'CollateX s (cpu)':>19} {'CollateX MB':>12}"
        f" {'speed-up':>9}"
    )
    notes: list[str] = []
    for case in arguments.cases.split(","):
        ours = measure("tei", case)
        skip = arguments.no_collatex or case in COLLATEX_SKIPPED
        theirs = {"error": "not run"} if skip else measure("collatex", case, arguments.collatex_timeout)
        if case in COLLATEX_SKIPPED and not arguments.no_collatex:
            notes.append(f"{case}: {COLLATEX_SKIPPED[case]}")
        if "error" in ours:
            print(f"{case:<8} tei failed: {ours['error']}")
            continue
        line = f"{case:<8} {ours['words']:>7} {ours['seconds']:>8.2f} ({ours['cpu']:>5.2f}) {ours['peak_mb']:>7.0f}"
        if "error" in theirs and theirs["error"].startswith(">"):  # stopped: the speed-up is at least this
            line += f" {theirs['error']:>19} {'':>12} {'>' + format(theirs['timeout'] / ours['seconds'], '.0f'):>8}x"
        elif "error" in theirs:
            line += f" {theirs['error']:>19} {'':>12} {'':>9}"
        else:
            line += (
                f" {theirs['seconds']:>10.2f} ({theirs['cpu']:>6.2f}) {theirs['peak_mb']:>12.0f}"
                f" {theirs['cpu'] / ours['cpu']:>8.0f}x"
            )
        print(line, flush=True)
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
