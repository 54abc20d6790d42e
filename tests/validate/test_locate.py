"""RELAX NG errors where and as jing reports them (tei/validate/locate.py, relaxng.py, xsd_datatypes.py).

The derivative engine must give libxml2's verdict (property, on the project grammar), and its first error
must be jing's, line and column, on mutated editions (project grammar) and mutated corpus documents
(tei_all), each set checked by one jing run.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from paths import FIXTURES
from validate import jing_runs
from validate.corpus_sweeps import kind, swept_documents
from validate.validate_mutations import variants

from tei.validate import project_schema
from tei.validate.document import read_document
from tei.validate.locate import EXPECTED_NAMES_SHOWN, errors
from tei.validate.relaxng_grammar import Grammar
from tei.validate.schema import load_schema
from tei.validate.xsd_datatypes import XSD_LIBRARY, _pattern, _simple_translation, datatype
from tei.xmlio import TEI_NS, XI_NS

MINI = FIXTURES / "editions" / "mini.xml"
PROJECT_GRAMMAR = etree.parse(str(project_schema())).getroot()
LIBXML2 = etree.RelaxNG(etree.ElementTree(PROJECT_GRAMMAR))
DERIVATIVES = Grammar(PROJECT_GRAMMAR)


FirstError = tuple[int, int, str] | None  # line, column and message in our words; None: valid
_EXPECTED_NAMES = re.compile(
    r'element ((?:"[^"]*"(?:, | or ))*"[^"]*")(?= \(with [^)]*\)$| or an element from another namespace$|$)'
)


def in_our_words(message: str) -> str:
    """A RELAX NG message as `tei validate` words it: jing's, but with a long list of expected elements cut
    after a dozen ("or 40 more"), and an attribute error naming its element instead of listing the
    attributes that were expected (so both messages are compared up to there)."""
    if message.startswith(("attribute ", "value of attribute ")):
        return re.split(r"; | \(element ", message)[0]

    def cut(names: re.Match) -> str:
        quoted = re.findall(r'"[^"]*"', names[1])
        if len(quoted) <= EXPECTED_NAMES_SHOWN:
            return names[0]
        shown = quoted[:EXPECTED_NAMES_SHOWN]
        return f"element {', '.join(shown)} or {len(quoted) - EXPECTED_NAMES_SHOWN} more"

    return _EXPECTED_NAMES.sub(cut, message)


def jing_first_errors(jing: str, schema: Path, documents: list[Path]) -> dict[str, FirstError]:
    """jing's first error in each document: line, column and message."""
    found = jing_runs.jing_first_errors(jing, schema, documents)
    return {
        str(d): None if found[d] is None else (found[d].line, found[d].column, in_our_words(found[d].message))
        for d in documents
    }


def our_first_errors(schema: Path, documents: list[Path]) -> dict[str, FirstError]:
    (grammar, *_rules) = load_schema(schema)
    first = {}
    for document in documents:
        found = list(grammar.check(read_document(document), str(document)))
        first[str(document)] = (found[0].line, found[0].column, in_our_words(found[0].message)) if found else None
    return first


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_derivatives_give_libxml2s_verdict(seed):
    (data,) = variants(etree.parse(str(MINI)), 1, seed)
    document = etree.ElementTree(etree.fromstring(data))
    assert (errors(DERIVATIVES, document) == []) == LIBXML2.validate(document)


def handmade_variants(folder: Path) -> list[Path]:
    """Errors in the places where jing's positions are particular: a start tag over several lines, text
    that is not allowed (reported where it ends: at a tag or a comment), an incomplete empty-element tag,
    typed content, lines ended by CR alone, files in UTF-16 and Latin-1."""
    text = MINI.read_text(encoding="utf-8")
    edits = {
        "multiline_start_tag": ("<app", '<app\n     bogus="1"\n    '),
        "text_not_allowed": ("<app", "stray words <app"),
        "text_before_a_comment": ("<listWit", "stray<!-- a comment -->\n<listWit"),
        "text_in_typed_content": ("</title>", "<date when='yesterday'>5 May</date></title>"),
        "empty_element_incomplete": ("<listWit", "<listWit/><listWit"),
        "unknown_element": ("<lem", "<unknown/><lem"),
    }
    paths = []
    for name, (old, new) in edits.items():
        assert old in text, name
        path = folder / f"{name}.xml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        paths.append(path)
    # Lines ended by a lone CR (counted as lines by jing, not by libxml2), and the same in UTF-16 and in
    # Latin-1 (positions counted in characters of the decoded text), each with an error after the first line.
    spoiled = text.replace("<app", '<app\n     bogus="1"\n    ', 1)
    for name, encoding in (("cr_lines", "utf-8"), ("cr_lines_utf16", "utf-16"), ("cr_lines_latin1", "iso-8859-1")):
        path = folder / f"{name}.xml"
        declared = spoiled.replace("encoding='UTF-8'", f"encoding='{encoding.upper()}'", 1)
        path.write_bytes(declared.replace("\n", "\r").encode(encoding, "xmlcharrefreplace"))
        paths.append(path)
    return paths


