"""Diagnostics: one record for every problem the toolkit reports, and its text and JSON renderings."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    """A problem at a place: `file:line:col: severity: [CODE] message (hint: ...)`."""

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    severity: Severity = Severity.ERROR
    hint: str | None = None

    def location(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def to_text(self) -> str:
        text = f"{self.location()}: {self.severity.value}: [{self.code}] {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def to_dict(self) -> dict:
        record = asdict(self)
        record["severity"] = self.severity.value
        return record


def error(code: str, message: str, file=None, line=None, column=None, hint=None) -> Diagnostic:
    return Diagnostic(code, message, None if file is None else str(file), line, column, Severity.ERROR, hint)


def warning(code: str, message: str, file=None, line=None, column=None, hint=None) -> Diagnostic:
    return Diagnostic(code, message, None if file is None else str(file), line, column, Severity.WARNING, hint)


def info(code: str, message: str, file=None, line=None, column=None, hint=None) -> Diagnostic:
    return Diagnostic(code, message, None if file is None else str(file), line, column, Severity.INFO, hint)


def render_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "".join(d.to_text() + "\n" for d in diagnostics)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diagnostics], ensure_ascii=False, indent=2) + "\n"


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in a text."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column
