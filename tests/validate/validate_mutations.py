"""Seeded random mutations of TEI documents: the corpus the schema-agreement tests run on.

Each variant applies one to three edits (delete, duplicate, move or rename an element, add or spoil an
attribute, insert an element) drawn from the vocabulary of the project schema, so that many variants
stay valid and many do not.
"""

from __future__ import annotations

import copy
import random

from lxml import etree

from tei.xmlio import TEI_NS, XML_NS

VOCABULARY = (
    "p",
    "ab",
    "seg",
    "hi",
    "foreign",
    "note",
    "app",
    "lem",
    "rdg",
    "rdgGrp",
    "witness",
    "listWit",
    "title",
    "ptr",
    "ref",
    "lb",
    "pb",
    "gap",
    "g",
    "q",
    "quote",
    "head",
    "div",
    "lg",
    "l",
    "list",
    "item",
    "date",
    "persName",
    "name",
    "choice",
    "sic",
    "corr",
    "unclear",
    "supplied",
    "lacunaStart",
    "lacunaEnd",
    "wit",
    "witDetail",
    "listTranspose",
    "transpose",
    "bibl",
    "idno",
    "catDesc",
    "category",
    "desc",
    "milestone",
)
ATTRIBUTES = (
    ("type", "orthographic"),
    ("type", "two words"),
    ("n", "7"),
    ("rend", "italic bold"),
    ("wit", "#A"),
    ("wit", "#B #C"),
    ("target", "#app-0001"),
    ("target", ""),
    (f"{{{XML_NS}}}lang", "ar"),
    (f"{{{XML_NS}}}lang", "not a language"),
    (f"{{{XML_NS}}}space", "preserve"),
    ("when", "2024-05-01"),
    ("when", "yesterday"),
    ("unit", "page"),
    ("reason", "illegible"),
    ("varSeq", "2"),
    ("varSeq", "-1"),
    ("cause", "homeoteleuton"),
    ("method", "silent"),
    ("status", "free"),
    ("location", "external"),
    ("source", "#A"),
    ("corresp", "#mini-text"),
    ("subtype", "x"),
    ("unknown", "1"),
)


def _elements(root: etree._Element) -> list[etree._Element]:
    return [e for e in root.iter() if isinstance(e.tag, str)]


def _delete(rng: random.Random, root: etree._Element) -> None:
    victim = rng.choice(_elements(root)[1:])
    victim.getparent().remove(victim)


def _duplicate(rng: random.Random, root: etree._Element) -> None:
    original = rng.choice(_elements(root)[1:])
    twin = copy.deepcopy(original)
    for element in _elements(twin):
        element.attrib.pop(f"{{{XML_NS}}}id", None)
    original.addnext(twin)


def _move(rng: random.Random, root: etree._Element) -> None:
    mover = rng.choice(_elements(root)[1:])
    inside_mover = set(mover.iter())
    destination = rng.choice([e for e in _elements(root) if e not in inside_mover])
    destination.insert(rng.randint(0, len(destination)), mover)


def _rename(rng: random.Random, root: etree._Element) -> None:
    rng.choice(_elements(root)[1:]).tag = f"{{{TEI_NS}}}{rng.choice(VOCABULARY)}"


def _set_attribute(rng: random.Random, root: etree._Element) -> None:
    name, value = rng.choice(ATTRIBUTES)
    rng.choice(_elements(root)).set(name, value)


def _insert(rng: random.Random, root: etree._Element) -> None:
    parent = rng.choice(_elements(root))
    child = etree.Element(f"{{{TEI_NS}}}{rng.choice(VOCABULARY)}")
    if rng.random() < 0.5:
        child.text = "inserted words"
    parent.insert(rng.randint(0, len(parent)), child)


EDITS = (_delete, _duplicate, _move, _rename, _set_attribute, _insert)


def variants(source: etree._ElementTree, count: int, seed: int) -> list[bytes]:
    """`count` mutated copies of the document, the same for the same seed."""
    rng = random.Random(seed)
    produced = []
    for _ in range(count):
        root = copy.deepcopy(source.getroot())
        for _ in range(rng.randint(1, 3)):
            rng.choice(EDITS)(rng, root)
        produced.append(etree.tostring(root, encoding="UTF-8", xml_declaration=True))
    return produced
