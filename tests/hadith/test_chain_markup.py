"""The chain in a transcription: narrators as persName, transmission terms and the tahwil (ح) as typed segs,
every character kept (the text rebuilds byte for byte) and the file valid against tei_all."""

from __future__ import annotations

import subprocess

import regex

from tei.model import Witness, Work
from tei.readers.transcription import read_transcription
from tei.writers.transcription import transcription_bytes
from tei.xmlio import NSMAP, parse_bytes

WORK = Work(id="w", title="Hadith")
MARKS = regex.compile(r"[\p{M}\u0640]")


def _bare(text: str) -> str:
    return MARKS.sub("", text).strip()


def test_a_chain_is_marked_link_by_link():
    text = "حدثنا أبو بكر، وزهير بن حرب، قالا حدثنا وكيع، ح وحدثنا قتيبة، عن سفيان، عن أبي هريرة، قال كان"
    tree = parse_bytes(transcription_bytes(Witness("A", "A", text, "ar"), WORK), "t")
    names = ["".join(p.itertext()) for p in tree.xpath("//tei:div[@type='isnad']//tei:persName", namespaces=NSMAP)]
    assert names == ["أبو بكر", "وزهير بن حرب", "وكيع", "قتيبة", "سفيان", "أبي هريرة"]
    terms = tree.xpath("//tei:seg[@type='transmission']/text()", namespaces=NSMAP)
    assert terms == ["حدثنا", "قالا", "حدثنا", "وحدثنا", "عن", "عن"]
    assert tree.xpath("//tei:seg[@type='tahwil']/text()", namespaces=NSMAP) == ["ح"]
    assert not tree.xpath("//tei:div[@type='matn']//tei:persName", namespaces=NSMAP)


def test_every_tahwil_and_narrator_of_the_kitabs_is_marked(muslim_records, tmp_path, jing, tei_all_rng):
    """Every ح of a recognised chain is a seg type=tahwil, no name holds a transmission term or a comma at its
    end, and the files rebuild their texts; a sample is valid against tei_all."""
    tahwil = narrators = 0
    checked = []
    for number, record in enumerate(muslim_records[::7]):
        text = record["arabic"]
        path = tmp_path / f"{number}.xml"
        path.write_bytes(transcription_bytes(Witness("A", "A", text, "ar"), WORK, path))
        assert read_transcription(path).text == text
        tree = parse_bytes(path.read_bytes(), str(path))
        isnad = tree.xpath("//tei:div[@type='isnad']", namespaces=NSMAP)
        if not isnad:
            continue
        chain = "".join(isnad[0].itertext())
        marked = isnad[0].xpath(".//tei:seg[@type='tahwil']", namespaces=NSMAP)
        assert len(marked) == len(regex.findall(r"(?<![\p{L}\p{M}])ح(?![\p{L}\p{M}])", chain)), record["id"]
        tahwil += len(marked)
        for name in isnad[0].xpath(".//tei:persName[@type='narrator']", namespaces=NSMAP):
            words = _bare("".join(name.itertext())).split()
            assert words and not words[-1].endswith(("،", ",")), record["id"]
            assert not {"حدثنا", "أخبرنا", "عن"} & set(words), (record["id"], words)
            narrators += 1
        if number % 40 == 0:
            checked.append(str(path))
    assert tahwil > 50 and narrators > 1500
    result = subprocess.run([jing, str(tei_all_rng), *checked], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[:2000]
