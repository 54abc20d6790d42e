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


def _typo_in_wit(edition):
    """The editing scenario of issue 38: one character wrong in a @wit (a witness that is not declared), so
    that witness A loses its reading 'When ' in the first unit and its rebuilt text is a guess."""
    text = edition.read_text("utf-8")
    assert '<lem wit="#A">When </lem>' in text
    edition.write_text(text.replace('<lem wit="#A">When </lem>', '<lem wit="#Z">When </lem>', 1), "utf-8")


def test_a_typo_in_wit_is_not_synced_and_the_hint_does_not_propose_it(tmp_path):
    """Failure 1: APP007's hint proposed `tei sync`, and sync, followed, deleted the witness's word."""
    out = built(tmp_path)
    edition, transcription = out / "edition.xml", out / "transcriptions" / "A.xml"
    _typo_in_wit(edition)
    before = {p.name: p.read_bytes() for p in (out / "transcriptions").iterdir()}
    checked = run("validate", edition)
    assert "[APP001]" in checked.stderr and "[APP007]" in checked.stderr
    app007 = next(line for line in checked.stderr.splitlines() if "[APP007]" in line)
    assert "--wit A" not in app007 and "correct them first" in app007
    result = run("sync", edition, "--wit", "A")
    assert result.exit_code == 1 and "[S003]" in result.stderr and "[APP001]" in result.stderr
    assert "no transcription was written" in result.stderr
    assert {p.name: p.read_bytes() for p in (out / "transcriptions").iterdir()} == before
    assert "When it was the day" in transcription_text(parse_file(transcription), str(transcription))


def test_sync_shows_the_exact_change_first_and_dry_run_writes_nothing(tmp_path):
    out = built(tmp_path)
    edition, transcription = out / "edition.xml", out / "transcriptions" / "A.xml"
    edition.write_text(edition.read_text("utf-8").replace("sympayour", "sympathy"), "utf-8")
    before = transcription.read_bytes()
    dry = run("sync", edition, "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert transcription.read_bytes() == before and not list(transcription.parent.glob("*.bak"))
    removed = [line for line in dry.stdout.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line for line in dry.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert any("sympayour" in line for line in removed) and any("sympathy" in line for line in added)
    assert f"{transcription} (after sync)" in dry.stdout
    result = run("sync", edition)
    assert result.exit_code == 0, result.stderr
    assert "sympathy" in result.stderr and "sympayour" in result.stderr  # the diff, before the files written


def test_sync_keeps_the_old_transcription_and_names_it(tmp_path):
    """Failure 2 (what to build, 1): every replacement of a file a scholar may have edited keeps a backup."""
    out = built(tmp_path)
    edition, transcription = out / "edition.xml", out / "transcriptions" / "A.xml"
    edition.write_text(edition.read_text("utf-8").replace("sympayour", "sympathy"), "utf-8")
    before = transcription.read_bytes()
    result = run("sync", edition)
    assert result.exit_code == 0, result.stderr
    (backup,) = transcription.parent.glob("A.xml.*.bak")
    assert f"the old {transcription} is kept as {backup}" in result.stderr
    assert backup.read_bytes() == before and transcription.read_bytes() != before


def test_app007_is_at_the_line_of_the_reading_edited(tmp_path):
    """Failure 5: after a hand edit inside a unit nested in an outer lemma, APP007 pointed at the outer
    lemma's line (or the next unit's) when the edit cut characters at the reading's end."""
    out = built(tmp_path)
    edition = out / "edition.xml"
    lines = edition.read_text("utf-8").splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if '<lem wit="#A">it </lem>' in line)
    assert any("<lem " in line and "<app" in line for line in lines[:at])  # it is inside an outer lemma
    for old, new in (('">it </lem>', '">it</lem>'), ('">it </lem>', '">it, </lem>')):
        edited = [*lines]
        edited[at] = lines[at].replace(old, new)
        edition.write_text("".join(edited), "utf-8")
        app007 = next(line for line in run("validate", edition).stderr.splitlines() if "[APP007]" in line)
        assert app007.startswith(f"{edition}:{at + 1}:"), app007
