"""Pruning a grammar to a document's element names never changes the verdict on that document (property).

The project grammar compiles in milliseconds, so hypothesis can compare pruned and whole grammars on
many mutated documents; tests/validate/test_tei_all.py does the same for tei_all on the corpora.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from validate.validate_mutations import variants

from tei.validate import project_schema
from tei.validate.prune import RNG_NS, element_names, is_self_contained, prune, rng

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"
GRAMMAR = etree.parse(str(project_schema())).getroot()
WHOLE = etree.RelaxNG(etree.ElementTree(GRAMMAR))


def test_the_project_grammar_can_be_pruned():
    assert is_self_contained(GRAMMAR)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_pruned_grammar_gives_the_whole_grammars_verdict(seed):
    (data,) = variants(etree.parse(str(MINI)), 1, seed)
    document = etree.ElementTree(etree.fromstring(data))
    pruned = etree.RelaxNG(etree.ElementTree(prune(GRAMMAR, element_names(document))))
    assert pruned.validate(document) == WHOLE.validate(document)


def test_pruning_drops_the_definitions_a_document_cannot_reach():
    document = etree.parse(str(MINI))
    pruned = prune(GRAMMAR, element_names(document))
    defined = {d.get("name") for d in pruned.iter(rng("define"))}
    (lg,) = [d for d in pruned.iter(rng("define")) if d.get("name") == "lg"]
    assert [child.tag for child in lg] == [rng("notAllowed")]  # mini has no lg
    assert "lem" in defined and "att.naming" not in defined  # att.naming only serves absent name elements
    assert not any(isinstance(e.tag, str) and not e.tag.startswith(f"{{{RNG_NS}}}") for e in pruned.iter())
