"""The build stage 'edition': <output>/edition.xml linking the transcriptions and the project schema."""

from __future__ import annotations

from tei.app.build import STAGES, BuildOptions, edition
from tei.apparatus import witness_text
from tei.xmlio import NSMAP, parse_bytes


def test_edition_stage_follows_the_transcriptions():
    names = [name for name, _ in STAGES]
    assert names.index("transcriptions") < names.index("edition")


def test_edition_stage_links_transcriptions_and_schema(seed_work, tmp_path):
    files = edition(seed_work, BuildOptions(tmp_path))
    assert list(files) == [tmp_path / "edition.xml"]
    data = files[tmp_path / "edition.xml"]
    assert data.splitlines()[1].startswith(b'<?xml-model href="schemas/tei-edition.rng"')
    tree = parse_bytes(data, "edition.xml")
    targets = tree.getroot().xpath("//tei:witness/tei:ptr[@type='transcription']/@target", namespaces=NSMAP)
    assert targets == [f"transcriptions/{w.id}.xml" for w in seed_work.witnesses]
    for witness in seed_work.witnesses:
        assert witness_text(tree, witness.id) == witness.text
