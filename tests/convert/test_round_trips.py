"""Every shared sample converts to each method and back with every witness's text unchanged, and stays valid."""

from __future__ import annotations

import subprocess

import pytest
from lxml import etree
from paths import FIXTURES

from tei.apparatus import all_witnesses
from tei.convert import METHODS, convert_checked, witness_texts
from tei.errors import TeiError
from tei.xmlio import parse_bytes, parse_file

from .documents import SAMPLES

# Conversions the toolkit refuses on these samples, each for a reason it states (checked below).
REFUSED = {
    ("open-cbgm_john_6_23_collation.xml", "double-end-point"): "CV012",  # its apps use @from/@to as word numbers
}


def round_trip(tree, method, name):
    converted, _ = convert_checked(tree, method, name)
    back, _ = convert_checked(parse_bytes(converted, name), "parallel-segmentation", name)
    return converted, parse_bytes(back, name)


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("method", METHODS)
def test_sample_round_trip_keeps_every_witness(apparatus_corpus, sample, method):
    tree = parse_file(apparatus_corpus / sample)
    witnesses = all_witnesses(tree)
    if (sample, method) in REFUSED:
        with pytest.raises(TeiError) as refused:
            convert_checked(tree, method, sample)
        assert refused.value.diagnostics[0].code == REFUSED[sample, method]
        return
    converted, back = round_trip(tree, method, sample)
    original = witness_texts(tree, witnesses, sample)
    assert witness_texts(parse_bytes(converted, sample), witnesses, sample) == original
    assert witness_texts(back, witnesses, sample) == original
    assert len(witnesses) > 1 and any(original.values())


def test_the_guidelines_chapter_is_not_a_document_to_convert(apparatus_corpus):
    tree = parse_file(apparatus_corpus / "tei-guidelines_TC-CriticalApparatus.xml")
    with pytest.raises(TeiError) as refused:
        convert_checked(tree, "double-end-point", "TC.xml")
    assert refused.value.diagnostics[0].code == "A001"  # a <div>, without text/body: its examples are tested apart


def canonical(tree) -> bytes:
    return etree.tostring(tree.getroot(), method="c14n")


def test_the_mini_edition_comes_back_as_the_same_xml():
    tree = parse_file(FIXTURES / "editions" / "mini.xml")
    for method in METHODS:
        _, back = round_trip(tree, method, "mini.xml")
        assert canonical(back) == canonical(tree)


def jing_errors(jing, schema, paths) -> str:
    result = subprocess.run([jing, str(schema), *map(str, paths)], capture_output=True, text=True)
    return result.stdout


def test_conversions_of_valid_samples_are_valid(apparatus_corpus, jing, tei_all_rng, tmp_path):
    inputs = [apparatus_corpus / s for s in SAMPLES]
    invalid = jing_errors(jing, tei_all_rng, inputs)
    valid = [p for p in inputs if f"{p}:" not in invalid]
    assert valid, "no sample is valid against tei_all: the check below would prove nothing"
    outputs = []
    for path in valid:
        for method in METHODS:
            if (path.name, method) in REFUSED:
                continue
            converted, back = round_trip(parse_file(path), method, path.name)
            outputs.append(tmp_path / f"{path.stem}.{method}.xml")
            outputs[-1].write_bytes(converted)
    assert jing_errors(jing, tei_all_rng, outputs) == ""


def test_the_seed_edition_round_trips_and_stays_valid(jing, tei_all_rng, tmp_path):
    from stats.seed import seed_edition

    edition = seed_edition(tmp_path)
    tree = parse_file(edition)
    witnesses = all_witnesses(tree)
    original = witness_texts(tree, witnesses, "edition.xml")
    outputs = [edition]
    for method in METHODS:
        converted, back = round_trip(tree, method, "edition.xml")
        assert witness_texts(back, witnesses, "edition.xml") == original
        assert canonical(back) == canonical(tree)  # the same document, not only the same texts
        outputs.append(tmp_path / f"edition.{method}.xml")
        outputs[-1].write_bytes(converted)
    assert jing_errors(jing, tei_all_rng, outputs) == ""
