"""Writes an Edition as edition.xml: TEI parallel segmentation exactly as docs/edition-format.md describes it.

Every app and its readings stand on lines of their own for people, but the writer never adds a
character to a text node outside app/rdgGrp (the ab is xml:space="preserve"), so each witness's text
rebuilds from the file byte for byte. Characters XML cannot hold are written as <g type="char"/>, and
Arabic runs in an edition of another language as <foreign xml:lang="ar"> (tei.writers.marked_text).
A text collated in sections (a hadith's isnad and matn) is one <ab type="..."> per section; a Qur'an
citation that stands inside one stretch of text is written as <ref type="quran" cRef="8:9">, declared
by a refsDecl in the header.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lxml import etree

from tei import __version__
from tei.apparatus.citation import refs_decl
from tei.hadith.markup import (
    edition_spans,
    isnad_spans,
    narrator_names,
    quoted_verses,
    quran_refs_decl,
    transmission_terms,
    wording_note,
)
from tei.model import Edition, Reading, ReadingGroup, VariationUnit, Witness
from tei.text.normalize import profile_named
from tei.writers.marked_text import write_marked
from tei.writers.marks import COLLATED, Placer
from tei.xmlio import TEI_NS, indent, serialise, tei, xml

INDENT = "  "
MIXED_CONTENT = frozenset(tei(t) for t in ("ab", "witness", "p", "catDesc"))  # never indented: text counts
AB_LEVEL = 3  # TEI > text > body > ab
READING_TYPES = (
    ("substitution", "substantive: different words in the same place"),
    ("omission", "substantive: the witness has nothing here"),
    ("addition", "substantive: the witness has words the others lack"),
    ("transposition", "substantive: the same words in another order"),
    ("paraphrase", "substantive: a whole phrase or sentence said otherwise"),
    ("vocalisation", "the same letters, other harakat where both are written: case ending, voice, mood (grammar)"),
    ("orthographic", "not substantive: spelling, transliteration, case, quote marks, harakat one side leaves out"),
    ("honorific", "not substantive: a different eulogy formula"),
    ("particle", "not substantive: an attached particle (و ف ب ل ك ال) more or less"),
    ("punctuation", "not substantive: punctuation only"),
    ("whitespace", "not substantive: spacing and line breaks only"),
)


@dataclass(frozen=True)
class EditionOptions:
    """Where the edition points: its schema (for <?xml-model?>) and each witness's transcription."""

    schema_href: str | None = None  # None: no <?xml-model?> processing instructions (see edition_bytes)
    transcriptions: dict[str, str] = field(default_factory=dict)  # witness id -> target, relative to the file


def edition_bytes(edition: Edition, options: EditionOptions = EditionOptions()) -> bytes:
    """The file: XML declaration, one <?xml-model?> per line when a schema is named, then the document."""
    return serialise(edition_tree(edition, options), options.schema_href)


def edition_tree(edition: Edition, options: EditionOptions = EditionOptions()) -> etree._ElementTree:
    work = edition.work
    root = etree.Element(tei("TEI"), nsmap={None: TEI_NS})
    taken = {w.id for w in work.witnesses} | {name for name, _ in READING_TYPES} | {r.id for r in work.regularisations}
    if work.id not in taken:  # the edition's identifier (its DTS resource, tei.render.dts), where it is free
        root.set(xml("id"), work.id)
    root.set(xml("lang"), work.language)
    root.append(_header(edition, options))
    body = etree.SubElement(etree.SubElement(root, tei("text")), tei("body"))
    marked = any(w.scholarly for w in work.witnesses)  # scholars' transcriptions: their markup and hands
    placer = Placer(work, options.transcriptions) if marked else None
    scope = tuple(w.id for w in work.witnesses)
    texts = [w.text for w in work.witnesses if w.language == "ar"]  # names (@ref: [hadith] narrators), terms, verses
    verses = quoted_verses(texts)
    for section in edition.sections():
        ab = etree.SubElement(body, tei("ab"))
        ab.set(xml("id"), f"{work.id}-{section.type or 'text'}")
        if section.type:
            ab.set("type", section.type)  # isnad, matn, commentary: each collated on its own
        ab.set(xml("space"), "preserve")
        find = isnad_spans(frozenset(), quotations=verses) if verses else edition_spans  # each quotation whole
        if section.type in ("isnad", "commentary"):  # the narrators of every chain, as in the transcriptions
            find = isnad_spans(narrator_names(texts), work.narrators, transmission_terms(texts), verses)
        _fill(ab, section.body, AB_LEVEL, work.language, find, placer, scope)
        if placer is not None:  # what stands at the very end of a witness (a last lacuna, a last line)
            placer.write(ab, ab[-1] if len(ab) else None, "", scope, work.language, find, set())
    if next(body.iter(tei("ref")), None) is not None:
        root.find(f"{tei('teiHeader')}/{tei('encodingDesc')}").append(quran_refs_decl())
    if edition.transpositions:
        transpositions = etree.SubElement(body, tei("listTranspose"))
        for transposition in edition.transpositions:
            transpose = etree.SubElement(transpositions, tei("transpose"))
            for unit_id in transposition.unit_ids:
                etree.SubElement(transpose, tei("ptr"), target=f"#{unit_id}")
    indent(root, MIXED_CONTENT)
    return etree.ElementTree(root)


