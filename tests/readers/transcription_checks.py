"""Independent checks of an edition built from scholars' TEI transcriptions, shared by the fixture and real-data
tests: the text each layer of a transcription says (from the Guidelines' rules and the manifest's policy,
written here without the toolkit's reader), and what the edition must hold for it.

`expected_text` walks the transcription itself: a choice gives the form the policy names; `del` is left out
of the final text and `add` of the first hand's (a corrector's layer makes only that hand's changes);
`restore` and `mod` keep their content; the IGNTP `app` gives its last reading (final) or its `orig`;
`gap` breaks the word; `note`, `fw`, `figDesc` and `desc` say nothing; `pb`, `cb`, `lb` break the line
(no space with `break="no"`); blocks and `w`/`pc` tokens are separated by a space; then every run of
whitespace is one space, and the text neither begins nor ends with one.
"""

from __future__ import annotations

import re

from lxml import etree

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FORMS = {"abbr": ("abbr", "expan"), "sic": ("sic", "corr"), "orig": ("orig", "reg")}
BLOCKS = {"p", "ab", "head", "l", "lg", "div", "item", "list", "table", "row", "cell", "sp", "speaker", "stage"}
BLOCKS |= {f"div{n}" for n in range(1, 8)}  # blocks, whose text stands apart from what is around them
SILENT = {"note", "fw", "figDesc", "desc", "witDetail", "wit", "listWit", "interp", "interpGrp"}


def local(element) -> str:
    return etree.QName(element).localname if isinstance(element.tag, str) else ""


def expected_text(path, forms=None, layer="", part=None) -> str:
    """The text of one layer ("" final, "*" first hand, else a hand's id) of a transcription's body (or of
    the element with xml:id `part`)."""
    return expected(path, forms, layer, part)[0]


def expected(path, forms=None, layer="", part=None):
    """(text, pages and lines) of one layer: the breaks as (element, @n, @facs) in document order, those
    inside text the layer does not read included (a line broken only in a form not collated, too, where
    the collated form has none)."""
    forms = {"abbr": "expan", "sic": "corr", "orig": "reg", **(forms or {})}
    tree = etree.parse(str(path), etree.XMLParser(resolve_entities=True, no_network=True, load_dtd=False))
    characters = {}
    for glyph in tree.iter(f"{TEI}glyph", f"{TEI}char"):
        mappings = glyph.findall(f"{TEI}mapping")
        standard = [m for m in mappings if m.get("type") == "standard"] or mappings
        if standard:
            characters[glyph.get("{http://www.w3.org/XML/1998/namespace}id")] = standard[0].text or ""
    body = tree.find(f"{TEI}text/{TEI}body")
    if part:
        body = tree.xpath("//*[@xml:id=$part]", part=part)[0]
    out: list[str] = []
    breaks: list = []
    _walk(body, forms, layer, characters, out, breaks, top=True)
    text = xml_spaced("".join(out))
    text = re.sub(r" ?([^\S \t\r\n]) ?", r"\1", text)  # a space such as U+00A0 stands for the one around it
    return re.sub(rf" ?{JOIN}+ ?", "", text), breaks