def test_the_first_error_is_jings_on_mutated_editions(jing, tmp_path):
    documents = handmade_variants(tmp_path)
    for number, data in enumerate(variants(etree.parse(str(MINI)), 120, seed=11)):
        documents.append(tmp_path / f"variant-{number:03}.xml")
        documents[-1].write_bytes(data)
    theirs = jing_first_errors(jing, project_schema(), documents)
    assert sum(v is not None for v in theirs.values()) >= 40
    assert our_first_errors(project_schema(), documents) == theirs


def mutated_corpus_documents(shared_dir: Path, folder: Path, count: int, seed: int) -> list[Path]:
    """Corpus TEI documents with one or two random edits: elements renamed to any tei_all element,
    removed, inserted or moved; attributes added or spoiled; text put where it may not be.

    The sources are the TEI documents of the TEI folders (corpus_sweeps.py: never peer-suites/) that jing
    reads alone: one that names a DTD or XIncludes a file makes jing load that file (relative to the copy,
    where it is not), which is no question for the grammar; such documents are compared with jing whole,
    where they are, in test_tei_all.py."""
    sources, outside = [], []
    for path in swept_documents(shared_dir / "corpora"):
        if kind(path) != "tei" or path.stat().st_size >= 1_000_000:
            continue
        tree = etree.parse(str(path))
        if tree.docinfo.system_url or next(tree.getroot().iter(f"{{{XI_NS}}}include"), None) is not None:
            outside.append(path.name)
        else:
            sources.append(tree)
    assert len(sources) >= 20 and len(outside) <= 2, outside
    grammar = etree.parse(str(shared_dir / "corpora" / "tei-p5-schema" / "4.12.0" / "tei_all.rng")).getroot()
    names = sorted(
        {
            e.get("name")
            for e in grammar.iter("{http://relaxng.org/ns/structure/1.0}element")
            if e.get("name") and ":" not in e.get("name")
        }
    )
    rng = random.Random(seed)
    documents = []
    for number in range(count):
        tree = etree.ElementTree(etree.fromstring(etree.tostring(rng.choice(sources))))
        elements = [e for e in tree.iter() if isinstance(e.tag, str) and e.getparent() is not None]
        for _ in range(rng.randint(1, 2)):
            _edit(rng, rng.choice(elements), names)
        documents.append(folder / f"corpus-variant-{number:03}.xml")
        tree.write(str(documents[-1]), encoding="utf-8", xml_declaration=True)
    return documents


def _edit(rng: random.Random, element: etree._Element, names: list[str]) -> None:
    parent = element.getparent()
    if parent is None:
        return
    edit = rng.randrange(6)
    if edit == 0:
        element.tag = f"{{{TEI_NS}}}{rng.choice(names)}"
    elif edit == 1:
        parent.remove(element)
    elif edit == 2:
        element.insert(rng.randint(0, len(element)), etree.Element(f"{{{TEI_NS}}}{rng.choice(names)}"))
    elif edit == 3:
        element.set(
            rng.choice(["type", "when", "n", "bogus", "notBefore", "target", "cert"]),
            rng.choice(["x y", "12", "", "#a #b", "high"]),
        )
    elif edit == 4:
        parent.remove(element)
        parent.insert(rng.randint(0, len(parent)), element)
    else:
        element.text = rng.choice(["text", " ", "12", (element.text or "") + "x"])


def test_the_first_error_is_jings_on_mutated_corpus_documents(shared_dir, jing, tei_all_rng, tmp_path):
    documents = mutated_corpus_documents(shared_dir, tmp_path, 120, seed=5)
    theirs = jing_first_errors(jing, tei_all_rng, documents)
    assert sum(v is not None for v in theirs.values()) >= 60
    assert our_first_errors(tei_all_rng, documents) == theirs


def test_a_document_without_a_file_is_located_by_its_element_lines():
    document = etree.ElementTree(etree.fromstring(MINI.read_bytes().replace(b"<lem", b"<unknown/><lem", 1)))
    (first, *_rest) = errors(DERIVATIVES, document)
    assert first.line == next(document.iter(f"{{{TEI_NS}}}unknown")).sourceline and first.column is None
    assert first.message.startswith('element "unknown" not allowed anywhere')  # as jing says of unknown names


def test_a_document_without_a_file_gets_the_same_words(tmp_path):
    """The events read from the tree (no file to read positions from) carry the same names and namespace
    prefixes as those read from the bytes, so the messages are the same."""
    text = MINI.read_text(encoding="utf-8")
    text = text.replace("<lem", '<x:note xmlns:x="urn:x"/><lem', 1).replace("<listWit", "<listWit><x:p/>", 1)
    text = text.replace("<TEI ", '<TEI xmlns:x="urn:other" ', 1)
    path = tmp_path / "prefixed.xml"
    path.write_text(text, encoding="utf-8")
    from_file = errors(DERIVATIVES, read_document(path))
    from_tree = errors(DERIVATIVES, etree.ElementTree(etree.fromstring(text.encode())))
    assert len(from_file) >= 2 and [e.message for e in from_tree] == [e.message for e in from_file]
    assert from_file[0].message.startswith('element "x:p" not allowed anywhere')


