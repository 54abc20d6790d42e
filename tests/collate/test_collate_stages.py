"""The collation stages on their own: tokens, normalisation keys, alignment and reading types."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from tei.collate import collate
from tei.collate.align import align, canonical_order, matched_pairs, runs_kept_together, supported_pairs
from tei.collate.analyse import Text, reading_type
from tei.collate.tokenize import tokenize
from tei.errors import InvalidInputError
from tei.model import ReadingGroup, VariationUnit, Witness, Work, text_read
from tei.text.normalize import PROFILES, profile_named
from tei.writers.edition import edition_bytes
from tei.xmlio import NSMAP

HADITH = profile_named("hadith-en")


def keys(text: str) -> list[str]:
    return [t.key for t in tokenize(text, HADITH)]


def test_tokens_keep_punctuation_whitespace_and_formulas():
    tokens = tokenize("  The Prophet(ﷺ) said: “(Remember)  `Umar رضي الله عنهم.\n", HADITH)
    assert "".join(t.text for t in tokens) == "  The Prophet(ﷺ) said: “(Remember)  `Umar رضي الله عنهم.\n"
    assert [t.surface for t in tokens] == [
        "",
        "The",
        "Prophet",
        "(ﷺ)",
        "said:",
        "“(Remember)",
        "`Umar",
        "رضي الله عنهم.",
    ]
    assert tokens[0].whitespace == "  " and tokens[5].whitespace == "  "
    assert tokens[3].key == tokens[7].key.replace("companion", "prophet")  # one key per formula class
    assert tokens[6].word == "`Umar" or tokens[6].word == "Umar"


@pytest.mark.parametrize(
    "variants",
    [
        ("Qibla", "Qiblah", "qiblah"),
        ("Haizum", "Hayzūm"),
        ("Aqil", "‘Aqeel", "`Aqil"),
        ("`Umar", "‘Umar", "'Umar", "Umar", "ʼUmar"),
        ("٣١٩", "319"),
        ("(ﷺ)", "(peace and blessings be upon him)", "(may Allah's peace and blessings be upon him)"),
        ("(may Allah be pleased with him)", "(Allah be pleased with them)", "رضي الله عنهم"),
    ],
)
def test_hadith_profile_gives_variants_one_key(variants):
    assert len({tuple(keys(v)) for v in variants}) == 1, [keys(v) for v in variants]


def test_exact_profile_keeps_words_apart():
    exact = profile_named("exact")
    assert tokenize("Qibla", exact)[0].key != tokenize("Qiblah", exact)[0].key


def test_unknown_profile_is_a_clear_error():
    with pytest.raises(InvalidInputError) as raised:
        profile_named("klingon", "edition.toml")
    assert raised.value.diagnostics[0].code == "C001"
    assert "hadith-en" in raised.value.diagnostics[0].hint


def test_every_profile_describes_itself():
    for profile in PROFILES.values():
        assert profile.summary().startswith(f"Profile {profile.name}:")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=40), st.lists(st.integers(0, 6), max_size=40))
def test_matched_pairs_are_an_increasing_common_subsequence(a, b):
    pairs = matched_pairs(a, b)
    assert all(a[i] == b[j] for i, j in pairs)
    assert all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in zip(pairs, pairs[1:]))


def test_identical_sequences_match_completely():
    sequence = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5] * 20
    assert matched_pairs(sequence, sequence) == [(n, n) for n in range(len(sequence))]


def test_canonical_order_ignores_the_order_given():
    witnesses = {"C": keys("a b c d"), "A": keys("a b x d"), "B": keys("a b c d e")}
    reordered = dict(reversed(list(witnesses.items())))
    assert canonical_order(witnesses, None) == canonical_order(reordered, None)
    assert canonical_order(witnesses, "A")[0] == "A"


def test_a_moved_block_is_found():
    base = "the Prophet looked at the Companions and then the Ansari related the whole event to him without any delay"
    moved = "the Prophet looked at the Companions and then without any delay the Ansari related the whole event to him"
    alignment = align({"A": keys(base), "B": keys(moved)})
    assert len(alignment.moves) == 1
    move = alignment.moves[0]
    assert [c.key for c in move.moved] == [c.key for c in move.original]
    assert {c.key for c in move.moved} & {"without", "delai", "ani"}


@pytest.mark.parametrize(
    "texts, moved",
    [
        (("a b", "b a"), [["a"], ["b"]]),
        (("X a b", "a b X"), [["x"]]),
        (("a b c", "b c a"), [["a"]]),
        (("and so Darly once died", "and so once Darly died"), [["darli"], ["once"]]),
        (("o is apokritheis eipen", "apokritheis o is eipen"), [["o", "is"], ["apokritheis"]]),
    ],
)
def test_a_move_of_one_or_two_words_is_found_where_unambiguous(texts, moved):
    """One move (of either witness's words: of two, which one moved is the alignment's choice)."""
    alignment = align({"A": keys(texts[0]), "B": keys(texts[1])})
    (move,) = alignment.moves
    assert [c.key for c in move.moved] == [c.key for c in move.original] and [c.key for c in move.moved] in moved


@pytest.mark.parametrize(
    "texts",
    [
        ("a b", "c a"),  # nothing moved: b dropped, c added
        ("the cat and the dog", "the dog and the cat"),  # words standing twice: no move of one place to another
        ("we may cut off their heads and then the others went home", "they may cut off their heads then we went"),
    ],
)
def test_no_short_move_where_it_is_ambiguous_or_far(texts):
    alignment = align({"A": keys(texts[0]), "B": keys(texts[1])})
    assert all(len(move.moved) >= 3 for move in alignment.moves)


def test_two_witnesses_that_share_one_order_are_not_linked_as_moved():
    """CollateX's MatchTableLinkerTest.testSuscepto: B and C read `tribus diebus somno/sompno suscepto` in one
    order (C lacks the words B has before it), so their words stand together and no move links them."""
    texts = {
        "A": "et sumpno suscepto tribus diebus morte morietur et deinde ab inferis regressus ad lucem veniet",
        "B": "et mortem sortis finiet post tridui somnum et morte morietur tribus diebus somno suscepto et tunc ab "
        "inferis regressus ad lucem veniet",
        "C": "et sortem mortis tribus diebus sompno suscepto et tunc ab inferis regressus ad lucem veniet",
    }
    alignment = align({wid: keys(text) for wid, text in texts.items()})
    assert not alignment.moves
    together = [
        c for c in alignment.columns if c.key in ("tribus", "diebus", "suscepto") and {"B", "C"} <= set(c.cells)
    ]
    assert len(together) == 3


def _text(words: str) -> Text:
    return Text(tuple(tokenize(words, HADITH)))


@pytest.mark.parametrize(
    ("reading", "reference", "expected"),
    [
        ("Qiblah.", "Qibla.", "orthographic"),
        ("‘Umar ", "`Umar ", "orthographic"),
        ("Qibla, ", "Qibla. ", "punctuation"),
        ("Qibla  ", "Qibla ", "whitespace"),
        ("(peace and blessings be upon him) ", "(ﷺ) ", "honorific"),
        ("", "(ﷺ) ", "honorific"),
        ("", "the polytheists ", "omission"),
        ("the polytheists ", "", "addition"),
        ("prisoners ", "captives ", "substitution"),
        ("two one ", "one two ", "transposition"),
        (
            "Abu Bakr opined that those were the Muslims' relatives ",
            "They are our kith and kin. I think you ",
            "paraphrase",
        ),
    ],
)
def test_reading_types(reading, reference, expected):
    assert reading_type(_text(reading), _text(reference), HADITH) == expected


def test_a_repeated_word_joins_the_run_it_agrees_with():
    """`εν εφεσω εν τω` against `εν τω`: the second `εν` stands beside `τω`, so it is the one matched."""
    a, b = [0, 1, 0, 2], [0, 2]
    assert matched_pairs(a, b) == [(2, 0), (3, 1)]
    assert matched_pairs(b, a) == [(0, 2), (1, 3)]
    assert runs_kept_together([(0, 0), (3, 1)], a, b) == [(2, 0), (3, 1)]
    assert runs_kept_together([(0, 0), (1, 1)], [5, 6, 5], [5, 6]) == [(0, 0), (1, 1)]  # a run stays


def test_repeated_words_in_a_collation_keep_runs_together():
    columns = align({"A": ["εν", "εφεσω", "εν", "τω"], "B": ["εν", "τω"]}, "A").columns
    assert [sorted(c.cells) for c in columns] == [["A"], ["A"], ["A", "B"], ["A", "B"]]


def test_a_repeated_word_leaves_room_for_the_others_columns():
    """`ο και την αγαπην την εις` against the columns `ος και την* αγαπην την εις*` (* shared by most):
    on the shared columns alone either `την` fits, and the one beside `εις` left the witness's `την
    αγαπην` no column; the first leaves `αγαπην την` for the columns several witnesses read."""
    columns = np.array([0, 1, 2, 3, 2, 4])  # ος και την αγαπην την εις
    strong = np.array([True, True, True, False, False, True])
    witness = [9, 1, 2, 3, 2, 4]  # ο και την αγαπην την εις
    assert supported_pairs(columns, strong, witness) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    # a column of one witness's own word is no agreement to make room for
    assert supported_pairs(columns, strong, witness, lambda i: strong[i]) == [(1, 1), (2, 4), (5, 5)]


def test_a_word_some_witnesses_read_joins_their_column_across_a_long_gap():
    """Most read `ημιν`, two `υμιν`, after a passage a third lacks: the third's `υμιν` joins theirs, not a
    column of its own beside it (the gap of the others' additions is past the length paired by likeness)."""
    passage = "τοις ανδρασιν εκ της σαρκος αυτου και εκ των οστεων αυτου οτι μελη εσμεν εν κυριω {} το μυστηριον"
    witnesses = {f"H{n}": passage.format("ημιν").split() for n in range(4)}
    witnesses |= {f"Y{n}": passage.format("υμιν").split() for n in range(2)}
    witnesses["Z"] = ["τοις", "ανδρασιν", "υμιν", "το", "μυστηριον"]
    columns = align(witnesses).columns
    assert [sorted(c.cells) for c in columns if "Y0" in c.cells and "H0" not in c.cells] == []
    assert next(sorted(c.cells) for c in columns if c.cells.get("Z") == 2) == sorted(witnesses)


def _transposed_readings(texts: dict[str, str]) -> list[list[dict[str, str]]]:
    """For each transpose of the collated TEI, the readings (witness -> text) of each unit it names."""
    witnesses = tuple(Witness(wid, wid, text) for wid, text in texts.items())
    tree = etree.fromstring(edition_bytes(collate(Work("moved", "Moved", base="A", witnesses=witnesses))))
    found = []
    for transpose in tree.iterfind(".//tei:transpose", NSMAP):
        units = []
        for pointer in transpose.iterfind("tei:ptr", NSMAP):
            (app,) = tree.xpath("//tei:app[@xml:id = $id]", namespaces=NSMAP, id=pointer.get("target")[1:])
            units.append(
                {
                    wid.lstrip("#"): "".join(reading.itertext()).strip()
                    for reading in app.iter(f"{{{NSMAP['tei']}}}lem", f"{{{NSMAP['tei']}}}rdg")
                    for wid in reading.get("wit", "").split()
                }
            )
        found.append(units)
    return found


def test_a_moved_block_is_linked_word_for_word_where_the_others_divide():
    """Where the block stood, C reads one of its words otherwise: the place is cut there, the block in B
    is cut at the same word, and each piece is linked to its own (readings of equal length)."""
    texts = {
        "A": "on that day the Ansari related the whole event to the Prophet without any delay or doubt and he said",
        "B": "on that day without any delay or doubt the Ansari related the whole event to the Prophet and he said",
        "C": "on that day the Ansari related the whole event to the Prophet without any pause or doubt and he said",
    }
    links = _transposed_readings(texts)
    assert len(links) == 3, links  # "without any", "delay" (C: "pause"), "or doubt"
    for stood, moved in links:
        assert stood["A"] and not moved["A"] and moved["B"] and not stood["B"]
        assert len(stood["A"].split()) == len(moved["B"].split()), (stood, moved)


def test_the_rest_of_a_moved_run_is_found_where_it_stood():
    """B reads in one place two blocks that A and C read in two places: each is linked to its own."""
    texts = {
        "A": "alpha bravo xray yankee zulu charlie delta echo foxtrot golf quebec romeo sierra hotel india juliet kilo",
        "B": "alpha bravo charlie delta echo foxtrot golf hotel india juliet xray yankee zulu quebec romeo sierra kilo",
        "C": "alpha bravo xray yankee zulu charlie delta echo foxtrot golf quebec romeo sierra hotel india juliet kilo",
    }
    moved = sorted(moved["B"] for _, moved in _transposed_readings(texts))
    assert moved == ["quebec romeo sierra", "xray yankee zulu"]


def test_a_moved_block_keeps_a_substituted_word_between_two_rare_ones():
    """Two rare words and a word substituted between them moved together: one block, linked word for word;
    with common words (`the ... of`), two matches and a substitution are no block."""
    texts = {
        "A": "on that day the kestrel falcon osprey flew over them and the men of the town looked up at it",
        "B": "on that day the flew over them and the men of the town looked up kestrel hawk osprey at it",
        "C": "on that day the kestrel falcon osprey flew over them and the men of the town looked up at it",
    }
    assert [(stood["A"], moved["B"]) for stood, moved in _transposed_readings(texts)] == [
        ("kestrel falcon osprey", "kestrel hawk osprey")
    ]
    common = {wid: text.replace("kestrel", "the").replace("osprey", "of") for wid, text in texts.items()}
    assert _transposed_readings(common) == []


def _paraphrase_containers(d_text: str) -> list:
    texts = {
        "A": "They marched out at dawn. On the road a voice called: Go ahead, Haizum! and the rider passed them.",
        "B": "They marched out at dawn. On the road they heard nothing, and the rider passed them.",
        "C": "They went out at dawn. On the road they heard nothing and the rider passed them.",
    }
    witnesses = [Witness(wid, wid, text) for wid, text in texts.items()]
    witnesses.append(Witness("D", "D", d_text, kind="paraphrase"))
    edition = collate(Work("stretch", "Stretch", base="A", profile="hadith-en", witnesses=tuple(witnesses)))
    return [part for part in edition.body if isinstance(part, VariationUnit)]


def test_a_paraphrase_that_spells_the_base_s_words_otherwise_is_typed_so():
    """D follows A word for word for four words and spells one otherwise: the stretch is a clause
    container of its own, D's reading typed orthographic against A's words; D's other words stay a
    paraphrase of their clause. Read with A's very letters, the stretch is no container of its own."""
    d_text = 'At first light the army set out, and a horseman called "Go ahead, Hayzūm." as the rider went by.'
    containers = _paraphrase_containers(d_text)
    (stretch,) = [unit for unit in containers if "Hayzūm" in text_read(unit.readings()[-1].content, "D")]
    assert text_read(stretch.readings()[0].content, "A") == "called: Go ahead, Haizum! "
    (group,) = [entry for entry in stretch.entries if isinstance(entry, ReadingGroup)]
    assert group.type == "orthographic" and group.readings[0].content == ('called "Go ahead, Hayzūm." ',)
    assert any(reading.type == "paraphrase" for unit in containers for reading in unit.readings()[1:])
    same_letters = _paraphrase_containers(d_text.replace('"Go ahead, Hayzūm."', "Go ahead, Haizum!"))
    assert len(same_letters) < len(containers)
    assert not any(isinstance(entry, ReadingGroup) for unit in same_letters for entry in unit.entries)
