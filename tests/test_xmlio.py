"""The safe parser: located syntax errors, refused entity declarations, bounded depth, no file or network access."""

import pytest

from tei.errors import InvalidInputError
from tei.xmlio import parse_bytes

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<lolz>&lol3;</lolz>"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY secret SYSTEM "file:///etc/passwd">]><r>&secret;</r>"""
EXTERNAL_DTD = b"""<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://example.invalid/r.dtd"><r>ok</r>"""


def codes(excinfo):
    return [d.code for d in excinfo.value.diagnostics]


def test_syntax_error_has_line_and_column():
    with pytest.raises(InvalidInputError) as excinfo:
        parse_bytes(b"<a>\n  <b>\n</a>", "broken.xml")
    (diagnostic,) = excinfo.value.diagnostics
    assert diagnostic.code == "X001" and diagnostic.file == "broken.xml"
    assert diagnostic.line == 3 and diagnostic.column is not None


def test_an_external_entity_is_refused():
    with pytest.raises(InvalidInputError) as excinfo:
        parse_bytes(EXTERNAL_ENTITY, "attack.xml")
    assert codes(excinfo) == ["X002"]


def test_internal_entities_are_read_as_older_projects_declare_them():
    document = (
        b'<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY gd "&#x1E0D;"><!ENTITY m "a<hi>b</hi>&gd;">]>\n'
        b'<TEI xmlns="http://www.tei-c.org/ns/1.0">&gd;&m;</TEI>'
    )
    root = parse_bytes(document, "old.xml").getroot()
    assert "".join(root.itertext()) == "\u1e0dab\u1e0d" and root[0].tag.endswith("hi")
    assert parse_bytes(BILLION_LAUGHS, "small.xml").getroot().text == "lol" * 100  # small: within the bounds


@pytest.mark.parametrize("size, refs", [(100_000, 20_000), (4_000, 5_000)], ids=["quadratic", "over-the-cap"])
def test_an_expansion_past_the_bounds_is_refused_before_it_is_made(size, refs):
    document = f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "{"x" * size}">]>\n<r>{"&a;" * refs}</r>'.encode()
    with pytest.raises(InvalidInputError) as excinfo:
        parse_bytes(document, "blowup.xml")
    assert codes(excinfo) in (["X001"], ["X003"])  # libxml2's amplification limit, or ours


def test_external_dtd_is_not_loaded():
    tree = parse_bytes(EXTERNAL_DTD, "dtd.xml")
    assert tree.getroot().text == "ok"


def test_excessive_depth_is_a_located_error():
    depth = 5000
    with pytest.raises(InvalidInputError) as excinfo:
        parse_bytes(b"<a>" * depth + b"</a>" * depth, "deep.xml")
    assert codes(excinfo) == ["X001"]
    assert "depth" in excinfo.value.diagnostics[0].message.lower()


def test_line_numbers_are_kept():
    tree = parse_bytes(b"<a>\n\n<b/></a>", "lines.xml")
    assert tree.getroot()[0].sourceline == 3


@pytest.mark.parametrize(
    ("document", "words", "line", "column"),
    [
        (b"<a>fish & chips</a>", "a bare '&': write &amp; for an ampersand", 1, 10),
        (b"<a>\n<b>\n</a>", "the end tag </a> does not close <b>, opened on line 2", 3, 5),
        (b"<a>1 < 2</a>", "a '<' that starts no tag: write &lt; for a less-than sign", 1, 7),
        (b"<a>&nbsp;</a>", "&nbsp; is not an XML entity", 1, 10),
        (b'<a x="1" x="2"/>', "the attribute x is given twice in this tag", 1, 15),
    ],
)
def test_well_formedness_errors_are_said_in_plain_words(document, words, line, column):
    with pytest.raises(InvalidInputError) as excinfo:
        parse_bytes(document, "hand.xml")
    (diagnostic,) = excinfo.value.diagnostics
    assert diagnostic.code == "X001" and words in diagnostic.message
    assert (diagnostic.line, diagnostic.column) == (line, column)
    assert diagnostic.hint.startswith("the parser: ")  # libxml2's own words stay available
