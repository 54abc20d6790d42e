"""`tei build`: the whole pipeline from a manifest, and one clear refusal for each kind of bad input."""

import shutil
import subprocess
import sys

import pytest
from cli_runner import one_error_line, run
from paths import SEEDS

from tei.readers.transcription import read_transcription


@pytest.fixture
def seeds_copy(tmp_path):
    shutil.copytree(SEEDS, tmp_path / "seeds")
    return tmp_path / "seeds"


def test_builds_the_transcriptions(tmp_path):
    result = run("build", SEEDS, "-o", tmp_path / "build")
    assert result.exit_code == 0, result.stderr
    for letter, seed in zip("ABCD", sorted(SEEDS.glob("*.txt"))):
        path = tmp_path / "build" / "transcriptions" / f"{letter}.xml"
        assert str(path) in result.stdout
        assert read_transcription(path).text.encode() == seed.read_bytes()


def test_building_twice_is_allowed(tmp_path):
    assert run("build", SEEDS, "-o", tmp_path / "b").exit_code == 0
    assert run("build", SEEDS, "-o", tmp_path / "b").exit_code == 0


def test_missing_manifest(tmp_path):
    result = run("build", tmp_path, "-o", tmp_path / "b")
    assert result.exit_code == 3
    assert "edition.toml" in one_error_line(result)
    assert not (tmp_path / "b").exists()


def test_unknown_key(seeds_copy, tmp_path):
    manifest = seeds_copy / "edition.toml"
    manifest.write_text(manifest.read_text().replace('base = "A"', 'base = "A"\nbsae = "B"'))
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{manifest}:9: error: [M003] unknown key 'bsae'")
    assert not (tmp_path / "b").exists()


def test_missing_witness_file(seeds_copy, tmp_path):
    (seeds_copy / "002_c3c1b0dacfa10b01.txt").unlink()
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 3
    assert "002_c3c1b0dacfa10b01.txt" in one_error_line(result)


def test_duplicate_siglum(seeds_copy, tmp_path):
    manifest = seeds_copy / "edition.toml"
    manifest.write_text(manifest.read_text().replace('siglum = "D"', 'siglum = "B"'))
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 1
    assert "duplicate siglum 'B'" in one_error_line(result)


def test_non_utf8_witness(seeds_copy, tmp_path):
    (seeds_copy / "000_091639bda12aac5a.txt").write_bytes("Qibla \u2018Umar".encode("cp1252"))
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{seeds_copy / '000_091639bda12aac5a.txt'}:1:7: error: [T001]")


def test_output_path_that_is_a_file(tmp_path):
    (tmp_path / "b").write_text("a file")
    result = run("build", SEEDS, "-o", tmp_path / "b")
    assert result.exit_code == 2
    assert "[O001]" in one_error_line(result)


def test_unwritable_output(readonly_dir):
    result = run("build", SEEDS, "-o", readonly_dir)
    assert result.exit_code == 1
    assert "[O00" in one_error_line(result)
    assert list(readonly_dir.iterdir()) == []


def test_hand_edited_output(tmp_path):
    assert run("build", SEEDS, "-o", tmp_path / "b").exit_code == 0
    edited = tmp_path / "b" / "transcriptions" / "B.xml"
    edited.write_text(edited.read_text().replace("Sayyiduna", "Sayyidina"))
    before = {p: p.read_bytes() for p in (tmp_path / "b" / "transcriptions").iterdir()}
    result = run("build", SEEDS, "-o", tmp_path / "b")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{edited}: error: [O004]")
    assert {p: p.read_bytes() for p in (tmp_path / "b" / "transcriptions").iterdir()} == before


def test_every_hand_edited_output_is_listed_and_nothing_is_written(seeds_copy, tmp_path):
    """Edited edition.xml, an edited transcription and a changed seed: the build writes nothing at all (the
    changed seed would rewrite every transcription) and names both edited files at once."""
    out = tmp_path / "b"
    assert run("build", seeds_copy, "-o", out).exit_code == 0
    edition, transcription = out / "edition.xml", out / "transcriptions" / "C.xml"
    edition.write_text(edition.read_text().replace("Badr", "Badr (ed.)", 1))
    transcription.write_text(transcription.read_text() + "\n")
    seed = sorted(seeds_copy.glob("*.txt"))[0]
    seed.write_text(seed.read_text() + " Amen.")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    result = run("build", seeds_copy, "-o", out)
    assert result.exit_code == 1
    refused = [line for line in result.stderr.splitlines() if "[O004]" in line]
    assert sorted(line.split(":")[0] for line in refused) == sorted([str(edition), str(transcription)])
    assert result.stderr.count("hint:") == 1 and "--force" in result.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_force_says_where_each_backup_is(tmp_path):
    out = tmp_path / "b"
    assert run("build", SEEDS, "-o", out).exit_code == 0
    edition = out / "edition.xml"
    edited = edition.read_text().replace("Badr", "Badr (ed.)", 1)
    edition.write_text(edited)
    result = run("build", SEEDS, "-o", out, "--force")
    assert result.exit_code == 0, result.stderr
    (backup,) = out.glob("edition.xml.*.bak")
    assert f"{edition} had been edited by hand; the old file is kept as {backup}" in result.stderr
    assert backup.read_text() == edited


