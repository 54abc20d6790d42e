"""Static DTS 1.0 (Distributed Text Services): the Entry, Collection, Navigation and Document responses of an
edition (and of a corpus of them) as files, so that any static host serves the API.

A static host answers no query string, so every URI template is a path (RFC 6570 path and parameter
expansion, as the specification's section on static sites suggests), relative to the response that gives it
(a site works under any sub-path). Under `html/dts/` of an edition, with RESOURCE its identifier (the TEI's
`xml:id`, else `edition`) and REF a citable unit's identifier (tei.apparatus.citation):

    index.json                                  the Entry endpoint
    collection.json, collection/RESOURCE.json   the root Collection; the Resource      collection{/id}.json
    navigation/RESOURCE;down=1.json, ;down=-1   the top-level units; the whole tree    navigation/{resource}{/ref}{;down}.json
    navigation/RESOURCE/REF.json                one unit (no member)
    navigation/RESOURCE/REF;down=1.json, ;down=-1   the units below one (units that have some)
    document/RESOURCE.xml, document/RESOURCE/REF.xml   the edition; one unit in dts:wrapper   document/{resource}{/ref}.xml

This is a Level 0 server: no `start`/`end`, no `down=0`, no pagination; a request the files do not answer
is a 404 of the host. Identifiers are percent-encoded in file names as the templates expand them (letters,
digits, `-._~` stay). Each CitableUnit's `@id` is its anchor in the web edition (a unit's id, a passage's
`passage-ID`), relative to the response. A corpus gets `dts/` at its top: one Collection for each folder,
the works as its members, whose templates lead into each work's own files.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from tei.apparatus.citation import CitableUnit, CiteLevel, citable_units, declared_structure
from tei.xmlio import TEI_NS, parse_file, tei, xml

CONTEXT = "https://dtsapi.org/context/v1.0.json"
VERSION = "1.0"
DTS_NS = "https://w3id.org/api/dts#"
COLLECTION, NAVIGATION, DOCUMENT = (
    "collection{/id}.json",
    "navigation/{resource}{/ref}{;down}.json",
    "document/{resource}{/ref}.xml",
)
TEI_MEDIA = "application/tei+xml"
EDITION = "../../edition.xml"  # from a site's dts/ (<output>/html/dts/) to the edition it is made from


def encoded(identifier: str) -> str:
    """An identifier as a template's simple expansion writes it into a path (and the file is named)."""
    return quote(identifier, safe="")


def _json(data: dict) -> bytes:
    """Compact JSON: without indentation the standard library's encoder is its C one (8 times faster here)."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _up(path: str) -> str:
    """The relative way from the folder of `path` (relative to dts/) back to dts/."""
    depth = path.count("/")
    return "../" * depth


def resource_id(tree: etree._ElementTree) -> str:
    return tree.getroot().get(xml("id")) or "edition"


def edition_title(tree: etree._ElementTree) -> str:
    title = tree.getroot().find(f"{tei('teiHeader')}/{tei('fileDesc')}/{tei('titleStmt')}/{tei('title')}")
    return " ".join("".join(title.itertext()).split()) if title is not None else "Edition"


def citation_trees(structure: tuple[CiteLevel, ...]) -> list[dict]:
    def level(cite: CiteLevel) -> dict:
        found = {"@type": "CiteStructure", "citeType": cite.unit}
        if cite.children:
            found["citeStructure"] = [level(c) for c in cite.children]
        return found

    return [{"@type": "CitationTree", "citeStructure": [level(c) for c in structure]}]


def resource_object(tree, here: str, to_dts: str = "", download: str | None = None, parents: int = 1) -> dict:
    """The Resource of an edition as a response at `here` (relative to dts/) gives it; `to_dts` leads from that
    dts/ to the edition's own dts/ (a corpus's collection lists works living elsewhere)."""
    rid = resource_id(tree)
    base = _up(here) + to_dts
    found = {
        "@id": rid,
        "@type": "Resource",
        "title": edition_title(tree),
        "totalParents": parents,
        "totalChildren": 0,
        "collection": base + f"collection/{encoded(rid)}.json",
        "navigation": base + f"navigation/{encoded(rid)}{{/ref}}{{;down}}.json",
        "document": base + f"document/{encoded(rid)}{{/ref}}.xml",
        "citationTrees": citation_trees(declared_structure(tree)),
        "mediaTypes": [TEI_MEDIA],
    }
    if download is not None:
        found["download"] = _up(here) + download
    language = tree.getroot().get(xml("lang"))
    if language:
        found["dublinCore"] = {"language": [language]}
    return found


def anchor(unit: CitableUnit) -> str:
    """The unit's anchor in the web edition (the rule of xslt/html/edition.xsl, passage-anchor and unit-id)."""
    element = unit.element
    if element.tag == tei("app") and element.get(xml("id")):
        return element.get(xml("id"))
    if element.get(xml("id")):
        return "passage-" + element.get(xml("id"))
    citable = {tei(n) for n in ("div", "div1", "div2", "div3", "ab", "lg", "l", "seg")}
    chain = reversed([element, *element.iterancestors()])
    path = [e.get("n").strip().replace(" ", "_") for e in chain if e.tag in citable and e.get("n")]
    return "passage-" + ".".join(path) if path else ""


def _citable(unit: CitableUnit, here: str, page: str) -> dict:
    found = {
        "identifier": unit.identifier,
        "@type": "CitableUnit",
        "level": unit.level,
        "parent": unit.parent,
        "citeType": unit.cite_type,
    }
    mark = anchor(unit)
    if mark:
        found["@id"] = f"{_up(here)}{page}#{mark}"
    return found


