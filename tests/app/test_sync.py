"""`tei sync`: a reading corrected by hand in edition.xml is carried into the witness's transcription."""

from __future__ import annotations

from cli_runner import run
from paths import SEEDS

from tei.apparatus import transcription_text
from tei.xmlio import parse_file


def built(tmp_path):
    out = tmp_path / "b"
    assert run("build", SEEDS, "-o", out, "--stages", "transcriptions,edition,schema").exit_code == 0
    return out


def test_a_corrected_reading_reaches_the_transcription_and_validation_passes(tmp_path):
    out = built(tmp_path)
    edition = out / "edition.xml"
    edition.write_text(edition.read_text("utf-8").replace("sympayour", "sympathy"), "utf-8")
    others = {w: (out / "transcriptions" / f"{w}.xml").read_bytes() for w in "BCD"}
    header_before = (out / "transcriptions" / "A.xml").read_text("utf-8").split("<text")[0]
    assert "[APP007]" in run("validate", edition).stderr
    result = run("sync", edition)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [str(out / "transcriptions" / "A.xml")]
    synced = out / "transcriptions" / "A.xml"
    text = transcription_text(parse_file(synced), str(synced))
    assert "in sympathy with you" in text and "sympayour" not in text
    assert (SEEDS / "000_091639bda12aac5a.txt").read_text("utf-8").replace("sympayour", "sympathy") == text
    assert synced.read_text("utf-8").split("<text")[0] == header_before  # header and schema link kept
    assert {w: (out / "transcriptions" / f"{w}.xml").read_bytes() for w in "BCD"} == others
    result = run("validate", edition, *sorted((out / "transcriptions").glob("*.xml")))
    assert result.exit_code == 0, result.stderr


def test_nothing_to_do_writes_nothing_and_unknown_witnesses_are_named(tmp_path):
    out = built(tmp_path)
    result = run("sync", out / "edition.xml")
    assert result.exit_code == 0 and result.stdout == ""
    result = run("sync", out / "edition.xml", "--wit", "Z")
    assert result.exit_code == 1 and "[A002] no witness 'Z'" in result.stderr


def test_a_transcription_edited_by_hand_is_not_overwritten_without_force(tmp_path):
    out = built(tmp_path)
    edition, transcription = out / "edition.xml", out / "transcriptions" / "A.xml"
    edition.write_text(edition.read_text("utf-8").replace("sympayour", "sympathy"), "utf-8")
    transcription.write_text(transcription.read_text("utf-8").replace("not published", "draft"), "utf-8")
    before = transcription.read_bytes()
    result = run("sync", edition)
    assert result.exit_code == 1 and "[O004]" in result.stderr
    assert transcription.read_bytes() == before
    result = run("sync", edition, "--force")
    assert result.exit_code == 0, result.stderr
    assert "draft" in transcription.read_text("utf-8")  # the hand edit of the header survives the sync
