"""XPath 2 expressions handed to lxml in their XPath 1 form (tei/validate/xpath1.py): which ones, and that
lxml then gives what elementpath gives, context by context and test by test, on the TEI's own rules."""

from __future__ import annotations

import pytest
from elementpath import XPathContext
from lxml import etree
from validate import tei_all_contexts
from validate.tei_all_contexts import CorpusDocument
from validate.test_schematron import MINI, node_key

from tei.validate import project_schema
from tei.validate.document import read_document
from tei.validate.schema import load_schema
from tei.validate.schematron import SchematronSchema, _true
from tei.validate.xpath1 import xpath1_form


@pytest.mark.parametrize(
    "xpath2, xpath1",
    [
        (
            "@location eq 'external' and @method eq 'parallel-segmentation'",
            "@location = 'external' and @method = 'parallel-segmentation'",
        ),
        ("count(tei:lem) lt 2", "count(tei:lem) < 2"),
        (
            "not(/tei:TEI/tei:teiHeader//tei:taxonomy[@xml:id = 'r']) or @type = /tei:TEI//tei:taxonomy[@xml:id eq 'r']//@xml:id",
            "not(/tei:TEI/tei:teiHeader//tei:taxonomy[@xml:id = 'r']) or @type = /tei:TEI//tei:taxonomy[@xml:id = 'r']//@xml:id",
        ),
        ("count(.//tei:lem) - count(.//tei:app//tei:lem) le 1", "count(.//tei:lem) - count(.//tei:app//tei:lem) <= 1"),
        ("/*[ count( //tei:constraintDecl ) gt 1 ]", "/*[ count( //tei:constraintDecl ) > 1 ]"),
        ("string-length( normalize-space(.) ) gt 0", "string-length( normalize-space(.) ) > 0"),
        ("child::text()[ normalize-space(.) ne '']", "child::text()[ normalize-space(.) != '']"),
        ("not( parent::tei:msPart ) and (tei:a or @b)", "not( parent::tei:msPart ) and (tei:a or @b)"),
        ("//tei:list[@type='gloss'] | //tei:*[@from]", "//tei:list[@type = 'gloss'] | //tei:*[@from]"),
        ("contains(normalize-space(@to),' ')", "contains(normalize-space(@to),' ')"),
        ("child::* | @* | tei:rdg-x[1]", "child::* | @* | tei:rdg-x[1]"),
    ],
)
def test_expressions_with_the_same_value_in_xpath_1(xpath2, xpath1):
    assert xpath1_form(xpath2) == xpath1


@pytest.mark.parametrize(
    "xpath2",
    [
        "@n < 'b'",  # XPath 2 compares strings, XPath 1 numbers
        "@n = 3",
        "@a + 1",
        "count(x) - 1",
        "count(x) - @n le 1",  # a string in arithmetic
        "@type = /tei:TEI//tei:category[matches(@n, 'x')]/@xml:id",  # a path with an XPath 2 function
        "@type = /tei:TEI//tei:category[@n < 'b']/@xml:id",
        "@n - count(x) le 1",
        "2 * 3",
        "a div 2",  # untyped values in arithmetic or against numbers
        "$gi",
        "ancestor::tei:l[. = current()]",
        "matches(@a, 'x')",
        "id(@a) >> .",
        "@mode = ('a', 'b')",
        "string(@a) eq 'x'",
    ],
)
def test_expressions_left_to_elementpath(xpath2):
    form = xpath1_form(xpath2)
    if form is not None:  # what xpath1_form lets through must then fail to compile as XPath 1
        with pytest.raises(etree.XPathSyntaxError):
            etree.XPath(form)


def assert_lxml_agrees_with_elementpath(engine: SchematronSchema, document: CorpusDocument) -> int:
    """For each rule lxml can run: the same context nodes, and on each the same value of every test."""
    tree, name, nodes, compared = document.tree, document.path.name, document.nodes, 0
    for rule in (r for pattern in engine.patterns for r in pattern.rules if r.exact):
        contexts = document.contexts(engine, rule)
        assert {node_key(n) for n in rule.may_match(tree)} == {node_key(n) for n in contexts}, rule.context
        for check in (c for c in rule.checks if c.quick is not None and not rule.lets):
            for node in contexts:
                token = engine._token(check.test)
                expected = token.boolean_value(
                    token.evaluate(XPathContext(nodes, item=node, variables={"current": node}))
                )
                assert _true(check.quick(node.elem)) == expected, (name, check.test.source, node.elem.sourceline)
                compared += 1
    return compared


def test_lxml_runs_the_project_rules_as_elementpath_does():
    (_grammar, engine) = load_schema(project_schema())
    assert assert_lxml_agrees_with_elementpath(engine, CorpusDocument(MINI, read_document(MINI))) > 0


@pytest.mark.xdist_group(tei_all_contexts.GROUP)
def test_lxml_runs_the_tei_rules_as_elementpath_does_on_every_corpus_document(shared_dir, tei_all_rng):
    engine, documents = tei_all_contexts.tei_all_corpus(shared_dir, tei_all_rng)
    quick = [r for p in engine.patterns for r in p.rules if r.quick]
    assert len(quick) >= 50  # most of the TEI's rules need no elementpath
    compared = sum(assert_lxml_agrees_with_elementpath(engine, document) for document in documents)
    assert compared > 500
