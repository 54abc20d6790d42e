"""The sections a narration is collated in, its chains (isnad), its text (matn) and the compiler's words after
the text (commentary), and the one test of whether an edition is collated so.

A module of its own, with nothing of the chain reader beneath it: the renderers ask this of every edition,
and load the chain reader and the isnad diagram (regex, rapidfuzz and the normalisation profiles: about
50 ms of a render's start) only for an edition that has a chain.
"""

from __future__ import annotations

from lxml import etree

from tei.xmlio import NSMAP

ISNAD, MATN, COMMENTARY = "isnad", "matn", "commentary"  # the compiler's words after the text: its own


def collated_as_isnad(tree: etree._ElementTree) -> bool:
    """Whether the edition's text has an isnad section (`<ab type="isnad">`)."""
    return bool(tree.xpath(f"//tei:text//tei:ab[@type='{ISNAD}']", namespaces=NSMAP))
