"""Writes one witness as its own TEI document, losslessly: the text rebuilds byte for byte.

Encoding practice (also stated in each document's editorialDecl):
- the text is cut into paragraphs after each run of line breaks; every <p> keeps its line breaks at its end,
  so the witness text is the concatenation of the string values of the <p> elements of <body>;
- a narration whose chain of narrators is recognised (tei.hadith.parts) is cut first into
  <div type="isnad"> and <div type="matn">, and <div type="commentary"> for the compiler's words after the
  text (a grading, «وفي الباب», further chains), each holding the paragraphs of its part; in every Arabic chain each
  narrator's name is a <persName type="narrator">, each transmission term (حدثنا، عن، قال ...) a
  <seg type="transmission"> and the switch to another chain (ح) a <seg type="tahwil">;
- runs of Arabic script are wrapped in <foreign xml:lang="ar">; honorific formulas in <seg type="eulogy">,
  a chain reported inside the text in <seg type="isnad">, Qur'an citations in <ref type="quran" cRef="8:9">
  (tei.writers.marked_text, tei.hadith.markup), declared by a refsDecl in the header;
- a character that XML cannot hold is refused, or, with `map_invalid`, written as
  <g type="char" n="U+XXXX"/> and restored from @n when the text is rebuilt.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from lxml import etree

from tei import __version__
from tei.diagnostics import error, line_and_column
from tei.errors import InvalidInputError
from tei.hadith.markup import divisions, link_spans, quran_refs_decl, with_links, wording_note
from tei.model import Witness, Work
from tei.outputs import sha256
from tei.text.scripts import ARABIC_LETTER
from tei.writers.marked_text import XML_ILLEGAL, write_marked
from tei.xmlio import TEI_NS, base_url, indent, readable, serialise, tei, xml

PARAGRAPH = re.compile(r"[^\n]*\n*")
TEXT_CONTAINERS = frozenset({tei("p"), tei("note")})  # never indented: their text counts
LANGUAGE_NAMES = {"en": "English", "ar": "Arabic"}
EDITORIAL_PRACTICE = (
    "Lossless transcription. The witness text is the concatenation of the string values of the p "
    "elements of the body, in document order; each p ends with the line breaks that follow it in the "
    "source. A narration whose chain of narrators is recognised is divided into a div of type isnad and a "
    "div of type matn, and a div of type commentary for the compiler's words after the text, each holding the "
    "paragraphs of its part; in an Arabic chain narrators are persName of type "
    "narrator, transmission terms seg of type transmission and the switch to another chain (ha) seg of type "
    "tahwil. Runs of Arabic script are marked as "
    'foreign with xml:lang="ar"; honorific formulas as seg of type eulogy; a chain of narrators reported '
    "inside the text as seg of type isnad; Qur'an citations as ref of type "
    "quran with a canonical cRef (see refsDecl). An element g of type char "
    "stands for the one character named in its n attribute (U+XXXX), which XML cannot hold."
)


def illegal_characters(witness: Witness):
    """Yield (offset, character) for every character that XML 1.0 cannot hold."""
    for match in XML_ILLEGAL.finditer(witness.text):
        yield match.start(), match.group()


def refuse_illegal_characters(witness: Witness) -> None:
    for offset, char in illegal_characters(witness):
        line, column = line_and_column(witness.text, offset)
        raise InvalidInputError(
            error(
                "T002",
                f"character U+{ord(char):04X} cannot appear in XML",
                witness.source or witness.id,
                line,
                column,
                hint='remove it, or pass --map-invalid-chars to encode it as <g type="char"/>',
            )
        )


def paragraphs(text: str) -> list[str]:
    """The text cut after each run of line breaks; joined again they give the text unchanged."""
    return [chunk for chunk in PARAGRAPH.findall(text) if chunk] or [""]


def transcription_tree(witness: Witness, work: Work, output: Path | None = None, map_invalid: bool = False):
    if not map_invalid:
        refuse_illegal_characters(witness)
    root = etree.Element(tei("TEI"), nsmap={None: TEI_NS})
    root.set(xml("lang"), witness.language)
    root.append(_header(witness, work, output))
    text = etree.SubElement(root, tei("text"))
    text.set(xml("lang"), witness.language)
    body = etree.SubElement(text, tei("body"))
    cut = divisions(witness.text, witness.language)
    if len(cut) > 1:  # isnad, matn, and the compiler's words after the text (commentary)
        parts = [(etree.SubElement(body, tei("div"), type=kind), witness.text[start:end]) for kind, start, end in cut]
    else:
        parts = [(body, witness.text)]
    number, offset = 0, 0
    links = link_spans(witness.text, witness.language, work.narrators)  # narrators, terms and ح of every chain
    for container, part in parts:
        for chunk in paragraphs(part):
            number += 1
            paragraph = etree.SubElement(container, tei("p"))
            paragraph.set(xml("id"), f"{witness.id}-p{number}")
            paragraph.set(xml("space"), "preserve")
            write_marked(paragraph, None, chunk, witness.language, with_links(links, offset))
            offset += len(chunk)
    if next(body.iter(tei("ref")), None) is not None:
        root.find(f"{tei('teiHeader')}/{tei('encodingDesc')}").append(quran_refs_decl())
    indent(root, TEXT_CONTAINERS)
    return etree.ElementTree(root)


def transcription_bytes(
    witness: Witness,
    work: Work,
    output: Path | None = None,
    map_invalid: bool = False,
    schema_href: str | None = None,
) -> bytes:
    """The transcription file; with `schema_href` (relative to the file) it names its schema in <?xml-model?>."""
    return serialise(transcription_tree(witness, work, output, map_invalid), schema_href)


def _header(witness: Witness, work: Work, output: Path | None) -> etree._Element:
    header = etree.Element(tei("teiHeader"))
    file_desc = etree.SubElement(header, tei("fileDesc"))
    title_stmt = etree.SubElement(file_desc, tei("titleStmt"))
    etree.SubElement(title_stmt, tei("title")).text = work.title
    sub = etree.SubElement(title_stmt, tei("title"), type="sub")
    sub.text = f"Witness {witness.siglum}: transcription"
    publication = etree.SubElement(file_desc, tei("publicationStmt"))
    etree.SubElement(publication, tei("p")).text = f"Generated by tei-edition {__version__}; not published."
    source_desc = etree.SubElement(file_desc, tei("sourceDesc"))
    bibl = etree.SubElement(source_desc, tei("bibl"), n=witness.siglum)
    bibl.set(xml("id"), witness.id)
    if witness.source and witness.source != "-":
        ref = etree.SubElement(bibl, tei("ref"), target=base_url(_relative(witness.source, output)))
        ref.text = readable(Path(witness.source).name)
    for kind, number in witness.references:
        etree.SubElement(bibl, tei("idno"), type=kind).text = number
    digest = etree.SubElement(bibl, tei("idno"), type="sha256")
    digest.text = sha256(witness.text.encode("utf-8"))
    if witness.description:
        write_marked(etree.SubElement(bibl, tei("note")), None, witness.description, work.language)
    if wording := wording_note(witness.text, witness.language):  # whose wording the text follows
        note = etree.SubElement(bibl, tei("note"), type="wording")
        note.set(xml("lang"), "en")
        write_marked(note, None, wording, "en")
    encoding = etree.SubElement(header, tei("encodingDesc"))
    editorial = etree.SubElement(encoding, tei("editorialDecl"))
    etree.SubElement(editorial, tei("p")).text = EDITORIAL_PRACTICE
    languages = etree.SubElement(etree.SubElement(header, tei("profileDesc")), tei("langUsage"))
    for code in sorted({witness.language} | ({"ar"} if ARABIC_LETTER.search(witness.text) else set())):
        etree.SubElement(languages, tei("language"), ident=code).text = LANGUAGE_NAMES.get(code, code)
    return header


def _relative(source: str, output: Path | None) -> str:
    if output is None:
        return Path(source).name
    return Path(os.path.relpath(Path(source).absolute(), Path(output).absolute().parent)).as_posix()
