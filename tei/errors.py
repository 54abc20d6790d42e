"""The one exception root of the toolkit and the exit-code table; nothing else defines exit codes."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tei.diagnostics import Diagnostic


class ExitCode(IntEnum):
    """Exit codes of every `tei` command. A command never exits with a count of errors."""

    OK = 0  # success
    INVALID = 1  # invalid input or document, refused output
    USAGE = 2  # wrong command-line usage
    MISSING = 3  # a file, schema or stylesheet that was asked for does not exist
    EXTERNAL = 4  # an external tool is missing or failed


EXIT_CODE_TABLE = (
    (ExitCode.OK, "success"),
    (
        ExitCode.INVALID,
        "invalid input or document; an output was refused (for example a hand-edited file without --force)",
    ),
    (ExitCode.USAGE, "usage error: unknown option, wrong kind of path, conflicting options"),
    (ExitCode.MISSING, "a file, schema or stylesheet that was asked for does not exist"),
    (ExitCode.EXTERNAL, "an external tool (jing, latexmk, ...) is missing or failed"),
)


class TeiError(Exception):
    """Root of every error the toolkit raises on purpose. It carries diagnostics and an exit code."""

    exit_code = ExitCode.INVALID

    def __init__(self, *diagnostics: Diagnostic):
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(d.message for d in diagnostics))

    def __reduce__(self):
        """Pickled with its diagnostics (not its message), so that one raised in a worker process (the stages
        of `tei build`, tei.parallel) is the same error in the parent."""
        return type(self), tuple(self.diagnostics)


class InvalidInputError(TeiError, ValueError):
    """An input (text, XML, manifest) is not what the command can accept."""


class OutputRefusedError(TeiError, PermissionError):
    """An output cannot or may not be written (hand-edited file, unwritable folder)."""


class UsageError(TeiError, ValueError):
    """The command was called wrongly (for example an output path of the wrong kind)."""

    exit_code = ExitCode.USAGE


class MissingResourceError(TeiError, FileNotFoundError):
    """A file, schema or stylesheet that was asked for does not exist."""

    exit_code = ExitCode.MISSING


class ExternalToolError(TeiError, RuntimeError):
    """An external program is missing or failed."""

    exit_code = ExitCode.EXTERNAL
