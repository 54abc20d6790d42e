"""Where a warm corpus worker's CPU time goes: the works of benchmarks/corpus_build.py built one after another
in this one process (tei.app.corpus.build_work, as a worker of `tei build CORPUS --jobs N` builds them), after
two works that pay what a worker pays once (imports, stylesheets compiled, the schema read, Typst's fonts).
Prints the CPU time (user + sys of this process, threads included) a work, and each stage's and the writing's
share of it. With --profile, the functions that took the most time under cProfile (which slows Python code,
not the native code of lxml and Typst: read its figures as places, not as times). Usage:

    python benchmarks/corpus_worker.py [--works 40] [--words 200] [--profile 30]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_build import make_corpus  # noqa: E402

from tei.app import build as build_module  # noqa: E402
from tei.app.build import BuildOptions  # noqa: E402
from tei.app.corpus import build_work  # noqa: E402

WARM_UP = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=40)
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    arguments = parser.parse_args()
    spent: dict[str, float] = {}
    run_stage, write_files = build_module.run_stage, build_module.write_files

    def timed(key: str, function):
        def call(*args, **kwargs):
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[key(*args)] = spent.get(key(*args), 0.0) + time.process_time() - started

        return call

    build_module.run_stage = timed(lambda name, *_: name, run_stage)
    build_module.write_files = timed(lambda *_: "(writing)", write_files)
    with tempfile.TemporaryDirectory() as scratch:
        corpus, out = Path(scratch) / "corpus", Path(scratch) / "out"
        make_corpus(corpus, arguments.works + WARM_UP, arguments.words)
        manifests = sorted(corpus.rglob("edition.toml"))

        def build(chosen: list[Path]) -> None:
            for manifest in chosen:
                result = build_work(manifest, BuildOptions(out / manifest.parent.name))
                if result.failed:
                    sys.exit(f"{manifest}: {result.diagnostics[0]}")

        build(manifests[:WARM_UP])
        spent.clear()
        profile = cProfile.Profile() if arguments.profile else None
        before = resource.getrusage(resource.RUSAGE_SELF)
        if profile is not None:
            profile.enable()
        build(manifests[WARM_UP:])
        if profile is not None:
            profile.disable()
        after = resource.getrusage(resource.RUSAGE_SELF)
    works = arguments.works
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    print(f"{works} works x 4 witnesses x {arguments.words} words, one warm process{' (cProfile)' * bool(profile)}")
    print(f"CPU a work: {(user + system) / works:.3f} s (user {user / works:.3f}, sys {system / works:.3f})")
    accounted = sum(spent.values())
    for name, seconds in [*spent.items(), ("(the rest of build_work)", user + system - accounted)]:
        print(f"  {name:26} {seconds / works:.4f} s  {seconds / (user + system):5.1%}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(arguments.profile)


if __name__ == "__main__":
    main()
