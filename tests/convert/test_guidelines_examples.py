"""The TEI Guidelines' own examples of the three methods (chapter TC), read and converted as foreign input."""

from __future__ import annotations

import pytest
from lxml import etree

from tei.apparatus import witness_text
from tei.convert import METHODS, convert_checked
from tei.errors import TeiError
from tei.xmlio import TEI_NS, parse_bytes, parse_file

from .documents import document

EXAMPLES_NS = "http://www.tei-c.org/ns/Examples"


@pytest.fixture(scope="module")
def chapter(apparatus_corpus):
    return parse_file(apparatus_corpus / "tei-guidelines_TC-CriticalApparatus.xml")


def example(chapter, example_id: str, method: str) -> etree._ElementTree:
    """The lines (<l>) of one egXML example, in the TEI namespace, in a document declaring `method`."""
    found = chapter.getroot().xpath(f"//*[@xml:id='{example_id}']")[0]
    lines = "".join(
        etree.tostring(line, encoding="unicode").replace(EXAMPLES_NS, TEI_NS)
        for line in found.iter(f"{{{EXAMPLES_NS}}}l")
    )
    return parse_bytes(document(f"<lg>{lines}</lg>", method, ["El", "Hg", "La", "Ra2", "Ha4"]), example_id)


def test_double_end_point_in_line_without_lem_reads_the_base_for_unnamed_witnesses(chapter):
    tree = example(chapter, "TCAPDE-egXML-yu", "double-end-point")
    assert witness_text(tree, "La").split()[:3] == ["Experiment", "though", "noon"]
    assert witness_text(tree, "Ra2").split()[0] == "Eryment"
    assert witness_text(tree, "El").split()[0] == "Experience"


def test_location_referenced_with_a_lem_at_the_end_of_the_line(chapter):
    tree = example(chapter, "TCAPLO-egXML-mh", "location-referenced")
    assert witness_text(tree, "La").split()[:3] == ["Experiment", "though", "noon"]
    assert witness_text(tree, "El").split()[:4] == ["Experience", "though", "noon", "Auctoritee"]


@pytest.mark.parametrize(
    "example_id, method",
    [("TCAPDE-egXML-yu", "double-end-point"), ("TCAPLO-egXML-mh", "location-referenced")],
)
def test_guidelines_examples_convert_to_every_method(chapter, example_id, method):
    tree = example(chapter, example_id, method)
    texts = {w: witness_text(tree, w) for w in ("El", "La", "Ra2")}
    for target in METHODS:
        converted, _ = convert_checked(tree, target, example_id)
        result = parse_bytes(converted, example_id)
        assert {w: witness_text(result, w) for w in texts} == texts


def test_the_overlapping_lemmata_example_is_refused_with_both_places(chapter):
    tree = example(chapter, "TCAPDE-egXML-oc", "double-end-point")
    with pytest.raises(TeiError) as refused:
        witness_text(tree, "Ha4")
    diagnostic = refused.value.diagnostics[0]
    assert diagnostic.code == "CV007" and "overlaps" in diagnostic.message and diagnostic.line


def test_a_location_referenced_app_without_lem_cannot_be_placed(chapter):
    tree = example(chapter, "TCAPLO-egXML-ae", "location-referenced")
    with pytest.raises(TeiError) as refused:
        convert_checked(tree, "parallel-segmentation", "ae.xml")
    assert refused.value.diagnostics[0].code == "CV006"
    assert "has no lem" in refused.value.diagnostics[0].message


def test_an_external_double_end_point_apparatus_folds_into_the_text(chapter):
    base = chapter.getroot().xpath("//*[@xml:id='TCAPDE-egXML-se']")[0]
    apparatus = chapter.getroot().xpath("//*[@xml:id='TCAPDE-egXML-mo']")[0]
    lines = "".join(etree.tostring(line, encoding="unicode") for line in base.iter(f"{{{EXAMPLES_NS}}}l"))
    entry = etree.tostring(apparatus[0], encoding="unicode")
    xml = document(f"<lg>{lines}</lg>", "double-end-point", ["El", "Hg", "La", "Ra2"]).decode()
    xml = xml.replace("</body>", f"</body><back><listApp>{entry}</listApp></back>").replace(EXAMPLES_NS, TEI_NS)
    tree = parse_bytes(xml.encode(), "external.xml")
    assert witness_text(tree, "Ra2").startswith("Eryment though noon")
    for target in ("parallel-segmentation", "location-referenced"):
        result = parse_bytes(convert_checked(tree, target, "external.xml")[0], target)
        assert result.getroot().find(f".//{{{TEI_NS}}}listApp") is None  # the app moved into the text
        assert {w: witness_text(result, w) for w in ("El", "La", "Ra2")} == {
            w: witness_text(tree, w) for w in ("El", "La", "Ra2")
        }
