"""Validation reports for continuous integration: JUnit XML (one test case per file) and SARIF 2.1.0."""

from __future__ import annotations

import json
from collections.abc import Iterable

from lxml import etree

from tei import __version__
from tei.diagnostics import Severity
from tei.validate import FileResult, fails

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_junit(results: Iterable[FileResult], strict: bool) -> str:
    """A <testsuite> where each file is a <testcase>; failing diagnostics become its <failure>."""
    suite = etree.Element("testsuite", name="tei validate")
    failures = tests = 0
    for result in results:
        tests += 1
        case = etree.SubElement(suite, "testcase", classname="tei.validate", name=str(result.path))
        failing = [d for d in result.diagnostics if fails(d, strict)]
        if failing:
            failures += 1
            failure = etree.SubElement(case, "failure", message=failing[0].to_text(), type=failing[0].code)
            failure.text = "\n".join(d.to_text() for d in failing)
        others = [d for d in result.diagnostics if not fails(d, strict)]
        if others:
            etree.SubElement(case, "system-out").text = "\n".join(d.to_text() for d in others)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    return etree.tostring(suite, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode("utf-8")


def render_sarif(results: Iterable[FileResult]) -> str:
    """One SARIF run; every diagnostic is a result whose ruleId is its code."""
    findings = []
    rule_ids: dict[str, None] = {}
    for result in results:
        for diagnostic in result.diagnostics:
            rule_ids.setdefault(diagnostic.code)
            region = {"startLine": diagnostic.line or 1}
            if diagnostic.column:
                region["startColumn"] = diagnostic.column
            message = diagnostic.message + (f" (hint: {diagnostic.hint})" if diagnostic.hint else "")
            findings.append(
                {
                    "ruleId": diagnostic.code,
                    "level": SARIF_LEVELS[diagnostic.severity],
                    "message": {"text": message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": (diagnostic.file or str(result.path))},
                                "region": region,
                            }
                        }
                    ],
                }
            )
    run = {
        "tool": {
            "driver": {
                "name": "tei validate",
                "version": __version__,
                "rules": [{"id": code} for code in rule_ids],
            }
        },
        "results": findings,
    }
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, ensure_ascii=False, indent=2) + "\n"
