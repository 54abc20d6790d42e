"""The corpus documents as elementpath reads them, and the nodes it finds for each TEI (tei_all) Schematron rule's
context in each: found once per worker and shared by the two tests that compare lxml with them (test_schematron,
the prefilters; test_xpath1, the rules lxml runs). elementpath's select over every corpus document was most of
either test's time; both run on one worker (their xdist_group)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from elementpath import XPathContext, get_node_tree
from lxml import etree
from validate.test_tei_all import corpus_trees

from tei.validate.schema import load_schema
from tei.validate.schematron import SchematronSchema

GROUP = "tei-all-contexts"  # the xdist group of the tests that share them


class CorpusDocument:
    """One document: its path, lxml tree, elementpath node tree, and each rule context's nodes when first asked."""

    def __init__(self, path: Path, tree: etree._ElementTree):
        self.path, self.tree = path, tree
        self.nodes = get_node_tree(tree)
        self._contexts: dict[tuple[int, str], list] = {}

    def contexts(self, engine: SchematronSchema, rule) -> list:
        """The nodes elementpath selects for the rule's context on this document."""
        key = (id(engine), rule.context.source)
        if key not in self._contexts:
            self._contexts[key] = list(engine._token(rule.context).select(XPathContext(self.nodes)))
        return self._contexts[key]


@cache
def tei_all_corpus(shared_dir: Path, tei_all_rng: Path) -> tuple[SchematronSchema, list[CorpusDocument]]:
    """tei_all's Schematron engine and every corpus document with a TEI root (test_tei_all.corpus_trees)."""
    (engine,) = [e for e in load_schema(tei_all_rng) if isinstance(e, SchematronSchema)]
    return engine, [CorpusDocument(path, tree) for path, tree in corpus_trees(shared_dir)]
