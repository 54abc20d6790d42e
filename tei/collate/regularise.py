"""Regularisation: the editor's rules that make two readings equal for collation (manifest [[regularise]]).

A named stage between normalisation and alignment (the idea of the ITSEE Collation Editor's
regularisation): after the profile has given every token its comparison key, each rule gives the tokens
that read its `reading` (word by word, by their keys) the keys of its `as_`, in its scope: everywhere,
in one witness, or inside one unit. The aligner and the analysis then see equal words there; the words
themselves are never changed (every reading is still printed as written). A reading that holds a
regularised token records the rule (`Reading.regularised`, written as @ana="#reg-N"), and the header
describes every rule; so a rebuild applies them again, and a reader sees where they acted.

A rule scoped to a unit names the unit's id in the edition as built without that rule: collate() finds
where each such unit lies in each witness's text (its characters) in a first collation, then collates
again with the rule applied to the tokens there.
"""

from __future__ import annotations

from dataclasses import replace

from tei.collate.anchors import swap_reading
from tei.collate.tokenize import tokenize
from tei.model import Regularisation, Section, Token
from tei.text.normalize import Profile

Spans = dict[str, dict[str, tuple[int, int]]]  # unit id -> witness id -> (first character, end) in its text


def regularise(
    tokens: dict[str, list[Token]], rules: tuple[Regularisation, ...], profile: Profile, spans: Spans | None = None
) -> tuple[dict[str, list[Token]], dict[str, dict[int, str]]]:
    """The tokens with the rules applied, and for each witness the tokens they changed (index -> rule id).

    Unit-scoped rules act only where `spans` places their unit; without spans they wait (collate() runs
    them in a second pass)."""
    if not rules:
        return tokens, {}
    changed: dict[str, dict[int, str]] = {}
    result = {}
    for witness, found in tokens.items():
        keys = [t.key for t in found]
        starts = _starts(found)
        touched: dict[int, str] = {}
        for rule in rules:
            if rule.witness is not None and rule.witness != witness:
                continue
            window = None
            if rule.unit is not None:
                window = (spans or {}).get(rule.unit, {}).get(witness)
                if window is None:
                    continue
            reading, regular = _keys(rule.reading, profile), _keys(rule.as_, profile)
            if not reading or len(reading) != len(regular):
                continue
            for index in _matches(found, keys, reading):
                if window is not None and not (window[0] <= starts[index] < window[1]):
                    continue
                positions = _word_positions(found, index, len(reading))
                for position, key in zip(positions, regular):
                    keys[position] = key
                    touched[position] = rule.id
        if touched:
            result[witness] = [replace(t, key=keys[i]) if i in touched else t for i, t in enumerate(found)]
            changed[witness] = touched
        else:
            result[witness] = found
    return result, changed


def mark_readings(body: tuple, tokens: dict[str, list[Token]], changed: dict[str, dict[int, str]]) -> tuple:
    """The body with every reading that holds a regularised token of one of its witnesses marked with the
    rule's id (Reading.regularised)."""
    if not changed:
        return body
    spans = {w: [(s, s + len(tokens[w][i].text), rule) for i, rule in touched.items() for s in [_starts(tokens[w])[i]]]
             for w, touched in changed.items()}  # fmt: skip
    offsets = dict.fromkeys(tokens, 0)
    return _marked(body, tuple(tokens), offsets, spans)


def unit_spans(body: tuple, witnesses: tuple[str, ...], section: str = "") -> Spans:
    """Where each unit of an (anchored) edition body lies in each witness's text: the characters its
    reading covers. For a body in Sections, only the section of this type."""
    found: Spans = {}
    if body and all(isinstance(part, Section) for part in body):
        for part in body:
            if part.type == section:
                _walk_spans(part.body, witnesses, dict.fromkeys(witnesses, 0), found)
        return found
    _walk_spans(body, witnesses, dict.fromkeys(witnesses, 0), found)
    return found


def _walk_spans(parts, holders, offsets, found: Spans) -> None:
    for part in parts:
        if isinstance(part, str):
            for witness in holders:
                offsets[witness] += len(part)
            continue
        starts = {w: offsets[w] for w in holders}
        for reading in part.readings():
            inside = tuple(w for w in reading.witnesses if w in offsets)
            _walk_spans(reading.content, inside, offsets, found)
        found[part.id] = {w: (starts[w], offsets[w]) for w in holders}


def _marked(parts, holders, offsets, spans, covered=None) -> tuple:
    """Mark the readings in these parts; `covered` hears of the characters each unit spans, so that a
    reading holding nested units is marked only for tokens outside them (the innermost reading is)."""
    marked = []
    for part in parts:
        if isinstance(part, str):
            for witness in holders:
                offsets[witness] += len(part)
            marked.append(part)
            continue
        before = {w: offsets[w] for w in holders}
        lemma, entries = part.lemma, part.entries
        for reading in part.readings():
            inside = tuple(w for w in reading.witnesses if w in offsets)
            starts = {w: offsets[w] for w in inside}
            nested: dict[str, list[tuple[int, int]]] = {}
            content = _marked(reading.content, inside, offsets, spans, nested)
            rules = sorted(
                {
                    rule
                    for w in inside
                    for (s, _, rule) in spans.get(w, ())
                    if starts[w] <= s < offsets[w] and not any(a <= s < b for a, b in nested.get(w, ()))
                },
                key=_rule_number,
            )
            if rules or content != reading.content:
                new = replace(reading, content=content, regularised=tuple(rules))
                lemma, entries = swap_reading(lemma, entries, reading, new)
        if covered is not None:
            for w in holders:
                covered.setdefault(w, []).append((before[w], offsets[w]))
        changed = (lemma, entries) != (part.lemma, part.entries)
        marked.append(replace(part, lemma=lemma, entries=entries) if changed else part)
    return tuple(marked)


def _rule_number(rule: str) -> int:
    number = rule.rsplit("-", 1)[-1]
    return int(number) if number.isdigit() else 0


def _keys(text: str, profile: Profile) -> list[str]:
    return [t.key for t in tokenize(text, profile) if t.word]


def _starts(tokens: list[Token]) -> list[int]:
    starts, at = [], 0
    for token in tokens:
        starts.append(at)
        at += len(token.text)
    return starts


def _matches(tokens: list[Token], keys: list[str], wanted: list[str]):
    """Indices where the words (tokens with a word; punctuation standing alone skipped) read `wanted`."""
    words = [i for i, t in enumerate(tokens) if t.word]
    n = len(wanted)
    for start in range(len(words) - n + 1):
        if all(keys[words[start + j]] == wanted[j] for j in range(n)):
            yield words[start]


def _word_positions(tokens: list[Token], index: int, count: int) -> list[int]:
    positions, i = [], index
    while len(positions) < count and i < len(tokens):
        if tokens[i].word:
            positions.append(i)
        i += 1
    return positions
