"""ISO Schematron beyond the TEI's rules: composition, phases (--phase), any rule context, let content, key(),
schema errors refused with SCH011 at their line, and every failing assert saying something. Small schemas
written here; the standards' own suites are run by test_conformance_schematron.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from tei.cli import main
from tei.errors import InvalidInputError, UsageError
from tei.validate.schematron import SchematronSchema

SCH = 'xmlns="http://purl.oclc.org/dsdl/schematron"'
DOCUMENT = "<root a='1'><!-- c --><?pi x?><item>text</item></root>"


def schema(tmp_path: Path, body: str, attributes: str = "") -> Path:
    path = tmp_path / "schema.sch"
    path.write_text(f'<schema {SCH} queryBinding="xslt2" {attributes}>\n{body}\n</schema>\n', "utf-8")
    return path


def findings(path: Path, document: str = DOCUMENT, phase: str | None = None) -> list:
    engine = SchematronSchema(etree.parse(str(path)).getroot(), path).in_phase(phase)
    return list(engine.check(etree.ElementTree(etree.fromstring(document)), "doc.xml"))


@pytest.mark.parametrize(
    ("context", "line"),
    [("/", None), ("comment()", 1), ("processing-instruction()", 1), ("text()", 1), ("@a", 1), ("item", 1)],
)
def test_a_rule_fires_on_any_kind_of_node(tmp_path, context, line):
    path = schema(tmp_path, f'<pattern><rule context="{context}"><assert test="false()" id="A1"/></rule></pattern>')
    found = findings(path)
    assert [(d.code, d.line) for d in found] == [("A1", line)]


def test_an_assert_without_text_says_its_id_else_what_it_tests(tmp_path):
    path = schema(
        tmp_path,
        '<pattern><rule context="item"><assert test="false()" id="no-text"/><report test="true()"/></rule></pattern>',
    )
    assert [d.message for d in findings(path)] == ["no-text", "report 'true()' is true"]


def test_abstract_patterns_take_their_parameters(tmp_path):
    path = schema(
        tmp_path,
        '<pattern abstract="true" id="needs"><rule context="$parent"><assert test="$child">'
        "<name/> needs a child</assert></rule></pattern>"
        '<pattern is-a="needs"><param name="parent" value="root"/><param name="child" value="missing"/></pattern>',
    )
    assert [d.message for d in findings(path)] == ["root needs a child"]


def test_includes_and_abstract_rules_are_composed(tmp_path):
    (tmp_path / "rules.sch").write_text(
        f'<pattern {SCH}><rule abstract="true" id="r"><assert test="false()" id="shared"/></rule></pattern>', "utf-8"
    )
    path = schema(
        tmp_path,
        '<pattern><rule context="item"><extends href="rules.sch#r"/></rule></pattern>'
        '<pattern><rule abstract="true" id="local"><report test="true()" id="local"/></rule>'
        '<rule context="root"><extends rule="local"/></rule></pattern>',
    )
    assert sorted(d.code for d in findings(path)) == ["local", "shared"]


PHASED = (
    '<phase id="quick"><let name="kind" value="\'quick\'"/><active pattern="p1"/></phase>'
    '<phase id="full"><active pattern="p1"/><active pattern="p2"/></phase>'
    '<pattern id="p1"><rule context="root"><report test="true()" id="P1"><value-of select="$kind"/></report>'
    "</rule></pattern>"
    '<pattern id="p2"><rule context="item"><report test="true()" id="P2"/></rule></pattern>'
    '<let name="kind" value="\'any\'"/>'
)


def test_phases_choose_patterns_and_bind_their_lets(tmp_path):
    path = schema(tmp_path, PHASED, 'defaultPhase="quick"')
    assert [(d.code, d.message) for d in findings(path)] == [("P1", "quick")]
    assert [(d.code, d.message) for d in findings(path, phase="full")] == [("P1", "any"), ("P2", "P2")]
    assert len(findings(path, phase="#ALL")) == 2


def test_the_phase_option_of_tei_validate(tmp_path):
    path = schema(tmp_path, PHASED, 'defaultPhase="quick"')
    document = tmp_path / "doc.xml"
    document.write_text(DOCUMENT, "utf-8")
    run = CliRunner().invoke(main, ["validate", "--schema", str(path), "--phase", "full", str(document)])
    assert run.exit_code == 1 and "P2" in run.output
    unknown = CliRunner().invoke(main, ["validate", "--schema", str(path), "--phase", "nope", str(document)])
    assert unknown.exit_code == 2 and "SCH012" in unknown.output and "Traceback" not in unknown.output


def test_an_unknown_phase_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError) as refused:
        findings(schema(tmp_path, PHASED), phase="nope")
    assert refused.value.diagnostics[0].code == "SCH012"


def test_a_let_with_element_content_is_bound_to_those_elements(tmp_path):
    path = schema(
        tmp_path,
        '<let name="names"><n>item</n><n>other</n></let>'
        '<pattern><rule context="*[local-name() = $names]"><report test="true()" id="named"/></rule></pattern>',
    )
    assert [d.code for d in findings(path)] == ["named"]


def test_key_looks_up_the_schemas_xsl_key(tmp_path):
    path = schema(
        tmp_path,
        '<xsl:key xmlns:xsl="http://www.w3.org/1999/XSL/Transform" name="k" match="item" use="."/>'
        '<pattern><rule context="/"><assert test="count(key(\'k\', \'text\')) = 2" id="K"/></rule></pattern>',
    )
    assert [d.code for d in findings(path)] == ["K"]


@pytest.mark.parametrize(
    ("body", "line", "says"),
    [
        ('<pattern><rule context="item">\n<assert test="$undefined"/></rule></pattern>', 3, "$undefined"),
        (
            '<pattern><rule context="item"><let name="x" value="1"/>\n<let name="x" value="2"/></rule></pattern>',
            3,
            "$x",
        ),
        ('<pattern><rule context="item">\n<extends rule="nowhere"/></rule></pattern>', 3, "nowhere"),
        (
            '<pattern><rule context="item" id="r"/><rule context="*">\n<extends rule="r"/></rule></pattern>',
            3,
            "abstract",
        ),
        ('\n<pattern is-a="nothing"/>', 3, "nothing"),
        ('\n<include href="missing.sch"/>', 3, "missing.sch"),
    ],
)
def test_schema_errors_are_refused_with_their_line(tmp_path, body, line, says):
    with pytest.raises(InvalidInputError) as refused:
        findings(schema(tmp_path, body))
    diagnostic = refused.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.line) == ("SCH011", line) and says in diagnostic.message


def test_a_value_of_that_cannot_be_evaluated_leaves_the_finding(tmp_path):
    path = schema(
        tmp_path,
        '<pattern><rule context="item"><assert test="false()">x is <value-of select="1 idiv 0"/></assert>'
        "</rule></pattern>",
    )
    assert [d.message for d in findings(path)] == ["x is {1 idiv 0}"]


def test_schematron_15_is_read_as_iso(tmp_path):
    path = tmp_path / "old.sch"
    path.write_text(
        '<schema xmlns="http://www.ascc.net/xml/schematron"><pattern name="p"><rule context="item">'
        '<assert test="@id">an item needs an id</assert></rule></pattern></schema>',
        "utf-8",
    )
    assert [d.message for d in findings(path)] == ["an item needs an id"]


def test_an_asserts_diagnostics_follow_its_message(tmp_path):
    path = schema(
        tmp_path,
        '<pattern><rule context="item"><assert test="false()" diagnostics="d1">no</assert>'
        '<assert test="false()" diagnostics="d1"/></rule></pattern>'
        '<diagnostics><diagnostic id="d1">found <value-of select="."/></diagnostic></diagnostics>',
    )
    assert [d.message for d in findings(path)] == ["no (found text)", "found text"]
