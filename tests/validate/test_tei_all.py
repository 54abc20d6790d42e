"""`--schema tei_all.rng` against jing on every XML document of ../shared/corpora, and the pruned grammar
against the whole one compiled by lxml (about 20 s, once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from validate.jing_runs import GROUP, JingError, corpus_first_errors, jing_first_errors

from tei.diagnostics import Diagnostic, Severity
from tei.validate import ValidationOptions, check_file
from tei.validate.schema import load_schema
from tei.xmlio import TEI_NS, parse_file

pytestmark = pytest.mark.xdist_group(GROUP)  # with test_cli.py's corpus test: jing reads the corpus once

Outcome = tuple[int | None, str] | None  # None: valid; else the first error's line and its kind


def corpus_documents(shared_dir: Path) -> list[Path]:
    return sorted((shared_dir / "corpora").rglob("*.xml"))


def has_tei_root(path: Path) -> bool:
    try:
        return etree.parse(str(path)).getroot().tag == f"{{{TEI_NS}}}TEI"
    except etree.XMLSyntaxError:
        return False


def corpus_trees(shared_dir: Path) -> list[tuple[Path, etree._ElementTree]]:
    """Every corpus document with a TEI root, parsed as tei.xmlio parses (no DTD loaded, no XInclude
    processed), for the tests of the engines on what they are given. `tei validate` refuses one of them
    before any engine runs (stemmaweb_purkaple-cte.xml names an external DTD: SEC001); its content still
    exercises the engines, so it is kept here."""
    return [(d, parse_file(d)) for d in corpus_documents(shared_dir) if has_tei_root(d)]


def jings_outcome(found: JingError | None) -> Outcome:
    """What jing says of a document: valid (None), or its first error's line and kind: "refused" for a
    fatal error without a position (the DTD the document names could not be loaded, so jing never read
    the document), "incomplete" for an XInclude whose file is missing, else "error"."""
    if found is None:
        return None
    if found.fatal and found.line is None:
        return None, "refused"
    return found.line, "incomplete" if found.fatal and "'include' failed" in found.message else "error"


def our_outcome(diagnostics: list[Diagnostic]) -> Outcome:
    """What `tei validate` says, in the same terms: its errors in document order (jing streams, so its
    first error is the earliest; ours come engine by engine), the earliest one's line and kind: "refused"
    for SEC001 (an external DTD: the document is not read; there is no position to compare), "incomplete"
    for SEC003 (an XInclude of a file that does not exist), else "error"."""
    errors = sorted(
        (d for d in diagnostics if d.severity == Severity.ERROR), key=lambda d: (d.line or 0, d.column or 0)
    )
    if not errors:
        return None
    if errors[0].code == "SEC001":
        return None, "refused"
    return errors[0].line, "incomplete" if errors[0].code == "SEC003" else "error"


SCHEMA_ONLY = {"schematron": False, "apparatus_rules": False}  # what jing checks: the grammar


@pytest.fixture(scope="module")
def our_diagnostics(shared_dir, tei_all_rng) -> dict[Path, list[Diagnostic]]:
    """What `tei validate --schema tei_all.rng` (the grammar only) says of every corpus document with a TEI
    root: checked once, read by the comparison with jing and by the one with the whole grammar."""
    options = ValidationOptions(schema=tei_all_rng, **SCHEMA_ONLY)
    return {d: check_file(d, options) for d in corpus_documents(shared_dir) if has_tei_root(d)}


@pytest.fixture(scope="module")
def verdicts(shared_dir, jing, tei_all_rng, our_diagnostics) -> tuple[dict[str, Outcome], dict[str, Outcome]]:
    theirs = corpus_first_errors(jing, tei_all_rng, shared_dir / "corpora")  # the documents without a TEI root too
    return (
        {d.name: jings_outcome(theirs[d]) for d in our_diagnostics},
        {d.name: our_outcome(found) for d, found in our_diagnostics.items()},
    )


def test_the_corpus_has_valid_and_invalid_tei_documents(verdicts):
    theirs, _ = verdicts
    assert len(theirs) >= 25
    assert {outcome is None for outcome in theirs.values()} == {True, False}
    assert {outcome[1] for outcome in theirs.values() if outcome} == {"error", "incomplete", "refused"}


def test_every_tei_document_gets_jings_verdict(verdicts):
    theirs, ours = verdicts
    assert {name: outcome is None for name, outcome in ours.items()} == {
        name: outcome is None for name, outcome in theirs.items()
    }


def test_every_invalid_tei_document_gets_jings_first_error_line(verdicts):
    theirs, ours = verdicts
    assert ours == theirs


def test_documents_without_a_tei_root_are_invalid_at_the_same_line_as_in_jing(verdicts, shared_dir, jing, tei_all_rng):
    others = [d for d in corpus_documents(shared_dir) if not has_tei_root(d)]
    assert len(others) >= 2
    theirs = jing_first_errors(jing, tei_all_rng, others)
    options = ValidationOptions(schema=tei_all_rng, **SCHEMA_ONLY)
    ours = {d.name: our_outcome(check_file(d, options)) for d in others}
    assert ours == {d.name: jings_outcome(theirs[d]) for d in others}


@pytest.fixture(scope="module")
def whole_grammar(tei_all_rng) -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(tei_all_rng)))


UNREAD = ("SEC001", "SEC002")  # `tei validate` refuses the document before any engine runs on it


def test_the_pruned_grammar_gives_the_whole_grammars_verdict_and_first_line(
    shared_dir, tei_all_rng, whole_grammar, our_diagnostics
):
    """The pruned grammar's errors are those `tei validate` already gave (our_diagnostics, in document order);
    only a document it refused unread (an external DTD) is checked by the pruned grammar here."""
    (pruned, _rules) = load_schema(tei_all_rng)
    for document, tree in corpus_trees(shared_dir):
        found = our_diagnostics[document]
        if any(d.code in UNREAD for d in found):
            errors = list(pruned.check(tree, str(document)))
        else:
            errors = [d for d in found if d.code == "RNG"]
        whole_valid = whole_grammar.validate(tree)
        whole_first = None if whole_valid else whole_grammar.error_log[0].line
        assert (not errors, errors[0].line if errors else None) == (whole_valid, whole_first), document.name
