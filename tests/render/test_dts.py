"""Static DTS 1.0: the responses `tei build` writes, checked field by field against the specification's tables
(no DTS JSON schema is on a package registry: the validator's schemas are only in its repository), and walked
as a client walks them: Entry -> Collection -> Navigation -> Document, to every citable unit's text.

The required and optional fields below are those of the specification's tables (Entry, Collection and
Resource, Navigation, Resource in Navigation, CitationTree, CiteStructure, CitableUnit; DTS 1.0,
distributed-text-services specifications, versions/v1.0); a field the tables do not name is refused too.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from cli_runner import run
from lxml import etree
from paths import SEEDS

from tei.apparatus.citation import citable_units
from tei.xmlio import parse_file

DTS_NS = "https://w3id.org/api/dts#"
TEI_NS = "http://www.tei-c.org/ns/1.0"
TEMPLATE = re.compile(r"\{([/;?&]?)([^}]+)\}")

# name -> (required fields, optional fields); a field's value is checked by CHECKS.
ENTRY = ({"@context", "dtsVersion", "@id", "@type", "collection", "navigation", "document"}, set())
COLLECTION_COMMON = {"@id", "@type", "title", "totalParents", "collection"}
COLLECTION_OPTIONAL = {"description", "member", "dublinCore", "extensions", "download", "citationTrees", "view",
                       "totalChildren", "navigation", "document", "mediaTypes", "@context", "dtsVersion"}  # fmt: skip
NAVIGATION = ({"@context", "dtsVersion", "@id", "@type", "resource"}, {"ref", "start", "end", "member", "view"})
NAV_RESOURCE = (
    {"@id", "@type", "collection", "navigation", "document", "citationTrees"},
    COLLECTION_OPTIONAL | {"title", "totalParents"},
)
CITATION_TREE = ({"@type"}, {"identifier", "citeStructure", "description"})
CITE_STRUCTURE = ({"citeType"}, {"citeStructure", "@type"})
CITABLE_UNIT = ({"identifier", "@type", "level", "parent"}, {"@id", "citeType", "dublinCore", "extensions"})


def fields(obj: dict, spec: tuple[set, set], where: str) -> None:
    required, optional = spec
    assert isinstance(obj, dict), where
    assert required <= set(obj), f"{where}: lacks {sorted(required - set(obj))}"
    assert set(obj) <= required | optional, (
        f"{where}: fields the specification does not name: {sorted(set(obj) - required - optional)}"
    )


def is_template(value) -> bool:
    return isinstance(value, str) and value.count("{") == value.count("}")


def check_top(obj: dict, where: str) -> None:
    assert obj["@context"] == "https://dtsapi.org/context/v1.0.json", where
    assert obj["dtsVersion"] == "1.0", where


def check_citation_trees(trees, where):
    assert isinstance(trees, list)
    for number, tree in enumerate(trees):
        fields(tree, CITATION_TREE, where)
        assert tree["@type"] == "CitationTree"
        assert number > 0 or "identifier" not in tree  # the default tree has no identifier

        def structure(levels):
            assert isinstance(levels, list)
            for level in levels:
                fields(level, CITE_STRUCTURE, where)
                assert isinstance(level["citeType"], str) and level.get("@type", "CiteStructure") == "CiteStructure"
                structure(level.get("citeStructure", []))

        structure(tree.get("citeStructure", []))


def check_collection_object(obj: dict, where: str, top: bool) -> None:
    kind = obj.get("@type")
    assert kind in ("Collection", "Resource"), where
    required = COLLECTION_COMMON | ({"totalChildren"} if kind == "Collection" else {"navigation", "document"})
    fields(obj, (required | ({"@context", "dtsVersion"} if top else set()), COLLECTION_OPTIONAL), where)
    if top:
        check_top(obj, where)
    assert isinstance(obj["title"], str) and obj["title"]
    assert isinstance(obj["totalParents"], int) and isinstance(obj.get("totalChildren", 0), int)
    for name in ("collection", "navigation", "document"):
        assert name not in obj or is_template(obj[name]), (where, name)
    if "citationTrees" in obj:
        check_citation_trees(obj["citationTrees"], where)
    if "mediaTypes" in obj:
        assert obj["mediaTypes"] and all(isinstance(m, str) for m in obj["mediaTypes"])
    if "dublinCore" in obj:
        assert isinstance(obj["dublinCore"], dict)
    for member in obj.get("member", []):
        check_collection_object(member, where + " member", top=False)
    if "member" in obj and kind == "Collection":
        assert obj["totalChildren"] == len(obj["member"]), where


def check_navigation(obj: dict, where: str) -> None:
    fields(obj, NAVIGATION, where)
    check_top(obj, where)
    assert obj["@type"] == "Navigation"
    fields(obj["resource"], NAV_RESOURCE, where + " resource")
    assert obj["resource"]["@type"] == "Resource"
    check_citation_trees(obj["resource"]["citationTrees"], where)
    units = ([obj["ref"]] if "ref" in obj else []) + obj.get("member", [])
    for unit in units:
        fields(unit, CITABLE_UNIT, where + " unit")
        assert unit["@type"] == "CitableUnit" and isinstance(unit["identifier"], str)
        assert isinstance(unit["level"], int) and unit["level"] >= 1
        assert unit["parent"] is None or isinstance(unit["parent"], str)
        assert (unit["parent"] is None) == (unit["level"] == 1)
    identifiers = [u["identifier"] for u in obj.get("member", [])]
    assert len(identifiers) == len(set(identifiers)), where


def expand(template: str, **values) -> str:
    """RFC 6570 expansion of the operators the static templates use: {var}, {/var,...}, {;var}, {?var}."""

    def one(match):
        operator, names = match.group(1), match.group(2).split(",")
        parts = []
        for name in names:
            if values.get(name) is None:
                continue
            value = quote(str(values[name]), safe="")
            parts.append({"": value, "/": "/" + value, ";": f";{name}={value}"}.get(operator, f"{name}={value}"))
        if operator in "?&" and parts:
            return operator + "&".join(parts)
        return "".join(parts)

    return TEMPLATE.sub(one, template)


class Client:
    """Reads responses from the folder a static host would serve, as relative URLs resolve."""

    def __init__(self, root: Path):
        self.root = root
        self.read: list[str] = []

    def get(self, base: str, url: str) -> tuple[str, bytes]:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(base), url.split("#")[0]))
        assert not path.startswith(".."), url
        self.read.append(path)
        return path, (self.root / unquote(path)).read_bytes()

    def json(self, base: str, url: str) -> tuple[str, dict]:
        path, data = self.get(base, url)
        return path, json.loads(data)


def resolved(base: str, url: str) -> str:
    path, _, fragment = url.partition("#")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), path)) + "#" + fragment


def walk(root: Path, entry: str) -> dict[str, bytes]:
    """Entry -> every Collection -> every Resource -> Navigation (whole tree) -> Document of every unit; every
    response checked on the way. Returns each unit's document (resource/identifier -> bytes)."""
    client = Client(root)
    here, entry_point = client.json("", entry)
    fields(entry_point, ENTRY, here)
    check_top(entry_point, here)
    assert entry_point["@type"] == "EntryPoint"
    documents = {}
    pending = [(here, expand(entry_point["collection"]))]
    while pending:
        base, url = pending.pop()
        where, collection = client.json(base, url)
        check_collection_object(collection, where, top=True)
        for member in collection.get("member", []):
            if member["@type"] == "Collection":
                pending.append((where, expand(member["collection"], id=member["@id"])))
                continue
            rid = member["@id"]
            resource_at, resource = client.json(where, expand(member["collection"], id=rid))
            check_collection_object(resource, resource_at, top=True)
            assert resource["@type"] == "Resource" and resource["@id"] == rid
            nav_at, tree = client.json(where, expand(member["navigation"], resource=rid, down=-1))
            check_navigation(tree, nav_at)
            top_at, top = client.json(where, expand(member["navigation"], resource=rid, down=1))
            check_navigation(top, top_at)
            assert [u["identifier"] for u in top["member"]] == [
                u["identifier"] for u in tree["member"] if u["level"] == 1
            ]
            for unit in tree["member"]:
                ref_at, one = client.json(where, expand(member["navigation"], resource=rid, ref=unit["identifier"]))
                check_navigation(one, ref_at)
                assert "member" not in one
                assert {k: v for k, v in one["ref"].items() if k != "@id"} == {
                    k: v for k, v in unit.items() if k != "@id"
                }
                assert resolved(ref_at, one["ref"]["@id"]) == resolved(nav_at, unit["@id"])  # relative to each response
                page_at, page = client.get(nav_at, unit["@id"])
                assert f'id="{unit["@id"].split("#")[1]}"'.encode() in page, (
                    unit
                )  # the unit's anchor in the web edition
                _, document = client.get(where, expand(member["document"], resource=rid, ref=unit["identifier"]))
                documents[f"{rid}/{unit['identifier']}"] = document
            _, whole = client.get(where, expand(member["document"], resource=rid))
            assert etree.fromstring(whole).tag == f"{{{TEI_NS}}}TEI"
    return documents


