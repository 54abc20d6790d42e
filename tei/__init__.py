"""tei: a TEI-XML critical-edition toolkit (package root; owns the version number)."""

__version__ = "0.1.0"
