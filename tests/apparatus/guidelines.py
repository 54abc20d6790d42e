"""An independent extraction of witness texts from the TEI Guidelines' rules, written for the tests only.

It shares no code with tei.apparatus: it walks the XML with lxml and produces, for one witness, a stream
of characters where a soft space (TEI whitespace, a block or token boundary) is "\\x00", a join (@join) is
"\\x01" and a lacuna is "\\x02"; the stream is then normalised with regular expressions. The rules are
those of docs/edition-format.md and the Guidelines (chapter TC, "Critical Apparatus"; section "Whitespace"):

- witnesses: listWit/witness leaves (id, else @n); @wit tokens are ids, sigla (@n), group ids (listWit or
  witness holding witnesses, standing for every leaf inside), hands (X*, XC1, X1) of declared X, which read
  as X where not cited (so do declared witnesses of type "corrector" named so), or undeclared sigla;
- outside xml:space="preserve", whitespace collapses, and blocks, w, pc and line breaks stand apart
  unless @join (or, for a pc without it, its Unicode category) joins them;
- a unit: the reading whose @wit names the witness; else a lacuna if witDetail type lac/ambiguous names it
  or a lacuna is open; else a lem without @wit; else nothing;
- lacunae: lacunaStart/witEnd open one, lacunaEnd/witStart close it (a witness whose first marker closes
  one starts lacunose); gap is one; one marker for a stretch;
- a reading made only of ref/ptr elements (whitespace aside) pointing with '#' to units of the document
  is a transposition: it has no text, and a witness taking it reads, in the listed units' places (in
  document order), the listed units in its order, each as it reads that unit;
- base-text methods (double end-point): the body with its apps left out, each app's stretch (from its
  @from element, or the app itself, to its @to element, or the app when it stands beside the lemma, or the
  end of its @from element) replaced by the witness's reading where it is cited.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import combinations

NS = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
LAYOUT = {
    "text", "front", "body", "back", "group", "div", "div1", "div2", "div3", "div4", "div5", "div6", "div7", "lg",
    "app", "rdgGrp", "listTranspose", "transpose", "list", "table", "row", "listBibl",
}  # fmt: skip
SILENT = {"note", "wit", "witDetail", "listTranspose"}
BLOCK = {
    "ab", "p", "l", "lg", "head", "div", "div1", "div2", "div3", "div4", "div5", "div6", "div7", "item", "list",
    "sp", "speaker", "stage", "trailer", "byline", "dateline", "opener", "closer", "salute", "signed", "argument",
    "epigraph", "table", "row", "cell", "body", "front", "back", "group", "text", "listApp", "castList",
    "castItem", "figure", "postscript",
}  # fmt: skip
BREAK = {"lb", "cb", "pb", "caesura"}
OWN_FORM = {"reg": "orig", "corr": "sic", "expan": "abbr"}
SOFT, JOIN, LACUNA = "\x00", "\x01", "\x02"


def name(element) -> str | None:
    return element.tag[len(NS) :] if isinstance(element.tag, str) and element.tag.startswith(NS) else None


def tokens(value: str | None) -> list[str]:
    return [t[1:] if t.startswith("#") else t for t in (value or "").split()]


class Sigla:
    """The witnesses of a document and what each @wit token stands for."""

    def __init__(self, root):
        leaves = [w for w in root.iter(NS + "witness") if not list(w.iter(NS + "witness"))[1:]]
        is_leaf = set(leaves)
        self.order, self.alias, self.groups, self.hand_of = [], {}, {}, {}
        self.known: set[str] = set()  # self.order as a set (3 John: 140 witnesses, 22,628 readings)
        self.resolved: dict[str | None, frozenset[str]] = {}
        for leaf in leaves:
            ident = leaf.get(XML_ID) or leaf.get("n")
            if ident and ident not in self.known:
                self.order.append(ident)
                self.known.add(ident)
                if leaf.get("n"):
                    self.alias.setdefault(leaf.get("n"), ident)
        for element in root.iter(NS + "listWit", NS + "witness"):
            inner = [w for w in element.iter(NS + "witness") if w is not element and w in is_leaf]
            if element.get(XML_ID) and (name(element) == "listWit" or inner):
                self.groups[element.get(XML_ID)] = [w.get(XML_ID) or w.get("n") for w in inner]
        declared = set(self.order)
        for leaf in leaves:  # a declared corrector named as a hand of a declared witness is that hand
            ident = leaf.get(XML_ID) or leaf.get("n")
            base = hand_base(ident, declared - {ident}, self.alias) if leaf.get("type") == "corrector" else None
            if base is not None:
                self.hand_of[ident] = base
        markers = ("lem", "rdg", "rdgGrp", "witDetail", "witStart", "witEnd", "lacunaStart", "lacunaEnd")
        for element in root.iter(*(NS + m for m in markers)):
            for token in tokens(element.get("wit")):
                if token in self.known or token in self.groups or token in self.alias:
                    continue
                base = hand_base(token, declared, self.alias)
                if base is not None:
                    self.hand_of[token] = base
                self.order.append(token)
                self.known.add(token)

    def resolve(self, value) -> frozenset[str]:
        if value not in self.resolved:  # each @wit once (3 John's are asked for 140 times, once a witness)
            found = set()
            for token in tokens(value):
                if token in self.groups:
                    found.update(self.groups[token])
                else:
                    found.add(self.alias.get(token, token) if token not in self.known else token)
            self.resolved[value] = frozenset(found)
        return self.resolved[value]


def hand_base(token: str, declared: set, alias: dict) -> str | None:
    for pattern in (r"(.+)\*", r"(.+?)[Cc]\d*", r"(.*[^\W\d])\d+"):
        match = re.fullmatch(pattern, token)
        if match:
            base = match[1] if match[1] in declared else alias.get(match[1])
            if base in declared:
                return base
    return None


def preserved(element) -> bool:
    for node in (element, *element.iterancestors()):
        if node.get(XML_SPACE) is not None:
            return declares_preserve(node)
    return False


def declares_preserve(node) -> bool:
    """preserve, unless spaces are written as <c type="space"/> inside (the whitespace is then layout)."""
    return node.get(XML_SPACE) == "preserve" and not node.xpath(".//*[local-name()='c'][@type='space']")


def readings(app):
    for child in app:
        if name(child) in ("lem", "rdg"):
            yield child
        elif name(child) == "rdgGrp":
            yield from readings(child)


def details(app):
    for child in app:
        if name(child) == "witDetail":
            yield child
        elif name(child) == "rdgGrp":
            yield from details(child)


class Extraction:
    """One witness's stream through a document; `taken` records each unit passed and the reading taken."""

    def __init__(self, sigla: Sigla, witness: str, lacunose: bool, outer_apps_silent: bool = False):
        self.sigla, self.witness = sigla, witness
        self.lacuna = lacunose
        self.out: list[str] = [LACUNA] if lacunose else []
        self.taken: dict = {}
        self.outer_apps_silent = outer_apps_silent
        self.events: dict = {}  # for the base-text methods: element -> (index at its start, index at its end)
        self.moved: tuple | None = None  # (place -> transposing app, reading -> listed apps, app -> position)

    def emit(self, text: str) -> None:
        if not self.lacuna:
            self.out.append(text)

    def text(self, value, keep: bool) -> None:
        if value:
            self.emit(value if keep else re.sub(r"[ \t\r\n]+", SOFT, value))

    def content(self, element, keep: bool, holders) -> None:
        layout = name(element) in LAYOUT
        if not layout:
            self.text(element.text, keep)
        own_forms = {name(c) for c in element}
        for child in element:
            tag = name(child)
            skip = tag in SILENT or (tag in OWN_FORM and OWN_FORM[tag] in own_forms)
            if isinstance(child.tag, str) and not skip:
                self.element(child, child_space(child, keep), holders)
            if not layout:
                self.text(child.tail, keep)

    def element(self, child, keep: bool, holders) -> None:
        tag = name(child)
        start = len(self.out)
        if tag == "app":
            self.unit(child, holders)
        elif tag == "g" and child.get("type") == "char":
            self.emit(chr(int(child.get("n")[2:], 16)))
        elif tag in ("lacunaStart", "witEnd", "lacunaEnd", "witStart"):
            named = self.sigla.resolve(child.get("wit")) if child.get("wit") is not None else holders
            if named is None or self.witness in named:
                if tag in ("lacunaStart", "witEnd") and not self.lacuna:
                    self.out.append(LACUNA)
                    self.lacuna = True
                elif tag in ("lacunaEnd", "witStart"):
                    self.lacuna = False
        elif tag == "gap":
            self.emit(LACUNA)
        elif tag == "choice":
            options = [c for c in child if isinstance(c.tag, str)]
            chosen = next((c for c in options if name(c) in ("orig", "sic", "abbr")), options[0] if options else None)
            if chosen is not None:
                self.element(chosen, child_space(chosen, keep), holders)
        elif tag in ("c", "space") and child.get("type", "space") == "space" and not len(child) and not child.text:
            self.emit(" " if keep else SOFT)
        elif keep:
            self.content(child, keep, holders)
        elif tag in ("w", "pc"):
            join = child.get("join") or (punctuation_join("".join(child.itertext())) if tag == "pc" else None)
            self.emit(JOIN if join in ("left", "both") else SOFT)
            self.content(child, keep, holders)
            self.emit(JOIN if join in ("right", "both") else SOFT)
        elif tag in BREAK:
            if child.get("break") != "no":
                self.emit(SOFT)
        elif tag in BLOCK:
            self.emit(SOFT)
            self.content(child, keep, holders)
            self.emit(SOFT)
        else:
            self.content(child, keep, holders)
        self.events[child] = (start, len(self.out))

    def unit(self, app, holders) -> None:
        if self.outer_apps_silent and not any(name(a) in ("lem", "rdg") for a in app.iterancestors()):
            return  # a base-text apparatus: the app stands apart from the text
        if self.moved is None:
            self.moved = transpositions(app.getroottree().getroot())
        places, listed, position = self.moved
        if app in places:  # a place some transposition reorders: the unit its reading puts here
            order = listed.get(self.choose(places[app], self.witness))
            if order:
                app = order[sorted(order, key=position.get).index(app)]
        chosen = self.choose(app, self.witness)
        self.taken[app] = chosen
        if chosen == "LACUNA":
            self.emit(LACUNA)
        elif chosen in listed:
            pass  # a transposition has no text of its own
        elif chosen not in (None, "NOTHING"):
            keep = preserved(chosen)
            self.content(chosen, keep, self.sigla.resolve(chosen.get("wit")) if chosen.get("wit") else None)

    def choose(self, app, witness):
        if any(
            d.get("type") in ("lac", "ambiguous") and witness in self.sigla.resolve(d.get("wit")) for d in details(app)
        ):
            return "LACUNA"
        for reading in readings(app):
            if witness in self.sigla.resolve(reading.get("wit")):
                return reading
        first = [h for h, base in self.sigla.hand_of.items() if base == witness and h.endswith("*")]
        for reading in readings(app):  # X* named, X not: X reads its first hand (the NT convention)
            if first and first[0] in self.sigla.resolve(reading.get("wit")):
                return reading
        if witness in self.sigla.hand_of:
            return self.choose(app, self.sigla.hand_of[witness])
        if self.lacuna:
            return "LACUNA"
        found = list(readings(app))
        bare = next((r for r in found if name(r) == "lem" and r.get("wit") is None), None)
        if bare is not None:
            return bare
        return None if any(name(r) == "lem" for r in found) else "NOTHING"


