"""The one reader of TEI apparatus: every stage downstream of an edition reads witnesses and texts through it.

- elements.py: apparatus element names, pointer lists, the readings of an app;
- witnesses.py: the witnesses of a document: declared, groups expanded, hands, undeclared sigla;
- walk.py: the rebuild rule of parallel segmentation, compiled once and run for each witness (units,
  negative apparatus, additions, lacunae, TEI whitespace, w/pc tokens);
- attached.py: the rebuild rule of the base-text methods (location-referenced, double end-point);
- methods.py: which method a document uses, checked against what its header declares;
- reader.py: `Apparatus`, one document read once, which every stage uses;
- fold.py, tree.py: a base-text apparatus folded into parallel segmentation, the form every stage reads;
- places.py: places of variation (adjacent units read as one), the entries a printed apparatus gives.

`tei witness`, the validator's apparatus rules, stats, convert and the CollateX table all call these, so a
hand-edited edition.xml, or another project's edition, is read exactly like one the toolkit wrote.
"""

from __future__ import annotations

from lxml import etree

from tei.apparatus.elements import (
    APP,
    ELEMENT_ONLY,
    LEM,
    NO_WITNESS_TEXT,
    RDG,
    RDG_GRP,
    G,
    body,
    mapped_character,
    pointer_ids,
    readings,
)
from tei.apparatus.reader import (
    Apparatus,
    as_parallel_segmentation,
    assume_tei_namespace,
    check_namespace,
    is_toolkit_edition,
)
from tei.apparatus.walk import LACUNA_MARKER, LACUNOSE, NOTHING, Compiler, Passage, Path, run
from tei.apparatus.witnesses import Witnesses, all_witnesses, witness_ids
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import tei

__all__ = [
    "APP", "ELEMENT_ONLY", "G", "LACUNA_MARKER", "LACUNOSE", "LEM", "NOTHING", "NO_WITNESS_TEXT", "RDG", "RDG_GRP",
    "Apparatus", "Passage", "Path", "Witnesses", "all_witnesses", "as_parallel_segmentation",
    "assume_tei_namespace", "body", "check_namespace", "content_text", "follow", "is_toolkit_edition",
    "mapped_character", "pointer_ids", "readings", "transcription_text", "witness_ids", "witness_text",
]  # fmt: skip


def witness_text(
    tree: etree._ElementTree, witness_id: str, name: str = "<edition>", lacuna_marker: str = LACUNA_MARKER
) -> str:
    """The text of one witness, rebuilt from the apparatus by the rule of the document's method.

    Lacunae are marked by `lacuna_marker`. For reading several witnesses of one document, build one
    `Apparatus` and call its `text`: the document is then read once.
    """
    return Apparatus(tree, name).text(witness_id, lacuna_marker)


def content_text(element: etree._Element, witness_id: str, witnesses: Witnesses | None = None) -> str:
    """The text one witness reads in an element (a reading, say, or the whole body).

    `witnesses` is the document's `Witnesses`; reading it costs a pass over the whole document, so a caller
    asking about many elements of one document reads it once and passes it in."""
    if witnesses is None:
        witnesses = Witnesses(element.getroottree())
    compiler = Compiler(witnesses.resolve, witnesses.hand_of)
    path = Path(witness_id, record=False)
    run(compiler.compile(element), path)
    return path.text


def follow(container: etree._Element, witness_id: str, witnesses: Witnesses | None = None) -> Path:
    """Every unit the witness passes through in a container, in order, and its full text (in `parts`);
    `witnesses` as for `content_text`."""
    if witnesses is None:
        witnesses = Witnesses(container.getroottree())
    compiler = Compiler(witnesses.resolve, witnesses.hand_of)
    path = Path(witness_id)
    run(compiler.compile(container), path)
    return path


def transcription_text(tree: etree._ElementTree, name: str) -> str:
    """The text of a transcription (a TEI document without apps), read by the same rule as an edition's."""
    root = tree.getroot()
    if root.tag != tei("TEI"):
        raise InvalidInputError(
            error("T003", f"the root element is {root.tag}, not a TEI document", name, root.sourceline)
        )
    return content_text(body(tree, name), witness_id="")
