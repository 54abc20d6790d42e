"""Collating parallel Arabic narrations: isnad and matn as sections of their own, vocalisation alone typed
orthographic (or vocalisation where the harakat contradict), an attached particle typed as such, and both narrations rebuilt byte for byte."""

from __future__ import annotations

from collections import Counter

import regex
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tei.apparatus import content_text, readings, witness_text
from tei.cli import main
from tei.collate import collate
from tei.hadith.isnad import recognise
from tei.model import Witness, Work
from tei.text.arabic import vocalisation_differs
from tei.text.normalize import PROFILES
from tei.writers.edition import edition_bytes
from tei.xmlio import NSMAP, parse_bytes, tei

KEY = PROFILES["hadith-ar"].key
MARKS = regex.compile(r"\p{M}")
XML_NS = "http://www.w3.org/XML/1998/namespace"


def pair_work(pair, profile: str = "hadith-ar") -> Work:
    witnesses = tuple(Witness(f"M{n['idInBook']}", str(n["idInBook"]), n["arabic"], "ar") for n in pair)
    return Work("pair", "Pair", language="ar", base=witnesses[0].id, profile=profile, witnesses=witnesses)


def edition_tree(work: Work):
    return parse_bytes(edition_bytes(collate(work)), "edition")


def reading_type(reading) -> str | None:
    parent = reading.getparent()
    return reading.get("type") or (parent.get("type") if parent.tag == tei("rdgGrp") else None)


def test_each_pair_rebuilds_byte_for_byte_with_isnad_and_matn_apart(arabic_pairs):
    for pair in arabic_pairs:
        work = pair_work(pair)
        tree = edition_tree(work)
        sections = tree.xpath("//tei:body/tei:ab", namespaces=NSMAP)
        assert [ab.get("type") for ab in sections] == ["isnad", "matn"]
        for witness in work.witnesses:
            assert witness_text(tree, witness.id).encode("utf-8") == witness.text.encode("utf-8")
            isnad_end = recognise(witness.text, "ar").isnad_end
            assert content_text(sections[0], witness.id) == witness.text[:isnad_end]


def test_differences_of_vocalisation_alone_are_orthographic_or_grammatical(arabic_pairs):
    """A difference of harakat alone is `vocalisation` where both words carry harakat that contradict each other
    (grammar: case ending, voice, mood), else `orthographic` (a haraka left out)."""
    found = Counter()
    for pair in arabic_pairs:
        tree = edition_tree(pair_work(pair))
        for app in tree.iter(tei("app")):
            lemma = next(r for r in readings(app) if r.tag == tei("lem"))
            for reading in readings(app):
                mine, theirs = "".join(reading.itertext()), "".join(lemma.itertext())
                if reading is not lemma and mine != theirs and MARKS.sub("", mine) == MARKS.sub("", theirs):
                    grammar = any(vocalisation_differs(a, b) for a, b in zip(mine.split(), theirs.split()))
                    expected = "vocalisation" if grammar else "orthographic"
                    found[expected] += 1
                    assert reading_type(reading) == expected, (mine, theirs)
    assert found["orthographic"] >= 3 and found["vocalisation"] >= 10, found


def test_harakat_that_change_the_grammar_are_vocalisation():
    assert vocalisation_differs("تَهْلِكْ", "تُهْلِكْ")  # voice
    assert vocalisation_differs("الْعِصَابَةُ", "الْعِصَابَةَ")  # case ending
    assert not vocalisation_differs("تهلك", "تُهْلِكْ")  # one copy unvocalised
    assert not vocalisation_differs("حَدَّثَنَا", "حَدّثَنَا")  # a haraka left out
    assert not vocalisation_differs("أَنَّ", "اَنَّ")  # a hamza seat: spelling
    assert not vocalisation_differs("عَنْ", "عَنِ")  # the vowel joining the next word
    assert vocalisation_differs("إِنْ", "إِنَّ")  # two particles
    witnesses = (
        Witness("A", "A", "اللَّهُمَّ إِنْ تَهْلِكْ هَذِهِ الْعِصَابَةُ", "ar"),
        Witness("B", "B", "اللَّهُمَّ إِنْ تُهْلِكْ هَذِهِ الْعِصَابَةَ", "ar"),
    )
    tree = edition_tree(Work("w", "W", language="ar", base="A", profile="hadith-ar", witnesses=witnesses))
    assert {reading_type(r) for r in tree.iter(tei("rdg"))} == {"vocalisation"}
    categories = [c.get(f"{{{XML_NS}}}id") for c in tree.iter(tei("category"))]
    assert "vocalisation" in categories and "orthographic" in categories


