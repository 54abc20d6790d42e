"""How fast `tei --help` starts in a fresh process (target: under 0.3 s), beside a bare Python start.

python benchmarks/cli_startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import tei_script  # noqa: E402


def timed(command: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    tei = tei_script()
    rows = [
        ("python -c pass (floor)", [sys.executable, "-c", "pass"]),
        ("tei --help", [tei, "--help"]),
        ("tei encode --help", [tei, "encode", "--help"]),
        ("tei --version", [tei, "--version"]),
    ]
    print(f"{'command':28} {'median s':>9} {'max s':>9}   ({runs} runs each, fresh processes)")
    for label, command in rows:
        times = timed(command, runs)
        print(f"{label:28} {statistics.median(times):9.3f} {max(times):9.3f}")


if __name__ == "__main__":
    main()
