"""A scholar's TEI transcriptions collated (issue 32): the W1/W2 Latin example, its choices, hands, lacunae,
pages and lines, and the witness list from msIdentifier."""

from __future__ import annotations

import pytest
from lxml import etree

from tei.readers.scholarly import Policy, is_scholarly, read_scholarly
from tei.xmlio import parse_file
from tests.cli_runner import run
from tests.latin_transcriptions import LATIN, NT, W1, W2, collated_latin
from tests.readers.transcription_checks import (
    TEI,
    deletions_and_additions,
    edition_milestones,
    expected_text,
    glued,
    milestones,
    reading_texts,
    xml_spaced,
)


def _read(path, **policy):
    return read_scholarly(parse_file(path), str(path), Policy(**policy))


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    return collated_latin(tmp_path_factory.mktemp("latin"))


def test_a_scholars_transcription_is_recognised_and_the_toolkits_own_is_not(tmp_path):
    assert is_scholarly(parse_file(W1))
    own = tmp_path / "A.xml"
    (tmp_path / "a.txt").write_text("In principio erat verbum.\n", encoding="utf-8")
    assert run("encode", tmp_path / "a.txt", "-o", own).exit_code == 0
    assert not is_scholarly(parse_file(own))


def test_the_collated_forms_are_the_expansion_the_correction_and_the_regularisation():
    (w1,) = _read(W1)
    (w2,) = _read(W2)
    assert w1.text == "In principio erat verbum et deus erat apud Petrum sanctum hic finis verbum lucis"
    assert w1.text == expected_text(W1)
    assert w2.text == expected_text(W2) == "In principio erat verbum et deus apud Petrum hic finis verbum lucis"
    assert "vbm" not in w1.text and "etet" not in w1.text and "[" not in w2.text


def test_the_manifests_policy_chooses_the_other_forms():
    (w1,) = _read(W1, forms={"abbr": "abbr", "sic": "sic", "orig": "reg"})
    assert w1.text == expected_text(W1, {"abbr": "abbr", "sic": "sic"})
    assert "vbm" in w1.text and "verbi" in w1.text


def test_the_first_hand_reads_the_deletion_and_not_the_addition():
    final, first, c1, c2 = _read(W1, collate="both")
    assert (first.id, first.siglum, first.layer_of) == ("W1-1", "W1*", "W1")
    assert [(c.id, c.siglum, c.layer_of) for c in (c1, c2)] == [("W1C1", "W1C1", "W1"), ("W1C2", "W1C2", "W1")]
    assert first.text == expected_text(W1, layer="*") == final.text.replace("et deus", "et").replace(" sanctum", "")
    assert c1.text == expected_text(W1, layer="m2") == final.text.replace(" sanctum", "")
    assert c2.text == expected_text(W1, layer="m3") == final.text.replace("et deus", "et")
    (w2,) = _read(W2, collate="both")  # no corrections: no layer beside the final text
    assert w2.layer_of is None


def test_the_witness_list_comes_from_msidentifier_and_xml_lang():
    (w1,) = _read(W1)
    (w2,) = _read(W2)
    assert w1.description == "Paris, Bibliothèque nationale de France, lat. 1234 (Codex Testis), s. XI"
    assert w1.references == (("shelfmark", "lat. 1234"),)
    assert (w1.language, w2.language) == ("la", "la")  # TEI's xml:lang, and text's


def test_marks_stand_where_the_transcription_has_them():
    (w1,) = _read(W1)
    by_tag = {}
    for mark in w1.marks:
        by_tag.setdefault(mark.tag, []).append(mark)
    assert [w1.text[m.start : m.end] for m in by_tag["hi"]] == ["In principio"]
    assert [(m.kind, w1.text[m.start : m.end], m.other) for m in by_tag["expan"]] == [
        ("choice", "verbum", ("abbr", "vbm"))
    ]
    assert [dict(m.attributes)["facs"] for m in by_tag["pb"]] == [
        "https://example.org/iiif/lat1234/f1r/full/full/0/default.jpg",
        "https://example.org/iiif/lat1234/f1v/full/full/0/default.jpg",
    ]
    lines = [m.start for m in by_tag["lb"]]
    assert w1.text[lines[1] :].startswith("et deus") and w1.text[lines[3] :].startswith("cis")


def test_every_witness_and_hand_rebuilds_from_the_edition(edition):
    layers = {"W1": "", "W1*": "*", "W1C1": "m2", "W1C2": "m3"}
    for wit, layer in layers.items():
        result = run("witness", edition, "--wit", wit, "--lacuna-marker", "")
        assert result.exit_code == 0, result.stderr
        assert xml_spaced(result.stdout) == expected_text(W1, layer=layer), wit
    result = run("witness", edition, "--wit", "W2", "--lacuna-marker", "")
    assert xml_spaced(result.stdout) == expected_text(W2)


def test_no_reading_glues_a_deletion_to_its_addition_or_holds_a_lacuna_marker(edition):
    texts = reading_texts(edition)
    pairs = deletions_and_additions(W1)
    assert pairs == [("et", "et deus")]
    assert not [t for t in texts for d, a in pairs if glued(d, a, t)]
    assert not [t for t in texts if "[…]" in t or "[...]" in t or "…" in t]


def test_the_gap_is_a_lacuna_of_its_witness_not_an_omission(edition):
    tree = etree.parse(str(edition))
    details = tree.findall(f".//{TEI}witDetail[@type='lac']")
    assert [d.get("wit") for d in details] == ["#W2"]
    unit = details[0].getparent()
    assert all("#W2" not in (r.get("wit") or "").split() for r in unit.iter(f"{TEI}lem", f"{TEI}rdg"))
    result = run("witness", edition, "--wit", "W2")
    assert "deus […]" in " ".join(result.stdout.split())