def _header(edition: Edition, options: EditionOptions) -> etree._Element:
    header = etree.Element(tei("teiHeader"))
    file_desc = etree.SubElement(header, tei("fileDesc"))
    title_stmt = etree.SubElement(file_desc, tei("titleStmt"))
    etree.SubElement(title_stmt, tei("title")).text = edition.work.title
    if edition.work.short_title:  # what a citation names the edition by
        etree.SubElement(title_stmt, tei("title"), type="short").text = edition.work.short_title
    for name in edition.work.editors:
        etree.SubElement(title_stmt, tei("editor")).text = name
    publication = etree.SubElement(file_desc, tei("publicationStmt"))
    etree.SubElement(publication, tei("p")).text = f"Generated by tei-edition {__version__}; not published."
    list_wit = etree.SubElement(etree.SubElement(file_desc, tei("sourceDesc")), tei("listWit"))
    for witness in edition.work.witnesses:
        list_wit.append(_witness(witness, options.transcriptions.get(witness.id)))
    layered = any(w.scholarly for w in edition.work.witnesses)
    encoding = etree.SubElement(header, tei("encodingDesc"))
    variant_encoding = etree.SubElement(
        encoding, tei("variantEncoding"), method="parallel-segmentation", location="internal"
    )
    if edition.work.base:
        variant_encoding.set("source", f"#{edition.work.base}")  # the witness whose readings are the lemmata
    normalization = etree.SubElement(etree.SubElement(encoding, tei("editorialDecl")), tei("normalization"))
    summary = (
        profile_named(edition.profile).summary()
        + " The normalised forms serve only to compare readings; every reading is printed as written."
    )
    write_marked(etree.SubElement(normalization, tei("p")), None, summary, edition.work.language)
    taxonomy = etree.SubElement(etree.SubElement(encoding, tei("classDecl")), tei("taxonomy"))
    taxonomy.set(xml("id"), "reading-types")
    for name, description in READING_TYPES:
        category = etree.SubElement(taxonomy, tei("category"))
        category.set(xml("id"), name)
        write_marked(etree.SubElement(category, tei("catDesc")), None, description, edition.work.language)
    if edition.work.regularisations:  # the editor's rules, each pointed to by the readings it affects (@ana)
        rules = etree.SubElement(taxonomy.getparent(), tei("taxonomy"))
        rules.set(xml("id"), "regularisations")
        for rule in edition.work.regularisations:
            category = etree.SubElement(rules, tei("category"))
            category.set(xml("id"), rule.id)
            write_marked(etree.SubElement(category, tei("catDesc")), None, rule.described(), edition.work.language)
    encoding.append(refs_decl())  # the citable passages and units (tei.apparatus.citation)
    if layered:  # what a choice's @ana="#collated" points to (tei.writers.marks)
        forms = etree.SubElement(taxonomy.getparent(), tei("taxonomy"))
        forms.set(xml("id"), "transcription")
        category = etree.SubElement(forms, tei("category"))
        category.set(xml("id"), COLLATED)
        description = "the form of a choice that was collated; the witness's text reads it (docs/edition-format.md)"
        write_marked(etree.SubElement(category, tei("catDesc")), None, description, edition.work.language)
    return header


def _witness(witness: Witness, transcription: str | None) -> etree._Element:
    element = etree.Element(tei("witness"), n=witness.siglum)
    element.set(xml("id"), witness.id)
    if witness.layer_of is not None:  # a hand of a witness (W*, WC1): the apparatus reader's hand rule
        element.set("corresp", f"#{witness.layer_of}")
    element.set(xml("lang"), witness.language)
    write_marked(element, None, witness.description, witness.language)
    for kind, number in witness.references:
        etree.SubElement(element, tei("idno"), type=kind).text = number
    if wording := wording_note(witness.text, witness.language):  # whose wording the text follows
        note = etree.SubElement(element, tei("note"), type="wording")
        note.set(xml("lang"), "en")
        write_marked(note, None, wording, "en")
    if transcription:  # a scholar's transcription is the witness's source, not a lossless copy of its text
        kind = "source" if witness.scholarly else "transcription"
        etree.SubElement(element, tei("ptr"), type=kind, target=transcription)
    return element


