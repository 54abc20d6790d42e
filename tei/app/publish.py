"""Publishing conventions of a build: CITATION.cff from the manifest, and a README for the output folder.

CITATION.cff follows the Citation File Format 1.2.0 (`cffconvert --validate` accepts it; tests/app/
test_publish.py runs it): the edition is a `dataset`, titled as the manifest titles it, its editors the
authors (`[edition] editors`: "Family, Given" is split at the comma, a name without one is a family name),
with `version` and `doi` when the manifest gives them. A manifest naming no editor gets one author,
`anonymous` (the format requires an author), and a comment saying where to name them. The YAML is written
by hand: every value a JSON string, which YAML reads as the same string.
"""

from __future__ import annotations

import json
from pathlib import Path

from tei.model import Work

CFF_VERSION = "1.2.0"


def _quoted(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def person(name: str) -> dict[str, str]:
    """A CFF person from an editor's name: "Family, Given" or one family name."""
    family, comma, given = name.partition(",")
    found = {"family-names": family.strip()}
    if comma and given.strip():
        found["given-names"] = given.strip()
    return found


def citation_cff(work: Work) -> bytes:
    lines = [
        "# Written by tei build from edition.toml ([edition]: title, editors, version, doi); edit the manifest.",
        f"cff-version: {CFF_VERSION}",
        f"message: {_quoted('If you use this edition, please cite it as below.')}",
        "type: dataset",
        f"title: {_quoted(work.title)}",
        "authors:",
    ]
    if not work.editors:
        lines.insert(1, '# No editor is named in edition.toml: add [edition] editors = ["Family, Given"].')
        lines.append(f"  - name: {_quoted('anonymous')}")
    for name in work.editors:
        fields = list(person(name).items())
        lines.append(f"  - {fields[0][0]}: {_quoted(fields[0][1])}")
        lines.extend(f"    {key}: {_quoted(value)}" for key, value in fields[1:])
    if work.version:
        lines.append(f"version: {_quoted(work.version)}")
    if work.doi:
        lines.append(f"doi: {_quoted(work.doi)}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def output_readme(work: Work) -> bytes:
    cite = f"The Citation File Format file `CITATION.cff` says how to cite it{' (DOI ' + work.doi + ')' if work.doi else ''}."
    text = f"""# {work.title}

A critical edition built by `tei build` (the tei-edition toolkit) from `edition.toml`. {cite}
Everything here is written again by the next build: correct the manifest, the witness texts or
`edition.xml` (then `tei sync` for the transcriptions), not the other files.

| path | what it is |
|---|---|
| `edition.xml` | the edition: TEI P5, parallel segmentation, its witnesses in `listWit` |
| `transcriptions/` | one TEI transcription per witness, linked from `edition.xml` |
| `schemas/` | the schema `edition.xml` names in its `<?xml-model?>` |
| `html/` | the web edition: open `html/index.html`, or publish the folder on any static host (it works under any sub-path, GitHub Pages included) |
| `html/dts/` | the edition as static DTS 1.0 responses (Distributed Text Services): start at `html/dts/index.json` |
| `edition.pdf` | the print edition |
| `stats/` | agreement tables and plots |
| `CITATION.cff` | how to cite the edition |

Each passage and unit of the web edition has a stable anchor (`html/index.html#app-…`, `#passage-…`),
and the page copies a citation of the unit or passage at hand.
"""
    return text.encode("utf-8")


def publishing_files(work: Work, output: Path) -> dict[Path, bytes]:
    return {output / "CITATION.cff": citation_cff(work), output / "README.md": output_readme(work)}
