"""One narrator, one persName, one node (issue 34): names of one man after a comma, names contained in one another
at the same place of parallel chains, the authority file; a name that may be two men stays two, with a note."""

from __future__ import annotations

import json

from lxml import etree

from tei.collate import collate
from tei.hadith.diagram import build, edition_svg, name_key, svg
from tei.hadith.identity import contains
from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes

A = "حدثنا هناد، حدثنا ابن المبارك، عن عكرمة بن عمار، قال حدثني سماك، الحنفي، قال سمعت ابن عباس، يقول حدثني عمر، قال لما كان يوم بدر"
B = (
    "حدثنا أبو بكر بن أبي شيبة، حدثنا أبو نوح، قراد، عن عكرمة بن عمار، حدثنا سماك الحنفي، حدثني عبد الله بن عباس، "
    "قال حدثني عمر بن الخطاب، قال لما كان يوم بدر"
)


def _names(text: str) -> list[str]:
    return [text[start:end] for kind, start, end in chain_links(text) if kind == NARRATOR]


def test_a_name_and_his_nisba_or_kunya_after_a_comma_are_one_narrator():
    assert _names(B)[:3] == ["أبو بكر بن أبي شيبة", "أبو نوح، قراد", "عكرمة بن عمار"]
    assert "سماك، الحنفي" in _names(A)
    text = "حدثنا أبو خيثمة، زهير بن حرب، وإسحاق بن إبراهيم، قالا حدثنا جرير عن نافع، مولى ابن عمر عن ابن عمر قال كان"
    assert _names(text) == ["أبو خيثمة، زهير بن حرب", "وإسحاق بن إبراهيم", "جرير", "نافع، مولى ابن عمر", "ابن عمر"]


def test_names_contained_in_one_another_at_one_place_are_one_node():
    diagram = build([("A", A), ("B", B)])
    assert sorted(diagram.names.values()) == sorted(
        [
            "هناد",
            "ابن المبارك",
            "عكرمة بن عمار",
            "سماك، الحنفي",
            "عبد الله بن عباس",
            "عمر بن الخطاب",
            "أبو بكر بن أبي شيبة",
            "أبو نوح، قراد",
        ]
    )
    assert diagram.notes == []
    assert diagram.names[diagram.common_link] == "عكرمة بن عمار"


def test_containment_reads_beginning_nasab_and_nisba_only():
    assert contains("عمر بن الخطاب", "عمر")
    assert contains("عبد الله بن عباس", "ابن عباس")
    assert contains("محمد بن مسلم الزهري", "الزهري")
    assert not contains("عبد الله بن عمر", "عمر")  # his father's name, not he
    assert not contains("عمر", "عمر")


def test_a_name_that_may_be_two_men_stays_two_with_a_note():
    one = "حدثنا وكيع، عن سفيان، عن الأعمش، عن إبراهيم، عن علقمة، عن عبد الله بن مسعود، قال كان"
    two = "حدثنا قتيبة، عن مالك، عن نافع، عن علقمة، عن عبد الله بن عمر، قال كان"
    three = "حدثنا محمد، عن شعبة، عن علقمة، عن عبد الله، قال كان"
    diagram = build([("A", one), ("B", two), ("C", three)])
    assert "عبد الله" in diagram.names  # not merged into either
    assert len(diagram.notes) == 1 and "عبد الله بن مسعود" in diagram.notes[0] and "عبد الله بن عمر" in diagram.notes[0]
    assert "identity-note" in svg(diagram)


def test_the_authority_file_merges_nodes(tmp_path):
    one = "حدثنا قتيبة، حدثنا ليث، عن ابن شهاب، عن عروة، عن عائشة، قالت كان"
    two = "حدثنا يحيى، حدثنا الليث، عن محمد بن مسلم، عن عروة، عن عائشة، قالت كان"
    apart = build([("A", one), ("B", two)])
    assert {"ابن شهاب", "محمد بن مسلم"} <= set(apart.names.values())
    refs = {name_key("ابن شهاب", None): "n.xml#zuhri", name_key("محمد بن مسلم", None): "n.xml#zuhri"}
    merged = build([("A", one), ("B", two)], refs)
    assert len(merged.names) == len(apart.names) - 1
    assert len([k for k in merged.names if k in (name_key("ابن شهاب", None), name_key("محمد بن مسلم", None))]) == 1


def test_no_narrator_is_two_nodes_in_the_diagrams_of_consecutive_narrations(shared_dir):
    """On one pair in four of consecutive records of every kitab of Sahih Muslim 1-16 (the same report through
    other chains): no two nodes of a diagram are names of one man by the rules (contained at one place), unless a
    note says the name may be two men."""
    folder = shared_dir / "corpora" / "arabic-hadith" / "sahih-muslim"
    checked = 0
    for number in range(1, 17):
        records = json.loads((folder / f"{number}.json").read_text(encoding="utf-8"))["hadiths"]
        for first, second in list(zip(records, records[1:]))[::4]:
            diagram = build([("A", first["arabic"]), ("B", second["arabic"])])
            teachers: dict[str, set] = {}
            students: dict[str, set] = {}
            for teacher, student in diagram.edges:
                teachers.setdefault(student, set()).add(teacher)
                students.setdefault(teacher, set()).add(student)
            for short in diagram.order:
                for long in diagram.order:
                    same_place = teachers.get(short, set()) & teachers.get(long, set()) or students.get(
                        short, set()
                    ) & students.get(long, set())
                    if short != long and contains(long, short) and same_place:
                        assert any(diagram.names[short] in note for note in diagram.notes), (first["id"], short, long)
            checked += 1
    assert checked > 800


def test_an_edition_draws_one_node_for_one_man(tmp_path):
    witnesses = (Witness("A", "A", A, "ar"), Witness("B", "B", B, "ar"))
    work = Work("badr", "Badr", language="ar", base="A", profile="hadith-ar", witnesses=witnesses)
    tree = etree.ElementTree(etree.fromstring(edition_bytes(collate(work))))
    drawn = etree.fromstring(edition_svg(tree).encode())
    labels = ["".join(g.itertext()) for g in drawn.iter("{http://www.w3.org/2000/svg}text")]
    assert sum("عمر" in label and "عباس" not in label for label in labels) == 1
    assert sum("عباس" in label for label in labels) == 1
