"""CollateX's own test suite, collated by tei and by CollateX 2.3 in the same run, side by side.

Every enabled case of ../shared/corpora/peer-suites/collatex/cases/ that duplicates no other (see its
SOURCES.md) is collated by `tei collate`'s library path and scored by the rules of tests/collate/
collatex_cases.py (the tokens, the pairing rule, the scores and CollateX's artefacts are described there).
CollateX 2.3 (Python, PyPI) gets each case's own tokens and normalised forms as pre-tokenised JSON, with
`near_match` where the case's test asks for it, `segmentation=False`; two of its tokens are aligned when
they stand in one column of its table. It writes no transposition (its `detect_transpositions` is a beta
that prints and returns nothing), so its transposition counts are reported as none stated. Each CollateX run
is a child process stopped after --collatex-timeout seconds.

Printed: one line per case that either tool does not meet (with the reason), then for each tool the complete
cases met on words and with punctuation, met or CollateX's artefact, identity-pair precision, recall and F1
over the complete cases, the partial cases met, the transposition counts met, crashes and witnesses not
rebuilt byte for byte.

    python benchmarks/collatex_suite.py [--no-collatex] [--collatex-timeout 60] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from collate.collatex_cases import CASES, Case, Result, case_tokens, load_cases, run_tei, score, table_pairs  # noqa: E402
from collate_realgold import timed  # noqa: E402


def collatex_result(case: Case, texts: dict[str, str], timeout: float) -> Result:
    tokens = case_tokens(case, texts)
    data = {
        "witnesses": [{"id": s, "tokens": [{"t": t.t, "n": t.n} for t in tokens[s]]} for s in case.sigla if tokens[s]]
    }
    found = timed(_collatex_table, (data, case.near_match), timeout)
    if found is None:
        return Result(None, problem=f"CollateX stopped after {timeout:g} s")
    table, _ = found
    if isinstance(table, str):
        return Result(None, problem=table)
    return Result(table_pairs(table, tokens), 0, "", texts)


def _collatex_table(arguments) -> dict[str, list[list[int]]] | str:
    """CollateX's table as token indexes per witness and column (a string: what went wrong)."""
    from collatex import collate

    data, near = arguments
    try:
        out = json.loads(collate(data, output="json", segmentation=False, near_match=near))
    except Exception as exc:
        return f"CollateX failed: {type(exc).__name__}: {exc}"
    cells: dict[str, list[list[int]]] = {}
    for siglum, row in zip(out["witnesses"], out["table"]):
        number, columns = 0, []
        for cell in row:
            columns.append(list(range(number, number + len(cell or []))))
            number += len(cell or [])
        cells[siglum] = columns
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-collatex", action="store_true")
    parser.add_argument("--collatex-timeout", type=float, default=60)
    parser.add_argument("--verbose", action="store_true", help="the pairs missed and extra of each case missed")
    arguments = parser.parse_args()
    if not CASES.is_dir():
        sys.exit(f"{CASES} is absent: this benchmark needs ../shared/corpora")
    cases = load_cases()
    tools = ["tei"] + ([] if arguments.no_collatex else ["CollateX"])
    totals = {tool: _Totals() for tool in tools}
    seconds = dict.fromkeys(tools, 0.0)
    lines = []
    for case in cases:
        started = time.perf_counter()
        ours = run_tei(case)
        seconds["tei"] += time.perf_counter() - started
        results = {"tei": ours}
        if "CollateX" in tools:
            started = time.perf_counter()
            results["CollateX"] = collatex_result(case, ours.texts or _plain_texts(case), arguments.collatex_timeout)
            seconds["CollateX"] += time.perf_counter() - started
        for tool, result in results.items():
            found = score(case, result, ours.texts or _plain_texts(case))
            totals[tool].add(case, result, found)
            why = _missed(case, result, found)
            if why:
                lines.append(f"{tool:<9} {case.id}: {why}")
                if arguments.verbose and found.missing + found.extra:
                    lines.append(f"{'':<9}   missing {found.missing}  extra {found.extra}")
    for line in lines:
        print(line)
    print()
    print(f"{len(cases)} cases (enabled, no duplicates); {sum(c.complete for c in cases)} state a complete alignment")
    print(f"{'':<44}" + "".join(f"{tool:>14}" for tool in tools))
    for label, key in _Totals.ROWS:
        print(f"{label:<44}" + "".join(f"{totals[tool].row(key):>14}" for tool in tools))
    print(f"{'seconds':<44}" + "".join(f"{seconds[tool]:>14.2f}" for tool in tools))


