"""The witnesses of a document: those listWit declares, the groups that stand for them, hands, and undeclared sigla.

A `Witnesses` is built once per document, in one pass over `sourceDesc` and one over the `@wit` attributes:

1. Declared witnesses: every `witness` that holds no other witness, named by its `xml:id`, or by its `@n`
   when it has no id (open-cbgm and teiphy declare witnesses by `@n` only and cite them by that name).
   A token of `@wit` is looked up as an id first, then as a siglum (`@n`) of a declared witness.
2. Groups: a `listWit` with an `xml:id`, or a `witness` with an id that holds witnesses, at any depth,
   stands for every declared witness inside it. A `listWit` or `witness` inside a group whose `@copyOf` or
   `@sameAs` points to another group or witness brings that one's members in too; a group that comes back
   to itself that way is refused (A005, an error naming the group and its line).
3. Hands: a token a `@wit` names that is not declared but is a declared witness's siglum followed by a
   hand's suffix (`X*` the first hand, `XC`, `XC1`, `Xc2` a corrector, `X1`, `X2` when X ends in a letter)
   is a witness of its own, derived from X (warning A006, once per hand): where a unit does not cite it,
   it reads what X reads. A declared `witness type="corrector"` named so (teiphy's `01C1`) is a hand of
   X in the same way, without a warning. A name ending in `*` or `C1` whose base is not declared either is reported as
   the hand of an undeclared witness (A008), and kept as a witness of its own.
4. Anything else a `@wit` names is kept as a witness of its own, in order of first mention, with a
   warning (A007); a document without any listWit gets one warning for all of them instead.

`resolve` turns a `@wit` value into the tuple of witnesses it stands for (groups expanded, aliases
resolved), cached by value: a large tradition repeats long identical lists in every unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from lxml import etree

from tei.apparatus.elements import pointer_ids
from tei.diagnostics import Diagnostic, error, warning
from tei.xmlio import tei, xml

WITNESS, LIST_WIT = tei("witness"), tei("listWit")
WITNESS_REFERENCES = tuple(
    tei(t) for t in ("lem", "rdg", "rdgGrp", "witDetail", "witStart", "witEnd", "lacunaStart", "lacunaEnd")
)
# A hand's suffix: the first hand (*), a corrector (C, C1, c2), or a numbered hand after a letter (X1).
# What is called a hand of an undeclared witness (A008): a first hand or a corrector's siglum only, since a
# letter followed by digits is as often a witness of its own (a lectionary L156).
HAND_SUFFIX = re.compile(r"(?P<base>.+?)(?P<hand>\*|C\d*)")
HAND_ONLY = re.compile(r"\*|[Cc]\d*|\d+")


TRAILING_DIGITS = re.compile(r"\d*")


def _hand_suffix(token: str) -> dict[str, str] | None:
    """HAND_SUFFIX.fullmatch(token) as a dict of its groups, found in passes at the speed of str methods: the
    regular expression, lazy in its base, tried each place of a long token in turn (2.4 s for ten million
    characters). Its hand is `*` at the end, or the `C` just before the token's final digits."""
    if len(token) >= 2 and token.endswith("*"):
        return {"base": token[:-1], "hand": "*"}
    digits = TRAILING_DIGITS.match(token[::-1]).end()
    at = len(token) - digits - 1
    if at >= 1 and token[at] == "C":
        return {"base": token[:at], "hand": token[at:]}
    return None


def _is_hand_suffix(suffix: str) -> bool:
    """HAND_ONLY.fullmatch(suffix), by str methods (`\\d` is a decimal digit, as str.isdecimal says)."""
    return (
        suffix == "*"
        or suffix.isdecimal()
        or (suffix[:1] in ("C", "c") and (len(suffix) == 1 or suffix[1:].isdecimal()))
    )


@dataclass
class Witness:
    """One witness: its id (the name every stage uses), its printed siglum, and how it came to be known."""

    id: str
    siglum: str
    kind: str = "declared"  # declared, hand, undeclared
    line: int | None = None
    hand_of: str | None = None
    groups: list[str] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)