def test_a_partly_vocalised_word_has_the_key_of_its_fully_vocalised_form():
    assert KEY("حَدَّثَنَا") == KEY("حَدثنا") == KEY("حدثنا")
    assert KEY("رَسُولُ") == KEY("رسول") and KEY("شَىْءٍ") == KEY("شيء")
    assert KEY("یـحـیـی") == KEY("يحيى")  # Persian yeh and tatweel
    assert KEY("\u200fمدرى\u200f") == KEY("مدري")  # bidi marks, alif maqsura


def test_attached_particles_and_the_words_they_leave():
    profile = PROFILES["hadith-ar"]
    same = [
        ("وقال", "قال"),
        ("فقال", "قال"),
        ("بالله", "الله"),
        ("للمؤمنين", "المؤمنين"),
        ("لله", "الله"),
        ("والأرض", "الأرض"),
        ("البر", "بر"),
        ("كمثل", "مثل"),
        ("لطعنت", "طعنت"),
    ]
    for first, second in same:
        assert profile.particle_key(KEY(first)) == profile.particle_key(KEY(second)), (first, second)
    for first, second in [("كان", "أن"), ("بن", "ن"), ("قال", "ال")]:
        assert profile.particle_key(KEY(first)) != profile.particle_key(KEY(second)), (first, second)
    assert PROFILES["hadith-en"].particle_key("wa") == "wa"


def test_an_attached_particle_is_its_own_minor_type():
    witnesses = (
        Witness("A", "A", "قال رسول الله صلى الله عليه وسلم", "ar"),
        Witness("B", "B", "فقال رسول الله صلى الله عليه وسلم", "ar"),
    )
    tree = edition_tree(Work("w", "W", language="ar", base="A", profile="hadith-ar", witnesses=witnesses))
    (app,) = tree.iter(tei("app"))
    assert [reading_type(r) for r in readings(app)] == [None, "particle"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_copy_with_fewer_vowel_signs_differs_only_orthographically(arabic_pairs, data):
    narration = data.draw(st.sampled_from([n for pair in arabic_pairs for n in pair]))
    text = narration["arabic"]
    keep = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    partial = "".join(c for c, kept in zip(text, keep) if kept or not MARKS.match(c))
    work = Work(
        "w",
        "W",
        language="ar",
        base="A",
        profile="hadith-ar",
        witnesses=(Witness("A", "A", text, "ar"), Witness("B", "B", partial, "ar")),
    )
    tree = edition_tree(work)
    assert witness_text(tree, "A") == text and witness_text(tree, "B") == partial
    assert {reading_type(r) for r in tree.iter(tei("rdg"))} <= {"orthographic"}


def test_without_a_manifest_arabic_texts_get_the_arabic_profile(tmp_path, arabic_pairs):
    files = []
    for narration in arabic_pairs[0]:
        path = tmp_path / f"{narration['idInBook']}.txt"
        path.write_text(narration["arabic"], encoding="utf-8")
        files.append(str(path))
    result = CliRunner().invoke(main, ["collate", *files, "-o", str(tmp_path / "edition.xml")])
    assert result.exit_code == 0, result.output
    tree = parse_bytes((tmp_path / "edition.xml").read_bytes(), "edition")
    assert tree.xpath("string(//tei:normalization)", namespaces=NSMAP).strip().startswith("Profile hadith-ar")
    assert [ab.get("type") for ab in tree.xpath("//tei:body/tei:ab", namespaces=NSMAP)] == ["isnad", "matn"]
    assert tree.xpath("//tei:rdgGrp[@type='orthographic']", namespaces=NSMAP)