def check_texts(documents: dict[str, bytes], rid: str, edition: Path) -> None:
    """Every citable unit of the edition has its document, holding exactly its element in dts:wrapper."""
    units = citable_units(parse_file(edition))
    assert sorted(k for k in documents if k.startswith(rid + "/")) == sorted(f"{rid}/{u.identifier}" for u in units)
    for unit in units:
        root = etree.fromstring(documents[f"{rid}/{unit.identifier}"])
        assert root.tag == f"{{{TEI_NS}}}TEI"
        (wrapper,) = root.findall(f"{{{DTS_NS}}}wrapper")
        (element,) = list(wrapper)
        assert element.tag == unit.element.tag
        assert "".join(element.itertext()) == "".join(unit.element.itertext()), unit.identifier


@pytest.fixture(scope="module")
def seeds_build(tmp_path_factory) -> Path:
    output = tmp_path_factory.mktemp("dts") / "build"
    result = run("build", SEEDS, "-o", output, "--stages", "edition,html,dts")
    assert result.exit_code == 0, result.stderr
    return output


def test_the_seeds_dts_responses_follow_the_specification_and_lead_to_every_units_text(seeds_build):
    documents = walk(seeds_build / "html", "dts/index.json")
    check_texts(documents, "badr", seeds_build / "edition.xml")
    assert len(documents) == 1 + len(parse_file(seeds_build / "edition.xml").getroot().findall(f".//{{{TEI_NS}}}app"))


