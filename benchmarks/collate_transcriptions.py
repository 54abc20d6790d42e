"""Time and memory of `tei collate` from scholars' TEI transcriptions beside CollateX on the plain texts (issue 32).

For the largest of the sets of ../shared/corpora/tei-transcriptions/ built by the manifests under
tests/fixtures/transcriptions/real/ (largest: the most characters of final text over its witnesses), in
the same run:

- `tei collate --manifest edition.toml -o edition.xml`: reading the TEI transcriptions (every hand layer
  the manifest collates), collating and writing the edition with its markup, pages and lines;
- CollateX (the Python package, as benchmarks/collate_realgold.py runs it) on the plain final texts of
  the same witnesses, split at whitespace, TEI output.

Each runs in a child process of its own; the figures are its wall-clock seconds and its peak resident
memory (the child's ru_maxrss, from os.wait4). Nothing is asserted: the numbers are printed.

    python benchmarks/collate_transcriptions.py [--set NAME] [--collatex-timeout 600]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

SETS = PROJECT / "tests" / "fixtures" / "transcriptions" / "real"


def final_texts(manifest: Path) -> dict[str, str]:
    """The plain final text of each witness of a manifest (hand layers left out), as the reader collates it."""
    from tei.readers.manifest import read_manifest

    work = read_manifest(manifest)
    return {w.id: w.text for w in work.witnesses if w.layer_of is None}


def in_child(function, *arguments) -> tuple[int, float, int]:
    """Run function(*arguments) in a forked child: (exit status, seconds, peak resident KB)."""
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            function(*arguments)
            os._exit(0)
        except SystemExit as exc:  # the command line ends so
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        except BaseException as exc:  # the child reports and ends; the parent prints the status
            print(f"child failed: {exc!r}", file=sys.stderr)
            os._exit(1)
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), time.perf_counter() - started, usage.ru_maxrss


def run_tei(manifest: Path, output: Path) -> None:
    from tei.cli import main

    main(["collate", "--manifest", str(manifest), "-o", str(output)], standalone_mode=True)


def run_collatex(texts: dict[str, str], timeout: float) -> None:
    import signal

    from collatex import Collation
    from collatex import collate as collatex_collate

    signal.alarm(int(timeout))
    witnesses = [{"id": wid, "tokens": [{"t": w + " "} for w in text.split()]} for wid, text in texts.items()]
    collatex_collate(Collation.create_from_dict({"witnesses": witnesses}), output="tei")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", help="one set (a folder of tests/fixtures/transcriptions/real/); default the largest")
    parser.add_argument("--collatex-timeout", type=float, default=600)
    arguments = parser.parse_args()
    manifests = {p.parent.name: p for p in sorted(SETS.glob("*/edition.toml"))}
    sizes = {}
    for name, manifest in manifests.items():
        texts = final_texts(manifest)
        sizes[name] = (sum(len(t) for t in texts.values()), len(texts), texts)
        print(f"{name:<14} {sizes[name][1]} witnesses, {sizes[name][0]} characters of final text")
    name = arguments.set or max(sizes, key=lambda n: sizes[n][0])
    characters, count, texts = sizes[name]
    words = sum(len(t.split()) for t in texts.values())
    print(f"\nset: {name} ({count} witnesses, {words} words)")
    print(f"{'tool':<44} {'status':>6} {'seconds':>8} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        status, seconds, peak = in_child(run_tei, manifests[name], Path(folder) / "edition.xml")
        print(f"{'tei collate (TEI transcriptions, all layers)':<44} {status:>6} {seconds:>8.2f} {peak / 1024:>8.1f}")
    status, seconds, peak = in_child(run_collatex, texts, arguments.collatex_timeout)
    label = "CollateX (plain final texts)" + (" [stopped]" if status < 0 else "")
    print(f"{label:<44} {status:>6} {seconds:>8.2f} {peak / 1024:>8.1f}")


if __name__ == "__main__":
    main()
