"""`--schema tei_all.rng` against jing on every XML document of the TEI folders of ../shared/corpora (which
folders, and the kinds of file met there: corpus_sweeps.py), and the pruned grammar against the whole one
(about 20 s, once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from validate.corpus_sweeps import NotForThisSweep, kind, swept_documents
from validate.jing_runs import GROUP, JingError, corpus_first_errors, jing_first_errors

from tei.diagnostics import Diagnostic, Severity
from tei.errors import InvalidInputError
from tei.validate import ValidationOptions, check_file
from tei.validate.locate import errors
from tei.validate.relaxng_grammar import Grammar
from tei.validate.schema import load_schema
from tei.xmlio import parse_file

pytestmark = pytest.mark.xdist_group(GROUP)  # with test_cli.py's corpus test: jing reads the corpus once

Outcome = tuple[int | None, str] | None  # None: valid; else the first error's line and its kind


def corpus_documents(shared_dir: Path) -> list[Path]:
    """Every XML file of the TEI folders (corpus_sweeps.SWEPT_FOLDERS; never peer-suites/)."""
    return swept_documents(shared_dir / "corpora")


def has_tei_root(path: Path) -> bool:
    return kind(path) == "tei"


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
    """Every XML file of the TEI folders (tei-apparatus*/, tei-transcriptions/, tei-invalid/, and
    collation-witnesses/'s TEI files): the grammar pruned to its element names, as `tei validate` prunes it,
    gives the whole grammar's verdict (libxml2 on both), and `tei validate` (the pruned grammar's verdict, its
    errors placed by the derivatives) gives the whole grammar's verdict and first error, line and column.

    The whole grammar's first error is the one a streaming validator meets first (the derivatives of
    relaxng.py on the whole grammar, as jing; test_every_invalid_tei_document_gets_jings_first_error_line
    compares it with jing's). Two other first errors are no measure of it: libxml2's error log is not in
    document order and depends on the grammar's shape (on the Coranicum's manuscript-00281-Q20_1-40.xml both
    grammars put an empty `facsimile` at its start tag, line 168, where jing puts it at its end tag, 169; on
    teiphy_ubs_ephesians.xml the pruned one's first entry is a step of its backtracking, line 19, the whole
    one's line 20); and the pruned grammar's own derivatives may stop earlier, since an element whose
    required children the document never names can match nothing (alea_BAlam52.xml: at `fileDesc`, 3:17,
    where the whole grammar's first error is an `xi:include` at 17:110).

    A document `tei validate` refuses unread (an external DTD) has no answer of its own. A file that is not
    well-formed has no verdict of either grammar: it is refused as such (X001)."""
    (engine, _rules) = load_schema(tei_all_rng)
    whole = Grammar(engine.grammar)
    compared = 0
    for document in corpus_documents(shared_dir):
        if kind(document) == "not well-formed":
            with pytest.raises(InvalidInputError) as refused:
                parse_file(document)
            assert [d.code for d in refused.value.diagnostics] == ["X001"], document
            continue
        tree = parse_file(document)
        whole_valid = whole_grammar.validate(tree)
        assert engine.validator_for(tree).validate(tree) == whole_valid, document
        found = errors(whole, tree, limit=1)
        whole_first = (found[0].line, found[0].column) if found else None
        assert (whole_first is None) == whole_valid, document
        ours = our_diagnostics.get(document)
        if ours is None or any(d.code in UNREAD for d in ours):
            ours = list(engine.check(tree, str(document)))
        ours = [d for d in ours if d.code == "RNG"]
        assert ((ours[0].line, ours[0].column) if ours else None) == whole_first, document
        compared += 1
    assert compared >= 50


def test_a_sweep_names_a_file_of_a_kind_it_was_not_written_for(tmp_path):
    entities = tmp_path / "entities.xml"
    entities.write_text('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', encoding="utf-8")
    version = tmp_path / "xml11.xml"
    version.write_text('<?xml version="1.1"?><a/>', encoding="utf-8")
    for path, why in ((entities, "declares entities"), (version, "XML 1.1")):
        with pytest.raises(NotForThisSweep, match=why) as refused:
            kind(path)
        assert str(path) in str(refused.value)
    fragment = tmp_path / "fragment.xml"
    fragment.write_text('<div xmlns="http://www.tei-c.org/ns/1.0"/>', encoding="utf-8")
    assert kind(fragment) == "other root"