def xml_spaced(text: str) -> str:
    """Each run of XML whitespace (space, tab, line breaks; not U+00A0) one space, none at either end."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip(" ")


JOIN = "\x01"


def _category_join(text: str) -> str | None:
    """Opening punctuation joins the next word, a dash neither, any other punctuation the word before."""
    import unicodedata

    text = text.strip()
    category = unicodedata.category(text[:1]) if text else ""
    if category in ("Ps", "Pi"):
        return "right"
    return None if category == "Pd" or not category.startswith("P") else "left"


def _breaks_in(element, breaks):
    for inner in element.iter(f"{TEI}pb", f"{TEI}cb", f"{TEI}lb"):
        if inner is not element:
            breaks.append((local(inner), inner.get("n"), inner.get("facs")))


PARTNERS = {"abbr": "expan", "expan": "abbr", "sic": "corr", "corr": "sic", "orig": "reg", "reg": "orig"}
PAIR_KEY = {"abbr": "abbr", "expan": "abbr", "sic": "sic", "corr": "sic", "orig": "orig", "reg": "orig"}


def _partner(element):
    if local(element.getparent()) == "choice":
        return None
    before, after = element.getprevious(), element.getnext()
    wanted = PARTNERS[local(element)]
    if before is not None and local(before) == wanted and not (before.tail or "").strip():
        return before
    if after is not None and local(after) == wanted and not (element.tail or "").strip():
        return after
    return None


def _applies(element, layer) -> bool:
    hands = [h.lstrip("#") for h in (element.get("hand") or "").split()]
    return layer == "" or (layer != "*" and layer in hands)


def _walk(element, forms, layer, characters, out, breaks, top=False):
    if not top:
        out.append(element.text or "")
    for child in element:
        name = local(child)
        if not name:
            pass
        elif name in SILENT:
            _breaks_in(child, breaks)
        elif name in PARTNERS and _partner(child) is not None:  # a pair side by side: the choice it stands for
            if forms[PAIR_KEY[name]] == name:
                _walk(child, forms, layer, characters, out, breaks)
        elif name == "choice":
            parts = {local(c): c for c in child if local(c)}
            chosen = None
            for key, pair in FORMS.items():
                if pair[0] in parts or pair[1] in parts:
                    chosen = parts.get(forms[key])
                    if chosen is None:
                        chosen = parts.get(pair[0] if forms[key] == pair[1] else pair[1])
                    break
            if chosen is None:
                chosen = next(c for c in child if local(c))
            _walk(chosen, forms, layer, characters, out, breaks)
            if next(chosen.iter(f"{TEI}pb", f"{TEI}cb", f"{TEI}lb"), None) is None:
                for other in child:
                    if other is not chosen and local(other):
                        _breaks_in(other, breaks)
        elif name == "del":
            if not _applies(child, layer) or local(child.getparent()) == "restore":
                _walk(child, forms, layer, characters, out, breaks)
            else:
                _breaks_in(child, breaks)
        elif name == "add":
            if _applies(child, layer):
                _walk(child, forms, layer, characters, out, breaks)
            else:
                _breaks_in(child, breaks)
        elif name == "app":
            readings = [r for r in child if local(r) in ("rdg", "lem")]
            first = next((r for r in readings if r.get("type") == "orig"), readings[0])
            chosen = readings[-1] if layer == "" else first
            if layer not in ("", "*"):
                chosen = next((r for r in readings if (r.get("hand") or "").lstrip("#") == layer), first)
            _walk(chosen, forms, layer, characters, out, breaks)
            if next(chosen.iter(f"{TEI}pb", f"{TEI}cb", f"{TEI}lb"), None) is None:
                for other in readings:
                    if other is not chosen:
                        _breaks_in(other, breaks)
        elif name == "gap":
            out.append(" ")
        elif name in ("pb", "cb", "lb"):
            out.append("" if child.get("break") == "no" else " ")
            breaks.append((name, child.get("n"), child.get("facs")))
        elif name == "g" and not "".join(child.itertext()):
            out.append(characters.get((child.get("ref") or "").lstrip("#"), ""))
        elif name in BLOCKS or name == "w":
            out.append(" ")
            _walk(child, forms, layer, characters, out, breaks)
            out.append(" ")
        elif name == "pc":  # joined as its Unicode category says (docs/edition-format.md)
            join = child.get("join") or _category_join("".join(child.itertext()))
            out.append(JOIN if join in ("left", "both") else " ")
            _walk(child, forms, layer, characters, out, breaks)
            out.append(JOIN if join in ("right", "both") else " ")
        else:
            _walk(child, forms, layer, characters, out, breaks)
        out.append(child.tail or "")


def milestones(path, tags=("pb", "lb")) -> list[tuple[str, str | None, str | None]]:
    """The pages and lines of a transcription's body in document order: (element, @n, @facs)."""
    tree = etree.parse(str(path))
    body = tree.find(f"{TEI}text/{TEI}body")
    return [(local(e), e.get("n"), e.get("facs")) for e in body.iter(*(f"{TEI}{t}" for t in tags))]


def edition_milestones(edition, witness_id, tags=("pb", "lb")) -> list[tuple[str, str | None, str | None]]:
    tree = etree.parse(str(edition))
    body = tree.find(f"{TEI}text/{TEI}body")
    return [
        (local(e), e.get("n"), e.get("facs"))
        for e in body.iter(*(f"{TEI}{t}" for t in tags))
        if e.get("ed") == f"#{witness_id}"
    ]


def deletions_and_additions(path) -> list[tuple[str, str]]:
    """(deleted text, added text) of every subst, and of every del directly followed by an add."""
    tree = etree.parse(str(path))
    pairs = []
    for element in tree.iter(f"{TEI}del"):
        following = element.getnext()
        if following is not None and local(following) == "add" and not (element.tail or "").strip():
            pairs.append((_plain(element), _plain(following)))
    return [(d, a) for d, a in pairs if d and a]


def _plain(element) -> str:
    return " ".join("".join(element.itertext()).split())


def reading_texts(edition) -> list[str]:
    """The text of every lem and rdg of an edition, whitespace collapsed (readings nested included)."""
    tree = etree.parse(str(edition))
    found = []
    for reading in tree.iter(f"{TEI}lem", f"{TEI}rdg"):
        copy = etree.fromstring(etree.tostring(reading))
        for choice in copy.iter(f"{TEI}choice"):  # the collated form only
            for part in list(choice):
                if "#collated" not in (part.get("ana") or ""):
                    part.getparent().remove(part)
        found.append(" ".join("".join(copy.itertext()).split()))
    return found


def glued(deleted: str, added: str, text: str) -> bool:
    """Whether a reading's text holds a deletion's text run into its addition's (or the reverse)."""
    pattern = re.compile(rf"(^|\s){re.escape(deleted)}\s*{re.escape(added)}(\s|$)")
    return bool(pattern.search(text))
