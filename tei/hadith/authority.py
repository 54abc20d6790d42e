"""An authority file of narrators: a TEI `<listPerson>` whose `<person xml:id>` each give one or more
`<persName>` spellings of a narrator's name.

`read_narrators(path, target)` gives, for each spelling, its key (`name_key`: each word's letters folded by the
hadith-ar key of tei.text.arabic, so vocalisation and punctuation do not matter) and the pointer a narrator's
`persName/@ref` takes (`target#id`, target as the manifest names the file). A name of a chain whose key is
no spelling's gets no @ref. A missing file is M016; a file that is not such a list (no person, a person
without xml:id or spelling, one spelling under two ids) is M017, naming the file and line.
"""

from __future__ import annotations

from pathlib import Path

from tei.diagnostics import error
from tei.errors import InvalidInputError, MissingResourceError
from tei.text.arabic import letters_key
from tei.xmlio import TEI_NS, parse_file

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def name_key(name: str) -> str:
    """The key a narrator's name is matched on: «عُرْوَةَ بْنِ الزُّبَيْرِ،» and «عروة بن الزبير» have one key."""
    return " ".join(key for key in (letters_key(word) for word in name.split()) if key)


def read_narrators(path: Path, target: str, named_at=(None, None)) -> tuple[tuple[str, str], ...]:
    """(key of a spelling, `target#id`) for every persName of every person of the file, in file order.
    `named_at` is the file and line that name it (a manifest's), where a missing file is reported."""
    if not path.is_file():
        raise MissingResourceError(
            error("M016", f"the authority file of narrators '{target}' does not exist ({path})", *named_at,
                  hint="[hadith] narrators names a TEI file with a listPerson, relative to the manifest")
        )  # fmt: skip
    tree = parse_file(path)
    people = tree.xpath("//t:listPerson//t:person", namespaces=NS)
    if not people:
        raise InvalidInputError(
            error("M017", "no <listPerson> with <person> elements (TEI namespace) in the authority file", path)
        )
    entries, seen, problems = [], {}, []
    for person in people:
        pid = person.get(XML_ID)
        names = [name_key(name.xpath("string()")) for name in person.xpath("t:persName", namespaces=NS)]
        if not pid:
            problems.append(error("M017", "a <person> without xml:id", path, person.sourceline))
            continue
        if not any(names):
            problems.append(error("M017", f"the person '{pid}' has no <persName> with a name", path, person.sourceline))
        for key in filter(None, names):
            if seen.get(key, pid) != pid:
                problems.append(
                    error("M017", f"the spelling '{key}' names two people: '{seen[key]}' and '{pid}'", path,
                          person.sourceline)
                )  # fmt: skip
            elif key not in seen:
                seen[key] = pid
                entries.append((key, f"{target}#{pid}"))
    if problems:
        raise InvalidInputError(*problems)
    return tuple(entries)