def _plain_texts(case: Case) -> dict[str, str]:
    return dict(zip(case.sigla, case.data["witnesses"]))


def _missed(case, result, found) -> str:
    if result.pairs is None:
        return result.problem
    reasons = []
    if result.problem:
        reasons.append(result.problem)
    if found.met_words is False:
        reasons.append(
            f"words missed ({found.true}/{found.expected} expected pairs, {found.stated} stated)"
            + (f": CollateX's artefact ({found.artefact})" if found.artefact else "")
        )
    elif found.met_punct is False:
        reasons.append("met on words, not with punctuation")
    if found.partial is False:
        reasons.append("partial pairs not met")
    if (
        found.transpositions
        and found.transpositions[1] is not None
        and found.transpositions[0] != found.transpositions[1]
    ):
        reasons.append(f"transpositions {found.transpositions[1]}, expected {found.transpositions[0]}")
    return "; ".join(reasons)


class _Totals:
    ROWS = (
        ("complete cases met on words", "met_words"),
        ("  ... met or CollateX's artefact", "met_or_artefact"),
        ("complete cases met with punctuation", "met_punct"),
        ("identity word pairs: precision", "precision"),
        ("identity word pairs: recall", "recall"),
        ("identity word pairs: F1", "f1"),
        ("partial cases met", "partial"),
        ("transposition counts met", "transpositions"),
        ("crashes or timeouts", "crashes"),
        ("witnesses not rebuilt byte for byte", "rebuilt"),
    )

    def __init__(self) -> None:
        self.complete = self.met_words = self.artefacts = self.met_punct = 0
        self.true = self.stated = self.expected = 0
        self.partial = self.partial_met = self.counts = self.counts_met = self.crashes = self.not_rebuilt = 0

    def add(self, case, result, found) -> None:
        if result.pairs is None:
            self.crashes += 1
        if result.problem.startswith("witness"):
            self.not_rebuilt += 1
        if case.complete:
            self.complete += 1
            self.met_words += bool(found.met_words)
            self.artefacts += bool(found.met_words is False and found.artefact)
            self.met_punct += bool(found.met_punct)
            self.true += found.true
            self.stated += found.stated
            self.expected += found.expected
        elif found.partial is not None:
            self.partial += 1
            self.partial_met += found.partial
        if found.transpositions is not None:
            self.counts += 1
            expected, stated = found.transpositions
            self.counts_met += stated is not None and stated == expected

    def row(self, key: str) -> str:
        precision = self.true / self.stated if self.stated else 1.0
        recall = self.true / self.expected if self.expected else 1.0
        return {
            "met_words": f"{self.met_words}/{self.complete}",
            "met_or_artefact": f"{self.met_words + self.artefacts}/{self.complete}",
            "met_punct": f"{self.met_punct}/{self.complete}",
            "precision": f"{precision:.4f}",
            "recall": f"{recall:.4f}",
            "f1": f"{2 * precision * recall / (precision + recall) if self.true else 0:.4f}",
            "partial": f"{self.partial_met}/{self.partial}",
            "transpositions": f"{self.counts_met}/{self.counts}",
            "crashes": str(self.crashes),
            "rebuilt": str(self.not_rebuilt),
        }[key]


if __name__ == "__main__":
    main()