def transpositions(root) -> tuple[dict, dict, dict]:
    """The readings made only of references to units (reading -> the apps in its order), each referenced app
    -> the app holding the first such reading, and each app's position in the document."""
    apps = list(root.iter(NS + "app"))
    by_id = {a.get(XML_ID): a for a in apps if a.get(XML_ID)}
    listed, places = {}, {}
    for app in apps:
        for reading in readings(app):
            children = [c for c in reading if isinstance(c.tag, str)]
            if not children or (reading.text or "").strip() or any((c.tail or "").strip() for c in reading):
                continue
            targets = [t for c in children for t in (c.get("target") or "").split()]
            if (
                any(name(c) not in ("ref", "ptr") for c in children)
                or not targets
                or any(t[:1] != "#" or t[1:] not in by_id or by_id[t[1:]] is app for t in targets)
                or len(set(targets)) != len(targets)
            ):
                continue
            listed[reading] = [by_id[t[1:]] for t in targets]
            for target in listed[reading]:
                places.setdefault(target, app)
    return places, listed, {a: n for n, a in enumerate(apps)}


def punctuation_join(text: str) -> str | None:
    """Opening punctuation (Ps, Pi) joins right, a dash (Pd) neither, other punctuation left."""
    text = text.strip()
    if not text or not unicodedata.category(text[0]).startswith("P"):
        return None
    return {"Ps": "right", "Pi": "right", "Pd": None}.get(unicodedata.category(text[0]), "left")


