"""The chain markup an edition gives one witness, shared by tests/hadith/test_edition_narrators.py and
test_edition_terms.py."""

from __future__ import annotations

from lxml import etree

TEI_NS = "http://www.tei-c.org/ns/1.0"


def isnad_marks_read_by(tree: etree._ElementTree, wid: str, marked: str) -> list[str]:
    """The text of the elements `marked` (an XPath step, e.g. t:persName[@type='narrator']) in the isnad
    that witness `wid` reads (in shared text, or in a lemma or reading of it), in order."""
    found = []
    for element in tree.xpath(f"//t:ab[@type='isnad']//{marked}", namespaces={"t": TEI_NS}):
        readings = element.xpath("ancestor::t:lem | ancestor::t:rdg", namespaces={"t": TEI_NS})
        if all(f"#{wid}" in reading.get("wit", "").split() for reading in readings):
            found.append(element.xpath("string()"))
    return found
