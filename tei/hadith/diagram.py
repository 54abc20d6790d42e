"""The isnad diagram of parallel narrations: every narrator of every witness's chains a node, every "X heard it
from Y" an edge, shared links merged, the common link drawn apart; written as SVG.

Narrators are the names `chain_links` finds (tei.hadith.isnad), one node per name under the hadith-ar key
(vocalisation, letter forms and a leading و folded), so `مُحَمَّدُ بْنُ بَشَّارٍ` and `محمد بن بشار` are one
node, and a name that begins one fuller name only is that narrator (عبد الله = عبد الله بن
مسعود). A name that only says who he is to the narrator before him (أبيه، أبي، جده، عمه: "his father") is a
node of its own for each narrator it belongs to. A chain is cut at each ح: each part is read from the
compiler's teacher down to the Companion, and the diagram is drawn the other way, the Companion at the top.
The common link is the narrator farthest from the top through whom every witness's chains pass: below him
the chains fan out (Juynboll's "common link"). Nodes are laid out by layers (their longest distance from the
top), in the order they are first met.

`edition_svg(tree)` draws the diagram of an edition from its XML alone (each witness's text rebuilt by the
apparatus reader), for the renderers: the web edition shows the SVG in the page, the print edition on a page
of its own (xslt/html/isnad-diagram.xsl, xslt/typst/isnad-diagram.xsl).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape  # quotes too (the title stands in an attribute); xml.sax.saxutils costs 40 ms of import

from tei.apparatus import Apparatus, witness_ids
from tei.hadith.identity import identities
from tei.hadith.isnad import NARRATOR
from tei.hadith.parts import narration_chains
from tei.hadith.sections import collated_as_isnad
from tei.text.arabic import fold, letters_key, without_conjunction

RELATIVE = frozenset(fold(w) for w in ("أبيه", "أبي", "أبوه", "جده", "عمه", "أمه", "خاله", "أخيه", "أبيها", "جدي"))
NODE_WIDTH, NODE_HEIGHT, GAP_X, GAP_Y, MARGIN = 170, 34, 24, 46, 20


@dataclass
class Diagram:
    """Nodes (key -> printed name), edges (teacher key, student key) with the witnesses that have them."""

    names: dict[str, str] = field(default_factory=dict)
    edges: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    witnesses_of: dict[str, set[str]] = field(default_factory=dict)  # node -> witnesses whose chains pass it
    order: list[str] = field(default_factory=list)  # nodes in the order first met
    common_link: str | None = None
    notes: list[str] = field(default_factory=list)  # names that may be two people, kept apart (tei.hadith.identity)

    def layers(self) -> dict[str, int]:
        """Each node's longest distance from a node that heard from nobody (the top)."""
        teachers: dict[str, list[str]] = {key: [] for key in self.order}
        for teacher, student in self.edges:
            teachers[student].append(teacher)
        depth: dict[str, int] = {}

        def visit(key: str, seen: frozenset[str]) -> int:
            if key not in depth:
                above = [visit(t, seen | {key}) for t in teachers[key] if t not in seen]
                depth[key] = 1 + max(above) if above else 0
            return depth[key]

        for key in self.order:
            visit(key, frozenset())
        return depth


def name_key(name: str, before: str | None) -> str:
    """A narrator's node key: his name's folded words; a relative name (أبيه) keyed with the narrator before."""
    words = [letters_key(word) for word in name.split()]
    if words:
        words[0] = without_conjunction(words[0], ("و",))  # "وزهير"; never ف (فاطمة)
    if len(words) > 1 and words[0] == fold("على"):
        words = words[1:]  # "قرأت على مالك"
    key = " ".join(w for w in words if w)
    if key in RELATIVE and before:
        return f"{key} <{before}>"
    return key


def chains_of(text: str) -> list[list[list[tuple[str, str]]]]:
    """The chains of an Arabic narration (the opening ones and those after the text, each cut at ح), each a list
    of links from the compiler's teacher to the Companion, each link the (key, name) of its narrators: several
    where they are joined at one link («حدثنا سعيد بن منصور، وقتيبة بن سعيد، وأبو كامل، قالوا حدثنا أبو عوانة»:
    three who heard it from one teacher, not from one another)."""
    chains: list[list[list[tuple[str, str]]]] = []
    for links in narration_chains(text):
        chain: list[list[tuple[str, str]]] = []
        joined = False  # a name right after a name, no term between: the same link
        for kind, start, end in links:
            if kind != NARRATOR:
                joined = False
                continue
            name = text[start:end]
            before = chain[-1][0][0] if chain else None
            if joined and chain:
                chain[-1].append((name_key(name, chain[-2][0][0] if len(chain) > 1 else None), name))
            else:
                chain.append([(name_key(name, before), name)])
            joined = True
        chains.append(chain)
    return [chain for chain in chains if chain]


