"""The standards' own conformance suites of ../shared/corpora/peer-suites/ read as cases, and run through `tei validate`.

Shared by the tests that hold the suites' figures (test_conformance_*.py) and benchmarks/conformance.py,
which prints them beside the reference tools' (benchmarks import from tests/, never the other way).

Each suite is read into Cases: one schema (written to a work folder with the files it needs) and at most
one instance, with the verdict the suite expects: "valid", "invalid", or "error" (the schema must be
refused). A Case runs through the library face of `tei validate` (tei.validate.iter_results, the apparatus
rules off, as `tei validate --schema S --no-apparatus-rules` would run it): the verdict is "error" when a
schema diagnostic (SCH001-SCH003, SCH011) is among its failing diagnostics, else "invalid" when any
diagnostic fails (Schematron findings of any role count, as SVRL's failed asserts do), else "valid"; any
exception other than the toolkit's own is a "traceback".
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from paths import SHARED

SUITES_DIR = SHARED / "corpora" / "peer-suites"
SCHEMA_CODES = frozenset({"SCH001", "SCH002", "SCH003", "SCH005", "SCH011"})
ENGINE_WARNINGS = frozenset({"SCH009", "SCH010"})  # warnings of the engine, not findings of the schema
SCH_NS = "http://purl.oclc.org/dsdl/schematron"
TESTCASE_2021 = "https://doi.org/10.5281/zenodo.5679629#"  # t/update and SchXslt's tests
TESTCASE_2019 = "tag:dmaus@dmaus.name,2019:Schematron:Testsuite"  # master
XSTS = "http://www.w3.org/XML/2004/xml-schema-test-suite/"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XSD11_SETS = (
    "ibmMeta/assert.testSet",
    "ibmMeta/assertion.testSet",
    "ibmMeta/typeAlternatives.testSet",
    "ibmMeta/openContent.testSet",
    "saxonMeta/Assert.testSet",
    "saxonMeta/CTA.testSet",
    "saxonMeta/Open.testSet",
    "saxonMeta/Override.testSet",
)
SUITES = ("relaxng", "sch-t-update", "sch-master", "sch-schxslt", "sch-jing15", "xsd11")


@dataclass
class Case:
    """One expected verdict of a suite. kind: "schema" (is the schema accepted or refused?) or "instance"."""

    suite: str
    name: str
    kind: str
    expected: str  # valid, invalid or error
    schema: Path
    instance: Path | None = None
    phase: str | None = None
    files: dict[Path, bytes] = field(default_factory=dict, repr=False)  # written before the case runs

    def write(self) -> None:
        for path, content in self.files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)


@dataclass(frozen=True)
class Outcome:
    verdict: str  # valid, invalid, error, traceback
    diagnostics: tuple = ()
    detail: str = ""


def available() -> bool:
    return SUITES_DIR.is_dir()


def cases(suite: str, work: Path) -> list[Case]:
    """The cases of one suite (one of SUITES), their files to be written under `work`."""
    return list(
        {
            "relaxng": _relaxng,
            "sch-t-update": lambda w: _schematron_2021(SUITES_DIR / "schematron" / "conformance-t-update", w, suite),
            "sch-master": _schematron_2019,
            "sch-schxslt": lambda w: _schematron_2021(SUITES_DIR / "schematron" / "schxslt", w, suite),
            "sch-jing15": _jing15,
            "xsd11": _xsd11,
        }[suite](work)
    )


def run(case: Case, strict: bool = False) -> Outcome:
    """The case through `tei validate`'s library face (see the module's docstring)."""
    from tei.errors import TeiError
    from tei.validate import ValidationOptions, fails, iter_results

    case.write()
    options = ValidationOptions(schema=case.schema, apparatus_rules=False, strict=strict, phase=case.phase)
    try:
        if case.instance is None:
            from tei.validate.schema import load_schema
            from tei.validate.schematron import SchematronSchema

            for engine in load_schema(case.schema):  # Schematron compiles rules as documents need them:
                if isinstance(engine, SchematronSchema):  # a schema alone has each compiled now
                    engine.verify()
            return Outcome("valid")
        diagnostics = [d for result in iter_results([case.instance], options) for d in result.diagnostics]
    except TeiError as exc:
        diagnostics = list(exc.diagnostics)
    except Exception:  # noqa: BLE001 - a traceback is what is counted
        return Outcome("traceback", detail=traceback.format_exc(limit=-3))
    failing = tuple(d for d in diagnostics if fails(d, strict) or d.code not in ENGINE_WARNINGS)
    if any(d.code in SCHEMA_CODES for d in failing):
        return Outcome("error", failing)
    return Outcome("invalid" if failing else "valid", failing)


def met(case: Case, outcome: Outcome) -> bool:
    """The verdict the suite expects; for a schema test "valid" means accepted, "error" refused."""
    return outcome.verdict == case.expected


# --- RELAX NG spectest ---------------------------------------------------------------------------------------


def _relaxng(work: Path) -> Iterator[Case]:
    root = etree.parse(str(SUITES_DIR / "relaxng-spectest" / "spectest.xml")).getroot()
    for number, test in enumerate(root.iter("testCase"), 1):
        folder = work / "relaxng" / f"{number:03d}"
        files: dict[Path, bytes] = {}
        _resources(test, folder, files)
        section = test.findtext("section") or ""
        for schema_kind in ("correct", "incorrect"):
            for schema in test.findall(schema_kind):
                schema_path = folder / "schema.rng"
                files[schema_path] = _content(schema)
                expected = "valid" if schema_kind == "correct" else "error"
                yield Case("relaxng", f"{number:03d} ({section})", "schema", expected, schema_path, files=dict(files))
        for verdict in ("valid", "invalid"):
            for index, instance in enumerate(test.findall(verdict), 1):
                instance_path = folder / f"{verdict}-{index}.xml"
                files[instance_path] = _content(instance)
                name = f"{number:03d} {verdict} {index}"
                yield Case(
                    "relaxng", name, "instance", verdict, folder / "schema.rng", instance_path, files=dict(files)
                )


def _resources(element: etree._Element, folder: Path, files: dict[Path, bytes]) -> None:
    for child in element:
        if child.tag == "resource":
            files[folder / child.get("name")] = _content(child)
        elif child.tag == "dir":
            _resources(child, folder / child.get("name"), files)


def _content(holder: etree._Element) -> bytes:
    """The one element a suite's holder element wraps, as a document (its text when it holds none)."""
    elements = [child for child in holder if isinstance(child.tag, str)]
    if len(elements) != 1:
        return (holder.text or "").encode()
    element = _detached(elements[0])
    return etree.tostring(element, encoding="UTF-8", xml_declaration=True)