def test_a_unit_with_units_below_it_is_navigated_down(seeds_build):
    folder = seeds_build / "html" / "dts" / "navigation" / "badr"
    below = json.loads((folder / "badr-text;down=1.json").read_text("utf-8"))
    check_navigation(below, "badr-text;down=1")
    assert below["ref"]["identifier"] == "badr-text" and below["member"]
    assert {u["parent"] for u in below["member"]} == {"badr-text"}


CORPUS_TEXTS = {
    "ant": ("The ant carried a grain home.", "The ant carried one grain home."),
    "bee": ("A bee sang in the garden.", "The bee sang in the garden today."),
    "nested/cat": ("The cat slept by the fire.", "A cat slept near the fire."),
}


def test_a_corpus_of_three_works_has_a_collection_tree_walked_to_every_text(tmp_path):
    corpus = tmp_path / "corpus"
    for path, (first, second) in CORPUS_TEXTS.items():
        work = corpus / path
        work.mkdir(parents=True)
        (work / "a.txt").write_text(first, "utf-8")
        (work / "b.txt").write_text(second, "utf-8")
        name = path.rsplit("/", 1)[-1]
        (work / "edition.toml").write_text(
            f'[edition]\nid = "{name}"\ntitle = "The {name}"\nbase = "A"\n\n'
            '[[witness]]\nid = "A"\nfile = "a.txt"\n\n[[witness]]\nid = "B"\nfile = "b.txt"\n',
            "utf-8",
        )
    output = tmp_path / "out"
    result = run("build", corpus, "-o", output, "--stages", "edition,html,dts")
    assert result.exit_code == 0, result.stderr
    documents = walk(output, "dts/index.json")
    root = json.loads((output / "dts" / "collection.json").read_text("utf-8"))
    assert [(m["@id"], m["@type"]) for m in root["member"]] == [
        ("ant", "Resource"),
        ("bee", "Resource"),
        ("nested", "Collection"),
    ]
    nested = json.loads((output / "dts" / "collection" / "nested.json").read_text("utf-8"))
    assert [(m["@id"], m["@type"]) for m in nested["member"]] == [("cat", "Resource")]
    for path in CORPUS_TEXTS:
        check_texts(documents, path.rsplit("/", 1)[-1], output / path / "edition.xml")
        walk(output / path / "html", "dts/index.json")  # each work's own responses stand alone too