def test_a_grammar_that_includes_another_file_is_placed_and_worded_as_jing(tmp_path):
    """An include is followed (relaxng_grammar.py): the error where and as jing gives it (jing: 1:8)."""
    rng = 'xmlns="http://relaxng.org/ns/structure/1.0"'
    (tmp_path / "start.rng").write_text(f'<grammar {rng}><start><element name="a"><empty/></element></start></grammar>')
    (tmp_path / "main.rng").write_text(f'<grammar {rng}><include href="start.rng"/></grammar>')
    (tmp_path / "doc.xml").write_text("<a><b/></a>")
    (grammar,) = load_schema(tmp_path / "main.rng")
    (found,) = grammar.check(read_document(tmp_path / "doc.xml"), "doc.xml")
    assert (found.code, found.line, found.column) == ("RNG", 1, 8)
    assert found.message == 'element "b" not allowed anywhere; expected the element end-tag'


TEI_PATTERNS = (  # every pattern facet of tei_all 4.12.0
    r"\S+",
    r"[^\p{C}\p{Z}]+",
    r"(\-?[\d]+/\-?[\d]+)",
    r"[\d]+[a-z]*[\d]*(\.[\d]+[a-z]*[\d]*){0,3}",
    r"[\-+]?\d+(\.\d+)?(%|cm|mm|in|pt|pc|px|em|ex|ch|rem|vw|vh|vmin|vmax)",
    r"[0-9.,DHMPRSTWYZ/:+\-]+",
    r"[\d]+(\.[\d]+){0,2}",
    r".+",
    r"[a-z][a-z0-9\+\.\-]*",
    r"(-?[0-9]+(\.[0-9]+)?,-?[0-9]+(\.[0-9]+)?(,-?[0-9]+(\.[0-9]+)?)?)",
    r"(19[789][0-9]|[2-9][0-9]{3}).*",
    r"[^/\s]+:\S*",
    r".+:.+",
)


@settings(max_examples=300, deadline=None)
@given(
    value=st.text(alphabet=st.sampled_from(list("az09 .,-+:/%\t\n\u200f\u0661ب")), max_size=12),
    expression=st.sampled_from(TEI_PATTERNS),
)
def test_the_quick_translation_of_schema_patterns_matches_elementpaths(value, expression):
    assert _simple_translation(expression) is not None
    complete = elementpaths_translation(expression)
    assert bool(_pattern(expression)(value)) == bool(complete.search(value)), (expression, value)


@cache
def elementpaths_translation(expression: str) -> re.Pattern:
    """elementpath's translation of a schema pattern, made once an expression (it is the same each time; that
    of [^\\p{C}\\p{Z}]+ takes 0.1 s, most of the 300 examples' time when made for each)."""
    from elementpath.regex import translate_pattern

    return re.compile(translate_pattern(expression, anchors=False))


def test_schema_white_space_is_four_characters_only():
    """XML Schema's \\s is space, tab, CR and LF: a no-break space is \\S (jing agrees; Python's \\s does not)."""
    assert _pattern(r"\S+")("a\u00a0b") and not _pattern(r"\S+")("a b")


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("gYear", "50", False),
        ("gYear", "-0384", True),
        ("gYear", "0000", False),
        ("date", "2024-05-01", True),
        ("date", "yesterday", False),
        ("boolean", "1", True),
        ("boolean", "yes", False),
        ("nonNegativeInteger", "-1", False),
        ("nonNegativeInteger", " 7 ", True),
        ("decimal", "1.", True),
        ("NCName", "a:b", False),
        ("language", "not a language", False),
        ("anyURI", "%zz", False),
        ("date", "2024-02-29", True),
        ("date", "2023-02-29", False),
        ("date", "2024-04-31", False),
        ("gMonthDay", "--02-29", True),
        ("dateTime", "2024-05-01T24:00:00Z", True),
        ("time", "25:00:00", False),
        ("Name", "tei:p", True),
        ("NCName", "_x-1.\u00b7", True),
        ("ID", "1x", False),
        ("duration", "P1Y2MT3H", True),
        ("duration", "PT", False),
        ("gMonth", "--13", False),
        ("NMTOKENS", "a b", True),
    ],
)
def test_xml_schema_datatypes(name, value, allowed):
    assert datatype(XSD_LIBRARY, name, ()).allows(value) is allowed


def test_facets_given_as_parameters():
    percent = datatype(XSD_LIBRARY, "double", (("minInclusive", "0"), ("maxInclusive", "1")))
    assert [percent.allows(v) for v in ("0.5", "1", "1.5", "NaN", "x")] == [True, True, False, False, False]
    word = datatype(XSD_LIBRARY, "token", (("pattern", r"[^\p{C}\p{Z}]+"),))
    assert [word.allows(v) for v in ("word", " word ", "two words")] == [True, True, False]
