"""Properties of collation over random witness sets (hypothesis): every witness rebuilds from the XML byte
for byte, and the apparatus does not depend on the order in which the witnesses are given."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lxml import etree

from tei.apparatus import witness_text
from tei.collate import align, collate
from tei.collate.align import likeness, near_copies
from tei.model import Witness, Work
from tei.writers.edition import edition_bytes
from tei.xmlio import parse_bytes, tei

WORDS = [
    "Qibla",
    "Qiblah",
    "qiblah,",
    "(ﷺ)",
    "(peace and blessings be upon him)",
    "رضي الله عنهم",
    "`Umar",
    "‘Umar",
    "'Umar",
    "Umar",
    "Hayzūm",
    "Haizum!",
    "the",
    "The",
    "of",
    "Allah",
    "Allah's",
    "يا",
    "رسولَ",
    "اللهِ",
    "e\u0301",
    "٣١٩",
    "319",
    "...",
    "“O",
    "Allah,",
    "—",
    "(his",
    "face)",
    "\u200f",
    "ﷺ",
]
SPACES = [" ", " ", " ", "  ", "\n", "\n\n", "\t", "\u00a0", "\r\n", ""]
LETTERS = st.characters(
    codec="utf-8",
    categories=("L", "M", "N", "P", "S", "Zs"),
    include_characters="\n\t\r",
)

settings.register_profile("collate", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def witness_texts(draw) -> list[str]:
    """A text and two to four variants of it: words replaced, dropped, added, moved; spacing changed."""
    base = draw(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SPACES)), min_size=0, max_size=30))
    texts = []
    for _ in range(draw(st.integers(2, 4))):
        words = list(base)
        for _ in range(draw(st.integers(0, 6))):
            action = draw(st.sampled_from(["replace", "drop", "add", "move", "space"]))
            place = draw(st.integers(0, max(len(words) - 1, 0)))
            if action == "add" or not words:
                words.insert(place, (draw(st.sampled_from(WORDS)), draw(st.sampled_from(SPACES))))
            elif action == "replace":
                words[place] = (draw(st.sampled_from(WORDS)), words[place][1])
            elif action == "drop":
                del words[place]
            elif action == "move":
                block = words[place : place + 3]
                del words[place : place + 3]
                target = draw(st.integers(0, len(words)))
                words[target:target] = block
            else:
                words[place] = (words[place][0], draw(st.sampled_from(SPACES)))
        texts.append(draw(st.sampled_from(["", " ", "\n"])) + "".join(w + s for w, s in words))
    return texts


def _work(texts: list[str], profile: str, base: str | None = None) -> Work:
    witnesses = tuple(Witness(f"W{n}", f"W{n}", text) for n, text in enumerate(texts))
    return Work("test", "Test", base=base, profile=profile, witnesses=witnesses)


def _assert_lossless(work: Work) -> etree._ElementTree:
    tree = parse_bytes(edition_bytes(collate(work)), "random edition")
    for witness in work.witnesses:
        assert witness_text(tree, witness.id) == witness.text
    return tree


@settings(settings.get_profile("collate"))
@given(witness_texts(), st.sampled_from(["hadith-en", "default", "exact", "hadith-ar"]), st.booleans())
def test_every_witness_rebuilds_exactly(texts, profile, with_base):
    _assert_lossless(_work(texts, profile, "W0" if with_base else None))


@settings(settings.get_profile("collate"))
@given(st.lists(st.text(LETTERS, max_size=60), min_size=1, max_size=4))
def test_arbitrary_text_rebuilds_exactly(texts):
    _assert_lossless(_work(texts, "hadith-en"))


def _canonical_body(tree: etree._ElementTree) -> bytes:
    body = tree.getroot().find(f"{tei('text')}/{tei('body')}")
    for element in body.iter(tei("lem"), tei("rdg")):
        element.set("wit", " ".join(sorted(element.get("wit").split())))
    return etree.tostring(body)


@settings(settings.get_profile("collate"))
@given(witness_texts(), st.randoms(use_true_random=False))
def test_the_order_of_the_witnesses_does_not_matter(texts, random):
    work = _work(texts, "hadith-en")
    shuffled = list(work.witnesses)
    random.shuffle(shuffled)
    again = dataclasses.replace(work, witnesses=tuple(shuffled))
    assert _canonical_body(_assert_lossless(again)) == _canonical_body(_assert_lossless(work))


def _columns_of(alignment, witnesses) -> list[tuple]:
    """The columns as the given witnesses stand in them (columns none of them has left out)."""
    found = []
    for column in alignment.columns:
        cells = tuple(sorted((w, i) for w, i in column.cells.items() if w in witnesses))
        if cells:
            found.append(cells)
    return found


@settings(settings.get_profile("collate"))
@given(witness_texts(), st.data())
def test_a_copy_of_a_witness_changes_nothing_for_the_others(texts, data):
    """Near copies count as one (tei.collate.align.witness_weights): a witness copied once more leaves every
    column of the witnesses there before as it was, so a scholar adding a copy keeps the apparatus. (A
    witness that already has near copies shares its group's weight with one member more: not exact then.)"""
    keys = {f"W{n}": text.split() for n, text in enumerate(texts)}
    copied = data.draw(st.sampled_from(sorted(keys)))
    groups = near_copies(keys, likeness(keys))
    assume(sum(1 for group in groups.values() if group == groups[copied]) == 1)
    before = align(keys, "W0")
    after = align({**keys, "W9": list(keys[copied])}, "W0")
    assert _columns_of(after, set(keys)) == _columns_of(before, set(keys))


def test_a_copy_that_stands_alone_with_its_original_is_not_several_witnesses():
    """The example hypothesis found (kept: a fresh checkout has no stored examples). W2 copied: the columns
    only W2 and its copy hold counted as held by several witnesses, and W1's `Qiblah` left W2's column."""
    texts = [
        "Qibla Qibla Qibla Qibla Qiblah Qibla",
        "(peace and blessings be upon him) Qibla Qiblah Qiblah",
        "(peace and blessings be upon him) Qibla Qiblah Qiblah Qibla",
        "Qibla Qiblah Qibla",
    ]
    keys = {f"W{n}": text.split() for n, text in enumerate(texts)}
    before = align(keys, "W0")
    after = align({**keys, "W9": list(keys["W2"])}, "W0")
    assert _columns_of(after, set(keys)) == _columns_of(before, set(keys))
