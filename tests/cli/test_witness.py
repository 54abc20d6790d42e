"""`tei witness`: exact text on stdout from any apparatus the toolkit reads, and clear refusals."""

import json
from pathlib import Path

from cli_runner import one_error_line, run
from paths import FIXTURES

MINI = FIXTURES / "editions" / "mini.xml"


def test_prints_exactly_the_witness_text():
    result = run("witness", MINI, "--wit", "B")
    assert result.exit_code == 0
    assert result.stdout.startswith("The Prophet (peace and blessings be upon him) turned towards the Qiblah.")
    assert result.stdout.endswith("prisoners.\n")


def test_writes_to_a_file(tmp_path):
    assert run("witness", MINI, "--wit", "A", "-o", tmp_path / "a.txt").exit_code == 0
    assert (tmp_path / "a.txt").read_text().endswith("captives.\n")


def test_unknown_witness_lists_the_known_ones():
    result = run("witness", MINI, "--wit", "Z")
    assert result.exit_code == 1
    assert "the witnesses are: A, B, C" in one_error_line(result)


def test_undeclared_witnesses_named_in_wit_can_be_printed(shared_dir):
    avicenna = shared_dir / "corpora" / "tei-apparatus" / "evt_avicenna.xml"
    result = run("witness", avicenna, "--wit", "V2")
    assert result.exit_code == 0 and result.stdout.strip()


def test_collatex_json_input(tmp_path):
    source = tmp_path / "w.json"
    source.write_text(
        json.dumps({"witnesses": [{"id": "A", "content": "the black cat"}, {"id": "B", "content": "the white cat"}]})
    )
    assert run("witness", source, "--wit", "B").stdout == "the white cat"


def test_missing_edition(tmp_path):
    result = run("witness", tmp_path / "none.xml", "--wit", "A")
    assert result.exit_code == 3
    assert "none.xml" in one_error_line(result)


GROUPED = (
    '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>'
    '<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit><witness xml:id="A" n="Alpha"/>'
    '<listWit xml:id="D"><witness xml:id="D1"/><witness xml:id="D2"/></listWit></listWit></sourceDesc></fileDesc>'
    '</teiHeader><text><body><ab>x <app><lem>y</lem><rdg wit="#D">z</rdg><rdg wit="#A*">w</rdg>'
    '<witDetail type="lac" wit="#D2"/></app> v</ab></body></text></TEI>'
)


def test_list_gives_each_witness_its_group_hands_and_lacunae(tmp_path):
    path = tmp_path / "g.xml"
    path.write_text(GROUPED, "utf-8")
    result = run("witness", path, "--list")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "A\tsiglum Alpha\tdeclared\thands A*",
        "D1\tsiglum D1\tdeclared\tgroups D",
        "D2\tsiglum D2\tdeclared\tgroups D\tlacunose in 1 unit(s): line 1",
        "A*\tsiglum A*\thand of A",
    ]


def test_a_lacunose_witness_gets_the_marker_and_one_warning_with_the_count(tmp_path):
    path = tmp_path / "g.xml"
    path.write_text(GROUPED, "utf-8")
    result = run("witness", path, "--wit", "D2", "--lacuna-marker", "<gap>")
    assert (result.exit_code, result.stdout) == (0, "x <gap> v")
    a006, a010 = result.stderr.strip().splitlines()
    assert "[A006] 'A*'" in a006 and "[A010] witness 'D2' is lacunose in 1 unit(s)" in a010
    assert run("witness", path, "--wit", "D1").stdout == "x z v"
    assert run("witness", path, "--wit", "Alpha").stdout == "x w v"  # a siglum names its witness; A* is A's


def test_wit_and_list_are_one_or_the_other(tmp_path):
    assert run("witness", MINI).exit_code == 2
    assert run("witness", MINI, "--wit", "A", "--list").exit_code == 2
    assert run("witness", MINI, "--wit", "A", "--all", "-o", tmp_path).exit_code == 2


def test_all_writes_every_witness_into_the_folder_as_wit_prints_it(tmp_path):
    result = run("witness", MINI, "--all", "-o", tmp_path / "texts")
    assert result.exit_code == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "texts").iterdir() if not p.name.startswith("."))
    assert written == ["A.txt", "B.txt", "C.txt"]
    for witness in "ABC":
        assert (tmp_path / "texts" / f"{witness}.txt").read_text("utf-8") == run(
            "witness", MINI, "--wit", witness
        ).stdout


def test_all_needs_a_folder():
    result = run("witness", MINI, "--all")
    assert result.exit_code == 2 and "[A009]" in one_error_line(result) and "-o" in result.stderr


def test_a_group_is_not_a_witness(tmp_path):
    path = tmp_path / "g.xml"
    path.write_text(GROUPED, "utf-8")
    result = run("witness", path, "--wit", "D")
    assert result.exit_code == 1
    assert "'D' is a group of witnesses" in one_error_line(result) and "D1, D2" in result.stderr


def test_all_gives_every_witness_its_own_file_and_lists_them(tmp_path):
    """Failure 4: sigla `x/y` and `x_y` both became x_y.txt (exit 0, one text lost); a siglum over 255 bytes
    was an OSError traceback."""
    long = "L" * 300
    source = tmp_path / "w.xml"
    source.write_text(
        GROUPED.replace(
            '<rdg wit="#A*">w</rdg>',
            f'<rdg wit="#x/y">one</rdg><rdg wit="#x_y">two</rdg><rdg wit="#{long}">three</rdg>',
        ),  # fmt: skip
        "utf-8",
    )
    out = tmp_path / "texts"
    result = run("witness", source, "--all", "-o", out)
    assert result.exit_code == 0, result.stderr
    listed = dict(line.split("\t") for line in result.stdout.splitlines())
    assert {"x/y", "x_y", long} <= set(listed)
    texts = {siglum: Path(path).read_text("utf-8") for siglum, path in listed.items()}
    assert (texts["x/y"], texts["x_y"], texts[long]) == ("x one v", "x two v", "x three v")
    assert len(list(out.glob("*.txt"))) == len(listed)


def test_a_transcription_is_read_as_its_one_witness(tmp_path):
    """Failure 7: `tei witness` on the toolkit's own transcription wrote nothing (--all, exit 0) or said
    "the witnesses are: none" (A002)."""
    from paths import SEEDS

    out = tmp_path / "b"
    assert run("build", SEEDS, "-o", out, "--stages", "transcriptions").exit_code == 0
    transcription = out / "transcriptions" / "A.xml"
    source = (SEEDS / "000_091639bda12aac5a.txt").read_text("utf-8")
    assert run("witness", transcription, "--wit", "A").stdout == source
    result = run("witness", transcription, "--all", "-o", tmp_path / "texts")
    assert result.exit_code == 0 and (tmp_path / "texts" / "A.txt").read_text("utf-8") == source
    assert run("witness", transcription, "--list").stdout.startswith("A\t")
    wrong = run("witness", transcription, "--wit", "B")
    assert wrong.exit_code == 1 and "[A002]" in wrong.stderr and "'A'" in wrong.stderr
