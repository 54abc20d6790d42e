"""Writing outputs safely: all-or-nothing atomic writes, and no hand-edited file overwritten without --force.

Every folder the toolkit writes into gets a ledger, `.tei-written.json`, holding the SHA-256 of each
file as the toolkit wrote it. A file that exists and does not match its ledger entry (or has none) has
been made or edited by a person: it is replaced only with `force`, and then kept as a timestamped backup.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from tei.diagnostics import error
from tei.errors import OutputRefusedError, UsageError

LEDGER_NAME = ".tei-written.json"
_UMASK = os.umask(0)
os.umask(_UMASK)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ledger_path(folder: Path) -> Path:
    return folder / LEDGER_NAME


def _read_ledger(folder: Path) -> dict[str, str]:
    try:
        return json.loads(_ledger_path(folder).read_text("utf-8"))
    except (FileNotFoundError, ValueError):
        return {}


def was_edited(path: Path) -> bool:
    """True if the file exists and is not exactly what the toolkit last wrote there."""
    if not path.exists():
        return False
    recorded = _read_ledger(path.parent).get(path.name)
    return recorded is None or recorded != sha256(path.read_bytes())


def prepare_folder(folder: Path) -> None:
    """Make an output folder, or say clearly why it cannot be one."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(error("O001", "the output path is a file, but a folder is needed here", folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(error("O001", "a parent of the output folder is a file", folder)) from None
    except OSError as exc:
        raise OutputRefusedError(error("O002", f"the output folder cannot be made: {exc.strerror}", folder)) from None


def _check_writable(target: Path, force: bool) -> None:
    if target.is_dir():
        raise UsageError(error("O003", "the output path is a folder, but a file is needed here", target))
    if not force and was_edited(target):
        raise OutputRefusedError(
            error(
                "O004",
                "this file was edited or made by hand since the toolkit wrote it; it was left untouched",
                target,
                hint="use --force to replace it (the old file is kept as a backup)",
            )
        )


@contextmanager
def _locked_ledger(folder: Path):
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def write_files(files: dict[Path, bytes], force: bool = False) -> list[Path]:
    """Write every file or none: check all targets, stage temporary files, then rename them into place."""
    if "-" in {str(p) for p in files}:
        (data,) = files.values()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return []
    targets = {Path(p).absolute(): data for p, data in files.items()}
    for target in targets:
        prepare_folder(target.parent)
        _check_writable(target, force)
    staged: list[tuple[Path, Path]] = []
    try:
        for target, data in targets.items():
            staged.append((_stage(target, data), target))
    except OSError as exc:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise OutputRefusedError(
            error("O005", f"the output cannot be written: {exc.strerror}", exc.filename or target)
        ) from None
    for temporary, target in staged:
        if target.exists() and was_edited(target):
            target.replace(target.with_name(f"{target.name}.{time.strftime('%Y%m%dT%H%M%S')}.bak"))
        temporary.replace(target)
    _record(targets)
    return list(targets)


def _stage(target: Path, data: bytes) -> Path:
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(handle, 0o666 & ~_UMASK)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _record(targets: dict[Path, bytes]) -> None:
    by_folder: dict[Path, dict[str, str]] = {}
    for target, data in targets.items():
        by_folder.setdefault(target.parent, {})[target.name] = sha256(data)
    for folder, entries in by_folder.items():
        with _locked_ledger(folder):
            ledger = _read_ledger(folder)
            ledger.update(entries)
            temporary = _stage(_ledger_path(folder), json.dumps(ledger, indent=1, sort_keys=True).encode())
            temporary.replace(_ledger_path(folder))
