"""A fuzzing campaign over the commands, and the scale figures of bad and big input (issue 38).

    python benchmarks/fuzz.py --mutants 2000            # mutants of the seeds' build and every corpus file
    python benchmarks/fuzz.py --scale                   # the figures of "Done when", measured and printed
    python benchmarks/fuzz.py --scale --only token,attributes

Mutants: each is one real file (the seeds' edition.xml or a transcription of theirs, or a file of
../shared/corpora) changed by one of MUTATIONS (an element moved, an attribute corrupted, a control character,
truncation, deep nesting, a huge token), chosen by a seeded random generator, so a run can be repeated. Each
mutant is given to the six COMMANDS, each in a folder of its own beside a copy of the seeds' build (so that a
mutant edition's transcription links resolve), with a cap of 60 s. A run is counted as:

- a traceback: "Traceback" on stderr;
- a hang: the cap was reached;
- a wrong exit code: not one of tei.errors.ExitCode, or not one docs/diagnostics.md gives any error reported;
- a damaged output: a file the toolkit recorded in a ledger that does not hold what was recorded, or a
  temporary file left behind;
- a changed input: any file that was in the folder before the run and is not byte for byte the same after
  (outputs the command was asked to write are not inputs).

The totals are printed, then the first few cases of each kind with the mutant kept under --keep.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from console import tei_script

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared" / "corpora"
CAP = 60
COMMANDS = {
    "validate": lambda src, out: ["validate", src],
    "witness": lambda src, out: ["witness", src, "--all", "-o", out / "texts"],
    "convert": lambda src, out: ["convert", src, "--method", "double-end-point", "-o", out / "converted.xml"],
    "html": lambda src, out: ["render", src, "--to", "html", "-o", out / "html"],
    "stats": lambda src, out: ["stats", src, "-o", out / "stats"],
    "sync": lambda src, out: ["sync", src, "--dry-run"],
}
DOCUMENTED = re.compile(r"^\| ([A-Z]{1,4}[0-9]{3}) \| ([^|]+) \|", re.M)
REPORTED = re.compile(r": error: \[([A-Z]{1,4}[0-9]{3})\]")


def seeds_build(folder: Path) -> Path:
    out = folder / "seeds-build"
    command = [
        tei_script(),
        "build",
        str(PROJECT / "seeds"),
        "-o",
        str(out),
        "--stages",
        "transcriptions,edition,schema",
    ]
    subprocess.run(command, check=True, capture_output=True)
    return out


def sources(build: Path) -> list[Path]:
    found = [build / "edition.xml", *sorted((build / "transcriptions").glob("*.xml"))]
    if SHARED.is_dir():
        found += sorted(p for p in SHARED.rglob("*") if p.suffix in (".xml", ".json") and p.stat().st_size < 4_000_000)
    return found


def _tags(data: bytes) -> list[re.Match]:
    return list(re.finditer(rb"<[A-Za-z][^<>]*>", data))


def move_element(data: bytes, rng: random.Random) -> bytes:
    tags = _tags(data)
    if len(tags) < 2:
        return data[::-1]
    a, b = sorted(rng.sample(tags, 2), key=lambda m: m.start())
    return data[: a.start()] + b.group() + data[a.end() : b.start()] + a.group() + data[b.end() :]


def corrupt_attribute(data: bytes, rng: random.Random) -> bytes:
    values = list(re.finditer(rb'="([^"]*)"', data))
    if not values:
        return data
    value = rng.choice(values)
    junk = rng.choice([b"#", b"#nowhere", b"#A #A #A", b"", b"\xc3\x28", b"&#1;", b"x" * 5000, b"#" + b"A1" * 3000])
    return data[: value.start(1)] + junk + data[value.end(1) :]


def control_character(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + bytes([rng.choice([0, 1, 7, 8, 11, 12, 27, 127])]) + data[at:]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    tags = _tags(data)
    at = rng.choice(tags).end() if tags else 0
    depth = rng.choice([300, 3000, 30000])
    return data[:at] + b"<seg>" * depth + b"x" + b"</seg>" * depth + data[at:]


def huge_token(data: bytes, rng: random.Random) -> bytes:
    wits = list(re.finditer(rb'wit="([^"]*)"', data)) or list(re.finditer(rb'="([^"]*)"', data))
    token = b"#" + b"A" + b"1" * rng.choice([10_000, 200_000, 1_000_000])
    if not wits:
        return data + token
    value = rng.choice(wits)
    return data[: value.start(1)] + token + data[value.end(1) :]


MUTATIONS = (move_element, corrupt_attribute, control_character, truncate, deep_nesting, huge_token)


def documented_exits() -> dict[str, set[int]]:
    text = (PROJECT / "docs" / "diagnostics.md").read_text("utf-8")
    return {code: {int(n) for n in re.findall(r"\d", exits)} for code, exits in DOCUMENTED.findall(text)}


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.rglob("*") if p.is_file()}  # fmt: skip


def damaged(folder: Path) -> list[str]:
    found = [p.relative_to(folder).as_posix() for p in folder.rglob("*.tmp")]
    for ledger in folder.rglob(".tei-written.json"):
        recorded = json.loads(ledger.read_text("utf-8"))
        for name, digest in recorded.items():
            path = ledger.parent / name
            accepted = [digest] if isinstance(digest, str) else digest
            if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() not in accepted:
                found.append(path.relative_to(folder).as_posix())
    return found


def one_run(command: str, mutant: bytes, suffix: str, build: Path, work: Path, table: dict) -> dict:
    folder = work / command
    shutil.copytree(build, folder)
    source = folder / f"mutant{suffix}"
    source.write_bytes(mutant)
    out = folder / "out"
    before = digests(folder)
    started = time.perf_counter()
    try:
        done = subprocess.run([tei_script(), *map(str, COMMANDS[command](source, out))], capture_output=True,
                              text=True, errors="replace", timeout=CAP, cwd=folder)  # fmt: skip
        code, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired:
        code, stderr = None, ""
    seconds = time.perf_counter() - started
    after = digests(folder)
    changed = sorted(name for name, digest in before.items() if after.get(name) != digest)
    reported = set(REPORTED.findall(stderr))
    allowed = set().union(*(table.get(c, set()) for c in reported)) if reported else {0, 1, 2, 3, 4}
    return {
        "command": command,
        "seconds": seconds,
        "hang": code is None,
        "traceback": "Traceback" in stderr,
        "wrong_exit": code is not None and (code not in (0, 1, 2, 3, 4) or (reported and code not in allowed)),
        "damaged": damaged(folder),
        "changed": changed,
        "code": code,
        "stderr": stderr[-600:],
    }


def campaign(mutants: int, seed: int, keep: Path | None) -> None:
    rng = random.Random(seed)
    table = documented_exits()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        build = seeds_build(root)
        files = sources(build)
        totals = {"runs": 0, "traceback": 0, "hang": 0, "wrong_exit": 0, "damaged": 0, "changed": 0}
        cases: dict[str, list] = {k: [] for k in totals if k != "runs"}
        for number in range(mutants):
            original = rng.choice(files)
            mutation = rng.choice(MUTATIONS)
            mutant = mutation(original.read_bytes(), rng)
            for command in COMMANDS:
                work = root / f"run-{number}"
                work.mkdir(exist_ok=True)
                result = one_run(command, mutant, original.suffix, build, work, table)
                totals["runs"] += 1
                for kind in cases:
                    if result[kind]:
                        totals[kind] += 1
                        if len(cases[kind]) < 5:
                            kept = None
                            if keep is not None:
                                keep.mkdir(parents=True, exist_ok=True)
                                kept = keep / f"{kind}-{number}-{command}{original.suffix}"
                                kept.write_bytes(mutant)
                            cases[kind].append((original.name, mutation.__name__, command, result["code"], kept,
                                                result["stderr"]))  # fmt: skip
                shutil.rmtree(work / command, ignore_errors=True)
            shutil.rmtree(root / f"run-{number}", ignore_errors=True)
            if (number + 1) % 10 == 0:
                print(f"{number + 1} mutants: {totals}", file=sys.stderr, flush=True)
    print(f"mutants {mutants} (seed {seed}), files {len(files)}, commands {len(COMMANDS)}, cap {CAP} s")
    for kind, count in totals.items():
        print(f"{kind}: {count}")
    for kind, found in cases.items():
        for name, mutation, command, code, kept, stderr in found:
            print(f"\n{kind}: {name} {mutation} {command} exit {code} {kept or ''}\n{stderr}")


# --- scale ---------------------------------------------------------------------------------------------------

HEADER = ('<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>scale</title></titleStmt>'
          "<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>{witnesses}</listWit></sourceDesc>"
          '</fileDesc><encodingDesc><variantEncoding method="parallel-segmentation" location="internal"/>'
          "</encodingDesc></teiHeader><text><body>{body}</body></text></TEI>")  # fmt: skip


def measured(args: list, cwd: Path) -> tuple[float, float, int]:
    """Seconds, peak resident megabytes (of this command's process, by wait4) and exit code of one command."""
    started = time.perf_counter()
    child = subprocess.Popen([tei_script(), *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             cwd=cwd)  # fmt: skip
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - started, usage.ru_maxrss / 1024, child.returncode


def scale_token(folder: Path) -> None:
    """One @wit token of 10 MB (libxml2 refuses an attribute of more than 10,000,000 bytes: X001), and one of
    9.5 MB, which is read, and is a hand of A to the witness reader."""
    for size in (10_000_000, 9_500_000):
        token = "A1" + "2" * size
        body = f'<ab>x <app><lem wit="#A">y</lem><rdg wit="#B #{token}">z</rdg></app></ab>'
        path = folder / "token.xml"
        path.write_text(HEADER.format(witnesses='<witness xml:id="A"/><witness xml:id="B"/>', body=body), "utf-8")
        for name, args in (("validate", ["validate", path]), ("witness", ["witness", path, "--list"]),
                           ("convert", ["convert", path, "--method", "double-end-point", "-o", folder / "t.xml"]),
                           ("stats", ["stats", path])):  # fmt: skip
            seconds, peak, code = measured(args, folder)
            print(
                f"@wit token of {size / 1e6:.1f} M characters, {name}: {seconds:.2f} s, peak {peak:.0f} MB, exit {code}"
            )


def scale_attributes(folder: Path) -> None:
    attributes = " ".join(f'a{i}="v"' for i in range(100_000))
    body = f'<p {attributes}>x <app><lem wit="#A">y</lem><rdg wit="#B">z</rdg></app></p>'
    path = folder / "attributes.xml"
    path.write_text(HEADER.format(witnesses='<witness xml:id="A"/><witness xml:id="B"/>', body=body), "utf-8")
    seconds, peak, code = measured(["convert", path, "--method", "double-end-point", "-o", folder / "a.xml"], folder)
    print(f"100,000 attributes on one element, convert: {seconds:.2f} s, exit {code}")


def witnesses_edition(folder: Path, count: int) -> Path:
    declared = "".join(f'<witness xml:id="W{i}"/>' for i in range(count))
    half = " ".join(f"#W{i}" for i in range(0, count, 2))
    other = " ".join(f"#W{i}" for i in range(1, count, 2))
    body = "".join(
        f'<ab>a <app><lem wit="{half}">b{u}</lem><rdg wit="{other}">c{u}</rdg></app> d</ab>' for u in range(5)
    )
    path = folder / f"witnesses-{count}.xml"
    path.write_text(HEADER.format(witnesses=declared, body=body), "utf-8")
    return path


def scale_stats(folder: Path) -> None:
    for count in (2_000, 10_000):
        path = witnesses_edition(folder, count)
        seconds, peak, code = measured(["stats", path, "--table", "csv"], folder)
        print(f"tei stats, {count} witnesses: {seconds:.1f} s, peak {peak:.0f} MB, exit {code}")


def scale_witnesses_render(folder: Path) -> None:
    for count in (3_000, 10_000):
        path = witnesses_edition(folder, count)
        seconds, peak, code = measured(["render", path, "--to", "html", "-o", folder / f"html-{count}"], folder)
        print(f"HTML of {count} witnesses: {seconds:.1f} s, peak {peak:.0f} MB, exit {code}")


UNIT_COUNTS = [20_000, 200_000]  # --units: other counts (200,000 units need some 5 GB as of issue 38's fixes)


def scale_units(folder: Path) -> None:
    for count in UNIT_COUNTS:
        units = "".join(f'w <app><lem wit="#A">a{u}</lem><rdg wit="#B">b{u}</rdg></app> ' for u in range(count))
        path = folder / f"units-{count}.xml"
        path.write_text(HEADER.format(witnesses='<witness xml:id="A"/><witness xml:id="B"/>', body=f"<ab>{units}</ab>"))
        seconds, peak, code = measured(["render", path, "--to", "html", "-o", folder / f"units-{count}"], folder)
        print(f"HTML of {count} units: {seconds:.1f} s, peak {peak:.0f} MB, exit {code}")


SCALES = {"token": scale_token, "attributes": scale_attributes, "stats": scale_stats,
          "witnesses": scale_witnesses_render, "units": scale_units}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=0, help="how many mutants (each run by every command)")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--keep", type=Path, help="keep the mutants of the first cases of each kind here")
    parser.add_argument("--scale", action="store_true", help="measure the scale figures instead")
    parser.add_argument("--only", default=",".join(SCALES), help=f"with --scale: some of {', '.join(SCALES)}")
    parser.add_argument("--units", help="with --scale: the unit counts of the HTML case, as 20000,50000")
    options = parser.parse_args()
    if options.units:
        UNIT_COUNTS[:] = [int(count) for count in options.units.split(",")]
    if options.scale:
        with tempfile.TemporaryDirectory() as temporary:
            for name in options.only.split(","):
                SCALES[name](Path(temporary))
        return
    campaign(options.mutants or 20, options.seed, options.keep)


if __name__ == "__main__":
    main()