def _detached(element: etree._Element) -> etree._Element:
    """A copy of an element as the root of its own document, with every namespace declaration in scope (one
    that only a QName value uses matters: spectest 378-380)."""
    return etree.fromstring(etree.tostring(element, encoding="UTF-8"))  # names may be non-ASCII


# --- Schematron: the conformance suite (both forms) and SchXslt's tests ----------------------------------------


def _schematron_2021(folder: Path, work: Path, suite: str) -> Iterator[Case]:
    """t/update and SchXslt: <testcase expect= phase=> with <schemas>, <documents><document filename=>; the first
    document is the one validated, the others are files it or the schema name."""
    namespace = f"{{{TESTCASE_2021}}}"
    for path in sorted(folder.rglob("*.xml")):
        root = etree.parse(str(path)).getroot()
        if root.tag != f"{namespace}testcase":
            continue
        documents = root.find(f"{namespace}documents").findall(f"{namespace}document")
        yield from _schematron_runs(
            suite,
            str(path.relative_to(folder)),
            root.get("expect"),
            root.get("phase"),
            root.find(f"{namespace}schemas"),
            [(d.get("filename"), d) for d in documents],
            work,
        )


def _schematron_2019(work: Path) -> Iterator[Case]:
    """master: <testcase expect=> with <documents><primary/><secondary/>*, <schemas phase=>."""
    folder = SUITES_DIR / "schematron" / "conformance-master"
    namespace = f"{{{TESTCASE_2019}}}"
    for path in sorted(folder.rglob("*.xml")):
        root = etree.parse(str(path)).getroot()
        if root.tag != f"{namespace}testcase":
            continue
        documents = root.find(f"{namespace}documents")
        schemas = root.find(f"{namespace}schemas")
        holders = [d for d in documents if isinstance(d.tag, str)]
        yield from _schematron_runs(
            "sch-master",
            str(path.relative_to(folder)),
            root.get("expect") or "valid",
            schemas.get("phase"),
            schemas,
            [(d.get("filename"), d) for d in holders],
            work,
        )


