"""Corpus mode at scale: N works x 4 witnesses of about 200 words, made from the seeds' real text with random
edits, built with every default stage (transcriptions, edition, schema, validate, html, pdf, stats) on all
cores; prints the measured wall time, works per second, a second run with nothing changed, and each stage's
median time per work (from `tei build --timings` on a sample of the works, one process at a time).
Sahih Muslim has about 7,500 reports: `--works 7500` measures that size. With `--kitabs`, the works are
parallel narrations of Sahih Muslim instead: each is three consecutive narrations of one kitab (kitabs 1-16 of
../shared/corpora/arabic-hadith, read in place), in Arabic, collated as isnad and matn under hadith-ar, with
the isnad diagram in the HTML and the PDF. Usage:

    python benchmarks/corpus_build.py [--works 300] [--jobs 2] [--words 200] [--stages a,b,...] [--kitabs]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from witness_sets import variant  # noqa: E402  (the same random edits as the soak test)

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
KITABS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "arabic-hadith" / "sahih-muslim"
NARRATIONS = 3  # witnesses of a work of parallel narrations
SAMPLE = 10  # works built one by one with --timings for the per-stage figures
MANIFEST = """[edition]
id = "w{number}"
title = "Work {number}"
base = "A"
profile = "hadith-en"
{witnesses}"""


def make_corpus(folder: Path, works: int, words: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    source = " ".join((SEEDS / name).read_text("utf-8") for name in sorted(os.listdir(SEEDS)) if name.endswith(".txt"))
    vocabulary = source.split(" ")
    for number in range(works):
        start = rng.randrange(len(vocabulary) - words)
        base = " ".join(vocabulary[start : start + words])
        work = folder / f"work{number:05}"
        work.mkdir(parents=True)
        entries = []
        for letter, text in zip("ABCD", [base] + [variant(rng, base) for _ in range(3)]):
            (work / f"{letter}.txt").write_text(text, "utf-8")
            entries.append(f'\n[[witness]]\nid = "{letter}"\nfile = "{letter}.txt"\nlanguage = "en"\n')
        (work / "edition.toml").write_text(MANIFEST.format(number=number, witnesses="".join(entries)), "utf-8")


def make_hadith_corpus(folder: Path, works: int, kitabs: Path = KITABS) -> None:
    """`works` works of NARRATIONS consecutive narrations of one kitab, spread evenly over kitabs 1-16."""
    runs = []
    for number in range(1, 17):
        records = [r for r in json.loads((kitabs / f"{number}.json").read_text("utf-8"))["hadiths"] if r["arabic"]]
        runs += [(number, records[n : n + NARRATIONS]) for n in range(len(records) - NARRATIONS + 1)]
    for number, index in enumerate(range(0, len(runs), max(1, len(runs) // works))):
        if number == works:
            break
        kitab, records = runs[index]
        work = folder / f"work{number:05}"
        work.mkdir(parents=True)
        entries = []
        for letter, record in zip("ABCD", records):
            (work / f"{letter}.txt").write_text(record["arabic"], "utf-8")
            entries.append(
                f'\n[[witness]]\nid = "{letter}"\nsiglum = "M{record["idInBook"]}"\nfile = "{letter}.txt"\n'
                f'language = "ar"\nreferences = {{ in-book = {record["idInBook"]} }}\n'
            )
        manifest = MANIFEST.format(number=number, witnesses="".join(entries))
        manifest = manifest.replace("hadith-en", "hadith-ar").replace(f"Work {number}", f"Sahih Muslim, kitab {kitab}")
        (work / "edition.toml").write_text(manifest.replace('base = "A"', 'base = "A"\nlanguage = "ar"'), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--stages", help="only these stages (default: every stage)")
    parser.add_argument("--kitabs", action="store_true", help="parallel narrations of Sahih Muslim (../shared)")
    arguments = parser.parse_args()
    stage_option = ["--stages", arguments.stages] if arguments.stages else []
    with tempfile.TemporaryDirectory() as scratch:
        corpus, out = Path(scratch) / "corpus", Path(scratch) / "out"
        if arguments.kitabs:
            make_hadith_corpus(corpus, arguments.works)
        else:
            make_corpus(corpus, arguments.works, arguments.words)
        command = [
            sys.executable,
            "-m",
            "tei",
            "build",
            str(corpus),
            "-o",
            str(out),
            "--jobs",
            str(arguments.jobs),
            *stage_option,
        ]
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        again = time.perf_counter()
        subprocess.run(command, capture_output=True, text=True)
        unchanged = time.perf_counter() - again
        if result.returncode != 0:
            sys.exit(result.stderr[-2000:])
        per_stage = sample_timings(sorted(corpus.iterdir())[:SAMPLE], Path(scratch) / "sample", stage_option)
    rate = arguments.works / elapsed
    stages = arguments.stages or "every stage"
    kind = (
        f"{NARRATIONS} parallel Arabic narrations of Sahih Muslim (kitabs 1-16)"
        if arguments.kitabs
        else f"4 witnesses x {arguments.words} words"
    )
    print(f"{arguments.works} works x {kind}, {stages}, --jobs {arguments.jobs}")
    print(f"built in {elapsed:.1f} s ({elapsed / 60:.1f} min, measured): {rate:.1f} works/s")
    print(f"second run, every work unchanged: {unchanged:.1f} s")
    print(result.stderr.strip().splitlines()[-1])
    print(f"median seconds per work and stage, {SAMPLE} works built one by one:")
    print("  " + ", ".join(f"{name} {seconds:.3f}" for name, seconds in per_stage.items()))


def sample_timings(works: list[Path], out: Path, stage_option: list[str]) -> dict[str, float]:
    found: dict[str, list[float]] = {}
    for work in works:
        command = [sys.executable, "-m", "tei", "build", str(work), "-o", str(out / work.name), "--timings"]
        result = subprocess.run([*command, *stage_option], capture_output=True, text=True, check=True)
        for line in result.stderr.splitlines():
            name, _, rest = line.partition(": ")
            if rest.endswith(" s"):
                found.setdefault(name, []).append(float(rest.split()[0]))
    return {name: statistics.median(values) for name, values in found.items()}


if __name__ == "__main__":
    main()