def _fill(parent: etree._Element, parts, level: int, language: str, find=edition_spans, placer=None, scope=()):
    """Put strings and units into an element, in order; strings go exactly as they are, with Arabic runs
    (in an edition of another language), Qur'an citations and characters XML cannot hold marked, and the
    markup of the transcriptions of the witnesses of `scope` (who read here) placed by `placer`."""
    last = None  # the last child (lxml counts children by walking them: keep it at hand)
    for index, part in enumerate(parts):
        if isinstance(part, str):
            if placer is None:
                last = write_marked(parent, last, part, language, find)
            else:
                following = parts[index + 1] if index + 1 < len(parts) else None
                if following is None:  # the end of a reading: what follows it decides
                    deferred = set(scope)
                else:
                    deferred = placer.lacunose(following, scope) if isinstance(following, VariationUnit) else set()
                last = placer.write(parent, last, part, scope, language, find, deferred)
        else:
            last = _app(part, level + 1, language, find, placer, scope)
            parent.append(last)


def _app(unit: VariationUnit, level: int, language: str, find=edition_spans, placer=None, scope=()):
    lacunose = placer.lacunose(unit, scope) if placer is not None else set()
    if lacunose:  # a gap of the witness where it reads nothing: lacunose here, not an omission (its hands too)
        unit = _without(unit, lacunose | {h for h, w in placer.layer_of.items() if w in lacunose})
    app = etree.Element(tei("app"))
    app.set(xml("id"), unit.id)
    if unit.type:
        app.set("type", unit.type)  # paraphrase: a clause of a loose rendering against the close witnesses
    if unit.lemma:
        app.append(_reading(unit.lemma, level + 1, language, find, placer))
    for entry in unit.entries:
        if isinstance(entry, ReadingGroup):
            group = etree.SubElement(app, tei("rdgGrp"), type=entry.type)
            for reading in entry.readings:
                group.append(_reading(reading, level + 2, language, find, placer))
            _lay_out(group, level + 1)
        else:
            app.append(_reading(entry, level + 1, language, find, placer))
    for wid in sorted(lacunose, key=lambda w: placer.order[w]):
        etree.SubElement(app, tei("witDetail"), type="lac", wit=f"#{wid}")
        placer.consume_lacunae(wid)
    _lay_out(app, level)
    return app


def _without(unit: VariationUnit, lacunose: set[str]) -> VariationUnit:
    """The unit with the lacunose witnesses left out of their (empty) readings; a reading left with no
    witness is dropped, unless it is the lemma."""

    def reading(r: Reading) -> Reading:
        return replace(r, witnesses=tuple(w for w in r.witnesses if w not in lacunose))

    entries = []
    for entry in unit.entries:
        if isinstance(entry, ReadingGroup):
            kept = tuple(r for r in map(reading, entry.readings) if r.witnesses)
            if kept:
                entries.append(replace(entry, readings=kept))
        elif (kept := reading(entry)).witnesses:
            entries.append(kept)
    return replace(unit, lemma=reading(unit.lemma) if unit.lemma else None, entries=tuple(entries))


def _reading(reading: Reading, level: int, language: str, find=edition_spans, placer=None) -> etree._Element:
    element = etree.Element(tei("lem" if reading.is_lemma else "rdg"))
    element.set("wit", _wit(reading, placer))
    if reading.type:
        element.set("type", reading.type)
    if reading.regularised:
        element.set("ana", " ".join(f"#{rule}" for rule in reading.regularised))
    _fill(element, reading.content, level, language, find, placer, reading.witnesses)
    return element


def _wit(reading: Reading, placer) -> str:
    """@wit: the reading's witnesses; a hand layer (W*, WC1) only where its witness reads otherwise (ECM)."""
    cited = reading.witnesses
    if placer is not None:
        cited = tuple(w for w in cited if placer.layer_of.get(w) not in cited)
    return " ".join(f"#{w}" for w in cited)


def _lay_out(element: etree._Element, level: int) -> None:
    """Line breaks and indentation in element-only content (app, rdgGrp), which carries no witness text."""
    inner = "\n" + INDENT * (level + 1)
    element.text = inner
    for child in element:
        child.tail = inner
    element[-1].tail = "\n" + INDENT * level
