"""Atomic all-or-nothing writes, and the ledger that protects hand-edited files."""

import os

import pytest

from tei.errors import OutputRefusedError, UsageError
from tei.outputs import LEDGER_NAME, was_edited, write_files


def test_writes_and_records(tmp_path):
    target = tmp_path / "out" / "a.xml"
    write_files({target: b"one"})
    assert target.read_bytes() == b"one"
    assert (target.parent / LEDGER_NAME).exists()
    assert not was_edited(target)


def test_rewrites_an_unchanged_output(tmp_path):
    target = tmp_path / "a.xml"
    write_files({target: b"one"})
    write_files({target: b"two"})
    assert target.read_bytes() == b"two"
    assert not list(tmp_path.glob("*.bak"))


def test_refuses_a_hand_edited_output_and_writes_nothing(tmp_path):
    edited, fresh = tmp_path / "a.xml", tmp_path / "b.xml"
    write_files({edited: b"one"})
    edited.write_bytes(b"edited by a scholar")
    with pytest.raises(OutputRefusedError) as excinfo:
        write_files({fresh: b"new", edited: b"two"})
    (diagnostic,) = excinfo.value.diagnostics
    assert diagnostic.code == "O004" and "--force" in diagnostic.hint
    assert edited.read_bytes() == b"edited by a scholar"
    assert not fresh.exists()


def test_refuses_a_file_the_toolkit_did_not_write(tmp_path):
    target = tmp_path / "a.xml"
    target.write_bytes(b"made by hand")
    with pytest.raises(OutputRefusedError):
        write_files({target: b"generated"})


def test_force_replaces_and_keeps_a_backup(tmp_path):
    target = tmp_path / "a.xml"
    write_files({target: b"one"})
    target.write_bytes(b"edited")
    write_files({target: b"two"}, force=True)
    assert target.read_bytes() == b"two"
    (backup,) = tmp_path.glob("a.xml.*.bak")
    assert backup.read_bytes() == b"edited"


def test_output_folder_that_is_a_file_is_a_usage_error(tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("a file")
    with pytest.raises(UsageError):
        write_files({blocker / "a.xml": b"x"})


def test_unwritable_folder(readonly_dir):
    with pytest.raises(OutputRefusedError) as excinfo:
        write_files({readonly_dir / "a.xml": b"x"})
    assert excinfo.value.diagnostics[0].code == "O005"
    assert excinfo.value.diagnostics[0].file == str(readonly_dir / "a.xml")  # not its temporary file (issue 38)
    assert list(readonly_dir.iterdir()) == []


def test_no_temporary_files_are_left(tmp_path):
    write_files({tmp_path / "a.xml": b"x", tmp_path / "b.xml": b"y"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_NAME, "a.xml", "b.xml"]


def test_new_files_follow_the_umask(tmp_path):
    target = tmp_path / "a.xml"
    write_files({target: b"x"})
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_no_output_replaces_an_input(tmp_path):
    """Failure 3: an input named as the output (or reached through a link) is refused, nothing written."""
    source = tmp_path / "edition.xml"
    source.write_bytes(b"the scholar's edition")
    link = tmp_path / "link.xml"
    os.link(source, link)
    for target in (source, link, tmp_path / "." / "edition.xml"):
        with pytest.raises(UsageError) as excinfo:
            write_files({target: b"%PDF"}, inputs=[source])
        assert excinfo.value.diagnostics[0].code == "O007"
    assert source.read_bytes() == b"the scholar's edition"


def test_render_and_convert_refuse_to_write_over_their_input(tmp_path):
    """Failure 3: `tei render --to pdf b/edition.xml -o b/edition.xml` replaced the edition with a PDF;
    `convert -o` its own input did the same (the file is in the ledger, so the hand-edit guard let it)."""
    from cli_runner import run
    from paths import SEEDS

    out = tmp_path / "b"
    assert run("build", SEEDS, "-o", out, "--stages", "transcriptions,edition,schema").exit_code == 0
    edition = out / "edition.xml"
    before = edition.read_bytes()
    for args in (
        ("render", "--to", "pdf", edition, "-o", edition),
        ("render", "--to", "typst", edition, "-o", edition),
        ("convert", edition, "--method", "double-end-point", "-o", edition),
        ("witness", edition, "--wit", "A", "-o", edition),
        ("stats", edition, "-o", out),
    ):
        result = run(*args)
        if args[0] == "stats":
            assert result.exit_code == 0, result.stderr  # a folder beside the edition replaces nothing
            continue
        assert result.exit_code == 2 and "[O007]" in result.stderr, (args, result.stderr)
        assert edition.read_bytes() == before


def test_file_names_from_sigla_are_unique_safe_and_stable():
    """Failure 4: `x/y` and `x_y` were both x_y.txt (one witness lost); a siglum over 255 bytes an OSError."""
    from tei.outputs import NAME_BYTES, file_names, sha256

    sigla = ["A", "x/y", "x_y", "a", "..", "", "ب" * 200, "B\x01", "Ms.1", "x_y-" + sha256(b"x/y")[:8]]
    names = file_names(sigla, ".txt")
    assert names["A"] == "A.txt" and names["a"] == "a.txt" and names["x_y"] == "x_y.txt" and names["Ms.1"] == "Ms.1.txt"
    assert len(set(names.values())) == len(sigla)
    for name in names.values():
        assert "/" not in name and not name.startswith(".") and len(name.encode()) <= NAME_BYTES
        assert all(ch >= " " for ch in name)
    assert file_names(sigla, ".txt") == names
