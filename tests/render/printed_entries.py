"""The apparatus entries as each output prints them, read back for the test of truthful sigla (issue 41).

Each reader returns `Printed` items: the unit an entry belongs to (its unit-id: @xml:id, else
"unit-<n>"), the words printed for one reading, the sigla printed after them (as the page writes them, or
the witness ids a page's siglum stands for) and whether it is the lemma. The words are given as a reader
of the output sees them: markup and escapes taken away, whitespace as it is.

- HTML (xslt/html/edition.xsl): each `li.entry`, each `span.reading` in it (the placeholder `text` of a
  unit without lem is no words and is left out): its `bdi.words` and the `data-ids` of its `.siglum`s.
- Typst (xslt/typst/edition.xsl): the dictionary `tei-entries`, `"<unit-id>/<series>": (lemma: [...],
  readings: [...])`; in each, a run of `#emph[S];` is a reading's sigla, the text before it (after the
  separator `; `) its words.
- LaTeX (xslt/latex/edition.xsl): each `\\edtext{...}{\\lemma{...}\\Afootnote{...}...}`; it carries no
  unit id, so it is matched, in order, to the next Typst entry with the same lemma (both print the lemma
  label of xslt/common/print.xsl).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import html


@dataclass(frozen=True)
class Printed:
    unit: str
    words: str
    sigla: tuple[str, ...]  # siglum texts (print) or witness ids (HTML, `ids` true)
    lemma: bool
    ids: bool = False
    before: tuple[str, ...] = ()  # the pieces without sigla before it, since the last reading with sigla


def html_entries(page: bytes) -> list[Printed]:
    found = []
    for entry in html.fromstring(page).xpath("//ol[contains(@class, 'entries')]/li[starts-with(@id, 'entry-')]"):
        unit = entry.get("id")[len("entry-") :]
        for reading in entry.xpath(".//span[contains(concat(' ', @class, ' '), ' reading ')]"):
            if "base-text" in reading.get("class").split():
                continue
            words = "".join(w.text_content() for w in reading.xpath("./bdi[@class='words']"))
            ids = tuple(
                i for s in reading.xpath("./span[@class='sigla']//*[@data-ids]") for i in s.get("data-ids").split()
            )
            found.append(Printed(unit, words, ids, "lemma" in reading.get("class").split(), ids=True))
    return found


# ---------------------------------------------------------------- Typst

TYPST_ENTRY = re.compile(r'(?:^|(?<=\())"(?P<unit>(?:[^"\\]|\\.)*)/(?P<series>[abc])": \(lemma: (?:box)?\[', re.M)
TYPST_SIGLA = re.compile(r"(?:\s*#emph\[(?:\\.|[^\]\\])*\];)+")
TYPST_SIGLUM = re.compile(r"#emph\[((?:\\.|[^\]\\])*)\];")


def _typst_bracket(source: str, start: int) -> int:
    """The index just after the `]` closing the `[` before `start`."""
    depth = 1
    index = start
    while depth:
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == '"':  # a string argument of a call inside the content
            index = source.index('"', index + 1)
            while source[index - 1] == "\\":
                index = source.index('"', index + 1)
        index += 1
    return index


def typst_plain(markup: str) -> str:
    """Typst markup as its words: escapes resolved, each `#call(...)[content];` as its content."""
    out = []
    index = 0
    while index < len(markup):
        char = markup[index]
        if char == "\\":
            if markup.startswith("\\u{", index):
                end = markup.index("}", index)
                out.append(chr(int(markup[index + 3 : end], 16)))
                index = end + 1
                continue
            out.append(markup[index + 1 : index + 2])
            index += 2
        elif char == "#":
            call = re.match(r"#[\w-]+(?:\((?:[^()\"]|\"(?:\\.|[^\"\\])*\")*\))?", markup[index:])
            index += call.end()
            if index < len(markup) and markup[index] == "[":
                end = _typst_bracket(markup, index + 1)
                out.append(typst_plain(markup[index + 1 : end - 1]))
                index = end
            if index < len(markup) and markup[index] == ";":
                index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _pieces(content: str, opening: str, closing: str) -> list[str]:
    """The content split at each reading separator `; ` outside brackets (in Typst not a `;` that ends a
    call, `#emph[B]; #emph[C];`: the separator after one is the second of `];; `). A reading's words may
    hold `; ` too: the check joins a piece without sigla to the piece after it (Printed.before)."""
    pieces, depth, start, index = [], 0, 0, 0
    while index < len(content):
        char = content[index]
        if char == "\\":
            index += 2
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
        elif (
            depth == 0
            and content.startswith("; ", index)
            and not (opening == "[" and content[index - 1 : index] == "]")
        ):
            pieces.append(content[start:index])
            start = index + 2
        index += 1
    return [*pieces, content[start:]]


def _is_detail(piece: str, run: re.Match) -> bool:
    """Whether the sigla close what a witness shows besides its text (witDetail), printed after a unit's
    last reading as " (type: words sigla)": then the words before " (" are a reading without sigla."""
    return piece[run.end() :].lstrip().startswith(")") and " (" in piece[: run.start()]


def _with_sigla(unit: str, content: str, lemma: bool) -> list[Printed]:
    """The readings of one argument (lemma or readings): in each piece between separators, the words up to
    its first run of sigla, and those sigla; what follows them (resp., cause, a note, a witness's detail
    with sigla of its own) is no reading. A piece without sigla (a reading no witness reads) is left out."""
    found, before = [], []
    for piece in _pieces(content, "[", "]"):
        run = TYPST_SIGLA.search(piece)
        if run and _is_detail(piece, run):
            before.append(typst_plain(piece[: piece.rindex(" (", 0, run.start())]))
            continue
        if run:
            sigla = tuple(typst_plain(s) for s in TYPST_SIGLUM.findall(run.group()))
            found.append(Printed(unit, typst_plain(piece[: run.start()]), sigla, lemma, before=tuple(before)))
            before = []
        else:
            before.append(typst_plain(piece))
    return found


def typst_entries(source: str) -> list[Printed]:
    found = []
    for match in TYPST_ENTRY.finditer(source):
        lemma_end = _typst_bracket(source, match.end())
        lemma = source[match.end() : lemma_end - 1]
        assert source.startswith(", readings: [", lemma_end), source[lemma_end : lemma_end + 40]
        start = lemma_end + len(", readings: [")
        readings = source[start : _typst_bracket(source, start) - 1]
        unit = typst_plain(match["unit"])
        found.append(Printed(unit, typst_plain(_without_sigla(lemma)), (), True))  # the lemma label
        found.extend(_with_sigla(unit, lemma, True))
        found.extend(_with_sigla(unit, readings, False))
    return found


def _without_sigla(content: str) -> str:
    return TYPST_SIGLA.split(content)[0]


# ---------------------------------------------------------------- LaTeX

LATEX_DROPPED = {"teilang", "hspace", "teilangend"}  # macros whose argument is no text
LATEX_SIGLUM = re.compile(r"\\textit\{((?:\\.|[^{}\\]|\{[^{}]*\})*)\}")
LATEX_SIGLA = re.compile(r"(?:\s*\\textit\{(?:\\.|[^{}\\]|\{[^{}]*\})*\}(?:\\hspace\{[^{}]*\})?)+")
LATEX_WORDS = {"textbackslash": "\\", "textasciicircum": "^", "textasciitilde": "~"}


def _latex_group(source: str, start: int) -> int:
    """The index just after the `}` closing the `{` at `start`."""
    depth = 0
    index = start
    while True:
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1


def latex_plain(source: str) -> str:
    """LaTeX as its words: escapes resolved, `\\symbol{"XXXX}` as its character, a macro's argument kept
    (dropped for those of LATEX_DROPPED), other macros without arguments left out."""
    out = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            name = re.match(r"\\([A-Za-z]+|.)", source[index:])
            index += name.end()
            word = name.group(1)
            if not word.isalpha():
                out.append(word)
                continue
            if word in LATEX_WORDS:
                out.append(LATEX_WORDS[word])
                if source.startswith("{}", index):
                    index += 2
                continue
            if word == "symbol":
                end = _latex_group(source, index)
                out.append(chr(int(source[index + 2 : end - 1], 16)))
                index = end
                continue
            if index < len(source) and source[index] == "{":
                end = _latex_group(source, index)
                if word not in LATEX_DROPPED:
                    out.append(latex_plain(source[index + 1 : end - 1]))
                elif word == "hspace":
                    out.append(" ")
                index = end
        elif char in "{}":
            index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _latex_readings(unit: str, note: str, lemma: bool) -> list[Printed]:
    """As _with_sigla, for LaTeX."""
    found, before = [], []
    for piece in _pieces(note, "{", "}"):
        run = LATEX_SIGLA.search(piece)
        if run and _is_detail(piece, run):
            before.append(latex_plain(piece[: piece.rindex(" (", 0, run.start())]))
            continue
        if run:
            sigla = tuple(latex_plain(s) for s in LATEX_SIGLUM.findall(run.group()))
            found.append(Printed(unit, latex_plain(piece[: run.start()]), sigla, lemma, before=tuple(before)))
            before = []
        else:
            before.append(latex_plain(piece))
    return found


def latex_edtexts(source: str) -> list[tuple[str, str, list[str]]]:
    """Each \\edtext in order of its opening: its lemma argument and the contents of its notes."""
    found = []
    for match in re.finditer(r"\\edtext\{", source):
        first_end = _latex_group(source, match.end() - 1)
        second_end = _latex_group(source, first_end)
        second = source[first_end + 1 : second_end - 1]
        assert second.startswith("\\lemma{"), second[:40]
        lemma_end = _latex_group(second, len("\\lemma"))
        lemma = second[len("\\lemma{") : lemma_end - 1]
        notes = []
        index = lemma_end
        while index < len(second):
            note = re.match(r"\\[AB](?:footnote|endnote)\{", second[index:])
            assert note, second[index : index + 40]
            end = _latex_group(second, index + note.end() - 1)
            notes.append(second[index + note.end() : end - 1])
            index = end
        found.append((lemma, notes))
    return found


def latex_entries(source: str, typst: list[Printed]) -> tuple[list[Printed], list[str]]:
    """The LaTeX entries, each matched to the next Typst lemma label that reads the same; and a line for
    each \\edtext that matched none."""
    labels = [(p.unit, _squeeze(p.words)) for p in typst if p.lemma and not p.sigla]
    found, unmatched = [], []
    at = 0
    for lemma, notes in latex_edtexts(source):
        label = _squeeze(latex_plain(LATEX_SIGLA.split(lemma)[0]))
        place = next((i for i in range(at, len(labels)) if labels[i][1] == label), None)
        if place is None:
            unmatched.append(label)
            continue
        unit = labels[place][0]
        at = place + 1
        found.extend(_latex_readings(unit, lemma, True))
        for note in notes:
            found.extend(_latex_readings(unit, note, False))
    return found, unmatched


def _squeeze(text: str) -> str:
    return " ".join(text.split())
