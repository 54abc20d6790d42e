"""Writing outputs safely: all-or-nothing atomic writes, and no hand-edited file overwritten without --force.

Every folder the toolkit writes into gets a ledger, `.tei-written.json`, holding the SHA-256 of each
file as the toolkit wrote it. A file that exists and does not match its ledger entry (or has none) has
been made or edited by a person: it is replaced only with `force`, and then kept as a timestamped backup.

No output may be one of the command's inputs (O007), a file a scholar may have edited is kept as a backup
the message names before it is replaced, and file names made from sigla are unique and safe (file_names).

Files are staged and renamed into place, so a killed or crashed run never leaves half a file where an
output belongs. They are not fsync'ed: a corpus build writes tens of thousands of files, and a sync each
cost a quarter of its time (benchmarks/corpus_build.py). After a power cut the newest outputs may be
missing or empty; rebuilding restores them.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Collection
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


def _accepted(recorded: str | list[str] | None) -> list[str]:
    """The hashes a ledger entry accepts: one, or (while a write is under way) the old and the new."""
    if recorded is None:
        return []
    return [recorded] if isinstance(recorded, str) else list(recorded)


def was_edited(path: Path) -> bool:
    """True if the file exists and is not exactly what the toolkit last wrote there."""
    if not path.exists():
        return False
    return sha256(path.read_bytes()) not in _accepted(_read_ledger(path.parent).get(path.name))


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


def edited_outputs(folder: Path) -> list[Path]:
    """Every file below `folder` that the toolkit wrote (it is in a ledger) and that was edited since, sorted."""
    found = []
    for ledger in sorted(folder.rglob(LEDGER_NAME)) if folder.is_dir() else []:
        for name in sorted(_read_ledger(ledger.parent)):
            if was_edited(ledger.parent / name):
                found.append(ledger.parent / name)
    return found


def refuse_edited(paths: list[Path], hint: str = "use --force to replace them (each old file is kept as a backup)"):
    """One O004 diagnostic per hand-edited file, all raised at once, so a person sees every one of them."""
    raise OutputRefusedError(
        *(
            error(
                "O004",
                "this file was edited or made by hand since the toolkit wrote it; it was left untouched",
                path,
                hint=hint if number == len(paths) - 1 else None,
            )
            for number, path in enumerate(paths)
        )
    )


def _check_writable(target: Path, force: bool) -> None:
    if target.is_dir():
        raise UsageError(error("O003", "the output path is a folder, but a file is needed here", target))
    if not force and was_edited(target):
        refuse_edited([target], "use --force to replace it (the old file is kept as a backup)")


@contextmanager
def _locked_ledger(folder: Path):
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def backup_path(target: Path) -> Path:
    """Where the old `target` is kept when it is replaced: `NAME.<time>.bak`, or `NAME.<time>.<n>.bak` when a
    backup of that second is there already (two replacements in one second keep both old files)."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    backup, number = target.with_name(f"{target.name}.{stamp}.bak"), 1
    while backup.exists():
        backup, number = target.with_name(f"{target.name}.{stamp}.{number}.bak"), number + 1
    return backup


NAME_BYTES = 240  # a file name's length at most, in UTF-8 bytes, its suffix included (file systems allow 255)


def file_names(names: list[str], suffix: str) -> dict[str, str]:
    """A file name for each name (a siglum, an id): unique, and safe on any file system.

    A name that is one already is kept (`A` -> `A.txt`; `N` and `n` stay two files, as sigla are told apart
    by case). One that is not (a `/`, a control character, a leading `.`, nothing at all, more than
    NAME_BYTES, or the name another one was given) has those characters made `_`, is cut to length, and gets
    `-` and the first hex digits of its SHA-256, as many as make it unique: no two witnesses ever share a
    file, and the same names always give the same files.
    """
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        safe = "".join("_" if ch in "/\\" or unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in name)
        safe = "_" + safe[1:] if safe.startswith(".") else safe
        whole = f"{safe}{suffix}"
        if safe == name and name and len(whole.encode("utf-8")) <= NAME_BYTES and whole not in taken:
            chosen[name] = whole
        else:
            digest = sha256(name.encode("utf-8", "surrogatepass"))
            room = NAME_BYTES - len(suffix.encode("utf-8")) - 1 - len(digest)
            stem = safe.encode("utf-8")[:room].decode("utf-8", "ignore") or "_"
            width = 8
            whole = f"{stem}-{digest[:width]}{suffix}"
            while whole in taken and width < len(digest):
                width += 8
                whole = f"{stem}-{digest[:width]}{suffix}"
            chosen[name] = whole
        taken.add(chosen[name])
    return chosen


def refuse_overwriting_inputs(targets: Collection[Path | str], inputs: Collection[Path | str]) -> None:
    """O007: no output may be one of the command's inputs (the same path, or the same file by another name:
    a link), which the write would destroy; checked before anything is written."""
    read = {}
    for given in inputs:
        if str(given) == "-":
            continue
        with contextlib.suppress(OSError):
            status = os.stat(given)
            read[(status.st_dev, status.st_ino)] = given
        read.setdefault(os.path.abspath(given), given)
    for target in targets:
        if str(target) == "-":
            continue
        same = read.get(os.path.abspath(target))
        if same is None:
            with contextlib.suppress(OSError):
                status = os.stat(target)
                same = read.get((status.st_dev, status.st_ino))
        if same is not None:
            raise UsageError(
                error(
                    "O007",
                    f"the output would replace the input {same}; nothing was written",
                    target,
                    hint="name another output (-o)",
                )
            )


