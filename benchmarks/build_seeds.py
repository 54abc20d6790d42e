"""`tei build seeds -o OUT` as a user runs it: fresh processes, each stage's time and the whole command's wall time.

Two rows: a build into an empty folder, and an unchanged rebuild into the same folder (every stage skipped
by its stamp). Each figure is the median of --runs fresh processes of the `tei` script beside this Python.
The stage times come from `tei build --timings`: each stage's own time, in the worker process that ran it. The
stages from the manifest run side by side, and so do those from edition.xml (two at a time), so the stages
add up to more than they cost in wall time; "stages" is their sum, "wall" the whole command's time (start-up
and imports included). "cpu" is the user + sys time of the process and its workers, the figure to trust when
other programs share the machine. Usage:

    python benchmarks/build_seeds.py [--runs 5]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from console import tei_script  # noqa: E402

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(output: Path) -> tuple[float, dict[str, float], float]:
    command = [tei_script(), "build", str(SEEDS), "-o", str(output), "--timings"]
    cpu = children_cpu()
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    cpu = children_cpu() - cpu
    if result.returncode != 0:
        sys.exit(f"tei build failed:\n{result.stderr}")
    stages = {}
    for line in result.stderr.splitlines():
        name, _, rest = line.partition(": ")
        if rest.endswith("s") or "skipped" in rest:
            stages[name] = float(rest.split()[0])
    return wall, stages, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    fresh, again = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(runs):
            output = Path(scratch) / f"build{number}"
            fresh.append(run_build(output))
            again.append(run_build(output))
    names = list(fresh[0][1])
    print(f"tei build seeds -o OUT, median of {runs} fresh processes, seconds")
    print(f"{'':22}" + "".join(f"{n:>15}" for n in names) + f"{'stages':>9}{'wall':>8}{'cpu':>8}")
    for label, rows in (("into an empty folder", fresh), ("unchanged rebuild", again)):
        medians = {n: statistics.median(r[1][n] for r in rows) for n in names}
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[2] for r in rows)
        stages = sum(medians.values())
        print(f"{label:22}" + "".join(f"{medians[n]:15.3f}" for n in names) + f"{stages:9.3f}{wall:8.3f}{cpu:8.3f}")


if __name__ == "__main__":
    main()
