"""Validation rules of hadith editions, registered with the validator as plugins (entry-point group
`tei.validate.rules` in pyproject.toml), so that the validator never imports tei.hadith.

QUR001/QUR002: a Qur'an citation (`<ref type="quran" cRef="…">`) has a canonical cRef whose surah and
verses exist. Each rule takes a document's root element and its name and yields diagnostics.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from tei.diagnostics import Diagnostic, error
from tei.xmlio import tei


def quran_references(root: etree._Element, name: str) -> Iterator[Diagnostic]:
    """QUR001/QUR002: each Qur'an citation's cRef is well formed and names verses that exist."""
    citations = [r for r in root.iter(tei("ref")) if r.get("type") == "quran" and r.get("cRef") is not None]
    if not citations:
        return
    from tei.hadith.quran import parse_canonical, problems  # with its text normalisation, only when cited

    for ref in citations:
        ranges = parse_canonical(ref.get("cRef"))
        if ranges is None:
            yield error(
                "QUR002",
                f"cRef {ref.get('cRef')!r} is not a Qur'an reference",
                name,
                ref.sourceline,
                hint="write surah:verse or surah:first-last, several joined with ';' (8:9, 8:67-68)",
            )
            continue
        for problem in problems(ranges):
            yield error("QUR001", f"Qur'an reference {ref.get('cRef')!r}: {problem}", name, ref.sourceline)
