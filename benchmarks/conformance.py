"""`tei validate` on the standards' own conformance suites, beside the reference tools.

    python benchmarks/conformance.py [--suite relaxng --suite sch-master ...] [--cli] [--no-reference]
                                     [--timeout 20] [--failures]

The suites are those of ../shared/corpora/peer-suites/ (see its SOURCES.md), read into cases by
tests/validate/peer_suites.py: the RELAX NG spectest (relaxng), the Schematron conformance suite's two
branches (sch-t-update, sch-master), SchXslt's own tests (sch-schxslt), jing's Schematron 1.5 suite
(sch-jing15) and eight W3C XSD 1.1 test sets (xsd11). Each case is one schema and at most one instance with
the verdict the suite expects (valid, invalid, or the schema refused).

`tei validate` runs each case through its library face (tei.validate.iter_results, apparatus rules off),
in this process, each case under an alarm of --timeout seconds (a hang); with --cli it runs one
`tei validate --schema S --no-apparatus-rules [--phase P] FILE` process per case instead (2-3 times slower
on these small cases: the process start dominates). An exception that is not the toolkit's own, or a
"Traceback" on stderr, counts as a traceback.

The reference tools, where installed: jing for RELAX NG (one run per schema, all its instances at once)
and for jing's Schematron 1.5 suite (one run per instance: jing names no file with a Schematron finding); xmlschema called directly for XSD 1.1 (XMLSchema11, as the W3C sets
ask for 1.1). SchXslt is not a Debian package (Saxon-HE is, libsaxonhe-java): for the three other
Schematron suites the figures of SOURCES.md are printed, measured with SchXslt 1.9 on Saxon-HE 9.9.

Columns: verdicts as the suite expects; for RELAX NG instances both tools call invalid, how many of tei's
first errors stand at jing's line and column, and how many of those in jing's words; for Schematron,
failing instances whose every finding has a message; tracebacks; hangs; seconds (wall) per tool.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "tests"))
from validate.peer_suites import SCHEMA_CODES, SUITES, Case, Outcome, available, cases, met, run  # noqa: E402

# SchXslt 1.9 on Saxon-HE 9.9, from SOURCES.md (runs as expected, of runs).
SCHXSLT = {"sch-t-update": "78/89", "sch-master": "46/51", "sch-schxslt": "21/23"}
JING_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|fatal): (?P<message>.*)$", re.M)
TITLES = {
    "relaxng": "RELAX NG spectest",
    "sch-t-update": "Schematron conformance, t/update",
    "sch-master": "Schematron conformance, master",
    "sch-schxslt": "SchXslt's own tests",
    "sch-jing15": "jing's Schematron 1.5 suite",
    "xsd11": "XSD 1.1, eight W3C test sets",
}


class Hang(Exception):
    pass


def _alarm(_signum, _frame):
    raise Hang


def run_library(case: Case, timeout: float) -> Outcome:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return run(case)
    except Hang:
        return Outcome("hang")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run_cli(case: Case, timeout: float) -> Outcome:
    case.write()
    tei = str(Path(sys.executable).with_name("tei"))
    if case.instance is None:  # a schema alone: the library face loads and verifies it (no CLI form for it)
        return run(case)
    command = [tei, "validate", "--schema", str(case.schema), "--no-apparatus-rules", "--format", "json"]
    command += ["--phase", case.phase] if case.phase else []
    try:
        done = subprocess.run([*command, str(case.instance)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome("hang")
    if "Traceback" in done.stderr:
        return Outcome("traceback", detail=done.stderr[-600:])
    import json

    found = []
    for stream in (done.stdout, done.stderr):  # a schema refused before any file is said on stderr
        try:
            found += json.loads(stream) if stream.strip() else []
        except json.JSONDecodeError:
            continue
    codes = {d.get("code") for d in found}
    if codes & SCHEMA_CODES:
        return Outcome("error", tuple(found))
    return Outcome("invalid" if done.returncode == 1 else "valid" if done.returncode == 0 else "error", tuple(found))


# --- reference tools --------------------------------------------------------------------------------------------


def jing_outcomes(suite_cases: list[Case], timeout: float) -> dict[int, tuple[str, tuple | None]]:
    """jing's verdict on each case (by index), and its first error (line, column, message) for instances."""
    jing = shutil.which("jing")
    outcomes: dict[int, tuple[str, tuple | None]] = {}
    if jing is None:
        return outcomes
    by_schema: dict[Path, list[int]] = defaultdict(list)
    for index, case in enumerate(suite_cases):
        case.write()
        by_schema[case.schema].append(index)
    for schema, indexes in by_schema.items():
        schema_cases = [i for i in indexes if suite_cases[i].instance is None]
        instance_cases = [i for i in indexes if suite_cases[i].instance is not None]
        for index in schema_cases:
            try:
                done = subprocess.run([jing, str(schema)], capture_output=True, text=True, timeout=timeout)
                outcomes[index] = ("valid" if done.returncode == 0 else "error", None)
            except subprocess.TimeoutExpired:
                outcomes[index] = ("hang", None)
        if not instance_cases:
            continue
        if schema.suffix == ".sch":  # jing says a Schematron finding without the file: one run per instance
            for index in instance_cases:
                try:
                    done = subprocess.run(
                        [jing, str(schema), str(suite_cases[index].instance)],
                        capture_output=True,
                        text=True,
                        timeout=timeout,
                    )
                    outcomes[index] = ({0: "valid", 1: "invalid"}.get(done.returncode, "error"), None)
                except subprocess.TimeoutExpired:
                    outcomes[index] = ("hang", None)
            continue
        files = [str(suite_cases[i].instance) for i in instance_cases]
        try:
            done = subprocess.run([jing, str(schema), *files], capture_output=True, text=True, timeout=timeout * 4)
        except subprocess.TimeoutExpired:
            outcomes.update((i, ("hang", None)) for i in instance_cases)
            continue
        first: dict[str, tuple] = {}
        schema_error = False
        for match in JING_LINE.finditer(done.stdout + done.stderr):
            if match["file"] not in files:
                schema_error = True
            first.setdefault(match["file"], (int(match["line"]), int(match["column"]), match["message"]))
        for index, file in zip(instance_cases, files, strict=True):
            if schema_error and file not in first:
                outcomes[index] = ("error", None)
            else:
                outcomes[index] = ("invalid" if file in first else "valid", first.get(file))
    return outcomes


