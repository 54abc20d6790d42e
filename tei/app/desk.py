"""The editor's desk behind `tei serve`: what to build when a watched file changes, and the state the page shows.

A desk is a manifest (edition.toml, built into an output folder) or one edition file (its folder is the output).
It watches by polling: every file it depends on is stat'ed (size and modification time in nanoseconds) a few
times a second, and a change seen twice in a row, so that an editor's save is whole, starts one build. Which
stages run follows what changed, through tei.app.build (its stages, its stamps; no second build):

- the manifest or a witness text: every stage from the manifest on (the stamps skip what is unchanged). An
  edition.xml edited by hand is then refused by the edition stage (O004), which the page shows: re-collating
  would lose the edits (`tei build --carry-decisions` carries them);
- edition.xml: the stages from it only (validate, html, pdf with --pdf), run on the file as it stands;
- a transcription: the same, validate run whatever its stamp says (its stamp knows only edition.xml).

The build of the first look and every build after it is one of these; the first takes edition.xml as the stages'
input when the toolkit's ledger says it was edited by hand (tei.outputs.was_edited). A reading corrected in
edition.xml makes the witness's rebuilt text differ from its transcription (APP007): when that is all the
validator finds, the desk writes the transcriptions again from the edition, as `tei sync` does
(tei.app.sync.sync_files), and builds the rest without validating again (the validator found nothing
else), so that the page shows the correction. Any other error keeps
the last good build on disk and in the page; the diagnostics travel to the page in the state (`snapshot`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from tei.app.build import FROM_MANIFEST, STAGES, BuildOptions, build, render_settings
from tei.diagnostics import Diagnostic, Severity
from tei.errors import TeiError
from tei.outputs import was_edited, write_files

FROM_EDITION = tuple(name for name, _ in STAGES if name not in FROM_MANIFEST)
LIVE = ("validate", "html")  # what the page needs; pdf on request or with --pdf; dts and stats with `tei build`


@dataclass
class State:
    """What the page is told: the number of the last good build, and the problems of the last attempt."""

    good: int = 0  # bumped by every build that wrote the web edition (the page reloads when it grows)
    attempt: int = 0
    building: bool = False
    diagnostics: tuple[Diagnostic, ...] = ()  # errors (the build stopped) and warnings of the last attempt
    failed: bool = False
    pdf: str = ""  # "", "building", "ready" or "failed"

    def to_dict(self) -> dict:
        return {
            "good": self.good,
            "attempt": self.attempt,
            "building": self.building,
            "failed": self.failed,
            "pdf": self.pdf,
            "diagnostics": [d.to_text() for d in self.diagnostics],
        }


class Desk:
    """One edition being edited: its inputs, its output folder, the builds, and the state they leave."""

    def __init__(self, source: Path, output: Path, pdf: bool = False):
        from tei.readers.manifest import manifest_path

        self.pdf = pdf
        if source.is_file() and source.suffix == ".xml":
            self.manifest = None
            self.output = source.absolute().parent
            if source.name != "edition.xml":
                raise _not_an_edition_name(source)
        else:
            self.manifest = manifest_path(source)
            self.output = output.absolute()
        self.edition = self.output / "edition.xml"
        self.state = State()
        self.changed = threading.Condition()  # notified whenever the state changes
        self._seen: dict[Path, tuple[int, int] | None] = {}
        self._watched: list[Path] = []  # the files a build depends on, listed again by `remember`

    # ------------------------------------------------------------------------------------------- watching

    def watched(self) -> list[Path]:
        """Every file a build depends on: the manifest and its witness texts, edition.xml, the transcriptions."""
        found = [self.edition]
        if self.manifest is not None:
            found.append(self.manifest)
            found.extend(self._witness_files())
        folder = self.output / "transcriptions"
        if folder.is_dir():
            found.extend(sorted(folder.glob("*.xml")))
        return found

    def _witness_files(self) -> list[Path]:
        import tomllib

        try:
            data = tomllib.loads(self.manifest.read_text("utf-8"))
        except (OSError, ValueError):
            return []
        witnesses = data.get("witness", [])
        return [
            self.manifest.parent / w["file"]
            for w in witnesses
            if isinstance(w, dict) and isinstance(w.get("file"), str)
        ]

    def signatures(self) -> dict[Path, tuple[int, int] | None]:
        """Size and modification time of each watched file (None: absent); the manifest is always looked at, so
        that a witness it adds is seen once it changes."""
        found = {}
        listed = self._watched or self.watched()
        for path in dict.fromkeys([*listed, *([self.manifest] if self.manifest else [])]):
            try:
                stat = path.stat()
            except OSError:
                found[path] = None
            else:
                found[path] = (stat.st_size, stat.st_mtime_ns)
        return found

    def remember(self) -> None:
        """Take the files as they are now as seen (after a build, which may write some of them), listing them
        again (reading the manifest for its witness files): a poll only stats them."""
        self._watched = self.watched()
        self._seen = self.signatures()

    def changes(self) -> set[str]:
        """What changed since last seen: 'manifest', 'edition', 'transcription' (empty when nothing did)."""
        now = self.signatures()
        kinds = set()
        for path in now:
            if now.get(path) != self._seen.get(path):
                kinds.add(self._kind(path))
        return kinds

    def _kind(self, path: Path) -> str:
        if path == self.edition:
            return "edition"
        if path.parent == self.output / "transcriptions":
            return "transcription"
        return "manifest"

    # ------------------------------------------------------------------------------------------- building

    def first_build(self) -> None:
        by_hand = self.manifest is None or was_edited(self.edition)
        self.rebuild({"edition"} if by_hand else {"manifest"})

    def rebuild(self, kinds: set[str], with_pdf: bool = False) -> None:
        """Build what `kinds` of change call for; the state tells the page how it went."""
        self.update(building=True, attempt=self.state.attempt + 1)
        pdf = self.pdf or with_pdf
        wanted = set(LIVE) | ({"pdf"} if pdf else set())
        if "manifest" in kinds:
            wanted |= set(FROM_MANIFEST)
        rerun = ("validate",) if "transcription" in kinds else ()
        diagnostics: list[Diagnostic] = []
        wrote_html = []
        try:
            self._build(wanted, rerun, diagnostics, wrote_html)
        except TeiError as exc:
            if self._only_transcriptions_differ(exc.diagnostics):
                try:  # validated but for the transcriptions, which now follow it: validate is not run again
                    self._sync(diagnostics, _witnesses_named(exc.diagnostics))
                    self._build(wanted - {"validate"}, (), diagnostics, wrote_html)
                except TeiError as again:
                    self._failed(diagnostics + list(again.diagnostics), pdf)
                    return
            else:
                self._failed(diagnostics + list(exc.diagnostics), pdf)
                return
        except OSError as exc:
            from tei.diagnostics import error

            self._failed([error("B002", f"build failed: {exc.strerror or exc}", exc.filename or self.output)], pdf)
            return
        good = self.state.good + (1 if wrote_html or self.state.good == 0 else 0)
        self.update(building=False, failed=False, diagnostics=tuple(diagnostics), good=good, pdf="ready" if pdf else "")

    def _build(self, wanted: set[str], rerun: tuple[str, ...], diagnostics: list, wrote_html: list) -> None:
        from tei.readers.manifest import read_manifest, read_render_settings

        if self.manifest is not None:
            work = read_manifest(self.manifest)
            settings = render_settings(read_render_settings(self.manifest), self.manifest)
        else:
            work, settings = None, ()
        options = BuildOptions(
            self.output,
            stages=tuple(name for name, _ in STAGES if name in wanted),
            render=settings,
            edition_by_hand=True,
            rerun=rerun,
        )

        def on_written(stage: str, path: Path) -> None:
            if stage == "html":
                wrote_html.append(path)

        build(work, replace(options), on_written, on_diagnostic=diagnostics.append)

    @staticmethod
    def _only_transcriptions_differ(found) -> bool:
        errors = [d for d in found if d.severity is Severity.ERROR]
        return bool(errors) and all(d.code == "APP007" for d in errors)

    def _sync(self, diagnostics: list, only: tuple[str, ...] = ()) -> None:
        from tei.app.sync import sync_files

        files, notes = sync_files(self.edition, only)
        diagnostics.extend(notes)
        write_files(files)

    def _failed(self, diagnostics: list[Diagnostic], pdf: bool) -> None:
        self.update(building=False, failed=True, diagnostics=tuple(diagnostics), pdf="failed" if pdf else "")

    def update(self, **changes) -> None:
        """Change the state and tell every page listening (tei.app.serve's event streams)."""
        with self.changed:
            self.state = replace(self.state, **changes)
            self.changed.notify_all()

    def snapshot(self) -> dict:
        with self.changed:
            return self.state.to_dict()


def _witnesses_named(found) -> tuple[str, ...]:
    """The witnesses whose transcriptions APP007 says differ (its message names each first: "witness 'B' reads
    ..."), so that only those are rebuilt (0.3-0.4 s each on the seeds); () (every witness) if one is not named."""
    named = [re.match(r"witness '([^']+)' reads", d.message) for d in found if d.code == "APP007"]
    return tuple(dict.fromkeys(m.group(1) for m in named)) if named and all(named) else ()


def _not_an_edition_name(source: Path) -> TeiError:
    from tei.diagnostics import error
    from tei.errors import UsageError

    return UsageError(
        error(
            "SV002",
            "tei serve builds an edition file named edition.xml (its folder is the output)",
            source,
            hint="name the edition edition.xml, or serve its manifest",
        )
    )
