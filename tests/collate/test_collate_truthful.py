"""Every entry of the apparatus is true to its sigla: the text a reading prints is what each witness it
names reads at that place (issue 15).

A witness's text at a reading is taken from the rebuild rule itself (tei.apparatus.follow: the offsets
where the witness's run enters and leaves the reading, in tei.apparatus.witness_text). An entry (an app
of the word-level apparatus) prints one text followed by its sigla, so the reading must have no nested
app and its text must equal each named witness's. An `app type="paraphrase"` is no entry but a
container of the clause-level alignment of a loose rendering (docs/collation.md): there each witness's
own text inside the reading (nested units resolved for that witness) must be what it reads.

The editions checked: the seeds (with D declared a paraphrase, and without roles), and editions
collated from the witness texts of the real apparatus files in ../shared/corpora.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from lxml import etree

from tei.apparatus import (
    APP,
    LEM,
    RDG,
    Apparatus,
    as_parallel_segmentation,
    content_text,
    follow,
    witness_ids,
)
from tei.apparatus.elements import body
from tei.collate import collate
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes, parse_file, xml

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "tei-apparatus"
CORPUS_FILES = ("teiphy_ubs_ephesians.xml", "open-cbgm_3_john_collation.xml", "open-cbgm_john_6_23_collation.xml")


def untruthful_entries(tree: etree._ElementTree, texts: dict[str, str]) -> list[str]:
    """A line for each (reading, witness) whose printed text is not what the witness reads there, its
    true text (`texts`) cut where the rebuild rule enters and leaves the reading; a witness whose rebuilt
    text is not its true text is reported too."""
    problems = []
    container = body(tree, "edition")
    apparatus = Apparatus(tree)  # the document read once for every witness and reading asked about
    witnesses = apparatus.witnesses
    for wid in witness_ids(tree):
        text = texts[wid]
        if apparatus.text(wid) != text:
            problems.append(f"{wid} does not rebuild")
        for passage in follow(container, wid, witnesses).passages:
            reading = passage.reading
            if not isinstance(reading, etree._Element):
                continue
            read = text[passage.offset : passage.end]
            app = passage.app
            if app.get("type") == "paraphrase":
                printed = content_text(reading, wid, witnesses)
            elif next(reading.iter(APP), None) is not None:
                problems.append(f"{app.get(xml('id'))}: {wid}'s reading holds nested units")
                continue
            else:
                printed = content_text(reading, "", witnesses)
            if printed != read:
                problems.append(f"{app.get(xml('id'))} {reading.get('wit')}: prints {printed!r}, {wid} reads {read!r}")
    return problems


def _tree(edition) -> etree._ElementTree:
    return parse_bytes(edition_bytes(edition), "edition")


def _texts(work: Work) -> dict[str, str]:
    return {w.id: w.text for w in work.witnesses}


def test_every_entry_of_the_seed_edition_is_true_to_its_sigla(seed_work, seed_tree):
    assert untruthful_entries(seed_tree, _texts(seed_work)) == []


def test_every_entry_is_true_without_witness_roles(seed_work):
    plain = dataclasses.replace(
        seed_work, witnesses=tuple(dataclasses.replace(w, kind="close") for w in seed_work.witnesses)
    )
    assert untruthful_entries(_tree(collate(plain)), _texts(plain)) == []


def test_a_reading_that_misnames_a_witness_is_caught():
    """The check itself: a lemma naming B for A's words is reported."""
    work = Work("t", "t", base="A", witnesses=(Witness("A", "A", "one two"), Witness("B", "B", "one three")))
    tree = _tree(collate(work))
    assert untruthful_entries(tree, _texts(work)) == []
    lem = next(tree.getroot().iter(LEM))
    rdg = next(tree.getroot().iter(RDG))
    lem.set("wit", "#A #B")
    rdg.getparent().remove(rdg)
    assert untruthful_entries(tree, _texts(work))


def corpus_work(name: str) -> Work:
    """A work of the complete witnesses of one apparatus file, each text rebuilt by tei.apparatus: a
    witness with a lacuna marked, or with fewer than 80 % of the median number of words, is left out."""
    tree = as_parallel_segmentation(parse_file(CORPUS / name), name)
    apparatus = Apparatus(tree, name)
    texts = {wid: apparatus.text(wid) for wid in witness_ids(tree)}
    lengths = sorted(len(text.split()) for text in texts.values())
    median = lengths[len(lengths) // 2]
    witnesses = tuple(
        Witness(_xml_id(wid), wid, text, language="grc")
        for wid, text in texts.items()
        if "[…]" not in text and len(text.split()) >= 0.8 * median
    )
    return Work(name.split(".")[0], name, language="grc", witnesses=witnesses)


def _xml_id(wid: str) -> str:
    """An NCName for a siglum such as `424*` or `P46`."""
    return "w" + re.sub(r"[^\w.-]", lambda m: f"_{ord(m.group()):x}", wid)


@pytest.mark.needs_shared
@pytest.mark.slow
@pytest.mark.parametrize("name", CORPUS_FILES)
def test_every_entry_of_a_corpus_edition_is_true_to_its_sigla(name):
    work = corpus_work(name)
    assert len(work.witnesses) >= 5
    assert untruthful_entries(_tree(collate(work)), _texts(work)) == []