def xmlschema_outcomes(suite_cases: list[Case]) -> dict[int, tuple[str, None]]:
    """xmlschema's own verdicts (XMLSchema11, each schema loaded once)."""
    import warnings

    import xmlschema

    schemas: dict[Path, object] = {}
    outcomes = {}
    for index, case in enumerate(suite_cases):
        if case.schema not in schemas:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    schemas[case.schema] = xmlschema.XMLSchema11(str(case.schema))
            except Exception as exc:  # noqa: BLE001 - any refusal is a verdict
                schemas[case.schema] = exc
        schema = schemas[case.schema]
        if isinstance(schema, Exception):
            outcomes[index] = ("error", None)
        elif case.instance is None:
            outcomes[index] = ("valid", None)
        else:
            try:
                outcomes[index] = ("valid" if schema.is_valid(str(case.instance)) else "invalid", None)
            except Exception:  # noqa: BLE001
                outcomes[index] = ("traceback", None)
    return outcomes


# --- the table ------------------------------------------------------------------------------------------------


def first_error(outcome: Outcome) -> tuple | None:
    for diagnostic in outcome.diagnostics:
        if isinstance(diagnostic, dict):
            return diagnostic.get("line"), diagnostic.get("column"), diagnostic.get("message")
        return diagnostic.line, diagnostic.column, diagnostic.message
    return None


def measure(suite: str, work: Path, args) -> dict:
    suite_cases = cases(suite, work)
    runner = run_cli if args.cli else run_library
    started = time.perf_counter()
    outcomes = [runner(case, args.timeout) for case in suite_cases]
    tei_seconds = time.perf_counter() - started
    reference: dict[int, tuple] = {}
    reference_seconds = None
    if not args.no_reference and suite in ("relaxng", "sch-jing15", "xsd11"):
        started = time.perf_counter()
        reference = xmlschema_outcomes(suite_cases) if suite == "xsd11" else jing_outcomes(suite_cases, args.timeout)
        reference_seconds = time.perf_counter() - started
    row = {"suite": suite, "cases": suite_cases, "outcomes": outcomes, "reference": reference}
    row["tei_seconds"], row["reference_seconds"] = tei_seconds, reference_seconds
    return row


