"""Validation of TEI documents: one generator of diagnostics behind `validate` (raises) and `is_valid` (yes/no).

Each file is read safely (document.py), checked by its schemas (schema.py: the project schema by
default, else --schema, else its local <?xml-model?> schemas) and by the apparatus rules (rules.py). The
apparatus rules fail only the toolkit's own editions (and documents checked against the project schema);
on any other document they are warnings, so that the verdict is the schema's unless --strict is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from lxml import etree

from tei.apparatus import is_toolkit_edition
from tei.diagnostics import Diagnostic, Severity, error
from tei.errors import InvalidInputError, MissingResourceError, TeiError
from tei.resources import resource
from tei.validate import rules
from tei.validate.document import read_document, schema_references, unprocessed_xincludes
from tei.validate.schema import SchemaEngine, load_schema
from tei.validate.schematron import SchematronSchema
from tei.xmlio import tei

PROJECT_SCHEMA = "tei-edition.rng"


@dataclass(frozen=True)
class ValidationOptions:
    schema: Path | None = None  # None: the document's local <?xml-model?> schemas, else the project schema
    schematron: bool = True  # run Schematron rules (embedded or standalone) besides the grammar
    apparatus_rules: bool = True
    strict: bool = False  # warnings fail too
    jobs: int = 1
    phase: str | None = None  # the Schematron phase to run (None: the schema's defaultPhase, else #ALL)


@dataclass(frozen=True)
class FileResult:
    path: Path
    diagnostics: list[Diagnostic]


def project_schema() -> Path:
    return resource("schemas", PROJECT_SCHEMA)


def iter_results(paths: Iterable[Path | str], options: ValidationOptions = ValidationOptions()) -> Iterator[FileResult]:
    """The diagnostics of each file, in the order given; with jobs > 1 files are checked in parallel."""
    paths = [Path(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)]
    if options.schema is not None:
        # a bad --schema (or a --phase it does not define) fails once, before any file
        _selected(load_schema(_existing_schema(options.schema)), True, options.schematron, options.phase)
    if options.jobs <= 1 or len(paths) < 2:
        for path in paths:
            yield FileResult(path, check_file(path, options))
        return
    from tei.parallel import pool_results  # multiprocessing is imported only when files are checked in parallel

    size = max(1, len(paths) // (options.jobs * 8))
    chunks = [(paths[start : start + size], options) for start in range(0, len(paths), size)]
    for chunk in pool_results(options.jobs, check_files, chunks, ordered=True):
        yield from chunk


def check_files(paths: list[Path], options: ValidationOptions) -> list[FileResult]:
    """One worker's share of a parallel validation."""
    return [FileResult(path, check_file(path, options)) for path in paths]


def iter_diagnostics(
    paths: Iterable[Path | str], options: ValidationOptions = ValidationOptions()
) -> Iterator[Diagnostic]:
    """Every diagnostic of every file, file by file."""
    for result in iter_results(paths, options):
        yield from result.diagnostics


def fails(diagnostic: Diagnostic, strict: bool) -> bool:
    return diagnostic.severity == Severity.ERROR or (strict and diagnostic.severity == Severity.WARNING)


def validate(paths: Iterable[Path | str], options: ValidationOptions = ValidationOptions()) -> None:
    """Raise InvalidInputError carrying every failing diagnostic, if there is one."""
    failing = [d for d in iter_diagnostics(paths, options) if fails(d, options.strict)]
    if failing:
        raise InvalidInputError(*failing)


def is_valid(paths: Iterable[Path | str], options: ValidationOptions = ValidationOptions()) -> bool:
    return not any(fails(d, options.strict) for d in iter_diagnostics(paths, options))


def prepare() -> None:
    """Read the project schema (grammar and Schematron rules) ahead, as the first check of a process would:
    `tei build` does it while the edition is collated. The copy of it an edition points to shares what is
    read here (tei.validate.schema keys schemas by their bytes), its Schematron rules compiled."""
    for engine in load_schema(project_schema()):
        if isinstance(engine, SchematronSchema):
            engine.compile_rules()