def write_files(
    files: dict[Path, bytes],
    force: bool = False,
    on_backup: Callable[[Path, Path], None] | None = None,
    forced: Collection[Path] = (),
    inputs: Collection[Path | str] = (),
    backups: dict[Path, Path] | None = None,
    on_kept: Callable[[Path, Path], None] | None = None,
) -> list[Path]:
    """Write every file or none: check all targets, stage temporary files, then rename them into place.

    No target may be one of `inputs` (O007). With `force`, a hand-edited file is kept as `NAME.<time>.bak`
    and `on_backup(file, backup)` hears of it; the files in `forced` are written so whatever `force` says
    (tei build's stamp, written with its stage's files). A target in `backups` (target -> backup path, from
    `backup_path`) that exists is kept there before it is replaced, edited by hand or not: the files a
    scholar may have edited (an edition.xml whose decisions a carry rewrites, a transcription `tei sync`
    rewrites), whose backup a message may already have named; `on_kept(file, backup)` hears of each.
    """
    refuse_overwriting_inputs(list(files), inputs)
    if "-" in {str(p) for p in files}:
        (data,) = files.values()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return []
    targets = {Path(p).absolute(): data for p, data in files.items()}
    always = {Path(p).absolute() for p in forced}
    kept = {Path(p).absolute(): Path(b) for p, b in (backups or {}).items()}
    by_folder: dict[Path, list[str]] = {}
    for target in targets:
        by_folder.setdefault(target.parent, []).append(target.name)
    for folder, names in by_folder.items():
        prepare_folder(folder)
        _remove_stale_temporaries(folder, names)
    for target in targets:
        _check_writable(target, force or target in always)
    staged: list[tuple[Path, Path]] = []
    try:
        for target, data in targets.items():
            staged.append((_stage(target, data), target))
        # Two-phase: the ledger first accepts old and new contents, so a run killed between the renames
        # below leaves only files the next run recognises as its own; then it keeps the new ones alone. A
        # target that does not exist yet has no old content to accept: its entry is final at once, and when
        # every target is new, the second phase would write the same ledger again and is left out.
        new = {target for target in targets if not target.exists()}
        _record(targets, keep_old=True, new=new)
    except OSError as exc:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise OutputRefusedError(
            error("O005", f"the output cannot be written: {exc.strerror}", _named(exc.filename, target))
        ) from None
    for temporary, target in staged:
        if target in kept and target.exists():
            _keep(target, kept[target])
            if on_kept is not None:
                on_kept(target, kept[target])
        elif target.exists() and was_edited(target):
            backup = backup_path(target)
            target.replace(backup)
            if on_backup is not None:
                on_backup(target, backup)
        temporary.replace(target)
    if len(new) < len(targets):
        with contextlib.suppress(OSError):  # every file is whole and the ledger accepts it: the next write records it
            _record(targets, keep_old=False)
    return list(targets)


def _named(filename: str | None, target: Path) -> Path:
    """The file a failed write is reported at: the output, never the temporary file staged for it (`.NAME.*.tmp`),
    nor the ledger's."""
    if filename is None:
        return target
    path = Path(filename)
    if path.name.startswith(".") and path.name.endswith(".tmp"):
        stem = path.name[1:].rsplit(".", 2)[0]
        return target if stem == LEDGER_NAME or not stem else path.with_name(stem)
    return path


def _keep(target: Path, backup: Path) -> None:
    """A copy of `target` at `backup`: a second name for the same file where the file system allows it (the
    rename that follows leaves the old file whole under it), else a copy of its bytes."""
    try:
        os.link(target, backup)
    except OSError:
        shutil.copy2(target, backup)


def sweep_temporaries(folder: Path) -> None:
    """Remove every temporary file a killed run left in an output folder and below it."""
    if folder.is_dir():
        for stale in folder.rglob(".*.tmp"):
            stale.unlink(missing_ok=True)


def _remove_stale_temporaries(folder: Path, names: list[str]) -> None:
    """Temporary files of these targets in `folder` left by a killed run (`.NAME.*.tmp`: a new run for a target
    replaces them), found in one reading of the folder."""
    prefixes = tuple(f".{name}." for name in names)
    with os.scandir(folder) as entries:
        stale = [
            entry.path
            for entry in entries
            if entry.name.endswith(".tmp")
            and any(entry.name.startswith(prefix) and len(entry.name) >= len(prefix) + 4 for prefix in prefixes)
        ]
    for path in stale:
        Path(path).unlink(missing_ok=True)


def _stage(target: Path, data: bytes) -> Path:
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(handle, 0o666 & ~_UMASK)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
    except OSError:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _record(targets: dict[Path, bytes], keep_old: bool, new: Collection[Path] = ()) -> None:
    """Record each target's new digest in its folder's ledger: with `keep_old`, beside the digests the entry
    accepted before, except for a target in `new` (none there yet: nothing else to accept)."""
    by_folder: dict[Path, dict[str, tuple[str, bool]]] = {}
    for target, data in targets.items():
        by_folder.setdefault(target.parent, {})[target.name] = (sha256(data), keep_old and target not in new)
    for folder, entries in by_folder.items():
        with _locked_ledger(folder):
            _remove_stale_temporaries(folder, [LEDGER_NAME])
            ledger = _read_ledger(folder)
            for name, (digest, keep) in entries.items():
                ledger[name] = _accepted(ledger.get(name)) + [digest] if keep else digest
            temporary = _stage(_ledger_path(folder), json.dumps(ledger, indent=1, sort_keys=True).encode())
            temporary.replace(_ledger_path(folder))
