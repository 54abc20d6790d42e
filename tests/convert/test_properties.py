"""Property: any parallel-segmentation apparatus converts to each method and back with every witness unchanged."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tei.apparatus import witness_text
from tei.convert import METHODS, convert_checked
from tei.xmlio import parse_bytes

from .documents import document

WITNESSES = ("A", "B", "C")
words = st.text(alphabet="ab ,\n", max_size=6)
markup = st.one_of(words, words.map(lambda w: f"<hi>{w}</hi>"), st.just("<lb/>"), st.just("<note>n</note>"))


def partitions(witnesses):
    """Witnesses split into readings: each reading names some of them, or (as a lem without @wit) the rest."""
    return st.permutations(witnesses).flatmap(
        lambda order: st.lists(st.integers(0, 2), min_size=len(order), max_size=len(order)).map(
            lambda groups: [[w for w, g in zip(order, groups) if g == n] for n in range(3)]
        )
    )


@st.composite
def apps(draw, depth=0):
    groups = [g for g in draw(partitions(WITNESSES)) if g]
    with_lem = draw(st.booleans())
    parts = []
    for index, group in enumerate(groups):
        content = "".join(draw(st.lists(markup, max_size=3)))
        if depth == 0 and draw(st.integers(0, 4)) == 0:
            content += draw(apps(depth=1))
        tag = "lem" if with_lem and index == 0 else "rdg"
        wit = "" if tag == "lem" and draw(st.booleans()) else f' wit="{" ".join("#" + w for w in group)}"'
        parts.append(f"<{tag}{wit}>{content}</{tag}>")
    return f"<app>{''.join(parts)}</app>"


# xml:space="preserve": the property is that conversions keep every character (outside it, TEI whitespace
# normalisation makes an empty <lb/> a space, which a base text cannot place exactly).
bodies = st.lists(st.one_of(markup, apps()), min_size=1, max_size=6).map(
    lambda ps: f'<ab xml:space="preserve">{"".join(ps)}</ab>'
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies)
def test_every_method_and_back_keeps_every_witness(body):
    tree = parse_bytes(document(body), "generated.xml")
    texts = {w: witness_text(tree, w, "generated.xml") for w in WITNESSES}
    for method in METHODS:
        converted, _ = convert_checked(tree, method, "generated.xml")
        back, _ = convert_checked(parse_bytes(converted, "converted.xml"), "parallel-segmentation", "converted.xml")
        assert {w: witness_text(parse_bytes(back, "back.xml"), w) for w in WITNESSES} == texts


def laminar(spans):
    """Keep the spans that nest in or stay apart from every span kept before them (no overlaps)."""
    kept = []
    for start, end in spans:
        if all(end <= s or start >= e or (s <= start and end <= e) or (start <= s and e <= end) for s, e in kept):
            kept.append((start, end))
    return kept


@st.composite
def end_point_documents(draw):
    """A base text with an anchor between every two words, and an external apparatus of nesting lemmata
    (sharing anchors, empty, with or without a lem)."""
    words = draw(st.lists(st.sampled_from(["a", "b", "c,", "d."]), min_size=1, max_size=6))
    text = "".join(f'<anchor xml:id="p{i}"/>{w} ' for i, w in enumerate(words)) + f'<anchor xml:id="p{len(words)}"/>'
    points = st.integers(0, len(words))
    spans = laminar(sorted(draw(st.lists(st.tuples(points, points).map(sorted), max_size=4))))
    entries = []
    for start, end in spans:
        groups = [g for g in draw(partitions(WITNESSES)) if g][:2]
        readings = "".join(f'<rdg wit="{" ".join("#" + w for w in g)}">{draw(words_or_nothing)}</rdg>' for g in groups)
        if draw(st.booleans()):  # a lem repeating the base text it is attached to, as the Guidelines allow
            readings = f"<lem>{''.join(w + ' ' for w in words[start:end])}</lem>{readings}"
        entries.append(f'<app from="#p{start}" to="#p{end}">{readings}</app>')
    apparatus = f"<listApp>{''.join(entries)}</listApp>" if entries else ""
    return document(f"<ab>{text}</ab>{apparatus}", "double-end-point")


words_or_nothing = st.sampled_from(["", "x", "y z"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(end_point_documents())
def test_double_end_point_to_every_method_and_back(xml):
    assert_every_method_round_trips(xml, "double-end-point")


@st.composite
def location_documents(draw):
    """A base text with in-line location-referenced apps, each right after the words its lem gives."""
    words = draw(st.lists(st.sampled_from(["a", "b", "c,", "d."]), min_size=1, max_size=6))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(words)), max_size=6))))
    text, previous = "", 0
    for cut in cuts:
        start = draw(st.integers(previous, cut))  # the lemma: the words from start to cut
        text += "".join(w + " " for w in words[previous:start])
        lemma = "".join(w + " " for w in words[start:cut])
        groups = [g for g in draw(partitions(WITNESSES)) if g][:2]
        readings = "".join(f'<rdg wit="{" ".join("#" + w for w in g)}">{draw(words_or_nothing)}</rdg>' for g in groups)
        text += f"{lemma}<app><lem>{lemma}</lem>{readings}</app>"
        previous = cut
    text += "".join(w + " " for w in words[previous:])
    return document(f"<ab>{text}</ab>", "location-referenced")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(location_documents())
def test_location_reference_to_every_method_and_back(xml):
    assert_every_method_round_trips(xml, "location-referenced")


def assert_every_method_round_trips(xml: bytes, source_method: str) -> None:
    """Converted to each method and back to its own, the document gives every witness the same text."""
    tree = parse_bytes(xml, "generated.xml")
    texts = {w: witness_text(tree, w, "generated.xml") for w in WITNESSES}
    for method in METHODS:
        converted, _ = convert_checked(tree, method, "generated.xml")
        back, _ = convert_checked(parse_bytes(converted, "converted.xml"), source_method, "converted.xml")
        assert {w: witness_text(parse_bytes(back, "back.xml"), w) for w in WITNESSES} == texts
