"""The Schematron engine's shortcuts: XPath 1 prefilters only ever widen a rule's context, rules are compiled
when a document first needs them (SCH001 then), and validating imports elementpath only for such a rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from validate import tei_all_contexts

from tei.errors import InvalidInputError
from tei.validate.document import read_document
from tei.validate.schematron import SchematronSchema, _prefilter, _widened

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"
TEI = {"tei": "http://www.tei-c.org/ns/1.0"}


@pytest.mark.parametrize(
    "selector, widened",
    [
        ("//((tei:a | tei:b)[@n eq 1])", "//tei:a | //tei:b"),
        ("//((tei:a | tei:b)/tei:c[@n eq 1])", "//tei:a/tei:c | //tei:b/tei:c"),
        (
            "//((tei:a | (tei:b | tei:c)[1])/tei:d) | //tei:e[. eq ']']",
            "//tei:a/tei:d | //tei:b/tei:d | //tei:c/tei:d | //tei:e",
        ),
        ("//((tei:a | /tei:b)//tei:c)", "//tei:a//tei:c | /tei:b//tei:c"),
        ("/*[@n eq 1]", "/*"),  # an attribute against a number: XPath 1 and 2 differ, so no XPath 1 form
    ],
)
def test_a_context_xpath_1_cannot_read_is_widened_to_a_union_of_paths(selector, widened):
    assert _widened(selector) == widened
    prefilter, exact = _prefilter(selector, TEI)
    assert prefilter is not None and not exact


def test_a_context_xpath_1_can_read_is_its_own_exact_prefilter_and_one_it_cannot_widen_has_none():
    assert _prefilter("//tei:a[@n = 'x'] | //tei:b", TEI)[1]
    assert _prefilter("//(tei:a except tei:b)", TEI) == (None, False)


def rules_schema(tmp_path: Path, context: str, test: str) -> Path:
    """A Schematron file of one rule, whose assert is on line 4."""
    path = tmp_path / "rules.sch"
    path.write_text(
        '<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">\n'
        '<ns prefix="tei" uri="http://www.tei-c.org/ns/1.0"/>\n'
        f'<pattern><rule context="{context}">\n<assert id="R" test="{test}">no</assert></rule></pattern>\n'
        "</schema>",
        "utf-8",
    )
    return path


def load(path: Path) -> SchematronSchema:
    return SchematronSchema(etree.parse(str(path)).getroot(), path)


def test_an_expression_whose_brackets_do_not_close_fails_at_load(tmp_path):
    with pytest.raises(InvalidInputError) as refused:
        load(rules_schema(tmp_path, "tei:app", "count(tei:lem) lt 2 and (@n"))
    (diagnostic,) = refused.value.diagnostics
    assert (diagnostic.code, diagnostic.line) == ("SCH001", 4)


def test_an_expression_elementpath_refuses_fails_when_a_document_first_needs_its_rule(tmp_path):
    tree = read_document(MINI)
    unused = load(rules_schema(tmp_path, "tei:nowhere", "count(tei:lem) lt lt 2"))
    assert list(unused.check(tree, str(MINI))) == []
    path = rules_schema(tmp_path, "tei:app", "count(tei:lem) lt lt 2")
    with pytest.raises(InvalidInputError) as refused:
        list(load(path).check(tree, str(MINI)))
    (diagnostic,) = refused.value.diagnostics
    assert (diagnostic.code, diagnostic.file, diagnostic.line) == ("SCH001", str(path), 4)


def test_validating_a_document_no_rule_fires_on_imports_no_elementpath(tmp_path):
    path = rules_schema(tmp_path, "tei:nowhere", "@n")
    program = (
        "import sys\n"
        "from tei.validate import ValidationOptions, check_file\n"
        f"assert check_file({str(MINI)!r}, ValidationOptions(schema={str(path)!r})) == []\n"
        "loaded = {'elementpath', 'tei.hadith.quran', 'tei.collate', 'tei.parallel'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def node_key(node) -> tuple:
    """The same key for a node found by lxml (element or attribute) and by elementpath."""
    if isinstance(node, etree._Element):
        return ("element", node)
    if getattr(node, "attrname", None) is not None:  # lxml's attribute value, which knows its element
        return ("attribute", node.getparent(), node.attrname)
    if getattr(node, "elem", None) is not None:
        return ("element", node.elem)
    return ("attribute", node.parent.elem, node.name)


@pytest.mark.xdist_group(tei_all_contexts.GROUP)
def test_every_prefilter_of_tei_all_finds_every_context_its_rule_fires_on(shared_dir, tei_all_rng):
    engine, documents = tei_all_contexts.tei_all_corpus(shared_dir, tei_all_rng)
    rules = [rule for pattern in engine.patterns for rule in pattern.rules if rule.may_match is not None]
    assert len(rules) == sum(len(p.rules) for p in engine.patterns)  # each TEI rule has a prefilter
    fired = 0
    for document in documents:
        for rule in rules:
            found = {node_key(n) for n in rule.may_match(document.tree)}
            contexts = document.contexts(engine, rule)
            missed = [key for key in map(node_key, contexts) if key not in found]
            assert missed == [], (document.path.name, rule.context.source)
            fired += bool(found)
    assert fired > 80  # (rule, document) pairs where the prefilter found something
