"""Converting a TEI apparatus among its three methods, on the XML itself, and proving nothing was lost.

The conversion works on the document, not on the edition model: a foreign file's header, notes, witness
details, graphs and any other markup stay exactly where they are, and only what the method itself
dictates moves (see fold.py and unfold.py). Parallel segmentation is the hub: a base-text method is
folded into it, and unfolded from it into the other base-text method. The result is then read back by
the rebuild rule of its own method, and refused unless every witness reads exactly as before.
"""

from __future__ import annotations

import copy

from lxml import etree

from tei.apparatus import Apparatus, as_parallel_segmentation
from tei.apparatus.methods import (
    DOUBLE_END_POINT,
    LOCATION_REFERENCED,
    METHODS,
    PARALLEL_SEGMENTATION,
    set_declared_method,
)
from tei.convert.unfold import unfold
from tei.diagnostics import Diagnostic, error
from tei.errors import OutputRefusedError
from tei.xmlio import parse_bytes, serialise

# The methods that attach the apparatus to a base text; parallel segmentation is reached and left through them.
BASE_TEXT_METHODS = (LOCATION_REFERENCED, DOUBLE_END_POINT)


def convert(tree: etree._ElementTree, target: str, name: str) -> etree._ElementTree:
    """A new document giving the same apparatus by the target method (the input is left as it is)."""
    result = as_parallel_segmentation(tree, name)  # folded by the apparatus reader, the form every stage reads
    if result is tree:
        result = copy.deepcopy(tree)
    set_declared_method(result, PARALLEL_SEGMENTATION)  # what it is now, for the reader unfold consults
    if target in BASE_TEXT_METHODS:
        unfold(result, target, name)
    set_declared_method(result, target)
    return result


def witness_texts(tree: etree._ElementTree, witnesses: list[str], name: str) -> dict[str, str]:
    """Every witness's text, read by tei.apparatus (the document read once)."""
    apparatus = Apparatus(tree, name)
    return {witness: apparatus.text(witness) for witness in witnesses}


def convert_checked(tree: etree._ElementTree, target: str, name: str) -> tuple[bytes, list[Diagnostic]]:
    """The converted document as bytes, and warnings; refused if any witness's text would change."""
    apparatus = Apparatus(tree, name)
    warnings = list(apparatus.witnesses.diagnostics)
    witnesses = apparatus.ids
    before = {witness: apparatus.text(witness) for witness in witnesses}
    data = serialise(convert(tree, target, name))
    after = witness_texts(parse_bytes(data, f"{name} (converted)"), witnesses, name)
    changed = [lost_text(w, before[w], after[w], name, target) for w in witnesses if before[w] != after[w]]
    if changed:
        raise OutputRefusedError(*changed)
    return data, warnings


def lost_text(witness: str, before: str, after: str, name: str, target: str) -> Diagnostic:
    """Where a witness's text would first change, with a little of it on either side."""
    at = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    return error(
        "CV011",
        f"converting to {target} would change witness '{witness}' at character {at}: "
        f"{before[max(0, at - 20) : at + 20]!r} would become {after[max(0, at - 20) : at + 20]!r}",
        name,
        hint="nothing was written; please report the document, this is a conversion the toolkit cannot yet do",
    )


__all__ = ["METHODS", "convert", "convert_checked", "witness_texts"]