def figures(row: dict) -> list[str]:
    suite, suite_cases, outcomes, reference = row["suite"], row["cases"], row["outcomes"], row["reference"]
    lines = []
    groups = [("instance", None)]
    if suite in ("relaxng", "xsd11", "sch-jing15"):
        groups += [("schema", "error"), ("schema", "valid")]
    for kind, expected in groups:
        chosen = [
            i for i, c in enumerate(suite_cases) if c.kind == kind and (expected is None or c.expected == expected)
        ]
        if not chosen:
            continue
        ours = sum(met(suite_cases[i], outcomes[i]) for i in chosen)
        if reference:
            theirs = f"{sum(reference.get(i, ('',))[0] == suite_cases[i].expected for i in chosen)}/{len(chosen)}"
        else:
            theirs = f"SchXslt {SCHXSLT[suite]} (SOURCES.md)" if suite in SCHXSLT else "-"
        label = {None: "verdicts", "error": "incorrect schemas refused", "valid": "correct schemas accepted"}[expected]
        if suite.startswith("sch-") and suite != "sch-jing15":
            label = "runs as expected"
        lines.append(f"| {TITLES[suite]}: {label} | {ours}/{len(chosen)} | {theirs} |")
    if suite == "relaxng" and reference:
        both = [
            i
            for i, c in enumerate(suite_cases)
            if c.kind == "instance" and outcomes[i].verdict == "invalid" and reference.get(i, ("",))[0] == "invalid"
        ]
        placed = worded = 0
        for i in both:
            ours, theirs = first_error(outcomes[i]), reference[i][1]
            if ours and theirs and (ours[0], ours[1]) == (theirs[0], theirs[1]):
                placed += 1
                worded += ours[2] == theirs[2]
        lines.append(
            f"| {TITLES[suite]}: first error at jing's line:column ({len(both)} invalid for both) | {placed} "
            f"({worded} in jing's words) | jing |"
        )
    if suite.startswith("sch-"):
        failing = [i for i, o in enumerate(outcomes) if o.verdict == "invalid"]
        said = sum(all(_message_of(d) for d in outcomes[i].diagnostics) for i in failing)
        lines.append(f"| {TITLES[suite]}: failing runs whose every finding has a message | {said}/{len(failing)} | |")
    tracebacks = sum(o.verdict == "traceback" for o in outcomes)
    hangs = sum(o.verdict == "hang" for o in outcomes)
    reference_time = f"{row['reference_seconds']:.1f} s" if row["reference_seconds"] is not None else "-"
    lines.append(
        f"| {TITLES[suite]}: tracebacks, hangs, time | {tracebacks}, {hangs}, {row['tei_seconds']:.1f} s | "
        f"{reference_time} |"
    )
    return lines


def _message_of(diagnostic) -> str:
    return diagnostic.get("message", "") if isinstance(diagnostic, dict) else diagnostic.message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", choices=SUITES, help="run only these suites (repeatable)")
    parser.add_argument("--cli", action="store_true", help="one `tei validate` process per case")
    parser.add_argument("--no-reference", action="store_true", help="do not run jing or xmlschema")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per case before it counts as a hang")
    parser.add_argument("--failures", action="store_true", help="list each case not met, with what tei said")
    args = parser.parse_args()
    if not available():
        sys.exit("../shared/corpora/peer-suites is absent: this benchmark needs the shared corpora")
    print("| suite | tei | reference |\n|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tei-conformance-") as folder:
        for suite in args.suite or SUITES:
            row = measure(suite, Path(folder), args)
            print("\n".join(figures(row)), flush=True)
            if args.failures:
                for case, outcome in zip(row["cases"], row["outcomes"], strict=True):
                    if not met(case, outcome):
                        said = outcome.detail or "; ".join(_message_of(d) for d in outcome.diagnostics)[:300]
                        print(
                            f"    {case.name}: expected {case.expected}, got {outcome.verdict}: {said}", file=sys.stderr
                        )
    print(f"\n(tei: {'one process per case' if args.cli else 'library face, in this process'}; {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
