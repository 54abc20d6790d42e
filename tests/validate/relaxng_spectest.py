"""James Clark's RELAX NG test suite (../shared/corpora/peer-suites/relaxng-spectest/spectest.xml) as files.

Each testCase holds a schema (`correct` or `incorrect`), the files it refers to (`resource`, inside `dir`s),
and instances (`valid`, `invalid`). `extract` writes one case to a folder: the schema as `c.rng` (or `i.rng`),
each resource at its path, each instance as `valid-N.xml` / `invalid-N.xml`; a case is numbered by its order
in the suite from 1, as jing's test runner numbers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

SUITE = Path("peer-suites") / "relaxng-spectest" / "spectest.xml"


@dataclass(frozen=True)
class Case:
    number: int
    section: str
    correct: bool
    schema: etree._Element
    resources: tuple[tuple[str, etree._Element], ...]  # path (with its dirs) and content
    valid: tuple[etree._Element, ...]
    invalid: tuple[etree._Element, ...]


def cases(corpora: Path) -> list[Case]:
    """Every testCase of the suite, in order (its internal entity expanded, as jing's runner reads it)."""
    root = etree.parse(str(corpora / SUITE), etree.XMLParser(resolve_entities=True, no_network=True)).getroot()
    found = []
    for number, case in enumerate(root.iter("testCase"), 1):
        section = next((s.text for s in case.iter("section")), "")
        schema = case.find("correct")
        correct = schema is not None
        if schema is None:
            schema = case.find("incorrect")
        found.append(
            Case(
                number,
                section,
                correct,
                _content(schema),
                tuple(_resources(case, "")),
                tuple(_content(v) for v in case.findall("valid")),
                tuple(_content(i) for i in case.findall("invalid")),
            )
        )
    return found


def _content(holder: etree._Element) -> etree._Element:
    (element,) = [c for c in holder if isinstance(c.tag, str)]
    return element


def _resources(node: etree._Element, folder: str):
    for child in node:
        if child.tag == "resource":
            yield folder + child.get("name"), _content(child)
        elif child.tag == "dir":
            yield from _resources(child, folder + child.get("name") + "/")


@dataclass(frozen=True)
class Written:
    schema: Path
    valid: tuple[Path, ...]
    invalid: tuple[Path, ...]


def extract(case: Case, folder: Path) -> Written:
    """The case's files in `folder` (made if need be)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in case.resources:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        _write(content, folder / name)
    schema = folder / ("c.rng" if case.correct else "i.rng")
    _write(case.schema, schema)
    valid = tuple(_write(v, folder / f"valid-{n}.xml") for n, v in enumerate(case.valid, 1))
    invalid = tuple(_write(i, folder / f"invalid-{n}.xml") for n, i in enumerate(case.invalid, 1))
    return Written(schema, valid, invalid)


def _write(element: etree._Element, path: Path) -> Path:
    path.write_bytes(etree.tostring(element, encoding="UTF-8", xml_declaration=True, with_tail=False))
    return path