def build(witnesses: list[tuple[str, str]], refs: dict[str, str] | None = None) -> Diagram:
    """The diagram of (witness id, Arabic text) narrations; `refs` (name key -> authority id) merges the names
    the authority file says are one man. Which names are one node is tei.hadith.identity's; a node is printed
    with its fullest name."""
    diagram = Diagram()
    chains = {wid: chains_of(text) for wid, text in witnesses}
    node, diagram.notes = identities([chain for found in chains.values() for chain in found], refs)
    for wid, found in chains.items():
        for chain in ([[(node.get(key, key), name) for key, name in link] for link in chain] for chain in found):
            for key, name in (narrator for link in chain for narrator in link):
                if key not in diagram.names:
                    diagram.order.append(key)
                if len(name.split()) > len(diagram.names.get(key, "").split()):
                    diagram.names[key] = name
                diagram.witnesses_of.setdefault(key, set()).add(wid)
            for students, teachers in zip(chain, chain[1:]):
                for (student, _), (teacher, _) in ((s, t) for s in students for t in teachers):
                    if student != teacher:
                        diagram.edges.setdefault((teacher, student), set()).add(wid)
    everyone = {wid for wid, found in chains.items() if found}
    shared = [key for key in diagram.order if diagram.witnesses_of[key] >= everyone and len(everyone) > 1]
    if shared:
        depth = diagram.layers()
        diagram.common_link = max(shared, key=lambda key: (depth[key], -diagram.order.index(key)))
    return diagram


def edition_svg(tree, name: str = "<edition>", texts: list[tuple[str, str]] | None = None) -> str:
    """The isnad diagram of an edition whose text is collated as isnad and matn (`<ab type="isnad">`), as SVG;
    '' for any other edition, or when no witness's chain names a narrator. `texts`: each witness's text
    (id, text) when the caller has read them already (the renderers' annotated copy); else the apparatus
    reader reads them."""
    if not collated_as_isnad(tree):
        return ""
    if texts is None:
        apparatus = Apparatus(tree, name)
        texts = [(wid, apparatus.text(wid)) for wid in witness_ids(tree)]
    diagram = build(texts, _authority_refs(tree))
    return svg(diagram) if diagram.order else ""


def _authority_refs(tree) -> dict[str, str]:
    """Each narrator's node key -> the authority id his persName carries in the edition (`@ref`)."""
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    refs = {}
    for person in root.iter("{http://www.tei-c.org/ns/1.0}persName"):
        if person.get("ref") and person.get("type") == "narrator":
            refs[name_key("".join(person.itertext()), None)] = person.get("ref")
    return refs


def svg(diagram: Diagram, title: str = "Isnad diagram") -> str:
    """The diagram as a standalone SVG document: one `<g class="narrator">` per node (its name as text), one line
    per edge, the common link's box drawn thicker and labelled in its title."""
    depth = diagram.layers()
    rows: dict[int, list[str]] = {}
    for key in diagram.order:
        rows.setdefault(depth[key], []).append(key)
    widest = max((len(row) for row in rows.values()), default=1)
    width = MARGIN * 2 + widest * NODE_WIDTH + (widest - 1) * GAP_X
    height = MARGIN * 2 + len(rows) * NODE_HEIGHT + max(len(rows) - 1, 0) * GAP_Y
    total = height + 18 * len(diagram.notes)
    place: dict[str, tuple[float, float]] = {}
    for layer, keys in sorted(rows.items()):
        row_width = len(keys) * NODE_WIDTH + (len(keys) - 1) * GAP_X
        x0 = (width - row_width) / 2
        for n, key in enumerate(keys):
            place[key] = (x0 + n * (NODE_WIDTH + GAP_X), MARGIN + layer * (NODE_HEIGHT + GAP_Y))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{total:.0f}" '
        f'viewBox="0 0 {width:.0f} {total:.0f}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        '<g class="links" stroke="#555" stroke-width="1.2" fill="none">',
    ]
    for (teacher, student), wids in diagram.edges.items():
        (x1, y1), (x2, y2) = place[teacher], place[student]
        parts.append(
            f'<line x1="{x1 + NODE_WIDTH / 2:.1f}" y1="{y1 + NODE_HEIGHT:.1f}" x2="{x2 + NODE_WIDTH / 2:.1f}" '
            f'y2="{y2:.1f}" stroke-width="{1 + len(wids) * 0.6:.1f}"/>'
        )
    parts.append("</g>")
    for key in diagram.order:
        x, y = place[key]
        common = key == diagram.common_link
        label = escape(diagram.names[key])
        note = " (common link)" if common else ""
        parts.append(
            f'<g class="narrator{" common-link" if common else ""}">'
            f"<title>{label}{note}: {len(diagram.witnesses_of[key])} witness(es)</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="6" '
            f'fill="{"#fde9c8" if common else "#fff"}" stroke="#333" stroke-width="{3 if common else 1}"/>'
            f'<text x="{x + NODE_WIDTH / 2:.1f}" y="{y + NODE_HEIGHT / 2 + 5:.1f}" text-anchor="middle" '
            f'direction="rtl" font-family="Amiri, serif" font-size="14">{label}</text></g>'
        )
    for n, note in enumerate(diagram.notes):  # a name that may be two people: why it stays two nodes
        parts.append(
            f'<text class="identity-note" x="{width - MARGIN:.0f}" y="{height + 18 * n + 4:.0f}" '
            f'text-anchor="end" direction="rtl" font-family="Amiri, serif" font-size="12">{escape(note)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