def check_file(path: Path, options: ValidationOptions) -> list[Diagnostic]:
    """All diagnostics of one file, sorted by line and column (those of the whole file first); a file that
    cannot be read gives the reason why. One cause gives one error: an apparatus finding about an element
    the grammar already refused (or a unit or reading holding it) is left out."""
    name = str(path)
    try:
        tree = read_document(path)
        engines, found = _engines_for(tree, path, options)
        found += unprocessed_xincludes(tree, name)
        for engine in engines:
            found.extend(engine.check(tree, name))
        if options.apparatus_rules:
            found.extend(
                _without_follow_ons(rules.check(tree, path, own=_own_edition(tree, path, options)), found, tree)
            )
    except TeiError as exc:
        return sorted_by_place(exc.diagnostics)
    return sorted_by_place(_sync_proposed_only_when_safe(found))


def _sync_proposed_only_when_safe(found: list[Diagnostic]) -> list[Diagnostic]:
    """APP007 proposes `tei sync` only when it is the document's only kind of error: beside another error
    the rebuilt text is a guess, and its hint says to correct the other error first."""
    if not any(d.severity is Severity.ERROR and d.code != "APP007" for d in found):
        return found
    return [replace(d, hint=rules.UNTRUSTED_TEXT) if d.code == "APP007" else d for d in found]


def sorted_by_place(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """By file, then line and column; diagnostics of a whole file (no line) first. The order is stable."""
    return sorted(diagnostics, key=lambda d: (d.file or "", d.line or 0, d.column or 0))


GRAMMAR_CODES = ("RNG", "XSD")
APPARATUS_ELEMENTS = frozenset(tei(name) for name in ("app", "lem", "rdg", "rdgGrp"))


def _without_follow_ons(findings: Iterable[Diagnostic], schema: list[Diagnostic], tree) -> list[Diagnostic]:
    """The apparatus findings, less those at the line of an element the grammar refused (a misspelled
    <lemm>, an attribute that is not allowed) or of a unit or reading around it: they follow from it."""
    findings = list(findings)
    refused = {d.line for d in schema if d.code in GRAMMAR_CODES and d.line}
    if not refused or not findings:
        return findings
    tainted = set()
    for element in tree.getroot().iter():
        if isinstance(element.tag, str) and element.sourceline in refused:
            tainted.add(element.sourceline)
            tainted.update(e.sourceline for e in element.iterancestors() if e.tag in APPARATUS_ELEMENTS)
    return [d for d in findings if d.line not in tainted]


def _own_edition(tree: etree._ElementTree, path: Path, options: ValidationOptions) -> bool:
    """One of the toolkit's own editions (its header or <?xml-model?> says so), or a document checked against
    the project schema: its apparatus findings are errors. Any other document's are warnings."""
    if is_toolkit_edition(tree):
        return True
    if options.schema is not None:
        return Path(options.schema).resolve() == project_schema().resolve()
    return not schema_references(tree, path)[0]


def _engines_for(
    tree: etree._ElementTree, path: Path, options: ValidationOptions
) -> tuple[list[SchemaEngine], list[Diagnostic]]:
    if options.schema is not None:
        return _selected(load_schema(options.schema), True, options.schematron, options.phase), []
    references, notes = schema_references(tree, path)
    if not references:
        return _selected(load_schema(project_schema()), True, options.schematron, options.phase), notes
    engines: list[SchemaEngine] = []
    for reference in references:
        if not reference.path.is_file():
            notes.append(
                error(
                    "SCH007",
                    f"the schema {reference.path} named by <?xml-model?> does not exist",
                    str(path),
                    1,
                    hint="correct the href, or pass a schema with --schema",
                )
            )
            continue
        engines += _selected(
            load_schema(reference.path), reference.grammar, reference.rules and options.schematron, options.phase
        )
    return engines, notes


def _selected(
    engines: list[SchemaEngine], grammar: bool, schematron: bool, phase: str | None = None
) -> list[SchemaEngine]:
    """The engines asked for; Schematron ones in the phase given (--phase), else in their default phase."""
    return [
        e.in_phase(phase) if isinstance(e, SchematronSchema) else e
        for e in engines
        if (schematron if isinstance(e, SchematronSchema) else grammar)
    ]


def _existing_schema(schema: Path) -> Path:
    if not Path(schema).is_file():
        raise MissingResourceError(error("SCH008", "the schema given with --schema does not exist", schema))
    return Path(schema)
