"""Whether an edition keeps each narrator's name whole: the unit each character of a witness stands in, and the
names (tei.hadith.isnad.chain_links) whose characters stand in more than one place (part in shared text and
part in a unit, or in two units). Shared by tests/hadith/test_corpus_editions.py and benchmarks/arabic_collate.py
(benchmarks import from tests/, never the other way)."""

from __future__ import annotations

from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Work
from tei.xmlio import tei, xml


def split_names(work: Work, tree) -> tuple[int, list[str]]:
    """How many narrators' names the witnesses' chains hold, and those the edition splits across units."""
    total, split = 0, []
    for witness in work.witnesses:
        places = unit_of_each_character(tree, witness.id)
        for kind, start, end in chain_links(witness.text):
            if kind != NARRATOR:
                continue
            total += 1
            if len(set(places[start:end])) > 1:
                split.append(f"{work.id} {witness.id}: {witness.text[start:end]}")
    return total, split


def unit_of_each_character(tree, wid: str) -> list[str]:
    """For each character of the witness's text, the id of the innermost unit it stands in ('' outside)."""
    found: list[str] = []

    def walk(element, unit: str) -> None:
        inside = element.tag in (tei("app"), tei("rdgGrp"))  # their own text is layout, not witness text
        if element.text and not inside:
            found.extend([unit] * len(element.text))
        for child in element:
            if child.tag == tei("app"):
                walk(child, child.get(xml("id")))
            elif child.tag in (tei("lem"), tei("rdg")):
                if f"#{wid}" in child.get("wit", "").split():
                    walk(child, unit)
            elif child.tag == tei("rdgGrp"):
                walk(child, unit)
            elif child.tag == tei("g"):
                found.append(unit)
            else:
                walk(child, unit)
            if child.tail and not inside:
                found.extend([unit] * len(child.tail))

    for ab in tree.iter(tei("ab")):
        walk(ab, "")
    return found