def _navigation(tree, here: str, page: str, ref: CitableUnit | None = None, members=None) -> dict:
    found = {
        "@context": CONTEXT,
        "dtsVersion": VERSION,
        "@type": "Navigation",
        "@id": here.rsplit("/", 1)[-1],
        "resource": resource_object(tree, here, download=EDITION),
    }
    if ref is not None:
        found["ref"] = _citable(ref, here, page)
    if members is not None:
        found["member"] = [_citable(u, here, page) for u in members]
    return found


def _wrapped(element: etree._Element) -> bytes:
    root = etree.Element(tei("TEI"), nsmap={None: TEI_NS})
    wrapper = etree.SubElement(root, f"{{{DTS_NS}}}wrapper", nsmap={"dts": DTS_NS})
    copy = etree.fromstring(etree.tostring(element, with_tail=False))
    wrapper.append(copy)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


# The entry point of every DTS tree this module writes (an edition's, a corpus's): where its three endpoints are.
ENTRY_POINT = {
    "@context": CONTEXT,
    "dtsVersion": VERSION,
    "@id": "index.json",
    "@type": "EntryPoint",
    "collection": COLLECTION,
    "navigation": NAVIGATION,
    "document": DOCUMENT,
}


def edition_files(edition: Path, folder: Path) -> dict[Path, bytes]:
    """Every response of one edition, under `folder` (the site's dts/; the page is ../index.html)."""
    tree = parse_file(edition)
    rid = encoded(resource_id(tree))
    units = citable_units(tree)
    page = "../index.html"
    files: dict[str, bytes] = {
        "index.json": _json(ENTRY_POINT),
        "collection.json": _json(
            {
                "@context": CONTEXT,
                "dtsVersion": VERSION,
                "@id": "root",
                "@type": "Collection",
                "title": edition_title(tree),
                "totalParents": 0,
                "totalChildren": 1,
                "collection": COLLECTION,
                "member": [resource_object(tree, "collection.json", download=EDITION)],
            }
        ),  # fmt: skip
    }
    here = f"collection/{rid}.json"
    files[here] = _json({"@context": CONTEXT, "dtsVersion": VERSION, **resource_object(tree, here, download=EDITION)})
    children: dict[str | None, list[CitableUnit]] = {}
    for unit in units:
        children.setdefault(unit.parent, []).append(unit)
    for down, chosen in (("1", children.get(None, [])), ("-1", units)):
        here = f"navigation/{rid};down={down}.json"
        files[here] = _json(_navigation(tree, here, page, members=chosen))
    for unit in units:
        ref = encoded(unit.identifier)
        here = f"navigation/{rid}/{ref}.json"
        files[here] = _json(_navigation(tree, here, page, ref=unit))
        if unit.identifier in children:
            below = _descendants(unit, children)
            here = f"navigation/{rid}/{ref};down=1.json"
            files[here] = _json(_navigation(tree, here, page, unit, [u for u in below if u.level == unit.level + 1]))
            here = f"navigation/{rid}/{ref};down=-1.json"
            files[here] = _json(_navigation(tree, here, page, unit, below))
        files[f"document/{rid}/{ref}.xml"] = _wrapped(unit.element)
    files[f"document/{rid}.xml"] = etree.tostring(tree, xml_declaration=True, encoding="UTF-8") + b"\n"
    return {folder / name: data for name, data in files.items()}


def _descendants(unit: CitableUnit, children: dict) -> list[CitableUnit]:
    found = []
    for child in children.get(unit.identifier, []):
        found.append(child)
        found.extend(_descendants(child, children))
    return found


def corpus_files(output: Path, works: list[Path]) -> dict[Path, bytes]:
    """The collection tree of a corpus under <output>/dts/: a Collection for each folder holding works (the top
    one the root), each work a Resource read from its own edition.xml; `works` are the works' output folders."""
    folder = output / "dts"
    editions = {
        w.relative_to(output).as_posix(): parse_file(w / "edition.xml") for w in works if (w / "edition.xml").is_file()
    }
    collections: dict[str, list[str]] = {"": []}  # folder -> the folders and works directly inside it
    for path in sorted(editions):
        parts = path.split("/")
        for depth in range(len(parts)):
            parent, child = "/".join(parts[:depth]), "/".join(parts[: depth + 1])
            collections.setdefault(parent, [])
            if child not in collections[parent]:
                collections[parent].append(child)
    files: dict[str, bytes] = {
        "index.json": _json(ENTRY_POINT),
    }

    def member(child: str, here: str, parents: int) -> dict:
        if child in editions:
            to_work = f"../{child}/html/dts/"
            return resource_object(editions[child], here, to_work, f"../{child}/edition.xml", parents)
        return {
            "@id": collection_id(child), "@type": "Collection", "title": child.rsplit("/", 1)[-1],
            "totalParents": 1, "totalChildren": len(collections[child]),
            "collection": _up(here) + f"collection/{encoded(collection_id(child))}.json",
        }  # fmt: skip

    for name, inside in collections.items():
        here = "collection.json" if name == "" else f"collection/{encoded(collection_id(name))}.json"
        files[here] = _json(
            {"@context": CONTEXT, "dtsVersion": VERSION, "@id": collection_id(name), "@type": "Collection",
             "title": name.rsplit("/", 1)[-1] or "Corpus", "totalParents": 0 if name == "" else 1,
             "totalChildren": len(inside), "collection": _up(here) + COLLECTION,
             "member": [member(child, here, 1) for child in inside]}
        )  # fmt: skip
    return {folder / name: data for name, data in files.items()}


def collection_id(folder: str) -> str:
    return "root" if folder == "" else folder.replace("/", ".")
