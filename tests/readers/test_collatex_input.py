"""CollateX witness input (plain content and pre-tokenised) read into the model, from the shared samples."""

from __future__ import annotations

import json

import pytest

from tei.errors import TeiError
from tei.readers.collatex import read_witness_input


@pytest.fixture(scope="module")
def witnesses_dir(shared_dir):
    return shared_dir / "corpora" / "collation-witnesses"


def test_plain_content_is_kept_exactly(witnesses_dir):
    path = witnesses_dir / "collatex_darwin_chapter1_para1.json"
    (work,) = read_witness_input(path)
    source = json.loads(path.read_text("utf-8"))["witnesses"]
    assert (
        [w.siglum for w in work.witnesses]
        == [w["id"] for w in source]
        == ["1859", "1860", "1861", "1866", "1869", "1872"]
    )
    assert [w.text for w in work.witnesses] == [w["content"] for w in source]
    assert work.witnesses[0].id == "w1859"  # an xml:id cannot start with a digit


def test_a_list_of_collations_is_one_work_each(witnesses_dir):
    works = read_witness_input(witnesses_dir / "collatex_darwin_chapters.json")
    assert len(works) == 47 and {len(w.witnesses) for w in works} == {2, 6}


def test_bare_tokens_are_separated_by_one_space(witnesses_dir):
    (work,) = read_witness_input(witnesses_dir / "collatex_fixture_base-4w.json")
    assert [(w.id, w.text) for w in work.witnesses][:2] == [("doc1", "A X1 Z "), ("doc2", "A H2 Z ")]


def test_rich_tokens_use_their_t(witnesses_dir):
    (work,) = read_witness_input(witnesses_dir / "stemmaweb_testwit.json")
    witness = work.witnesses[0]
    assert witness.id == "MsAJ" and witness.text.startswith("Արդ մինչև ցայս վայրս")


@pytest.mark.parametrize(
    "content, code",
    [
        (b"{", "CX001"),
        (b'{"witnesses": [{"content": "x"}]}', "CX002"),
        (b'{"witnesses": [{"id": "A"}]}', "CX002"),
        (b'{"witnesses": [{"id": "A", "tokens": [{"n": "x"}]}]}', "CX002"),
        (b"\xff", "CX001"),
    ],
)
def test_bad_input_is_one_located_diagnostic(tmp_path, content, code):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(TeiError) as refused:
        read_witness_input(path)
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.code == code and diagnostic.file == str(path)


def _collated_columns(tmp_path, data) -> list[list[str]]:
    """The witnesses' readings, unit by unit, of the TEI `tei convert` makes of CollateX witness input."""
    from tei.app.convert import collatex_tree
    from tei.apparatus import follow
    from tei.xmlio import NSMAP

    path = tmp_path / "input.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    tree = collatex_tree(path)
    body = tree.getroot().find(".//tei:body", NSMAP)
    sigla = [w["id"] for w in data["witnesses"]]
    paths = {s: follow(body, s) for s in sigla}
    texts = {s: "".join(p.parts) for s, p in paths.items()}
    return [
        [texts[s][p.offset : p.end] for s, path in paths.items() for p in path.passages[k : k + 1]]
        for k in range(len(paths[sigla[0]].passages))
    ]


def test_the_normalised_form_n_is_the_comparison_key(tmp_path):
    """CollateX's own test (test_tokenized_json): B's `kitten.` with n `cat` aligns with A's `cat`."""
    data = {
        "witnesses": [
            {"id": "A", "tokens": [{"t": "A"}, {"t": "black"}, {"t": "cat"}]},
            {"id": "B", "tokens": [{"t": "A"}, {"t": "white"}, {"t": "kitten.", "n": "cat"}]},
        ]
    }
    (work,) = read_witness_input_from(tmp_path, data)
    assert work.witnesses[1].tokens[2] == ("kitten. ", "cat")
    assert _collated_columns(tmp_path, data) == [["black ", "white "], ["cat ", "kitten. "]]


def test_given_tokens_are_not_cut_again(tmp_path):
    """`mouse` and `dog ` are two tokens: the text reads `mousedog bird`, and B's `dog` still aligns."""
    data = {
        "witnesses": [
            {"id": "A", "tokens": [{"t": "mouse"}, {"t": "dog "}, {"t": "bird"}]},
            {"id": "B", "tokens": [{"t": "dog "}, {"t": "bird"}]},
        ]
    }
    (work,) = read_witness_input_from(tmp_path, data)
    assert work.witnesses[0].text == "mousedog bird"
    assert _collated_columns(tmp_path, data) == [["mouse", ""]]


def read_witness_input_from(tmp_path, data):
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return read_witness_input(path)
