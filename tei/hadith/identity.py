"""Which names of one report's chains are one narrator: the nodes of its isnad diagram (tei.hadith.diagram).

Names are compared by their node keys (each word's letters under the hadith-ar fold, tei.hadith.diagram.name_key).
Three rules, in this order, give each key the key of the node it belongs to:

1. **The authority file.** Names whose persName carries one @ref (an id of the `[hadith] narrators` file,
   tei.hadith.authority) are one node, whatever their spellings.
2. **A name beginning one fuller name only** is that narrator: «عمارة» and «عمارة بن القعقاع», «عبد الله» and
   «عبد الله بن مسعود» when no other fuller name begins so.
3. **One name contained in another at the same place of parallel chains**: a shorter name whose words stand in a
   longer one, as its beginning («عمر» in «عمر بن الخطاب»), as a nasab («ابن عباس» in «عبد الله بن عباس», ابن and
   بن read alike) or as a closing nisba («الزهري» in «محمد بن مسلم الزهري»), when the two share a teacher or a
   student in the chains (the same place: not one the other's teacher). When the shorter name fits two or more
   longer ones there, it may be either man: it stays a node of its own, and a note says why.

Relative names («أبيه»: his father) are keyed with the narrator before them and never merged by words.
"""

from __future__ import annotations

from collections.abc import Iterable

from tei.text.arabic import fold

_SON = frozenset((fold("ابن"), fold("بن")))
Chain = list[list[tuple[str, str]]]  # links from the compiler's teacher to the Companion, each its narrators'
# (node key, name as written): several where they are joined at one link


def identities(chains: Iterable[Chain], refs: dict[str, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """The node each name key belongs to (key -> node key; a key absent is its own node) and the notes on names
    that may be two people and stay apart. `refs`: name key -> authority id, for the persNames that carry one."""
    chains = [chain for chain in chains if chain]
    keys = list(dict.fromkeys(key for chain in chains for link in chain for key, _ in link))
    merged: dict[str, str] = {}
    by_ref: dict[str, list[str]] = {}
    for key in keys:
        if refs and key in refs:
            by_ref.setdefault(refs[key], []).append(key)
    for same in by_ref.values():
        main = max(same, key=lambda key: len(key.split()))
        merged.update({key: main for key in same if key != main})
    _merge(merged, _fuller(keys, merged))
    notes: list[str] = []
    for _ in range(3):  # a merge can put two names at one place: read the places again
        found = _contained(chains, keys, merged, notes)
        if not found:
            break
        _merge(merged, found)
    return {key: _node(merged, key) for key in keys if _node(merged, key) != key}, list(dict.fromkeys(notes))


def _node(merged: dict[str, str], key: str) -> str:
    seen = set()
    while key in merged and key not in seen:
        seen.add(key)
        key = merged[key]
    return key


def _merge(merged: dict[str, str], found: dict[str, str]) -> None:
    for key, into in found.items():
        if _node(merged, into) != _node(merged, key):
            merged[_node(merged, key)] = _node(merged, into)


def _fuller(keys: list[str], merged: dict[str, str]) -> dict[str, str]:
    """Rule 2: a name that begins one fuller name only."""
    nodes = {_node(merged, key) for key in keys}
    found = {}
    for key in nodes:
        words = key.split()
        longer = [other for other in nodes if other != key and other.split()[: len(words)] == words]
        if len(longer) == 1 and "<" not in key:
            found[key] = longer[0]
    return found


def _words(key: str) -> list[str]:
    return [fold("بن") if word in _SON else word for word in key.split()]


def contains(longer: str, shorter: str) -> bool:
    """The shorter name's words stand in the longer as its beginning, a nasab (ابن X) or a closing nisba (الX)."""
    big, small = _words(longer), _words(shorter)
    if len(small) >= len(big) or "<" in longer or "<" in shorter:
        return False
    if big[: len(small)] == small:
        return True
    if small[0] == fold("بن"):
        return any(big[n : n + len(small)] == small for n in range(1, len(big) - len(small) + 1))
    return small[0].startswith(fold("ال")) and big[-len(small) :] == small


def _contained(chains: list[Chain], keys: list[str], merged: dict[str, str], notes: list[str]) -> dict[str, str]:
    """Rule 3: names contained in one other at the same place (a shared teacher or student)."""
    teachers: dict[str, set[str]] = {}
    students: dict[str, set[str]] = {}
    names = {}
    for chain in chains:
        levels = [[_node(merged, key) for key, _ in link] for link in chain]
        for link, level in zip(chain, levels, strict=True):
            for (_, name), node in zip(link, level, strict=True):
                names.setdefault(node, name)
        for below, above in zip(levels, levels[1:]):
            for student, teacher in ((s, t) for s in below for t in above):
                if student != teacher:
                    teachers.setdefault(student, set()).add(teacher)
                    students.setdefault(teacher, set()).add(student)
    nodes = list(dict.fromkeys(_node(merged, key) for key in keys))
    found = {}
    for short in nodes:
        place = [
            other
            for other in nodes
            if other != short
            and contains(other, short)
            and (
                teachers.get(short, set()) & teachers.get(other, set())
                or students.get(short, set()) & students.get(other, set())
            )
        ]
        if len(place) == 1:
            found[short] = place[0]
        elif len(place) > 1:
            candidates = " or ".join(f"«{names[other]}»" for other in place)
            notes.append(f"«{names[short]}» may be {candidates}: kept apart, the chains do not say which.")
    return found
