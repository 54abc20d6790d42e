"""The project schema: it parses, accepts the toolkit's outputs, is a valid subset of tei_all, and its
RELAX NG and XSD 1.1 forms agree on a corpus of valid and invalid documents."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from lxml import etree
from validate.validate_mutations import variants

from tei.diagnostics import Severity
from tei.validate import ValidationOptions, check_file, project_schema
from tei.validate.document import read_document
from tei.validate.schema import RelaxNGSchema, XSDSchema, load_schema
from tei.validate.schematron import SchematronSchema

PROJECT = Path(__file__).resolve().parents[2]
MINI = PROJECT / "tests" / "fixtures" / "editions" / "mini.xml"
SCHEMAS = PROJECT / "schemas"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> list[Path]:
    """What the toolkit writes for the seeds: the edition and its transcriptions (and the mini fixture)."""
    from tei.app.build import STAGES, BuildOptions
    from tei.outputs import write_files
    from tei.readers.manifest import read_manifest

    folder = tmp_path_factory.mktemp("outputs")
    stages, work = dict(STAGES), read_manifest(PROJECT / "seeds")
    for name in ("transcriptions", "edition", "schema"):
        write_files(stages[name](work, BuildOptions(folder)))
    return [MINI, folder / "edition.xml", *sorted((folder / "transcriptions").glob("*.xml"))]


@pytest.fixture(scope="module")
def mutated(outputs, tmp_path_factory) -> list[Path]:
    """Seeded variants of the outputs (many of the large edition would be slow for xmlschema: few of it)."""
    folder = tmp_path_factory.mktemp("variants")
    plan = [(MINI, 160, 1), (outputs[2], 60, 2), (outputs[1], 12, 3)]
    paths = []
    for source, count, seed in plan:
        for number, data in enumerate(variants(etree.parse(str(source)), count, seed)):
            path = folder / f"{source.stem}-{number:03}.xml"
            path.write_bytes(data)
            paths.append(path)
    return paths


@cache
def project_errors(path: Path, engine_kinds: tuple[type, ...]) -> list:
    """Error diagnostics of the project schema's engines of the given kinds (None if the file is refused).
    Kept per file: three tests ask it of each of the 240 outputs and variants (they are made once a module)."""
    try:
        tree = read_document(path)
    except Exception:  # noqa: BLE001 - a variant that no longer parses is simply left out
        return None
    engines = [e for e in load_schema(project_schema()) if isinstance(e, engine_kinds)]
    return [d for e in engines for d in e.check(tree, str(path)) if d.severity == Severity.ERROR]


def test_every_shipped_schema_loads():
    engines = load_schema(SCHEMAS / "tei-edition.rng")
    assert [type(e) for e in engines] == [RelaxNGSchema, SchematronSchema]
    (xsd,) = load_schema(SCHEMAS / "tei-edition.xsd")
    assert isinstance(xsd, XSDSchema) and xsd.version == "1.1"


def test_jing_accepts_the_grammar_and_the_fixture(jing):
    result = subprocess.run([jing, str(SCHEMAS / "tei-edition.rng"), str(MINI)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_toolkit_outputs_pass_schema_schematron_and_apparatus_rules(outputs):
    for path in outputs:
        assert check_file(path, ValidationOptions(strict=True)) == [], path


def test_the_mutation_corpus_holds_valid_and_invalid_documents(mutated):
    verdicts = [project_errors(p, (RelaxNGSchema, SchematronSchema)) for p in mutated]
    assert sum(v == [] for v in verdicts) >= 25
    assert sum(bool(v) for v in verdicts) >= 25


def test_what_the_project_schema_accepts_tei_all_accepts(outputs, mutated, jing, tei_all_rng, tmp_path):
    accepted = [p for p in [*outputs, *mutated] if project_errors(p, (RelaxNGSchema, SchematronSchema)) == []]
    result = subprocess.run([jing, str(tei_all_rng), *map(str, accepted)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[:2000]
    tei_rules = [e for e in load_schema(tei_all_rng) if isinstance(e, SchematronSchema)]
    for path in accepted:
        assert [
            d for e in tei_rules for d in e.check(read_document(path), str(path)) if d.severity == Severity.ERROR
        ] == [], path


def test_relax_ng_and_xsd_forms_give_the_same_verdict(outputs, mutated):
    disagreements = []
    for path in [*outputs, *mutated]:
        relax_ng = project_errors(path, (RelaxNGSchema, SchematronSchema))
        if relax_ng is None:
            continue
        (xsd,) = load_schema(SCHEMAS / "tei-edition.xsd")
        xsd_errors = list(xsd.check(read_document(path), str(path)))
        if (relax_ng == []) != (xsd_errors == []):
            disagreements.append((path.name, relax_ng[:1], xsd_errors[:1]))
    assert disagreements == []


def test_the_committed_xsd_is_what_derive_xsd_produces(tmp_path):
    if shutil.which("trang") is None:
        pytest.fail("trang is not installed: run scripts/setup.sh --test")
    import importlib.util

    spec = importlib.util.spec_from_file_location("derive_xsd", SCHEMAS / "derive_xsd.py")
    derive_xsd = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(derive_xsd)
    for name, data in derive_xsd.derive(SCHEMAS / "tei-edition.rng", tmp_path).items():
        assert (SCHEMAS / name).read_bytes() == data, f"schemas/{name} is stale: run python schemas/derive_xsd.py"


def test_a_transposition_pointer_with_several_targets_gets_the_same_verdict_in_both_forms(outputs, tmp_path):
    """@target is a list of pointers: the XSD form reads its string (xmlschema atomizes the typed attribute to
    a sequence, which normalize-space refused with XPTY0004 on any valid pointer to two units)."""
    text = outputs[1].read_text("utf-8")
    first = re.search(r'<ptr target="#([^"]+)"', text)
    assert first, "the seeds' edition has no transposition"
    (xsd,) = load_schema(SCHEMAS / "tei-edition.xsd")
    verdicts = {}
    for name, target in {"two units": f"#{first[1]} #{first[1]}", "a unit and a witness": f"#{first[1]} #A"}.items():
        path = tmp_path / f"{name.replace(' ', '-')}.xml"
        path.write_text(text.replace(first[0], f'<ptr target="{target}"', 1), "utf-8")
        relax_ng = project_errors(path, (RelaxNGSchema, SchematronSchema))
        xsd_codes = [d.code for d in xsd.check(read_document(path), str(path))]
        verdicts[name] = ([d.code for d in relax_ng], xsd_codes)
    assert verdicts == {"two units": ([], []), "a unit and a witness": (["ED005"], ["ED005"])}
