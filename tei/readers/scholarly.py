"""Reads a scholar's TEI transcription of a manuscript (not the toolkit's own) into witnesses for collation.

A transcription says more than a witness's words: abbreviations and their expansions, corrections by
later hands, lost and unclear letters, pages and lines. The text collated is one *layer* of it, read by
rules an editor sets in the manifest (`[transcription]`, docs/manifest.md, `Policy`); everything else
becomes `Mark`s at their place in that text, which the edition's writer puts back (tei.writers.marks).

The algorithm: the body is copied and rewritten for the layer, element by element, in document order:

- `choice` (and an `abbr`/`expan`, `sic`/`corr`, `orig`/`reg` pair standing side by side): the form the
  policy names is kept, the other becomes the mark's `other`; a choice of other parts keeps the first;
- `del`, `add`, `subst`, `restore`, `mod` and the IGNTP `app`/`rdg type="orig|corr"`: for the *final*
  text a deletion is dropped and an addition kept; for the *first hand* (`*`) the reverse; for a
  corrector's layer only that hand's changes are made. A deletion and its addition are never both read,
  so `<del>et</del><add>et deus</add>` is `et deus` or `et`, never `etet deus`;
- `gap` is a lacuna (a zero-width mark, with a word break so no word is glued across it); `damage`,
  `unclear` (with `@cert`), `supplied` (the editor's letters, collated and marked) and inline markup
  (`hi`, `persName`, `placeName`, `foreign`, `g`, `num`, `date`, ...) are spans; `pb`, `cb`, `lb`,
  `milestone`, `handShift` and `space` are milestones; `note`, `fw`, `figDesc`, `desc` carry no text;
- every mark's place is held by one private character (U+FDD0, a non-character) wrapped in an element of
  the toolkit's own namespace, and the text is read from the rewritten body by the one rule of TEI's
  whitespace (`tei.apparatus.content_text`). The k-th U+FDD0 of that text is the k-th mark, so its
  offset is where it stands; the characters are then removed, and the whitespace a mark split (`a <lb/>
  b`) is merged again, as it would be without it.

A `g` without content reads the character its `charDecl` maps it to (`mapping type="standard"`, else the
first). The witness list (id, siglum, description, references, language) comes from `msDesc`
(`msIdentifier`: settlement, repository, idno; `msName`; `origDate`) and the transcription's `xml:lang`
(body, then text, then TEI); the manifest overrides each fact (tei.readers.manifest).
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field, replace

from lxml import etree

from tei.apparatus import content_text
from tei.apparatus.elements import body as body_of
from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.model import Mark, Witness
from tei.readers.scholarly_header import (
    CORRECTIONS,
    CORRECTOR_NAME,
    FIRST_HAND,
    character_map,
    correctors,
    declared_hands,
    hand_description,
    linked,
    witness_facts,
)
from tei.readers.scholarly_header import (
    images as surface_images,
)
from tei.text.scripts import guess_language
from tei.xmlio import TEI_NS, tei, xml

SENTINEL = "\ufdd0"
XML_SPACE = " \t\r\n"  # what a place's removal may merge (U+00A0 and the like are text)
PLACE = "{urn:x-tei-toolkit:mark}place"
CHOICE_FORMS = {"abbr": ("abbr", "expan"), "sic": ("sic", "corr"), "orig": ("orig", "reg")}
DEFAULT_FORMS = {"abbr": "expan", "sic": "corr", "orig": "reg"}
COLLATE = ("final", "first-hand", "both")
FINAL = ""  # the layer after every correction
MILESTONES = frozenset(("pb", "cb", "lb", "milestone", "handShift", "space"))
SPANS = frozenset(
    (
        "hi", "persName", "placeName", "orgName", "name", "rs", "foreign", "num", "date", "term", "title",
        "unclear", "supplied", "damage", "emph", "seg",
    )
)  # fmt: skip
SILENT = frozenset(("note", "fw", "figDesc", "desc", "witDetail", "wit", "listWit", "interp", "interpGrp"))
BREAK_TAGS = tuple(tei(m) for m in ("pb", "cb", "lb"))
KEPT_ATTRIBUTES = frozenset(
    ("n", "facs", "break", "type", "subtype", "unit", "rend", "ref", "when", "cert", "reason", "new", "hand")
)


@dataclass(frozen=True)
class Policy:
    """What a transcription gives the collation: the form of each `choice`, and which layers are collated."""

    forms: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_FORMS))  # "abbr" -> "expan", ...
    collate: str = "final"  # final | first-hand | both (the first hand and each corrector beside the final)
    hands: dict[str, str] = field(default_factory=dict)  # hands @hand names that no handNote declares -> name
    part: str | None = None  # the xml:id of the element of the body to collate (a chapter), else the body

    def described(self) -> str:
        chosen = ", ".join(f"{CHOICE_FORMS[k][1] if v == CHOICE_FORMS[k][1] else k} of {'/'.join(CHOICE_FORMS[k])}"
                           for k, v in self.forms.items())  # fmt: skip
        return f"choice: {chosen} collated; layers: {self.collate}"


def is_scholarly(tree: etree._ElementTree) -> bool:
    """A TEI transcription not written by `tei encode`: its header does not say it was generated here."""
    root = tree.getroot()
    said = root.xpath("string(tei:teiHeader/tei:fileDesc/tei:publicationStmt)", namespaces={"tei": TEI_NS})
    return "Generated by tei-edition" not in said


def read_scholarly(tree: etree._ElementTree, name: str, policy: Policy = Policy(), overrides=None) -> list[Witness]:
    """The witnesses of one transcription: its final text, and the hand layers the policy collates; the
    `overrides` (a manifest's id, siglum, language, description, references, kind) replace its own facts."""
    root = tree.getroot()
    if root.tag != tei("TEI"):
        raise InvalidInputError(
            error(
                "T003",
                f"the root element is {root.tag}, not a TEI document",
                name,
                root.sourceline,
                hint='a transcription is a TEI document: <TEI xmlns="http://www.tei-c.org/ns/1.0">',
            )
        )
    body = body_of(tree, name)
    if policy.part:
        found = root.xpath("//*[@xml:id=$part]", part=policy.part)
        if not found:
            raise InvalidInputError(
                error("T013", f'the transcription has no element xml:id="{policy.part}" to collate', name)
            )
        body = found[0]
    hands = declared_hands(root, body, name, policy.hands)
    facts = witness_facts(root, body, name)
    facts.update({k: v for k, v in (overrides or {}).items() if v is not None})
    layers = {"final": [FINAL], "first-hand": [FIRST_HAND], "both": [FINAL, FIRST_HAND, *correctors(body)]}
    characters = character_map(root)
    images = surface_images(root)
    witnesses = []
    for layer in layers[policy.collate]:
        text, marks = layer_text(body, name, policy, layer, characters)
        marks = [linked(mark, images) for mark in marks]
        witness = Witness(
            facts["id"],
            facts["siglum"],
            text,
            facts["language"] or guess_language(text),
            facts["description"],
            source=name,
            references=facts["references"],
            kind=facts.get("kind", "close"),
            marks=tuple(marks),
            scholarly=True,
        )
        if layer != FINAL and policy.collate == "both":  # a hand layer beside the final text: named after it
            if text == witnesses[0].text:
                continue  # the same text as the final one: nothing to cite, ever
            identifier, siglum = layer_ids(witness, layer, hands)
            while identifier in {w.id for w in witnesses}:  # two hands given one name: the later one primed
                identifier, siglum = f"{identifier}-bis", f"{siglum}'"
            described = hand_description(root, witness.siglum, layer)
            witness = replace(
                witness,
                id=identifier,
                siglum=siglum,
                marks=(),
                layer_of=witness.id,
                description=described,
                references=(),
            )
        witnesses.append(witness)
    return witnesses


def layer_ids(witness: Witness, layer: str, hands: dict[str, str] | None = None) -> tuple[str, str]:
    """The id and siglum of a hand layer of a witness W: `W-1`/`W*` (the first hand: no XML name holds `*`),
    `WC1`, `Wc` (a corrector, named by its handNote's @n when that is such a name, else C and its place among
    the handNotes). The edition declares each as `<witness type="corrector">`, a hand by its siglum."""
    if layer == FINAL:
        return witness.id, witness.siglum
    if layer == FIRST_HAND:
        return f"{witness.id}-1", f"{witness.siglum}*"
    named = "C" if layer == "corrector" else (hands or {}).get(layer, layer)
    suffix = named if CORRECTOR_NAME.match(named) else f"C{named}"
    return f"{witness.id}{suffix}", f"{witness.siglum}{suffix}"


def layer_text(body, name, policy, layer, characters=None) -> tuple[str, list[Mark]]:
    """The text of one layer of a transcription's body, and its marks (module docstring)."""
    copy = deepcopy(body)
    pending: list[tuple[str, str, tuple, tuple | None]] = []  # (kind, tag, attributes, other) per sentinel
    _rewrite(copy, name, policy, layer, pending, characters or {})
    raw = content_text(copy, witness_id="")
    return _placed(raw, pending, name)


def _rewrite(element, name, policy, layer, pending, characters) -> None:
    """Rewrite the children of `element` for the layer, in document order (module docstring)."""
    for child in list(element):
        if not isinstance(child.tag, str) or child.getparent() is not element:
            continue  # a comment, or an element an earlier step moved (the second of a pair)
        local = etree.QName(child).localname if child.tag.startswith(f"{{{TEI_NS}}}") else None
        if local is None:
            continue
        if local in SILENT:
            _keep_milestones_only(child, pending)
        elif local == "choice" or (local in _SECONDS and _pair_partner(child) is not None):
            _choice(child, name, policy, layer, pending, characters)
        elif local in CORRECTIONS:
            _correction(child, local, name, policy, layer, pending, characters)
        elif local == "app":
            _hand_app(child, name, policy, layer, pending, characters)
        elif local == "gap":
            _replace(child, _place(pending, "lacuna", "gap", child), word_break=True)
        elif local in MILESTONES:
            child.addprevious(_place(pending, "milestone", local, child))
        elif local == "g":  # a glyph: its character (the charDecl's mapping when it has no content)
            if not "".join(child.itertext()):
                child.text = characters.get((child.get("ref") or "").lstrip("#"), "")
            _rewrite(child, name, policy, layer, pending, characters)
        elif local in SPANS:
            start = _place(pending, "span", local, child)  # before what is inside: the places in text order
            _rewrite(child, name, policy, layer, pending, characters)
            _wrap(child, pending, start)
        else:
            _rewrite(child, name, policy, layer, pending, characters)


_SECONDS = {"expan": "abbr", "corr": "sic", "reg": "orig", "abbr": "expan", "sic": "corr", "orig": "reg"}


def _pair_partner(child):
    """The other element of an abbr/expan (sic/corr, orig/reg) pair standing side by side, if any."""
    partner = tei(_SECONDS[etree.QName(child).localname])
    before, after = child.getprevious(), child.getnext()
    if before is not None and before.tag == partner and not (before.tail or "").strip():
        return before
    if after is not None and after.tag == partner and not (child.tail or "").strip():
        return after
    return None


def _choice(child, name, policy, layer, pending, characters) -> None:
    if child.tag != tei("choice"):  # a bare pair: read as the choice it stands for
        partner = _pair_partner(child)
        first, second = (partner, child) if partner.getnext() is child else (child, partner)
        wrapper = etree.Element(tei("choice"))
        wrapper.tail = second.tail
        second.tail = None
        first.addprevious(wrapper)
        wrapper.extend([first, second])
        child = wrapper
    parts = [c for c in child if isinstance(c.tag, str)]
    if not parts:
        raise InvalidInputError(
            error(
                "T010",
                "a <choice> holds neither of its forms (abbr/expan, sic/corr, orig/reg, ...)",
                name,
                child.sourceline,
                hint="write both forms, e.g. <choice><abbr>dns</abbr><expan>dominus</expan></choice>",
            )
        )
    by_name = {etree.QName(c).localname: c for c in parts}
    chosen = None
    for key, pair in CHOICE_FORMS.items():
        if pair[0] in by_name or pair[1] in by_name:
            wanted = policy.forms.get(key, DEFAULT_FORMS[key])
            chosen = by_name.get(wanted)
            if chosen is None:
                chosen = by_name.get(pair[0] if wanted == pair[1] else pair[1])
            break
    chosen = chosen if chosen is not None else parts[0]
    others = [c for c in parts if c is not chosen]
    other = (etree.QName(others[0]).localname, _plain(others[0], characters)) if others else None
    start = _place(pending, "choice", etree.QName(chosen).localname, chosen, other)
    broken = any(e.tag in BREAK_TAGS for e in chosen.iter())  # before its content is moved
    _rewrite(chosen, name, policy, layer, pending, characters)
    holder = etree.Element(tei("seg"))
    holder.append(start)
    holder[-1].tail = chosen.text
    holder.extend(list(chosen))
    holder.append(_place(pending, "end", "", None))
    if not broken:  # a line broken only in the other form
        for unused in others:
            holder.extend(_milestones_in(unused, pending))
    _replace(child, holder)


def _correction(child, local, name, policy, layer, pending, characters) -> None:
    """add, del, subst, restore, mod: kept or dropped as the layer reads them."""
    hands = [h.lstrip("#") for h in (child.get("hand") or "").split()]
    applied = layer == FINAL or (layer != FIRST_HAND and layer in hands)
    if local == "restore":  # a deletion undone: the text stands in the final text and in the first hand's
        for deleted in child.iter(tei("del")):
            deleted.tag = tei("seg")
    if local in ("subst", "mod", "restore"):
        _rewrite(child, name, policy, layer, pending, characters)
        return
    keep = (local == "add") == applied  # an applied add is read; an applied del is not
    if keep:
        _rewrite(child, name, policy, layer, pending, characters)
    else:
        _keep_milestones_only(child, pending)


def _hand_app(child, name, policy, layer, pending, characters) -> None:
    """The IGNTP form: <app><rdg type="orig" hand="firsthand">..</rdg><rdg type="corr" hand="corrector">..</rdg>."""
    readings = [r for r in child if r.tag in (tei("rdg"), tei("lem"))]
    if not readings:
        _keep_milestones_only(child, pending)
        return
    first = next((r for r in readings if r.get("type") == "orig"), readings[0])
    chosen = readings[-1] if layer == FINAL else first
    if layer not in (FINAL, FIRST_HAND):
        chosen = next((r for r in readings if (r.get("hand") or "").lstrip("#") == layer), first)
    _rewrite(chosen, name, policy, layer, pending, characters)
    if not any(e.tag in BREAK_TAGS for e in chosen.iter()):
        for reading in readings:
            if reading is not chosen:
                chosen.extend(_milestones_in(reading, pending))
    chosen.tag = tei("seg")
    _replace(child, chosen)


def _keep_milestones_only(element, pending) -> None:
    """Drop an element's text (it is not the layer's) but keep the pages and lines inside it, in place."""
    kept = etree.Element(tei("seg"))
    kept.extend(_milestones_in(element, pending))
    _replace(element, kept if len(kept) else None)


def _milestones_in(element, pending) -> list[etree._Element]:
    """The places of the pages, columns and lines inside an element whose text the layer does not read."""
    return [
        _place(pending, "milestone", etree.QName(inner).localname, inner)
        for inner in element.iter(*BREAK_TAGS)
        if inner is not element
    ]


def _place(pending, kind, tag, source, other=None) -> etree._Element:
    attributes = tuple((k, v) for k, v in source.attrib.items() if k in KEPT_ATTRIBUTES) if source is not None else ()
    if source is not None and source.get(xml("lang")):
        attributes += (("xml:lang", source.get(xml("lang"))),)
    pending.append((kind, tag, attributes, other))
    place = etree.Element(PLACE)
    place.text = SENTINEL
    return place


def _wrap(child, pending, start) -> None:
    """A span: its start place put before the element's content, and a place at its end."""
    start.tail = child.text
    child.text = None
    child.insert(0, start)
    end = _place(pending, "end", "", None)
    child.append(end)


def _replace(element, replacement, word_break=False) -> None:
    """Put `replacement` (or nothing) where `element` stands, keeping the text after it."""
    parent = element.getparent()
    tail = element.tail
    if replacement is None:
        replacement = etree.Element(tei("seg"))
    if word_break:
        holder = etree.Element(tei("seg"))
        holder.text = " "
        holder.append(replacement)
        replacement.tail = " "
        replacement = holder
    replacement.tail = tail
    parent.replace(element, replacement)


def _plain(element, characters) -> str:
    """The text of a form not collated, its glyphs read by the charDecl, whitespace collapsed."""
    copy = deepcopy(element)
    copy.tail = None
    for glyph in copy.iter(tei("g")):
        if not "".join(glyph.itertext()):
            glyph.text = characters.get((glyph.get("ref") or "").lstrip("#"), "")
    return " ".join("".join(copy.itertext()).split())


def _placed(raw: str, pending, name) -> tuple[str, list[Mark]]:
    """Remove the sentinels, merging the whitespace they split; each mark at the offset of its sentinel."""
    pieces = raw.split(SENTINEL)
    if len(pieces) - 1 != len(pending):
        raise InvalidInputError(
            error("T011", "the transcription holds the character U+FDD0, which the reader reserves", name)
        )
    text: list[str] = []
    length = 0
    offsets = []
    after_space = True  # at the start, or just after whitespace: whitespace that follows merges into it
    for index, piece in enumerate(pieces):
        if after_space and index:
            piece = piece.lstrip(XML_SPACE)
        if index and piece[:1].isspace() and length and _ends_in(text, " "):
            _drop_last(text)  # a soft space, then a space such as U+00A0: the rule keeps only the latter
            length -= 1
            offsets = [min(o, length) for o in offsets]
        if piece:
            after_space = piece[-1].isspace()
        text.append(piece)
        length += len(piece)
        if index < len(pending):
            offsets.append(length)
    joined = "".join(text)
    if joined[-1:] in XML_SPACE:
        stripped = joined.rstrip(XML_SPACE)
        offsets = [min(o, len(stripped)) for o in offsets]
        joined = stripped
    return joined, _marks(offsets, pending)


def _ends_in(pieces: list[str], char: str) -> bool:
    last = next((p for p in reversed(pieces) if p), "")
    return last.endswith(char)


def _drop_last(pieces: list[str]) -> None:
    index = max(i for i, p in enumerate(pieces) if p)
    pieces[index] = pieces[index][:-1]


def _marks(offsets, pending) -> list[Mark]:
    marks: list[Mark] = []
    open_spans: list[tuple[int, str, tuple, tuple | None, str]] = []
    for offset, (kind, tag, attributes, other) in zip(offsets, pending):
        if kind == "end":
            start, tag, attributes, other, opened = open_spans.pop()
            marks.append(Mark(opened, start, offset, tag, attributes, other))
        elif kind in ("span", "choice"):
            open_spans.append((offset, tag, attributes, other, kind))
        else:
            marks.append(Mark(kind, offset, offset, tag, attributes))
    return sorted(marks, key=lambda m: (m.start, -m.end))
