"""`tei validate`: exit codes, the report formats, --strict, --jobs, <?xml-model?> and the build stages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree
from validate import jing_runs

from tei.cli import main

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"
SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"


def invoke(*arguments: str):
    return CliRunner().invoke(main, ["validate", *map(str, arguments)])


def broken(tmp_path: Path, old: str, new: str, name: str = "broken.xml") -> Path:
    path = tmp_path / name
    path.write_text(MINI.read_text("utf-8").replace(old, new, 1), "utf-8")
    return path


@pytest.fixture
def missing_witness(tmp_path) -> Path:
    return broken(tmp_path, '<lem wit="#A #C">(ﷺ)</lem>', '<lem wit="#A">(ﷺ)</lem>')


@pytest.fixture
def unknown_type(tmp_path) -> Path:
    return broken(tmp_path, 'type="addition"', 'type="gloss"', "warned.xml")


def test_a_valid_edition_exits_0_and_says_so_on_stderr():
    result = invoke(MINI)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "1 file(s) checked: 1 passed, 0 failed" in result.stderr


def test_an_invalid_edition_exits_1_with_the_located_diagnostic(missing_witness):
    result = invoke(missing_witness)
    assert result.exit_code == 1
    assert f"{missing_witness}:39: error: [APP003] witness 'C' has no reading in app 'app-0001'" in result.stderr


def test_warnings_pass_unless_strict(unknown_type):
    assert invoke(unknown_type).exit_code == 0
    assert invoke("--strict", unknown_type).exit_code == 1


def test_missing_inputs_and_schemas_exit_3_unreadable_schema_kinds_exit_2(tmp_path):
    assert invoke(tmp_path / "absent.xml").exit_code == 3
    assert invoke("--schema", tmp_path / "absent.rng", MINI).exit_code == 3
    compact = tmp_path / "schema.rnc"
    compact.write_text("start = element TEI { empty }", "utf-8")
    result = invoke("--schema", compact, MINI)
    assert result.exit_code == 2 and "[SCH004]" in result.stderr


def test_json_report_on_stdout(missing_witness):
    result = invoke("--format", "json", MINI, missing_witness)
    records = json.loads(result.stdout)
    assert result.exit_code == 1
    assert [(r["code"], r["line"], r["severity"]) for r in records] == [("APP003", 39, "error")]


def test_junit_report_has_one_case_per_file(missing_witness):
    result = invoke("--format", "junit", MINI, missing_witness)
    suite = etree.fromstring(result.stdout.encode())
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    (failure,) = suite.iter("failure")
    assert failure.get("type") == "APP003"


def test_sarif_report_lists_results_with_rule_ids_and_regions(missing_witness):
    sarif = json.loads(invoke("--format", "sarif", missing_witness).stdout)
    (result,) = sarif["runs"][0]["results"]
    assert sarif["version"] == "2.1.0"
    assert result["ruleId"] == "APP003" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 39


def test_parallel_jobs_report_the_same_as_one(tmp_path, missing_witness, unknown_type):
    files = [MINI, missing_witness, unknown_type] * 3
    one = invoke("--format", "json", *files)
    two = invoke("--format", "json", "--jobs", "2", *files)
    assert json.loads(one.stdout) == json.loads(two.stdout) and one.exit_code == two.exit_code == 1


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path):
    result = invoke(MINI, MINI)
    assert "validating" not in result.stderr


def test_xml_model_schemas_are_used_and_a_missing_one_is_reported(tmp_path):
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    shutil.copy(Path(__file__).resolve().parents[2] / "schemas" / "tei-edition.rng", schemas)
    pi = '<?xml-model href="schemas/tei-edition.rng" schematypens="http://relaxng.org/ns/structure/1.0"?>\n'
    text = MINI.read_text("utf-8").replace("<TEI ", pi + "<TEI ", 1)
    (tmp_path / "good.xml").write_text(text, "utf-8")
    (tmp_path / "bad.xml").write_text(text.replace("schemas/tei-edition.rng", "nowhere.rng"), "utf-8")
    assert invoke(tmp_path / "good.xml").exit_code == 0
    result = invoke(tmp_path / "bad.xml")
    assert result.exit_code == 1 and "[SCH007]" in result.stderr


def test_remote_xml_model_schema_is_not_fetched(tmp_path):
    pi = '<?xml-model href="https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng"?>\n'
    path = tmp_path / "remote.xml"
    path.write_text(MINI.read_text("utf-8").replace("<TEI ", pi + "<TEI ", 1), "utf-8")
    result = invoke(path)
    assert "[SEC004]" in result.stderr and result.exit_code == 0


def test_the_build_stages_copy_the_schema_where_the_edition_points_and_validate_it(tmp_path):
    from tei.app.build import STAGES, BuildOptions
    from tei.errors import InvalidInputError
    from tei.outputs import write_files
    from tei.readers.manifest import read_manifest

    options, work = BuildOptions(tmp_path), read_manifest(SEEDS)
    stages = dict(STAGES)
    for name in ("transcriptions", "edition", "schema"):
        write_files(stages[name](work, options))
    assert (tmp_path / "schemas" / "tei-edition.rng").is_file()
    assert stages["validate"](work, options) == {}
    edition = tmp_path / "edition.xml"
    edition.write_text(edition.read_text("utf-8").replace('wit="#A #B', 'wit="#A #A #B', 1), "utf-8")
    with pytest.raises(InvalidInputError) as refused:
        stages["validate"](work, options)
    assert {d.code for d in refused.value.diagnostics} == {"APP002"}


def test_a_standalone_schematron_file_as_schema(tmp_path):
    rules = tmp_path / "rules.sch"
    rules.write_text(
        '<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">'
        '<ns prefix="tei" uri="http://www.tei-c.org/ns/1.0"/>'
        '<pattern><rule context="tei:witness"><assert id="SIGLUM" test="matches(@n, \'^[A-Z]$\')">'
        'The siglum <value-of select="@n"/> of <name/> is not one capital letter.</assert></rule></pattern>'
        '<pattern><rule context="tei:TEI"><assert id="DYNAMIC" test="xs:integer(string(@xml:lang)) gt 0">never</assert></rule>'
        "</pattern></schema>",
        "utf-8",
    )
    path = broken(tmp_path, '<witness xml:id="B" n="B">', '<witness xml:id="B" n="B2">')
    result = invoke("--format", "json", "--schema", rules, "--no-apparatus-rules", path)
    records = [(r["code"], r["severity"], r["message"]) for r in json.loads(result.stdout)]
    assert ("SIGLUM", "error", "The siglum B2 of witness is not one capital letter.") in records
    assert [code for code, *_ in records].count("SCH009") == 1  # xs:integer('en') is a dynamic error
    assert result.exit_code == 1


def test_the_xsd_form_as_schema_reports_assertions_under_their_codes(tmp_path):
    path = broken(tmp_path, 'location="internal"', 'location="external"')
    xsd = Path(__file__).resolve().parents[2] / "schemas" / "tei-edition.xsd"
    records = json.loads(invoke("--format", "json", "--schema", xsd, "--no-apparatus-rules", path).stdout)
    assert [(r["code"], r["line"]) for r in records] == [("ED002", 20)]


def test_apparatus_findings_on_a_foreign_document_are_warnings_unless_strict(tmp_path, missing_witness, tei_all_rng):
    # Checked against tei_all, mini.xml is another project's edition: the schema decides, APP003 is a warning.
    result = invoke("--schema", tei_all_rng, missing_witness)
    assert result.exit_code == 0, result.stderr
    assert f"{missing_witness}:39: warning: [APP003] witness 'C' has no reading" in result.stderr
    strict = invoke("--schema", tei_all_rng, "--strict", missing_witness)
    assert strict.exit_code == 1 and "[APP003]" in strict.stderr


def test_the_toolkits_own_editions_keep_apparatus_findings_as_errors(tmp_path, tei_all_rng):
    own = broken(
        tmp_path,
        '<lem wit="#A #C">(ﷺ)</lem>',
        '<lem wit="#A">(ﷺ)</lem>',
        "own.xml",
    )
    own.write_text(
        own.read_text("utf-8").replace(
            "Hand-written test fixture of the tei-edition toolkit.", "Generated by tei-edition 1"
        ),
        "utf-8",
    )
    result = invoke("--schema", tei_all_rng, own)
    assert result.exit_code == 1 and f"{own}:39: error: [APP003]" in result.stderr


@pytest.mark.needs_shared
@pytest.mark.external_tool
@pytest.mark.slow
@pytest.mark.xdist_group(jing_runs.GROUP)  # jing's verdicts on the corpus are test_tei_all.py's
def test_every_corpus_file_exits_as_jing_does(shared_dir, jing, tei_all_rng):
    documents = sorted((shared_dir / "corpora").glob("tei-apparatus*/*.xml"))
    verdicts = jing_runs.corpus_first_errors(jing, tei_all_rng, shared_dir / "corpora")
    for document in documents:
        result = invoke("--schema", tei_all_rng, document)
        assert result.exit_code == (0 if verdicts[document] is None else 1), (document.name, result.stderr[-1500:])


def test_dash_is_standard_input(tmp_path):
    """Point 8: `tei validate -` was IO001 ("does not exist") although `-` is stdin everywhere else."""
    from cli_runner import run
    from paths import FIXTURES

    result = run("validate", "-", input=(FIXTURES / "editions" / "mini.xml").read_bytes())
    assert "[IO001]" not in result.stderr and result.exit_code == 0, result.stderr
