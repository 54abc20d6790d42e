"""tei/render/xslt.py: stylesheets compiled once, parameters quoted, xsl:message read as located diagnostics."""

from __future__ import annotations

import pytest

from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.render.xslt import apply, compile_stylesheet, stylesheet
from tei.xmlio import parse_bytes

DOCUMENT = b"<root>\n  <a/>\n  <b>text</b>\n</root>\n"
HEAD = '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:param name="p"/>'


def compiled(tmp_path, body: str):
    path = tmp_path / "test.xsl"
    path.write_text(HEAD + body + "</xsl:stylesheet>", "utf-8")
    return compile_stylesheet(path)


def test_a_shipped_stylesheet_is_compiled_once():
    assert stylesheet("html/edition.xsl") is stylesheet("html/edition.xsl")


def test_a_structured_message_becomes_a_diagnostic_at_the_line_of_its_node(tmp_path):
    stylesheet_ = compiled(
        tmp_path, '<xsl:template match="/"><xsl:message>WARNING T001 /*[1]/*[2] : b is odd</xsl:message></xsl:template>'
    )
    (diagnostic,) = apply(stylesheet_, parse_bytes(DOCUMENT, "doc.xml"), "doc.xml", {}).diagnostics
    assert (diagnostic.code, diagnostic.severity, diagnostic.line, diagnostic.message) == (
        "T001",
        Severity.WARNING,
        3,
        "b is odd",
    )
    assert diagnostic.file == "doc.xml"


def test_any_other_message_is_a_warning_xs003(tmp_path):
    stylesheet_ = compiled(tmp_path, '<xsl:template match="/"><xsl:message>just saying</xsl:message></xsl:template>')
    (diagnostic,) = apply(stylesheet_, parse_bytes(DOCUMENT, "doc.xml"), "doc.xml", {}).diagnostics
    assert (diagnostic.code, diagnostic.message) == ("XS003", "just saying")


def test_a_terminating_message_refuses_the_input(tmp_path):
    stylesheet_ = compiled(
        tmp_path,
        '<xsl:template match="/"><xsl:message terminate="yes">ERROR T002 /*[1] : cannot go on</xsl:message></xsl:template>',
    )
    with pytest.raises(InvalidInputError) as caught:
        apply(stylesheet_, parse_bytes(DOCUMENT, "doc.xml"), "doc.xml", {})
    assert [(d.code, d.line) for d in caught.value.diagnostics] == [("T002", 1)]


def test_parameters_are_strings_never_xpath(tmp_path):
    stylesheet_ = compiled(
        tmp_path, '<xsl:output method="text"/><xsl:template match="/"><xsl:value-of select="$p"/></xsl:template>'
    )
    value = "') or count(//*) or ('\" & <"
    assert str(apply(stylesheet_, parse_bytes(DOCUMENT, "doc.xml"), "doc.xml", {"p": value}).result) == value


def test_a_stylesheet_that_does_not_compile_is_reported(tmp_path):
    with pytest.raises(InvalidInputError) as caught:
        compiled(tmp_path, '<xsl:template match="/"><xsl:value-of select="(("/></xsl:template>')
    assert caught.value.diagnostics[0].code == "XS001"


def test_stylesheets_cannot_reach_the_network(tmp_path):
    stylesheet_ = compiled(
        tmp_path,
        '<xsl:template match="/"><xsl:copy-of select="document(\'http://example.invalid/x.xml\')"/></xsl:template>',
    )
    with pytest.raises(InvalidInputError) as caught:
        apply(stylesheet_, parse_bytes(DOCUMENT, "doc.xml"), "doc.xml", {})
    assert caught.value.diagnostics[-1].code == "XS002"
    assert "http://example.invalid/x.xml denied" in caught.value.diagnostics[-1].message


def test_thousands_of_witnesses_in_one_wit_render_without_deep_recursion(tmp_path):
    """Failure 11: 3,000 witnesses passed validation, but HTML and PDF failed with ~70 "unknown error" XS003:
    the stylesheets went through a @wit one token a call deeper (libxslt stops at 3,000). A long list is now
    cut in halves, so the depth is its logarithm."""
    from cli_runner import run

    count = 3_000
    declared = "".join(f'<witness xml:id="W{i}"/>' for i in range(count))
    half, other = (" ".join(f"#W{i}" for i in range(start, count, 2)) for start in (0, 1))
    path = tmp_path / "many.xml"
    path.write_text(
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>'
        f"<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>{declared}</listWit></sourceDesc>"
        '</fileDesc><encodingDesc><variantEncoding method="parallel-segmentation" location="internal"/>'
        f'</encodingDesc></teiHeader><text><body><ab>a <app><lem wit="{half}">b</lem><rdg wit="{other}">c</rdg>'
        "</app> d</ab></body></text></TEI>",
        "utf-8",
    )
    result = run("render", path, "--to", "html", "-o", tmp_path / "html")
    assert result.exit_code == 0 and "[XS003]" not in result.stderr, result.stderr[-500:]
    page = (tmp_path / "html" / "index.html").read_text("utf-8")
    assert "W2998" in page and "W2999" in page


def test_no_key_over_units_or_readings_matches_a_union():
    """libxslt indexes a key whose match is a union ("tei:lem | tei:rdg") by merging node-sets, quadratic in
    their sizes (issue 38: 11 s of a 20,000-unit HTML); keys over what is as numerous as the units match one
    pattern with a predicate instead (`*[self::tei:lem or self::tei:rdg]`)."""
    from lxml import etree

    from tei.resources import resource_root

    numerous = ("tei:app", "tei:lem", "tei:rdg", "tk:unit", "tk:reading")
    keys = [
        (path.name, key.get("name"), key.get("match"))
        for path in sorted(resource_root("xslt").rglob("*.xsl"))
        for key in etree.parse(str(path)).iter("{http://www.w3.org/1999/XSL/Transform}key")
    ]
    assert keys
    unions = [(name, key) for name, key, match in keys if "|" in match and any(n in match for n in numerous)]
    assert unions == []