def child_space(child, inherited: bool) -> bool:
    return inherited if child.get(XML_SPACE) is None else declares_preserve(child)


def finish(stream: str, marker: str) -> str:
    stream = re.sub(r"[\x00\x01]*\x01[\x00\x01]*", JOIN, stream)  # a join swallows the soft spaces around it
    stream = re.sub(r"\x02[\x00\x01]*(?=\x02)", "", stream)  # one marker for a stretch of lacunose places
    stream = stream.strip(SOFT + JOIN)
    stream = re.sub(r"(?<=\s)\x00+|\x00+(?=\s)", "", stream)
    stream = re.sub(r"\x00+", " ", stream).replace(JOIN, "")
    return stream.replace(LACUNA, marker)


def first_closers(root, sigla: Sigla) -> set[str]:
    """Witnesses whose first lacuna marker (in document order) closes a lacuna."""
    first: dict[str, str] = {}
    for marker in root.iter(*(NS + m for m in ("lacunaStart", "witEnd", "lacunaEnd", "witStart"))):
        holder = next((a for a in marker.iterancestors() if name(a) in ("lem", "rdg")), None)
        if marker.get("wit") is not None:
            named = sigla.resolve(marker.get("wit"))
        elif holder is not None and holder.get("wit") is not None:
            named = sigla.resolve(holder.get("wit"))
        else:
            named = set()
        for witness in named:
            first.setdefault(witness, name(marker))
    return {w for w, tag in first.items() if tag in ("lacunaEnd", "witStart")}


