"""The isnad diagram: narrators as nodes (shared ones merged), edges from teacher to student, the common link
marked, a well-formed SVG whose nodes are the narrators of the chains, drawn from an edition's XML alone."""

from __future__ import annotations

from lxml import etree
from paths import SEEDS

from tei.collate import collate
from tei.hadith.diagram import build, chains_of, edition_svg, svg
from tei.hadith.isnad import NARRATOR, chain_links
from tei.model import Witness, Work
from tei.readers.manifest import read_manifest
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes

SVG = "{http://www.w3.org/2000/svg}"
A = "حَدَّثَنَا قُتَيْبَةُ بْنُ سَعِيدٍ، حَدَّثَنَا جَرِيرٌ، عَنْ مَنْصُورٍ، عَنْ إِبْرَاهِيمَ، عَنْ عَلْقَمَةَ، قَالَ كَانَ"
B = "وحدثنا أبو بكر بن أبي شيبة، حدثنا وكيع، عن منصور، عن إبراهيم، عن علقمة بن قيس، قال كان"
C = "حدثنا ابن نمير، حدثنا أبي، ح وحدثنا يحيى، عن سفيان، عن منصور، عن إبراهيم، قال كان"


def test_shared_narrators_merge_and_the_common_link_is_where_chains_fan_out():
    diagram = build([("A", A), ("B", B), ("C", C)])
    names = {diagram.names[key] for key in diagram.order}
    assert "مَنْصُورٍ" in names and "قُتَيْبَةُ بْنُ سَعِيدٍ" in names
    assert len([k for k in diagram.order if k.startswith("منصور")]) == 1  # vocalised and bare: one node
    assert len([k for k in diagram.order if k.startswith("علقمه")]) == 1  # علقمة = علقمة بن قيس
    assert diagram.names[diagram.common_link] == "مَنْصُورٍ"  # below him the chains part
    assert any(k.startswith("ابي <") for k in diagram.order)  # "أبي" of Ibn Numayr is his own node
    assert len(chains_of(C)) == 2  # ح starts another chain


def test_the_svg_has_one_node_per_narrator(tmp_path):
    witnesses = [("A", A), ("B", B), ("C", C)]
    diagram = build(witnesses)
    root = etree.fromstring(svg(diagram).encode("utf-8"))
    nodes = root.findall(f".//{SVG}g")
    narrators = [g for g in nodes if "narrator" in (g.get("class") or "").split()]
    assert len(narrators) == len(diagram.order)
    assert [g.find(f"{SVG}text").text for g in narrators] == [diagram.names[k] for k in diagram.order]
    assert sum("common-link" in g.get("class") for g in narrators) == 1
    links = {text[s:e] for _, text in witnesses for kind, s, e in chain_links(text) if kind == NARRATOR}
    shown = {g.find(f"{SVG}text").text for g in narrators}
    assert shown <= links  # every node is a narrator's name as one of the texts writes it


def test_every_corpus_pair_draws(arabic_pairs):
    for pair in arabic_pairs:
        diagram = build([(str(n["idInBook"]), n["arabic"]) for n in pair])
        assert diagram.order and diagram.edges
        etree.fromstring(svg(diagram).encode("utf-8"))


def test_an_edition_draws_its_diagram_from_its_xml_alone():
    witnesses = tuple(Witness(wid, wid, text, "ar") for wid, text in (("A", A), ("B", B), ("C", C)))
    tree = parse_bytes(edition_bytes(collate(Work("w", "w", "ar", "A", "hadith-ar", witnesses))), "w")
    drawn = etree.fromstring(edition_svg(tree).encode("utf-8"))
    shown = [g.find(f"{SVG}text").text for g in drawn.iter(f"{SVG}g") if "narrator" in g.get("class", "").split()]
    expected = build([("A", A), ("B", B), ("C", C)])
    assert shown == [expected.names[key] for key in expected.order]


def test_an_edition_without_an_isnad_section_has_no_diagram():
    seeds = read_manifest(SEEDS / "edition.toml")
    assert edition_svg(parse_bytes(edition_bytes(collate(seeds)), "seeds")) == ""


def test_narrators_joined_at_one_link_heard_it_from_one_teacher():
    """«حدثنا سعيد بن منصور، وقتيبة بن سعيد، وأبو كامل الجحدري ... قالوا حدثنا أبو عوانة»: three students of Abu
    Awana, not a chain of three (issue 34)."""
    text = (
        "حدثنا سعيد بن منصور، وقتيبة بن سعيد، وأبو كامل الجحدري - واللفظ لسعيد - قالوا حدثنا أبو عوانة، "
        "عن سماك بن حرب، عن مصعب بن سعد، قال دخل عبد الله بن عمر"
    )
    diagram = build([("M", text)])
    by_name = {name: key for key, name in diagram.names.items()}
    teacher = by_name["أبو عوانة"]
    for student in ("سعيد بن منصور", "وقتيبة بن سعيد", "وأبو كامل الجحدري"):
        assert (teacher, by_name[student]) in diagram.edges
    assert (by_name["وقتيبة بن سعيد"], by_name["سعيد بن منصور"]) not in diagram.edges