class Witnesses:
    """Every witness of a document, its groups, and the warnings and errors met on the way (`diagnostics`)."""

    def __init__(self, tree: etree._ElementTree | etree._Element, name: str = "<edition>"):
        root = tree.getroot() if isinstance(tree, etree._ElementTree) else tree
        self.name = name
        self.diagnostics: list[Diagnostic] = []
        self.by_id: dict[str, Witness] = {}
        self.aliases: dict[str, str] = {}  # @n -> id, for witnesses with both
        self.groups: dict[str, list[str]] = {}
        self.group_lines: dict[str, int | None] = {}
        self.has_list = next(root.iter(LIST_WIT), None) is not None
        self._resolved: dict[str | None, tuple[str, ...]] = {None: ()}
        self._correctors: list[str] = []
        self._lengths: frozenset[int] | None = None  # _base_lengths, once every witness is declared
        self._element_corresp: dict[str, str] = {}  # a declared hand's @corresp="#W": the witness it is of
        elements = [w for w in root.iter(WITNESS, LIST_WIT)]
        for element in elements:
            if element.tag == WITNESS and not _holds_witness(element):
                self._declare(element)
        ids = {e.get(xml("id")): e for e in elements if e.get(xml("id"))}
        for element in elements:
            group_id = element.get(xml("id"))
            if group_id and (element.tag == LIST_WIT or _holds_witness(element)):
                self.group_lines[group_id] = element.sourceline
                self.groups[group_id] = self._members(element, ids, [group_id])
        for group_id, members in self.groups.items():
            for member in members:
                self.by_id[member].groups.append(group_id)
        for identifier in self._correctors:  # declared hands (teiphy's <witness type="corrector" n="01C1">)
            base = self._hand_base(identifier) or self._hand_base(self.by_id[identifier].siglum)
            pointed = self._element_corresp.get(identifier)
            if pointed is not None and base not in (pointed, self.aliases.get(pointed)):
                continue  # @corresp names another witness: not a hand of this one
            if base is not None:
                self.by_id[identifier].hand_of = base
                self.by_id[base].hands.append(identifier)
        self._name_the_rest(root)

    def _declare(self, element: etree._Element) -> None:
        identifier = element.get(xml("id")) or element.get("n")
        if not identifier or identifier in self.by_id:
            return
        siglum = element.get("n") or identifier
        self.by_id[identifier] = Witness(identifier, siglum, line=element.sourceline)
        if element.get("type") == "corrector" or element.get("corresp", "").startswith("#"):
            self._correctors.append(identifier)  # a hand, if its name is its witness's and a hand suffix
            if element.get("type") != "corrector":
                self._element_corresp[identifier] = element.get("corresp")[1:]
        if element.get("n") and element.get("n") != identifier:
            self.aliases.setdefault(element.get("n"), identifier)

    def _members(self, group: etree._Element, ids: dict, path: list[str]) -> list[str]:
        """The declared witnesses a group stands for: those inside it, and those its members point to."""
        found: dict[str, None] = {}
        for element in group.iter(WITNESS, LIST_WIT):
            if element is group:
                continue
            if element.tag == WITNESS and not _holds_witness(element):
                identifier = element.get(xml("id")) or element.get("n")
                if identifier in self.by_id:
                    found.setdefault(identifier)
            for pointer in pointer_ids(element.get("copyOf")) + pointer_ids(element.get("sameAs")):
                if pointer in path:
                    self.diagnostics.append(
                        error(
                            "A005",
                            f"the witness group '{path[0]}' contains itself (through {' -> '.join([*path, pointer])})",
                            self.name,
                            element.sourceline,
                            hint="a listWit cannot hold itself: remove the pointer, or point to another group",
                        )
                    )
                    continue
                target = ids.get(pointer)
                if target is None:
                    continue
                if target.tag == WITNESS and not _holds_witness(target):
                    found.setdefault(target.get(xml("id")))
                else:
                    found.update(dict.fromkeys(self._members(target, ids, [*path, pointer])))
        return list(found)

    def _name_the_rest(self, root: etree._Element) -> None:
        """Hands and undeclared sigla: every @wit token that is neither a witness nor a group."""
        undeclared: dict[str, int | None] = {}
        for element in root.iter(*WITNESS_REFERENCES):
            for token in pointer_ids(element.get("wit")):
                if token in self.by_id or token in self.groups or token in self.aliases or token in undeclared:
                    continue
                base = self._hand_base(token)
                if base is not None:
                    self._add_hand(token, base, element.sourceline)
                else:
                    undeclared[token] = element.sourceline
        for token, line in undeclared.items():
            self.by_id[token] = Witness(token, token, "undeclared", line)
            if not self.has_list:
                continue
            match = _hand_suffix(token)
            if match:
                self.diagnostics.append(
                    warning(
                        "A008",
                        f"'{token}' looks like a hand of witness '{match['base']}', which listWit does not declare; "
                        "it is read as a witness of its own",
                        self.name,
                        line,
                        hint=f'declare <witness xml:id="{match["base"]}"> in listWit, or correct the @wit',
                    )
                )
            else:
                self.diagnostics.append(
                    warning(
                        "A007",
                        f"@wit names '{token}', which listWit does not declare; it is read as a witness of its own",
                        self.name,
                        line,
                        hint=f'declare <witness xml:id="{token}"> in listWit, or correct the @wit',
                    )
                )
        if undeclared and not self.has_list:
            first = next(iter(undeclared.values()))
            self.diagnostics.append(
                warning(
                    "A007",
                    f"the document declares no listWit; the {len(undeclared)} sigla its @wit name are read as "
                    f"witnesses ({', '.join(list(undeclared)[:8])}{', ...' if len(undeclared) > 8 else ''})",
                    self.name,
                    first,
                    hint="declare the witnesses in sourceDesc/listWit",
                )
            )

    def _hand_base(self, token: str) -> str | None:
        """The declared witness a hand's name derives from (the longest declared prefix), or None.

        A base is a declared name (an id, or a siglum standing for one), so it can end only where such a name
        could: the token is cut only at the lengths of the declared names (a few), longest first, and what
        follows must be a hand's suffix (`*`, `C` and digits, digits). Each cut is checked by str methods in
        one pass over the token: a token of ten million characters costs a few passes, not ten million slices
        of it (issue 38: 39 s in every command for one of 1.28 M characters)."""
        size = len(token)
        for end in sorted((e for e in self._base_lengths() if 1 <= e < size), reverse=True):
            base, suffix = token[:end], token[end:]
            if not _is_hand_suffix(suffix) or (suffix[0].isdigit() and not base[-1].isalpha()):
                continue
            known = base if base in self.by_id else self.aliases.get(base)
            if known is not None and self.by_id[known].kind == "declared":
                return known
        return None

    def _base_lengths(self) -> frozenset[int]:
        """The lengths of the names a hand can derive from (declared ids and their sigla), once known."""
        if self._lengths is None:
            self._lengths = frozenset(
                len(name)
                for name in [*self.by_id, *self.aliases]
                if name in self.aliases or self.by_id[name].kind == "declared"
            )
        return self._lengths

    def _add_hand(self, token: str, base: str, line: int | None) -> None:
        self.by_id[token] = Witness(token, token, "hand", line, hand_of=base)
        self.by_id[base].hands.append(token)
        self.diagnostics.append(
            warning(
                "A006",
                f"'{token}' is not declared; it is read as a hand of witness '{base}', a witness of its own",
                self.name,
                line,
                hint=f'declare it (<witness xml:id="{token}">) to silence this warning',
            )
        )

    def resolve(self, value: str | None) -> tuple[str, ...]:
        """The witnesses a @wit value stands for: groups expanded to their members, sigla to their ids."""
        found = self._resolved.get(value)
        if found is None:
            names: dict[str, None] = {}
            for token in pointer_ids(value):
                if token in self.groups:
                    names.update(dict.fromkeys(self.groups[token]))
                elif token in self.by_id:
                    names[token] = None
                elif token in self.aliases:
                    names[self.aliases[token]] = None
            found = self._resolved[value] = tuple(names)
        return found

    @cached_property
    def ids(self) -> list[str]:
        """Every witness: declared ones in document order, then hands and undeclared sigla as first named."""
        return list(self.by_id)

    @cached_property
    def hand_of(self) -> dict[str, str]:
        """Each derived hand and the witness it belongs to."""
        return {w: found.hand_of for w, found in self.by_id.items() if found.hand_of}

    @cached_property
    def declared(self) -> list[str]:
        return [w for w, found in self.by_id.items() if found.kind == "declared"]

    def siglum(self, witness_id: str) -> str:
        found = self.by_id.get(witness_id)
        return found.siglum if found else witness_id

    def known(self, name: str) -> str | None:
        """The witness id a name given by a person (an id, a siglum) stands for, or None."""
        if name in self.by_id:
            return name
        return self.aliases.get(name)


def _holds_witness(element: etree._Element) -> bool:
    return next(element.iterdescendants(WITNESS), None) is not None


def witness_ids(tree: etree._ElementTree) -> list[str]:
    """Every witness whose text the document gives: declared ones, hands, and sigla named but undeclared.

    Groups are not witnesses (their members are).
    """
    return Witnesses(tree).ids


def all_witnesses(tree: etree._ElementTree) -> list[str]:
    """The witnesses whose texts a conversion must keep (the same as witness_ids: nothing named is lost)."""
    return witness_ids(tree)


def undeclared_witnesses(tree: etree._ElementTree, name: str) -> list[Diagnostic]:
    """The warnings (and errors) about witnesses: hands derived, sigla undeclared, groups holding themselves."""
    return Witnesses(tree, name).diagnostics