def test_console_script_runs_as_a_program(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "tei", "build", str(SEEDS), "-o", str(tmp_path / "b")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("transcriptions/") == 4


def test_json_report_and_json_diagnostics(tmp_path):
    import json

    result = run("build", SEEDS, "-o", tmp_path / "b", "--format", "json")
    assert result.exit_code == 0
    assert len([p for p in json.loads(result.stdout) if "/transcriptions/" in p]) == 4
    failed = run("build", tmp_path, "-o", tmp_path / "b", "--format", "json")
    (diagnostic,) = json.loads(failed.stderr)
    assert diagnostic["code"] == "M001" and diagnostic["severity"] == "error"


def test_only_the_stages_asked_for(tmp_path):
    result = run("build", SEEDS, "-o", tmp_path / "b", "--stages", "transcriptions,edition,html")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "b" / "edition.xml").is_file() and (tmp_path / "b" / "html" / "index.html").is_file()
    assert not (tmp_path / "b" / "edition.pdf").exists() and not (tmp_path / "b" / "stats").exists()


def test_an_unknown_stage_is_a_usage_error(tmp_path):
    result = run("build", SEEDS, "-o", tmp_path / "b", "--stages", "edition,typeset")
    assert result.exit_code == 2
    assert "no build stage 'typeset'" in one_error_line(result)


def test_the_help_lists_every_stage_in_order():
    from tei.app.build import STAGES

    assert "Stages, in order: " + ", ".join(name for name, _ in STAGES) + "." in " ".join(
        run("build", "--help").stdout.split()
    )


def test_a_build_folder_moved_elsewhere_stays_valid(tmp_path):
    """Every file names its schema relative to itself, and the schema is in the folder: move it, zip it."""
    assert run("build", SEEDS, "-o", tmp_path / "b", "--stages", "transcriptions,edition,schema").exit_code == 0
    moved = tmp_path / "elsewhere" / "copy"
    shutil.copytree(tmp_path / "b", moved)
    shutil.rmtree(tmp_path / "b")
    files = [moved / "edition.xml", *sorted((moved / "transcriptions").glob("*.xml"))]
    for path in files:
        assert b'<?xml-model href="' in path.read_bytes()[:300]
    result = run("validate", *files)
    assert result.exit_code == 0, result.stderr


def test_the_manifest_render_options_reach_the_web_edition(seeds_copy, tmp_path):
    with (seeds_copy / "edition.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(
            '\n[render]\nhidden-types = ["whitespace"]\n\n[render.html]\ntitle = "Badr, as the manifest names it"\n'
        )
    out = tmp_path / "b"
    result = run("build", seeds_copy, "-o", out, "--stages", "transcriptions,edition,schema,html")
    assert result.exit_code == 0, result.stderr
    assert "Badr, as the manifest names it" in (out / "html" / "index.html").read_text("utf-8")
    # changed options are a changed input of the html stage: it runs again
    text = (seeds_copy / "edition.toml").read_text("utf-8").replace("as the manifest names it", "renamed")
    (seeds_copy / "edition.toml").write_text(text, "utf-8")
    assert run("build", seeds_copy, "-o", out, "--stages", "transcriptions,edition,schema,html").exit_code == 0
    assert "Badr, renamed" in (out / "html" / "index.html").read_text("utf-8")


@pytest.mark.parametrize(
    "table, key",
    [("[render]", "nonexistent"), ("[render.pdf]", "nonexistent"), ("[render.epub]", "title")],
)
def test_an_unknown_render_option_names_the_manifest_and_the_key(seeds_copy, tmp_path, table, key):
    text = (seeds_copy / "edition.toml").read_text("utf-8")
    with (seeds_copy / "edition.toml").open("a", encoding="utf-8") as manifest:
        # the seeds' manifest ends with its [render.pdf] table: a key is added to it, not a second one
        manifest.write(
            f"\n{key} = 3\n" if text.rstrip().split("\n[")[-1].startswith(table[1:]) else f"\n{table}\n{key} = 3\n"
        )
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert str(seeds_copy / "edition.toml") in line and "[M014]" in line
    assert key in line or "epub" in line
    assert not (tmp_path / "b").exists(), "the options are checked once the first stages run: nothing is left"


def test_a_manifest_that_is_not_toml_is_one_message_from_tei_build(seeds_copy, tmp_path):
    """tei build reads the [render] options before the manifest itself: a table declared twice was a
    traceback (TOMLDecodeError), not M002."""
    with (seeds_copy / "edition.toml").open("a", encoding="utf-8") as manifest:
        manifest.write("\n[edition]\nid = 'again'\n")
    before = (seeds_copy / "edition.toml").read_bytes()
    result = run("build", seeds_copy, "-o", tmp_path / "b")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert str(seeds_copy / "edition.toml") in line and "[M002]" in line
    assert (seeds_copy / "edition.toml").read_bytes() == before and not (tmp_path / "b").exists()


def test_the_build_tells_of_pages_of_few_text_lines(seeds_copy, tmp_path):
    """Issue 34 (point 7): the seeds without their [render.pdf] (the defaults: one entry a unit, A5) print
    pages of a few text lines; `tei build` says so (P015, info) and names the settings; with the seeds'
    own settings (entries = "places", paper = "a4") it says nothing of it."""
    manifest = seeds_copy / "edition.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text[: text.index("[render.pdf]")], encoding="utf-8")
    result = run("build", seeds_copy, "-o", tmp_path / "defaults")
    assert result.exit_code == 0, result.stderr
    (told,) = [line for line in result.stderr.splitlines() if "[P015]" in line]
    assert "info:" in told and 'entries = "places"' in told and 'paper = "a4"' in told
    result = run("build", SEEDS, "-o", tmp_path / "seeds")
    assert result.exit_code == 0 and "[P015]" not in result.stderr, result.stderr
