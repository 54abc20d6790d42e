"""Corpus mode at scale: N works x 4 witnesses of about 200 words, made from the seeds' real text with random
edits, built with collate + validate + HTML on all cores; prints works per second and the time 7,500 works
(Sahih Muslim's size) would take at that rate. Usage:

    python benchmarks/corpus_build.py [--works 300] [--jobs 2] [--words 200]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from witness_sets import variant  # noqa: E402  (the same random edits as the soak test)

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
STAGES = "transcriptions,edition,schema,validate,html"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--words", type=int, default=200)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        corpus, out = Path(scratch) / "corpus", Path(scratch) / "out"
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
            "--stages",
            STAGES,
        ]
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        again = time.perf_counter()
        subprocess.run(command, capture_output=True, text=True)
        unchanged = time.perf_counter() - again
    if result.returncode != 0:
        sys.exit(result.stderr[-2000:])
    rate = arguments.works / elapsed
    print(f"{arguments.works} works x 4 witnesses x {arguments.words} words, stages {STAGES}, --jobs {arguments.jobs}")
    print(f"built in {elapsed:.1f} s: {rate:.1f} works/s; 7,500 works would take {7500 / rate / 60:.1f} min")
    print(f"second run, every work unchanged: {unchanged:.1f} s")
    print(result.stderr.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
