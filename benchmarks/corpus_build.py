"""Corpus mode at scale: N works x 4 witnesses of about 200 words, made from the seeds' real text with random
edits, built with every default stage (transcriptions, edition, schema, validate, html, pdf, stats) on all
cores; prints the measured wall time, works per second, a second run with nothing changed, and each stage's
median time per work (from `tei build --timings` on a sample of the works, one process at a time).
Sahih Muslim has about 7,500 reports: `--works 7500` measures that size. With `--kitabs`, the works are
parallel narrations of Sahih Muslim instead: each is three consecutive narrations of one kitab (kitabs 1-16 of
../shared/corpora/arabic-hadith, read in place), in Arabic, collated as isnad and matn under hadith-ar, with
the isnad diagram in the HTML and the PDF. Beside the wall time it prints the CPU time (user + sys) of the
build and every process it started, the figure to trust on a machine other programs share. With --progress
the works done so far and the rate are printed to stderr as they finish (a long run can be read while it
goes). With --build-only, the build alone is measured (no second run, no per-stage sample): for A/B runs of
two checkouts, started from each one's folder (`python -m tei` takes the package of the current folder).
Usage:

    python benchmarks/corpus_build.py [--works 300] [--jobs 2] [--words 200] [--stages a,b,...] [--kitabs]
                                      [--progress SECONDS] [--build-only]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import resource
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
    parser.add_argument("--progress", type=float, default=0, help="print the works done every SECONDS (stderr)")
    parser.add_argument("--build-only", action="store_true", help="no second run and no per-stage sample")
    arguments = parser.parse_args()
    become_subreaper()
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
        cpu_before = children_cpu()
        start = time.perf_counter()
        returncode, last_line = run_with_progress(command, out, arguments.works, arguments.progress)
        elapsed = time.perf_counter() - start
        cpu = children_cpu() - cpu_before
        if returncode != 0:
            sys.exit(last_line)
        unchanged, per_stage = None, {}
        if not arguments.build_only:
            again = time.perf_counter()
            subprocess.run(command, capture_output=True, text=True)
            unchanged = time.perf_counter() - again
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
    print(f"CPU time of the build (user + sys, every process): {cpu:.1f} s, {cpu / arguments.works:.3f} s per work")
    if unchanged is not None:
        print(f"second run, every work unchanged: {unchanged:.1f} s")
    print(last_line)
    if per_stage:
        print(f"median seconds per work and stage, {SAMPLE} works built one by one:")
        print("  " + ", ".join(f"{name} {seconds:.3f}" for name, seconds in per_stage.items()))


def children_cpu() -> float:
    """User + sys seconds of every finished process below this one, the pool's workers included.

    The workers are the forkserver's children, and the forkserver outlives `tei build` by a moment: this
    process becomes their subreaper (Linux) and waits for every orphan, so that their time is counted.
    """
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def become_subreaper() -> None:
    PR_SET_CHILD_SUBREAPER = 36
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def run_with_progress(command: list[str], out: Path, works: int, every: float) -> tuple[int, str]:
    """Run the corpus build; with `every` > 0, print the works finished so far every `every` seconds.

    A work's written files are printed together when it finishes, so the works done are the distinct
    first folders under `out` in the printed paths. Returns the exit code and the last line of stderr.
    """
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        done: set[str] = set()
        start = last = time.perf_counter()
        for line in process.stdout:
            path = Path(line.strip())
            if path.is_relative_to(out) and path != out:
                done.add(path.relative_to(out).parts[0])
            now = time.perf_counter()
            if every and now - last >= every:
                last = now
                elapsed = now - start
                cpu = tree_cpu(process.pid)
                print(
                    f"  {len(done)}/{works} works in {elapsed:.0f} s: {len(done) / elapsed:.2f} works/s, "
                    f"CPU so far {cpu:.0f} s ({cpu / max(len(done), 1):.3f} s per work)",
                    file=sys.stderr,
                    flush=True,
                )
        process.wait()
        errors.seek(0)
        lines = errors.read().strip().splitlines()
    return process.returncode, "\n".join(lines[-20:]) if process.returncode else (lines[-1] if lines else "")


def tree_cpu(root: int) -> float:
    """User + sys seconds of the running process `root` and every live process below it (Linux /proc)."""
    parents, times = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += times.get(pid, 0.0)
        stack += [child for child, parent in parents.items() if parent == pid]
    return total


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
