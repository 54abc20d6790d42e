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
