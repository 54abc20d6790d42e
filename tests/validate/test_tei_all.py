"""`--schema tei_all.rng` against jing on every XML document of ../shared/corpora, and the pruned grammar
against the whole one compiled by lxml (about 20 s, once per session)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from tei.validate import ValidationOptions, check_file
from tei.validate.document import read_document
from tei.validate.schema import load_schema
from tei.xmlio import TEI_NS

JING_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?:error|fatal): ", re.MULTILINE)


def corpus_documents(shared_dir: Path) -> list[Path]:
    return sorted((shared_dir / "corpora").rglob("*.xml"))


def has_tei_root(path: Path) -> bool:
    try:
        return etree.parse(str(path)).getroot().tag == f"{{{TEI_NS}}}TEI"
    except etree.XMLSyntaxError:
        return False


def jing_first_errors(jing: str, schema: Path, documents: list[Path]) -> dict[Path, int | None]:
    """jing's first error line for each document (None when valid), from one jing run over all of them."""
    output = subprocess.run([jing, str(schema), *map(str, documents)], capture_output=True, text=True).stdout
    first: dict[Path, int | None] = {d: None for d in documents}
    for match in JING_ERROR.finditer(output):
        path = Path(match["file"])
        if first.get(path) is None:
            first[path] = int(match["line"])
    return first


@pytest.fixture(scope="module")
def verdicts(shared_dir, jing, tei_all_rng):
    documents = [d for d in corpus_documents(shared_dir) if has_tei_root(d)]
    theirs = jing_first_errors(jing, tei_all_rng, documents)
    options = ValidationOptions(schema=tei_all_rng, schematron=False, apparatus_rules=False)
    ours = {}
    for document in documents:
        errors = [d for d in check_file(document, options) if d.severity.value == "error"]
        ours[document] = errors[0].line if errors else None
    return theirs, ours


def test_the_corpus_has_valid_and_invalid_tei_documents(verdicts):
    theirs, _ = verdicts
    assert len(theirs) >= 14
    assert {line is None for line in theirs.values()} == {True, False}


def test_every_tei_document_gets_jings_verdict(verdicts):
    theirs, ours = verdicts
    assert {d.name: ours[d] is None for d in theirs} == {d.name: line is None for d, line in theirs.items()}


def test_every_invalid_tei_document_gets_jings_first_error_line(verdicts):
    theirs, ours = verdicts
    assert {d.name: ours[d] for d in theirs} == {d.name: line for d, line in theirs.items()}


def test_documents_without_a_tei_root_are_invalid_at_the_same_line_as_in_jing(shared_dir, jing, tei_all_rng):
    others = [d for d in corpus_documents(shared_dir) if not has_tei_root(d)]
    theirs = {d: jing_first_errors(jing, tei_all_rng, [d])[d] for d in others}  # jing stops at a fatal error
    options = ValidationOptions(schema=tei_all_rng, schematron=False, apparatus_rules=False)
    ours = {d.name: [x for x in check_file(d, options) if x.severity.value == "error"][0].line for d in others}
    assert ours == {d.name: line for d, line in theirs.items()}


@pytest.fixture(scope="module")
def whole_grammar(tei_all_rng) -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(tei_all_rng)))


def test_the_pruned_grammar_gives_the_whole_grammars_verdict_and_first_line(shared_dir, tei_all_rng, whole_grammar):
    (pruned, _rules) = load_schema(tei_all_rng)
    for document in [d for d in corpus_documents(shared_dir) if has_tei_root(d)]:
        tree = read_document(document)
        whole_valid = whole_grammar.validate(tree)
        whole_first = None if whole_valid else whole_grammar.error_log[0].line
        errors = list(pruned.check(tree, str(document)))
        assert (not errors, errors[0].line if errors else None) == (whole_valid, whole_first), document.name
