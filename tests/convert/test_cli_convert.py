"""`tei convert` on the command line: the document on stdout or in a file, refusals with nothing written."""

from __future__ import annotations

from cli_runner import one_error_line, run
from paths import FIXTURES

from tei.apparatus import witness_text
from tei.cli.convert import METHOD_NAMES
from tei.convert import METHODS
from tei.xmlio import parse_bytes, parse_file

from .documents import document

MINI = FIXTURES / "editions" / "mini.xml"


def test_the_command_offers_exactly_the_converter_methods():
    assert METHOD_NAMES == METHODS


def test_converts_to_stdout_and_tei_witness_reads_the_result(tmp_path):
    result = run("convert", MINI, "--method", "double-end-point")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    converted = tmp_path / "dep.xml"
    converted.write_bytes(result.stdout_bytes)
    assert 'method="double-end-point"' in result.stdout
    for witness in "ABC":
        shown = run("witness", converted, "--wit", witness)
        assert shown.stdout == witness_text(parse_file(MINI), witness)


def test_writes_the_output_file_and_names_it(tmp_path):
    output = tmp_path / "lr.xml"
    result = run("convert", MINI, "--method", "location-referenced", "-o", output)
    assert result.exit_code == 0 and result.stdout.strip() == str(output)
    assert witness_text(parse_bytes(output.read_bytes(), "lr.xml"), "B").startswith("The Prophet (peace")


def test_undeclared_witnesses_are_warned_about_on_stderr(tmp_path):
    source = tmp_path / "in.xml"
    source.write_bytes(document('<ab>x <app><lem wit="#A #B">y</lem><rdg wit="#C #Z">z</rdg></app></ab>'))
    result = run("convert", source, "--method", "double-end-point", "-o", tmp_path / "out.xml")
    assert result.exit_code == 0
    assert f"{source}:1: warning: [A007] @wit names 'Z'" in one_error_line(result)


def test_bad_input_gives_one_diagnostic_exit_1_and_writes_nothing(tmp_path):
    source = tmp_path / "in.xml"
    source.write_bytes(document('<ab>x <app><lem wit="#A">y</lem><rdg wit="#B">z</rdg></app></ab>', "double-end-point"))
    result = run("convert", source, "--method", "parallel-segmentation", "-o", tmp_path / "out.xml")
    assert result.exit_code == 1
    assert f"{source}:1: error: [CV002]" in one_error_line(result)
    assert not (tmp_path / "out.xml").exists()


def test_unknown_method_is_a_usage_error():
    result = run("convert", MINI, "--method", "interlinear")
    assert result.exit_code == 2


def test_missing_input_exits_3(tmp_path):
    assert run("convert", tmp_path / "none.xml", "--method", "double-end-point").exit_code == 3
