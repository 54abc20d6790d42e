"""Regularisation rules (tei.collate.regularise): each scope changes the apparatus as stated and is recorded
in the TEI, in the header and on every reading it affects."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from cli_runner import one_error_line, run
from lxml import etree
from paths import SEEDS

from tei.collate import collate
from tei.collate.analyse import NON_SUBSTANTIVE
from tei.model import Regularisation
from tei.readers.manifest import read_manifest
from tei.writers.edition import edition_tree
from tei.xmlio import tei, xml

RAISED = Regularisation("reg-1", "raised", "began")  # B's 'raised' where A has 'began'


def _looked(**scope) -> Regularisation:
    return Regularisation("reg-2", "looked", "glance", **scope)  # C's 'looked' (twice) where A has 'glance'


@pytest.fixture(scope="module")
def work():
    return read_manifest(SEEDS)


@pytest.fixture(scope="module")
def plain(work):
    return collate(work)


def _words(reading) -> list[str]:
    return "".join(p for p in reading.content if isinstance(p, str)).split()


def readings_of(edition, witness: str, word: str):
    """The witness's readings that hold the word (a unit may hold the words next to it, where the
    witnesses divide alike: C's `looked at` where A has nothing)."""
    return [r for u in edition.units() for r in u.readings() if witness in r.witnesses and word in _words(r)]


def test_without_rules_the_readings_are_substantive(plain):
    assert [r.type for r in readings_of(plain, "B", "raised")] == ["substitution"]
    assert len(readings_of(plain, "C", "looked")) == 2


def test_a_rule_everywhere_makes_the_readings_equal_and_marks_them(work, plain):
    edition = collate(replace(work, regularisations=(RAISED,)))
    raised = readings_of(edition, "B", "raised")
    assert all(r.type in NON_SUBSTANTIVE for r in raised)  # no longer a substitution
    marked = [r for u in edition.units() for r in u.readings() if "reg-1" in r.regularised]
    assert {w for r in marked for w in r.witnesses} >= {"B"}
    assert all(r.type in NON_SUBSTANTIVE or r.type in (None, "paraphrase") for r in marked)
    assert [u.id for u in edition.units() if u.id not in {p.id for p in plain.units()}]  # the apparatus changed


def test_a_rule_for_one_witness_acts_in_that_witness_only(work):
    edition = collate(replace(work, regularisations=(_looked(witness="C"),)))
    marked = [r for u in edition.units() for r in u.readings() if "reg-2" in r.regularised]
    assert len(marked) == 2 and all(r.witnesses == ("C",) for r in marked)
    other = collate(replace(work, regularisations=(_looked(witness="B"),)))
    assert not [r for u in other.units() for r in u.readings() if r.regularised]  # B never reads 'looked'


def test_a_rule_for_one_unit_acts_in_that_unit_only(work, plain):
    (first, second) = [
        u for u in plain.units() if any("C" in r.witnesses and "looked" in _words(r) for r in u.readings())
    ]
    edition = collate(replace(work, regularisations=(_looked(unit=first.id),)))
    marked = [(u.id, r) for u in edition.units() for r in u.readings() if "reg-2" in r.regularised]
    assert len(marked) == 1 and marked[0][1].type in NON_SUBSTANTIVE
    assert second.id in {u.id for u in edition.units()}  # the other 'looked' is untouched
    assert not [r for r in edition.units() if r.id == second.id][0].readings()[-1].regularised


def test_the_rules_are_recorded_in_the_header_and_on_the_readings(work):
    root = edition_tree(collate(replace(work, regularisations=(RAISED, _looked(witness="C"))))).getroot()
    categories = root.findall(f".//{tei('taxonomy')}[@{xml('id')}='regularisations']/{tei('category')}")
    assert [c.get(xml("id")) for c in categories] == ["reg-1", "reg-2"]
    assert "“looked” is collated as “glance” (everywhere, in witness C)" in "".join(categories[1].itertext())
    pointed = {a for r in root.iter(tei("rdg"), tei("lem")) for a in (r.get("ana") or "").split()}
    assert pointed == {"#reg-1", "#reg-2"}


def test_a_build_applies_the_manifest_rules_and_the_edition_validates(tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    with (seeds / "edition.toml").open("a", encoding="utf-8") as manifest:
        manifest.write('\n[[regularise]]\nreading = "looked"\nas = "glance"\nwitness = "C"\n')
    result = run("build", seeds, "-o", tmp_path / "b", "--stages", "transcriptions,edition,schema,validate")
    assert result.exit_code == 0, result.stderr
    root = etree.parse(str(tmp_path / "b" / "edition.xml")).getroot()
    assert len(root.findall(f".//{tei('rdg')}[@ana='#reg-1']")) == 2


@pytest.mark.parametrize(
    "rule, words",
    [
        ('reading = "looked"\nas = "cast a glance"', "as many words"),
        ('reading = "looked"\nas = "glance"\nwitness = "Z"', "'Z'"),
        ('reading = "looked"', "needs 'reading' and 'as'"),
    ],
)
def test_a_bad_rule_is_m015_naming_the_manifest(tmp_path, rule, words):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    with (seeds / "edition.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(f"\n[[regularise]]\n{rule}\n")
    result = run("build", seeds, "-o", tmp_path / "b")
    line = one_error_line(result)
    assert result.exit_code == 1 and "[M015]" in line and str(seeds / "edition.toml") in line and words in line
