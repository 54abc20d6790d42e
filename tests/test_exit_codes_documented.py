"""docs/diagnostics.md's exit code for each diagnostic is the one the code gives: each code raised directly with
an exception of tei.errors exits with that exception's code, and each warning or info exits 0 (issue 38, point 8:
SCH007 exited 1 where the table said 3)."""

from __future__ import annotations

import re

from paths import PROJECT

from tei import errors

DOCUMENTED = re.compile(r"^\| ([A-Z]{1,4}[0-9]{3}) \| ([^|]+) \|", re.M)
RAISED = re.compile(r"""raise (\w+Error)\(\s*(?:\*\w+,\s*)?error\(\s*["']([A-Z]{1,4}[0-9]{3})["']""")
FOUND = re.compile(r"""(?<![\w.])error\(\s*["']([A-Z]{1,4}[0-9]{3})["']""")
QUIET = re.compile(r"""(?<![\w.])(?:warning|info)\(\s*["']([A-Z]{1,4}[0-9]{3})["']""")


def documented() -> dict[str, set[int]]:
    text = (PROJECT / "docs" / "diagnostics.md").read_text("utf-8")
    return {code: {int(n) for n in re.findall(r"\d", exits)} for code, exits in DOCUMENTED.findall(text)}


def given() -> list[tuple[str, int, str]]:
    """(code, exit code, where) for every diagnostic the source raises directly, gives as a warning or info, or
    (in tei/validate/) reports as a finding of validation, which fails with the others (InvalidInputError)."""
    found = []
    for path in sorted((PROJECT / "tei").rglob("*.py")):
        source = path.read_text("utf-8")
        where = path.relative_to(PROJECT).as_posix()
        raised = RAISED.findall(source)
        for name, code in raised:
            found.append((code, int(getattr(errors, name).exit_code), where))
        if where.startswith("tei/validate/"):  # a finding of validation, raised with the others: exit 1
            found += [(code, 1, where) for code in set(FOUND.findall(source)) - {code for _, code in raised}]
        found += [(code, 0, where) for code in QUIET.findall(source)]
    return found


def test_each_code_exits_as_the_table_says():
    table = documented()
    found = given()
    assert len(found) > 60  # the patterns still find the codes
    wrong = sorted({(code, exit_code, where, tuple(sorted(table.get(code, ())))) for code, exit_code, where in found
                    if code in table and exit_code not in table[code]})  # fmt: skip
    assert wrong == []


def test_the_validation_guide_agrees_with_the_table():
    """docs/validation.md gives some codes' exit codes too (SCH005 was 2 there, 1 in the table)."""
    table = documented()
    guide = (PROJECT / "docs" / "validation.md").read_text("utf-8")
    wrong = []
    for code, exits in re.findall(r"\| `?([A-Z]{1,4}[0-9]{3})`? \| (\d)[ |]", guide):
        if code in table and int(exits) not in table[code]:
            wrong.append((code, exits, sorted(table[code])))
    for code, exits in re.findall(r"([A-Z]{1,4}[0-9]{3})\D{1,40}?exit(?: code)? (\d)", guide):
        if code in table and int(exits) not in table[code]:
            wrong.append((code, exits, sorted(table[code])))
    assert wrong == []
