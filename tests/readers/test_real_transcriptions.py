"""The scholars' transcriptions of ../shared/corpora/tei-transcriptions/ collated (issue 32), one edition a set
(manifests in tests/fixtures/transcriptions/real/): every witness and hand layer rebuilds from the edition as
an independent reading of its transcription says (tests/readers/transcription_checks.py); no reading glues a
deletion to its addition or holds a lacuna marker; every page and line of every witness is in the edition,
in order, with its @n and @facs; the edition is valid against the project schema and tei_all."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from lxml import etree

from tests.cli_runner import run
from tests.paths import FIXTURES, SHARED
from tests.readers.transcription_checks import (
    TEI,
    deletions_and_additions,
    edition_milestones,
    expected,
    glued,
    reading_texts,
    xml_spaced,
)

SETS = FIXTURES / "transcriptions" / "real"
CORPUS = SHARED / "corpora" / "tei-transcriptions"
TEI_ALL = SHARED / "corpora" / "tei-p5-schema" / "4.12.0" / "tei_all.rng"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NAMES = sorted(p.name for p in SETS.iterdir() if (p / "edition.toml").is_file())

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpora/tei-transcriptions is absent")


@pytest.fixture(scope="module", params=NAMES)
def built(request, tmp_path_factory):
    manifest = SETS / request.param / "edition.toml"
    output = tmp_path_factory.mktemp(request.param) / "edition.xml"
    result = run("collate", "--manifest", manifest, "-o", output)
    assert result.exit_code == 0, result.stderr
    return manifest, output


def _witnesses(manifest: Path):
    """(id, transcription path, forms, part, hands, siglum) of each witness of a manifest."""
    data = tomllib.loads(manifest.read_text("utf-8"))
    common = data.get("transcription", {})
    for entry in data["witness"]:
        own = {**common, **entry.get("transcription", {})}
        forms = {k: own[k] for k in ("abbr", "sic", "orig") if k in own}
        yield (
            entry["id"],
            manifest.parent / entry["file"],
            forms,
            own.get("part"),
            own.get("hands", {}),
            entry.get("siglum", entry["id"]),
        )


def _layers(path: Path, hands: dict, part=None) -> dict[str, str]:
    """Siglum suffix -> hand of every hand of a transcription (docs/manifest.md): "*" the first hand; a
    corrector by the manifest's name, else its handNote's @n when that is C, c, C1, ..., else C and the
    handNote's place."""
    tree = etree.parse(str(path))
    names = {}
    for index, note in enumerate(tree.iter(f"{TEI}handNote"), 1):
        if note.get(XML_ID):
            label = note.get("n") or note.get(XML_ID)
            names[note.get(XML_ID)] = label if re.fullmatch(r"[cC]\d*", label) else f"C{index}"
    names.update(hands)
    found = {"*": "*"}
    top = tree.xpath("//*[@xml:id=$part]", part=part)[0] if part else tree.getroot()
    for element in top.iter():
        for token in (element.get("hand") or "").split() if isinstance(element.tag, str) else ():
            hand = token.lstrip("#")
            if hand != "firsthand" and element.tag in {
                f"{TEI}{t}" for t in ("add", "del", "subst", "restore", "mod", "rdg")
            }:
                suffix = "C" if hand == "corrector" else names.get(hand, hand)
                found.setdefault(suffix if re.fullmatch(r"[cC]\d*", suffix) else f"C{suffix}", hand)
    return found


def _text(edition, wit):
    result = run("witness", edition, "--wit", wit, "--lacuna-marker", "")
    assert result.exit_code == 0, result.stderr
    return xml_spaced(result.stdout)


def test_every_witness_and_hand_rebuilds_as_its_transcription_says(built):
    manifest, edition = built
    declared = {w.get("n"): w.get(XML_ID) for w in etree.parse(str(edition)).iter(f"{TEI}witness")}
    checked = 0
    for wid, path, forms, part, hands, siglum in _witnesses(manifest):
        final = expected(path, forms, "", part)[0]
        assert _text(edition, wid) == final, wid
        for suffix, hand in _layers(path, hands, part).items():
            text = expected(path, forms, hand, part)[0]
            hand_siglum = f"{siglum}{suffix}"
            if text == final:
                assert hand_siglum not in declared, f"{hand_siglum} reads the final text: it is not declared"
                continue
            assert hand_siglum in declared, hand_siglum
            assert _text(edition, hand_siglum) == text, hand_siglum
            checked += 1
    assert checked or "quran" not in manifest.parent.name  # the Qur'an set has first hands that differ


def test_no_reading_glues_a_deletion_to_its_addition_or_holds_a_lacuna_marker(built):
    manifest, edition = built
    texts = reading_texts(edition)
    for _, path, *_ in _witnesses(manifest):
        for deleted, added in deletions_and_additions(path):
            assert not [t for t in texts if glued(deleted, added, t) and deleted + added not in expected(path)[0]]
    assert not [t for t in texts if "[…]" in t or "[...]" in t]


def test_every_page_and_line_of_every_witness_is_in_the_edition_in_order(built):
    manifest, edition = built
    for wid, path, forms, part, *_ in _witnesses(manifest):
        tree = etree.parse(str(path))
        images = {}
        for surface in tree.iter(f"{TEI}surface"):
            graphic = surface.find(f"{TEI}graphic")
            if graphic is not None and surface.get(XML_ID):
                images[f"#{surface.get(XML_ID)}"] = graphic.get("url")
        wanted = [(t, n, images.get(f, f)) for t, n, f in expected(path, forms, "", part)[1] if t in ("pb", "lb")]
        found = edition_milestones(edition, wid)
        assert [(t, n) for t, n, _ in found] == [(t, n) for t, n, _ in wanted], wid
        for (_, _, has), (_, _, want) in zip(found, wanted):
            assert has == want or (want and want.startswith("#") and has.endswith(want)), (wid, has, want)


def test_layout_rebuilds_each_witness_s_pages(built):
    manifest, edition = built
    for wid, path, forms, part, *_ in _witnesses(manifest):
        pages = [n for t, n, _ in expected(path, forms, "", part)[1] if t == "pb"]
        result = run("witness", edition, "--wit", wid, "--layout")
        assert result.exit_code == 0, result.stderr
        printed = [line for line in result.stdout.splitlines() if line.startswith("== page ")]
        assert [line.split()[2] if len(line.split()) > 3 else "" for line in printed] == [n or "" for n in pages]


def test_the_edition_is_valid_against_the_project_schema_and_tei_all(built):
    _, edition = built
    result = run("validate", edition)
    assert result.exit_code == 0, result.stdout + result.stderr
    if TEI_ALL.is_file():
        result = run("validate", "--schema", TEI_ALL, edition)
        assert result.exit_code == 0, result.stdout + result.stderr
