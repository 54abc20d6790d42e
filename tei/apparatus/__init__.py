"""The one reader of TEI apparatus: every stage downstream of an edition reads witnesses and texts through it.

- elements.py: apparatus element names, pointer lists, which reading attests a witness;
- walk.py: the rebuild rule of parallel segmentation, one walk of one witness (text and units passed);
- attached.py: the rebuild rule of the base-text methods (location-referenced, double end-point);
- methods.py: which method a document uses, checked against what its header declares;
- witnesses.py: the witnesses a document declares and those it names;
- fold.py, tree.py: a base-text apparatus folded into parallel segmentation, the form every stage reads.

`tei witness`, the validator's apparatus rules, stats, convert and the CollateX table all call these, so a
hand-edited edition.xml, or another project's edition, is read exactly like one the toolkit wrote.
"""

from __future__ import annotations

import copy

from lxml import etree

from tei.apparatus.attached import attached_text
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
    reading_for,
    readings,
)
from tei.apparatus.fold import fold
from tei.apparatus.methods import PARALLEL_SEGMENTATION, apparatus_method
from tei.apparatus.walk import Passage, Path, content_text, follow
from tei.apparatus.witnesses import all_witnesses, witness_ids
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.xmlio import tei

__all__ = [
    "APP", "ELEMENT_ONLY", "G", "LEM", "NO_WITNESS_TEXT", "RDG", "RDG_GRP", "Passage", "Path", "all_witnesses",
    "as_parallel_segmentation", "body", "content_text", "follow", "mapped_character", "pointer_ids",
    "reading_for", "readings", "transcription_text", "witness_ids", "witness_text",
]  # fmt: skip


def witness_text(tree: etree._ElementTree, witness_id: str, name: str = "<edition>") -> str:
    """The exact text of one witness, rebuilt from the apparatus (nothing added, nothing normalised).

    The method the document uses is checked against the one its header declares first; parallel
    segmentation is read by tei.apparatus.walk, the base-text methods by tei.apparatus.attached.
    """
    method = apparatus_method(tree, name)
    if method != PARALLEL_SEGMENTATION:
        return attached_text(tree, witness_id, method, name)
    return content_text(body(tree, name), witness_id)


def transcription_text(tree: etree._ElementTree, name: str) -> str:
    """The text of a transcription (a TEI document without apps), read by the same rule as an edition's."""
    root = tree.getroot()
    if root.tag != tei("TEI"):
        raise InvalidInputError(
            error("T003", f"the root element is {root.tag}, not a TEI document", name, root.sourceline)
        )
    return content_text(body(tree, name), witness_id="")


def as_parallel_segmentation(tree: etree._ElementTree, name: str) -> etree._ElementTree:
    """The document itself if it uses parallel segmentation, else a copy with its apparatus folded into it."""
    method = apparatus_method(tree, name)
    if method == PARALLEL_SEGMENTATION:
        return tree
    result = copy.deepcopy(tree)
    fold(result, method, name)
    return result
