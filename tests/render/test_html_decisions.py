"""The editor's decisions in the seed edition, as the web edition prints them (issue 16, points 1-2):
a lemma taken from any witness with its sigla, a conjecture marked, notes, @cause, @resp and witDetail."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from lxml import etree, html
from paths import SEEDS

from tei.apparatus import LEM, RDG, readings
from tei.cli import main
from tei.render import render
from tei.xmlio import parse_file, tei, xml

from .conftest import reader_entries

ENTRY_TEXT = "normalize-space(string(.))"


@pytest.fixture(scope="module")
def decided(tmp_path_factory):
    """The seed edition, with the decisions a scholar makes by hand in edition.xml."""
    folder = tmp_path_factory.mktemp("decisions")
    edition = folder / "edition.xml"
    result = CliRunner().invoke(main, ["collate", "--manifest", str(SEEDS / "edition.toml"), "-o", str(edition)])
    assert result.exit_code == 0, result.output
    tree = parse_file(edition)
    apps = [a for a in tree.getroot().iter(tei("app")) if len(readings(a)) == 2 and readings(a)[0].tag == LEM]
    with_d = [
        a for a in apps if "#D" in readings(a)[1].get("wit", "").split() and "#A" in readings(a)[0].get("wit", "")
    ]
    # 1. D's reading chosen as the lemma: the rdg of D becomes the lem, the old lem a rdg.
    chosen = with_d[0]
    lem, rdg = readings(chosen)
    lem.tag, rdg.tag = RDG, LEM
    chosen.remove(rdg)
    chosen.insert(0, rdg)
    # 2. A conjecture: a lem without @wit for which the editor is responsible; every witness in a rdg.
    conjecture = apps[-1]
    lem = readings(conjecture)[0]
    witnesses = lem.attrib.pop("wit")
    etree.SubElement(conjecture, RDG, wit=witnesses).text = lem.text
    lem.set("resp", "#ed")
    lem.text = "conjectured words"
    # 3. A note, a cause, a resp on a reading and a witDetail.
    noted = apps[len(apps) // 2]
    etree.SubElement(noted, tei("note")).text = "Muslim 1763 reads so in every edition."
    readings(noted)[1].set("cause", "homeoteleuton")
    readings(noted)[1].set("resp", "#ed")
    etree.SubElement(noted, tei("witDetail"), wit="#B", type="marginal").text = "in the margin"
    ids = [a.get(xml("id")) for a in (chosen, conjecture, noted)]
    tree.write(str(edition), encoding="UTF-8", xml_declaration=True)
    page = render(edition, "html", folder / "site").files[folder / "site" / "index.html"]
    return edition, html.fromstring(page), ids


def entry(page, unit_id):
    return page.xpath(f"//li[@id='entry-{unit_id}']")[0]


def test_a_lemma_from_another_witness_prints_its_sigla(decided):
    _, page, (chosen, _, _) = decided
    lemma = entry(page, chosen).xpath(".//span[contains(@class, 'lemma')]")[0]
    assert [s.text_content() for s in lemma.xpath(".//bdi[@class='siglum']")] == ["D"]
    assert "A" in [s.text_content() for s in entry(page, chosen).xpath(".//bdi[@class='siglum']")]


def test_a_conjecture_is_marked_with_who_made_it(decided):
    _, page, (_, conjecture, _) = decided
    found = entry(page, conjecture)
    lemma = found.xpath(".//span[contains(@class, 'lemma')]")[0]
    assert lemma.xpath(f"{ENTRY_TEXT}").startswith("conjectured words")
    assert lemma.xpath(".//span[@class='conjecture']")[0].xpath(ENTRY_TEXT) == "conj. ed"
    assert lemma.xpath(".//bdi[@class='siglum']") == []  # no witness reads it


def test_note_cause_resp_and_wit_detail_are_printed(decided):
    _, page, (_, _, noted) = decided
    found = entry(page, noted)
    assert found.xpath(".//span[@class='entry-note']")[0].text_content() == "Muslim 1763 reads so in every edition."
    reading = found.xpath(".//span[contains(@class, 'reading') and not(contains(@class, 'lemma'))]")[0]
    assert reading.xpath(".//span[@class='cause']")[0].text_content() == "(homeoteleuton)"
    assert reading.xpath(".//span[@class='resp']")[0].xpath(ENTRY_TEXT) == "resp. ed"
    detail = found.xpath(".//span[@class='wit-detail']")[0]
    assert detail.xpath(ENTRY_TEXT) == "marginal: in the margin B"


def test_every_entry_lists_the_witnesses_the_reader_gives(decided):
    edition, page, _ = decided
    shown = []
    for li in page.xpath("//ol[@class='entries']/li"):
        sigla = lambda part: sorted(i for s in part.xpath(".//bdi[@class='siglum']") for i in s.get("data-ids").split())  # noqa: E731
        shown.append(
            {
                "readings": sorted(" ".join(sigla(r)) for r in li.xpath(".//span[contains(@class, 'reading')]")),
                "lacunose": " ".join(sorted(i for part in li.xpath(".//span[@class='lacunae']") for i in sigla(part))),
            }
        )
    assert shown == reader_entries(parse_file(edition))