def test_the_choice_forms_not_collated_are_in_the_edition(edition):
    tree = etree.parse(str(edition))
    others = {
        (etree.QName(e).localname, e.text, e.get("source")) for e in tree.iter(f"{TEI}abbr", f"{TEI}sic", f"{TEI}orig")
    }
    assert others == {("abbr", "vbm", "#W1"), ("sic", "verbi", "#W1"), ("orig", "uerbum", "#W2")}
    for choice in tree.iter(f"{TEI}choice"):
        assert [c.get("ana") for c in choice][0] == "#collated"


def test_inline_markup_is_kept_and_makes_no_variant(edition):
    tree = etree.parse(str(edition))
    rubric = tree.find(f".//{TEI}hi[@rend='rubric']")
    assert rubric is not None and "".join(rubric.itertext()) == "In principio" and rubric.get("source") == "#W1"
    assert tree.find(f".//{TEI}unclear").get("cert") == "medium"
    assert tree.find(f".//{TEI}supplied").get("reason") == "damage"
    for app in tree.iter(f"{TEI}app"):  # Petrum is shared, with W1's persName and W2's initial
        assert "Petrum" not in " ".join("".join(r.itertext()) for r in app)


def test_every_page_and_line_of_every_witness_is_in_the_edition_in_order(edition):
    resolved = {"#f1r": "https://example.org/iiif/lat1234/f1r/full/full/0/default.jpg",
                "#f1v": "https://example.org/iiif/lat1234/f1v/full/full/0/default.jpg"}  # fmt: skip
    for wid, path in (("W1", W1), ("W2", W2)):
        expected = [(t, n, resolved.get(f, f)) for t, n, f in milestones(path)]
        assert edition_milestones(edition, wid) == expected


def test_layout_prints_the_pages_and_lines(edition):
    result = run("witness", edition, "--wit", "W1", "--layout")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "== page 1r  https://example.org/iiif/lat1234/f1r/full/full/0/default.jpg ==",
        "1: In principio erat verbum",
        "2: et deus erat apud Petrum sanctum hic",
        "== page 1v  https://example.org/iiif/lat1234/f1v/full/full/0/default.jpg ==",
        "1: finis verbum lu",
        "2: cis",
    ]


def test_the_hands_are_cited_only_where_they_differ_and_declared(edition):
    tree = etree.parse(str(edition))
    declared = [(w.get("n"), w.get("corresp")) for w in tree.iter(f"{TEI}witness")]
    assert declared == [("W1", None), ("W1*", "#W1"), ("W1C1", "#W1"), ("W1C2", "#W1"), ("W2", None)]
    cited = {}
    for app in tree.iter(f"{TEI}app"):
        for reading in app.iter(f"{TEI}lem", f"{TEI}rdg"):
            text = "".join(reading.itertext()).strip()
            cited[text] = cited.get(text, []) + (reading.get("wit") or "").split()
    # "deus" is the first corrector's, "sanctum" the second's: each hand is cited where it reads otherwise
    assert cited["deus"] == ["#W1", "#W2"] and cited["sanctum"] == ["#W1"]
    assert sorted(cited[""]) == sorted(["#W1-1", "#W1C2", "#W2", "#W1-1", "#W1C1"])


def test_the_edition_is_valid(edition):
    result = run("validate", edition)
    assert result.exit_code == 0, result.stdout + result.stderr


def test_the_first_hand_cited_and_its_witness_not_is_read_as_that_witness(tmp_path):
    edition = tmp_path / "nt.xml"
    edition.write_text(NT, encoding="utf-8")
    texts = {wit: run("witness", edition, "--wit", wit).stdout for wit in ("A", "06", "06*", "06C2")}
    assert texts == {"A": "en christo iesou", "06": "en kurio iesou", "06*": "en kurio iesou", "06C2": "en theo iesou"}
    stats = run("stats", edition)
    assert stats.exit_code == 0, stats.stderr


def test_a_transcription_declaring_its_special_characters_as_entities_is_read(tmp_path):
    source = W2.read_text("utf-8").replace("<TEI ", '<!DOCTYPE TEI [<!ENTITY ae "&#xE6;">]>\n<TEI ', 1)
    old = tmp_path / "W2.xml"
    old.write_text(source.replace("finis", "fin&ae;s"), encoding="utf-8")
    (witness,) = _read(old)
    assert "finæs" in witness.text and witness.text == expected_text(W2).replace("finis", "finæs")


def test_the_web_page_shows_the_collated_form_and_names_the_others(edition, tmp_path):
    result = run("render", edition, "--to", "html", "-o", tmp_path / "html")
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "html" / "index.html").read_text("utf-8")
    for title in ('title="abbr W1: vbm"', 'title="sic W1: verbi"', 'title="orig W2: uerbum"'):
        assert title in page
    assert '<span class="tei-expan">verbum</span><span class="tei-abbr">vbm</span>' in page  # the first shown


def test_tei_build_links_each_witness_to_the_scholars_transcription_and_validates(tmp_path):
    result = run("build", LATIN, "-o", tmp_path, "--stages", "transcriptions,edition,schema,validate")
    assert result.exit_code == 0, result.stderr
    tree = etree.parse(str(tmp_path / "edition.xml"))
    sources = {w.get("n"): w.find(f"{TEI}ptr").get("target") for w in tree.iter(f"{TEI}witness")}
    assert (tmp_path / sources["W1"]).resolve() == W1.resolve() and (tmp_path / sources["W2"]).resolve() == W2.resolve()