def body_of(root):
    return root.find(f"{NS}text/{NS}body")


def declared_method(root) -> str | None:
    found = root.find(f".//{NS}variantEncoding")
    if found is not None:
        return found.get("method")
    return "double-end-point" if any(a.get("from", "").startswith("#") for a in root.iter(NS + "app")) else None


def witness_text(tree, witness: str, marker: str = "[…]") -> tuple[str, dict]:
    """The witness's text by the rules above, and the units it passed with the reading it took in each."""
    root = tree.getroot()
    sigla = Sigla(root)
    body = body_of(root)
    if declared_method(root) == "double-end-point":
        return attached_text(root, body, sigla, witness, marker)
    extraction = Extraction(sigla, witness, witness in first_closers(root, sigla))
    extraction.content(body, preserved(body), None)
    return finish("".join(extraction.out), marker), extraction.taken


def attached_text(root, body, sigla: Sigla, witness: str, marker: str) -> tuple[str, dict]:
    base = Extraction(sigla, "", False, outer_apps_silent=True)
    base.content(body, preserved(body), None)
    ids = {e.get(XML_ID): e for e in root.iter() if isinstance(e.tag, str) and e.get(XML_ID)}
    stretches, taken = [], {}
    for app in body.iter(NS + "app"):
        if any(name(a) in ("lem", "rdg") for a in app.iterancestors()):
            continue
        start_element = ids.get(app.get("from", "")[1:]) if app.get("from") else None
        start = base.events[app][0] if start_element is None else base.events[start_element][0]
        if app.get("to"):
            end = base.events[ids[app.get("to")[1:]]][1]
        elif (
            start_element is None
            or app.getparent() is start_element
            or app.getparent() in start_element.iterancestors()
        ):
            end = base.events[app][0]
        else:
            end = base.events[start_element][1]
        stretches.append((start, end, app))
    reader = Extraction(sigla, witness, False)
    ordered = sorted(stretches, key=lambda s: (s[0], -s[1]))
    text = splice(base.out, 0, len(base.out), ordered, reader, taken)
    return finish(text, marker), taken


def splice(stream: list, start: int, end: int, stretches: list, reader: Extraction, taken: dict) -> str:
    """The stream from start to end with each outermost stretch in it replaced by the witness's reading
    (stretches nested in one the witness reads as base are spliced in their turn)."""
    parts, position, index = [], start, 0
    while index < len(stretches):
        first, last, app = stretches[index]
        inner = []
        index += 1
        while (
            index < len(stretches)
            and stretches[index][0] < last
            or (index < len(stretches) and stretches[index][0] == first and stretches[index][1] <= last)
        ):
            inner.append(stretches[index])
            index += 1
        parts.append("".join(stream[position:first]))
        chosen = reader.choose(app, reader.witness)
        taken[app] = chosen
        if chosen == "LACUNA":
            parts.append(LACUNA)
        elif chosen == "NOTHING" or (chosen is not None and name(chosen) == "lem" and chosen.get("wit") is None):
            parts.append(splice(stream, first, last, inner, reader, taken))
            taken[app] = "BASE"
        elif chosen is not None:
            reader.out = []
            reader.content(chosen, preserved(chosen), reader.sigla.resolve(chosen.get("wit")))
            parts.append("".join(reader.out))
        position = last
    parts.append("".join(stream[position:end]))
    return "".join(parts)


def agreement(tree) -> dict[tuple[str, str], tuple[int, int]]:
    """(agreeing, compared) for each pair of witnesses: units both pass with a reading (not a lacuna)."""
    sigla = Sigla(tree.getroot())
    taken = {w: witness_text(tree, w)[1] for w in sigla.order}
    found = {}
    for first, second in combinations(sigla.order, 2):
        both = [
            app
            for app in taken[first]
            if app in taken[second]
            and taken[first][app] not in (None, "LACUNA")
            and taken[second][app] not in (None, "LACUNA")
        ]
        found[first, second] = (sum(taken[first][a] == taken[second][a] for a in both), len(both))
    return found
