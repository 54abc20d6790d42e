"""`tei build --carry-decisions` on the seeds: a decision that cannot be carried leaves a backup the message
names, a carry says what it carried, and a plain build after it, with nothing changed, is a no-op."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from cli_runner import run
from paths import SEEDS

STAGES = "transcriptions,edition,schema"
NOTE = "<note>The editor keeps this word.</note>"


def seeds_copy(tmp_path) -> Path:
    folder = tmp_path / "seeds"
    shutil.copytree(SEEDS, folder)
    return folder


def noted(edition: Path) -> None:
    """A note of the editor in the unit where only A reads 'in sympayour '."""
    text = edition.read_text("utf-8")
    unit = '<lem wit="#A">in sympayour </lem>\n              <rdg wit="#B #C" type="omission"/>'
    assert unit in text
    edition.write_text(text.replace(unit, unit + NOTE, 1), "utf-8")


def carried_once(tmp_path) -> tuple[Path, Path]:
    seeds, out = seeds_copy(tmp_path), tmp_path / "b"
    assert run("build", seeds, "-o", out, "--stages", STAGES).exit_code == 0
    noted(out / "edition.xml")
    result = run("build", seeds, "-o", out, "--stages", STAGES, "--carry-decisions")
    assert result.exit_code == 0, result.stderr
    assert NOTE in (out / "edition.xml").read_text("utf-8")
    return seeds, out


def test_a_decision_not_carried_leaves_the_backup_its_message_names(tmp_path):
    """Failure 2: B004 said the edited file "is kept as the backup named below"; none was written or named
    when edition.xml was the toolkit's own (a carry written before), and the scholar's note was gone."""
    seeds, out = carried_once(tmp_path)
    edition = out / "edition.xml"
    old = edition.read_bytes()
    source = seeds / "000_091639bda12aac5a.txt"
    source.write_text(source.read_text("utf-8").replace("in sympayour ", "", 1), "utf-8")  # the unit goes
    result = run("build", seeds, "-o", out, "--stages", STAGES, "--carry-decisions")
    assert result.exit_code == 0, result.stderr
    b004 = next(line for line in result.stderr.splitlines() if "[B004]" in line)
    named = re.search(r"kept as (\S+\.bak)", b004)
    assert named, b004
    backup = Path(named.group(1))
    assert backup.is_file() and backup.read_bytes() == old
    assert NOTE.encode() in backup.read_bytes() and NOTE not in edition.read_text("utf-8")
    assert b004.startswith(f"{backup}:")  # the line given is that of the file that holds the decision


def test_a_carry_says_what_it_carried(tmp_path):
    """Failure 5: after a successful carry nothing said what was carried."""
    seeds, out = seeds_copy(tmp_path), tmp_path / "b"
    assert run("build", seeds, "-o", out, "--stages", STAGES).exit_code == 0
    noted(out / "edition.xml")
    result = run("build", seeds, "-o", out, "--stages", STAGES, "--carry-decisions")
    assert result.exit_code == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if "[B007]" in line)
    assert "1 decision(s) of the editor carried" in line and "1 note" in line and "app-ace9e1d8" in line


def test_a_plain_build_after_a_carry_with_nothing_changed_does_nothing(tmp_path):
    """Failure 5: the next plain `tei build` with nothing changed refused with B006 and exit 1 (the carry had
    collated a transcription corrected by `tei sync`, B005)."""
    seeds, out = seeds_copy(tmp_path), tmp_path / "b"
    assert run("build", seeds, "-o", out, "--stages", STAGES).exit_code == 0
    edition = out / "edition.xml"
    noted(edition)
    edition.write_text(edition.read_text("utf-8").replace(">it </lem>", ">it then </lem>", 1), "utf-8")
    assert run("sync", edition).exit_code == 0
    result = run("build", seeds, "-o", out, "--stages", STAGES, "--carry-decisions")
    assert result.exit_code == 0 and "[B005]" in result.stderr, result.stderr
    carried = (out / "edition.xml").read_bytes()
    result = run("build", seeds, "-o", out, "--stages", STAGES)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and (out / "edition.xml").read_bytes() == carried
    source = seeds / "001_9ad4fe1e89355a52.txt"  # a witness changed: collating anew would drop the note
    source.write_text(source.read_text("utf-8") + " More.", "utf-8")
    refused = run("build", seeds, "-o", out, "--stages", STAGES)
    assert refused.exit_code == 1 and "[B006]" in refused.stderr
