"""Corpus mode of `tei build`: many works, each built on its own, in parallel, resumable and shardable.

A corpus is a folder holding works: every `edition.toml` below it is one work, built into the same relative
folder under the output. A work none of whose stages has changed inputs since its last build is skipped:
the stage stamps are tei.app.build's, the same as for a single edition. `--shard I/N` picks the works whose path hashes to I among N, so that a scheduler (GNU
parallel, Slurm, a cluster) can spread one corpus over machines without any coordination.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from tei.app.build import BuildOptions, build, render_settings
from tei.diagnostics import Diagnostic, error
from tei.errors import MissingResourceError, TeiError, UsageError
from tei.outputs import sweep_temporaries, write_files
from tei.parallel import pool_results
from tei.readers.manifest import MANIFEST_NAME, read_manifest, read_render_settings


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            index, count = (int(part) for part in text.split("/"))
        except ValueError:
            index = count = 0
        if not 1 <= index <= count:
            raise UsageError(error("B001", f"--shard takes I/N with 1 <= I <= N, not '{text}'", "--shard"))
        return cls(index, count)

    def holds(self, name: str) -> bool:
        digest = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big")
        return digest % self.count == self.index - 1


@dataclass
class WorkResult:
    """What happened to one work: written files, skipped as unchanged, or failed with diagnostics."""

    name: str
    written: list[Path] = field(default_factory=list)
    skipped: bool = False
    backups: list[tuple[Path, Path]] = field(default_factory=list)  # with --force: (edited file, its backup)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.diagnostics)


def is_corpus(path: Path) -> bool:
    """A folder without an edition.toml of its own, holding works below it."""
    return path.is_dir() and not (path / MANIFEST_NAME).exists()


def works(corpus: Path, shard: Shard | None = None) -> list[Path]:
    """The manifests of the corpus, sorted, restricted to one shard if asked."""
    found = sorted(corpus.rglob(MANIFEST_NAME))
    if not found:
        raise MissingResourceError(
            error(
                "M001",
                f"no {MANIFEST_NAME} in this folder or below",
                corpus,
                hint="name a manifest, a folder holding one, or a corpus folder of works",
            )
        )
    if shard is not None:
        found = [m for m in found if shard.holds(m.parent.relative_to(corpus).as_posix())]
    return found


def build_work(manifest: Path, options: BuildOptions) -> WorkResult:
    """Build one work unless its stamp says nothing changed; never raise (a worker reports instead)."""
    result = WorkResult(str(manifest.parent))
    try:
        sweep_temporaries(options.output)
        work = read_manifest(manifest)
        settings = render_settings(read_render_settings(manifest), manifest)
        result.skipped = not build(
            work,
            replace(options, render=settings),
            lambda _stage, path: result.written.append(path),
            on_backup=lambda target, backup: result.backups.append((target, backup)),
            on_kept=lambda target, backup: result.backups.append((target, backup)),
        )
    except TeiError as exc:
        result.diagnostics = exc.diagnostics
    except OSError as exc:
        result.diagnostics = [error("B002", f"build failed: {exc.strerror or exc}", exc.filename or manifest)]
    return result


def build_corpus(corpus: Path, options: BuildOptions, jobs: int, shard: Shard | None) -> Iterator[WorkResult]:
    """Build every work of the corpus (in `jobs` processes), yielding each result as it finishes."""
    manifests = works(corpus, shard)
    tasks = [(m, replace(options, output=options.output / m.parent.relative_to(corpus))) for m in manifests]
    if jobs <= 1:
        for manifest, work_options in tasks:
            yield build_work(manifest, work_options)
    else:
        # On an interrupt: the works under way finish (their outputs stay whole), the others never start.
        yield from pool_results(jobs, build_work, tasks)
    if options.stages is None or "dts" in options.stages:
        write_collection_tree(corpus, options)


def write_collection_tree(corpus: Path, options: BuildOptions) -> None:
    """The corpus's DTS collection tree in <output>/dts/ (tei.render.dts.corpus_files), over every work built
    so far (by any shard); a file already as it would be written is left alone."""
    from tei.render.dts import corpus_files

    outputs = [options.output / m.parent.relative_to(corpus) for m in works(corpus)]
    files = corpus_files(options.output, outputs)
    changed = {p: d for p, d in files.items() if not p.is_file() or p.read_bytes() != d}
    if changed:
        write_files(changed, force=options.force)


def summary(results: list[WorkResult]) -> str:
    built = sum(1 for r in results if not r.failed and not r.skipped)
    skipped = sum(1 for r in results if r.skipped)
    failed = sum(1 for r in results if r.failed)
    return f"{len(results)} works: {built} built, {skipped} unchanged, {failed} failed"