def _schematron_runs(suite, name, expected, phase, schemas, documents, work: Path) -> Iterator[Case]:
    """One run per schema of a test case, on its first document."""
    for index, schema in enumerate((s for s in schemas if isinstance(s.tag, str)), 1):
        folder = work / suite / re.sub(r"[^\w.-]", "_", name) / str(index)
        files = {folder / filename: _content(holder) for filename, holder in documents}
        schema_path = folder / "schema.sch"
        files[schema_path] = etree.tostring(_detached(schema), encoding="UTF-8", xml_declaration=True)
        instance = folder / documents[0][0]
        yield Case(suite, f"{name}#{index}", "instance", expected, schema_path, instance, phase, files)


# --- jing's Schematron 1.5 suite ---------------------------------------------------------------------------------


def _jing15(work: Path) -> Iterator[Case]:
    root = etree.parse(str(SUITES_DIR / "schematron" / "jing-1.5" / "schematrontest.xml")).getroot()
    for number, test in enumerate(root.iter("testCase"), 1):
        folder = work / "sch-jing15" / f"{number:02d}"
        files: dict[Path, bytes] = {}
        _resources(test, folder, files)
        schema_path = folder / "schema.sch"
        for schema in test.findall("incorrect"):
            files[schema_path] = _content(schema)
            yield Case("sch-jing15", f"{number:02d} incorrect", "schema", "error", schema_path, files=dict(files))
        for schema in test.findall("correct"):
            files[schema_path] = _content(schema)
        for verdict in ("valid", "invalid"):
            for index, instance in enumerate(test.findall(verdict), 1):
                instance_path = folder / f"{verdict}-{index}.xml"
                files[instance_path] = _content(instance)
                name = f"{number:02d} {verdict} {index}"
                yield Case("sch-jing15", name, "instance", verdict, schema_path, instance_path, files=dict(files))


# --- XSD 1.1: eight W3C test sets ------------------------------------------------------------------------------


def _xsd11(_work: Path) -> Iterator[Case]:
    """Each schemaTest (its first schema document; expected validity "full-xpath-in-CTA" where the set gives
    one per XPath subset, as xmlschema implements full XPath) and each instanceTest of its group."""
    base = SUITES_DIR / "xsd11" / "xsdtests"
    namespace = f"{{{XSTS}}}"
    for set_name in XSD11_SETS:
        path = base / set_name
        for group in etree.parse(str(path)).getroot().iter(f"{namespace}testGroup"):
            schema = None
            for test in group:
                if test.tag == f"{namespace}schemaTest":
                    document = test.find(f"{namespace}schemaDocument")
                    schema = (path.parent / document.get(XLINK_HREF)).resolve()
                    expected = _expected(test, namespace)
                    yield Case(
                        "xsd11",
                        f"{set_name} {group.get('name')} {test.get('name')}",
                        "schema",
                        "valid" if expected == "valid" else "error",
                        schema,
                    )
                elif test.tag == f"{namespace}instanceTest" and schema is not None:
                    document = test.find(f"{namespace}instanceDocument")
                    yield Case(
                        "xsd11",
                        f"{set_name} {group.get('name')} {test.get('name')}",
                        "instance",
                        _expected(test, namespace),
                        schema,
                        (path.parent / document.get(XLINK_HREF)).resolve(),
                    )


def _expected(test: etree._Element, namespace: str) -> str:
    expected = test.findall(f"{namespace}expected")
    chosen = next((e for e in expected if e.get("version") == "full-xpath-in-CTA"), expected[0])
    return chosen.get("validity")
