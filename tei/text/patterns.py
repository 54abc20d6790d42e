"""Regular expressions compiled when first used, not when their module is imported.

The hadith patterns (every spelling of every eulogy, English chain openings) take about 0.3 s of CPU to
compile with `regex`. Compiled at import they cost that to every command that merely imports the module,
among them an unchanged `tei build`, which skips every stage. `LazyPattern` keeps the source and flags (or
a function that makes the pattern) and compiles on the first use of any method (`match`, `finditer`, ...),
once per process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

import regex


class LazyPattern:
    """A `regex` pattern compiled on first use."""

    def __init__(self, pattern: str, flags: int = 0):
        self._make: Callable[[], regex.Pattern] = lambda: regex.compile(pattern, flags)

    @classmethod
    def made_by(cls, make: Callable[[], regex.Pattern]) -> LazyPattern:
        """A pattern that `make()` compiles, on first use."""
        lazy = cls.__new__(cls)
        lazy._make = make
        return lazy

    @cached_property
    def compiled(self) -> regex.Pattern:
        return self._make()

    def __getattr__(self, name: str):
        return getattr(self.compiled, name)
