"""XML Schema through xmlschema: 1.1 detected by any 1.1 construct, attribute or vc:minVersion (also in an
included file), comments and processing instructions never content, xmlschema's exceptions reported as
diagnostics. Small schemas written here; the W3C 1.1 sets are run by test_conformance_xsd11.py."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from lxml import etree

from tei.validate import ValidationOptions, check_file
from tei.validate.schema import XSDSchema

XS = 'xmlns:xs="http://www.w3.org/2001/XMLSchema"'


def xsd(tmp_path: Path, body: str, attributes: str = "", name: str = "schema.xsd") -> Path:
    path = tmp_path / name
    path.write_text(f"<xs:schema {XS} {attributes}>{body}</xs:schema>", "utf-8")
    return path


def version(path: Path) -> str:
    return XSDSchema(etree.parse(str(path)), path).version


def verdict(tmp_path: Path, schema: Path, document: str) -> list:
    path = tmp_path / "doc.xml"
    path.write_text(document, "utf-8")
    return check_file(path, ValidationOptions(schema=schema, apparatus_rules=False))


COUNTED = '<xs:element name="x"><xs:complexType><xs:attribute name="n" type="xs:int"/>{}</xs:complexType></xs:element>'


@pytest.mark.parametrize(
    ("body", "attributes"),
    [
        (COUNTED.format('<xs:assert test="@n > 0"/>'), ""),  # childless: lxml elements without children are falsy
        (COUNTED.format(""), 'xpathDefaultNamespace="##targetNamespace"'),
        ('<xs:element name="x" vc:minVersion="1.1" xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning"/>', ""),
        ('<xs:attribute name="a" inheritable="true"/>', ""),
    ],
)
def test_any_11_construct_makes_the_schema_11(tmp_path, body, attributes):
    path = xsd(tmp_path, body, attributes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FutureWarning from testing an element for truth
        assert version(path) == "1.1"


def test_a_schema_is_11_when_a_file_it_includes_is(tmp_path):
    xsd(tmp_path, COUNTED.format('<xs:assert test="@n > 0"/>'), name="part.xsd")
    main = xsd(tmp_path, '<xs:include schemaLocation="part.xsd"/>')
    assert version(main) == "1.1"
    assert [d.code for d in verdict(tmp_path, main, '<x n="-1"/>')] == ["XSD"]
    assert verdict(tmp_path, main, '<x n="1"/>') == []


def test_a_plain_schema_stays_10(tmp_path):
    assert version(xsd(tmp_path, '<xs:element name="x" type="xs:int"/>')) == "1.0"


@pytest.mark.parametrize("inside", ["<!-- test -->", "<?pi data?>"])
def test_comments_and_processing_instructions_are_not_content(tmp_path, inside):
    schema = xsd(tmp_path, '<xs:element name="x" type="xs:int"/>')
    assert verdict(tmp_path, schema, f"<x>10{inside}0</x>") == []
    found = verdict(tmp_path, schema, f"<x>\n1{inside}a</x>")
    assert [(d.code, d.line) for d in found] == [("XSD", 1)]


@pytest.mark.parametrize("test", ["1 idiv 0 = 1", "1 idiv string-length(@n) gt 0"])
def test_an_exception_of_xmlschema_is_a_diagnostic(tmp_path, test):
    """xmlschema raises on a division by zero in an xs:alternative: when it loads the schema (a constant
    test: SCH003) or when it checks the document (XSD), said as a diagnostic either way."""
    schema = xsd(
        tmp_path,
        f'<xs:element name="x" type="xs:string"><xs:alternative test="{test}" type="xs:error"/></xs:element>',
    )
    found = verdict(tmp_path, schema, "<x/>")
    assert [d.code for d in found] == ["XSD" if "@" in test else "SCH003"]
