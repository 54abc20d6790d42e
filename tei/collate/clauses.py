"""Witnesses declared loose renderings (manifest `kind = "paraphrase"`), aligned by clause, not by word.

The close witnesses are collated among themselves at the word level (tei.collate.align, then
tei.collate.analyse: the word-level apparatus). A paraphrase is then placed against them by clause:

1. **Clauses of the close text.** The close alignment's columns are cut after a column where a close
   witness's word ends a sentence or clause (`. ! ? ; :` before any closing quote or bracket, or a line
   break after it) and where at least half of the close witnesses have so far read up to the end of a
   sentence or clause (each by its last word up to that column), keeping at least MIN_CLAUSE columns to
   a clause. Half, not one: where one translation ends a sentence in the middle of the others' (the
   seeds' B ends "more than a thousand." where A reads "three hundred and | nineteen."), a cut there
   split their sentences, a number from its noun, in the synoptic view and the clause units.
2. **Anchors.** The paraphrase's keys are aligned to the columns' consensus keys by the same anchored
   LCS the word-level aligner uses (rare shared words first, chaff dropped): the places where the two
   demonstrably say the same thing.
3. **Cuts in the paraphrase.** Each clause boundary of the close text falls between two anchors; the
   paraphrase is cut between the same two anchors, after a word of its own that ends a sentence or
   clause where there is one (the one nearest the proportional position), else at the proportional
   position. Cuts never go backwards.
4. **Containers.** Each clause is one `<app type="paraphrase">`: its lemma (or first reading, without a
   base) names the close witnesses and holds their text with their word-level units, flat, exactly as
   the plain collation would cut them there; each paraphrase's clause is a reading of its own, typed
   `paraphrase` (`omission` when it has nothing there, `addition` when the close witnesses have
   nothing). The paraphrase thus never enters a word-level unit, and every witness rebuilds byte for byte.
"""

from __future__ import annotations

import hashlib

import regex

from tei.collate.align import Column, matched_pairs, without_chaff
from tei.collate.analyse import CONTEXT, Collation, arrange
from tei.model import Reading, Token, VariationUnit, text_read

MIN_CLAUSE = 4  # columns a clause of the close text needs before another cut
_CLAUSE_END = regex.compile(r"[.!?;:؛؟。][\"'”’»)\]\p{Pf}\p{Pe}]*\Z")


def ends_clause(token: Token) -> bool:
    return bool(_CLAUSE_END.search(token.surface)) or "\n" in token.whitespace


def clause_body(collation: Collation, loose: dict[str, list[Token]]) -> tuple[str | VariationUnit, ...]:
    """The body: one paraphrase container per clause of the close witnesses' collation."""
    columns = collation.alignment.columns
    close = collation.alignment.order
    bounds = _close_bounds(columns, close, collation)
    cuts = {wid: _loose_cuts(columns, bounds, tokens) for wid, tokens in sorted(loose.items())}
    body: list[str | VariationUnit] = []
    for n in range(len(bounds) - 1):
        run = columns[bounds[n] : bounds[n + 1]]
        parts = arrange(run, close, collation) if run else ()
        texts = {wid: "".join(t.text for t in loose[wid][cuts[wid][n] : cuts[wid][n + 1]]) for wid in cuts}
        if len(parts) == 1 and isinstance(parts[0], str) and set(texts.values()) == {parts[0]}:
            body.append(parts[0])  # every witness, paraphrases too, reads exactly this
        elif parts or any(texts.values()):
            body.append(_container(run, parts, texts, collation, bounds[n]))
    return tuple(body)


def _close_bounds(columns: list[Column], close: tuple[str, ...], collation: Collation) -> list[int]:
    """Column indices where clauses begin, plus the end."""
    bounds = [0]
    ended = dict.fromkeys(close, True)  # whether each witness's last word so far ends a sentence or clause
    for n, column in enumerate(columns):
        ending = False
        for wid in close:
            if wid in column.cells:
                ended[wid] = ends_clause(collation.tokens[wid][column.cells[wid]])
                ending = ending or ended[wid]
        if n + 1 - bounds[-1] < MIN_CLAUSE or n + 1 == len(columns):
            continue
        if ending and 2 * sum(ended.values()) >= len(close):
            bounds.append(n + 1)
    bounds.append(len(columns))
    return bounds


def _loose_cuts(columns: list[Column], bounds: list[int], tokens: list[Token]) -> list[int]:
    """For each clause bound of the close columns, the token index where the paraphrase is cut."""
    interned: dict[str, int] = {}
    column_ids = [interned.setdefault(c.key, len(interned)) for c in columns]
    token_ids = [interned.setdefault(t.key, len(interned)) for t in tokens]
    anchors = without_chaff(matched_pairs(column_ids, token_ids), len(columns), len(tokens))
    cuts = [0]
    for bound in bounds[1:-1]:
        before = [pair for pair in anchors if pair[0] < bound]
        after = [pair for pair in anchors if pair[0] >= bound]
        low_column, low = (before[-1][0] + 1, before[-1][1] + 1) if before else (0, 0)
        high_column, high = after[0] if after else (len(columns), len(tokens))
        share = (bound - low_column) / max(1, high_column - low_column)
        target = low + round(share * (high - low))
        ends = [j + 1 for j in range(low, high) if ends_clause(tokens[j])]
        cut = min(ends, key=lambda j: (abs(j - target), j)) if ends else target
        cuts.append(max(cut, cuts[-1]))
    cuts.append(len(tokens))
    return cuts


def _container(run, parts, texts: dict[str, str], collation: Collation, start: int) -> VariationUnit:
    close = tuple(w for w in collation.witness_order if w in collation.alignment.order)
    close_text = text_read(parts, collation.alignment.order[0])
    unit_id = _container_id(collation, start, close_text, texts)
    base = collation.base if collation.base in close else None
    lemma = Reading(close, tuple(parts), None if base else "paraphrase", is_lemma=bool(base))
    grouped: dict[str, list[str]] = {}
    for wid in (w for w in collation.witness_order if w in texts):
        grouped.setdefault(texts[wid], []).append(wid)
    readings = []
    for text, wids in grouped.items():
        kind = "omission" if not text else "addition" if not any(text_read(parts, w) for w in close) else "paraphrase"
        readings.append(Reading(tuple(wids), (text,) if text else (), kind))
    if base:
        return VariationUnit(unit_id, lemma, tuple(readings), "paraphrase")
    return VariationUnit(unit_id, None, (lemma, *readings), "paraphrase")


def _container_id(collation: Collation, start: int, close_text: str, texts: dict[str, str]) -> str:
    """`app-` and eight hex digits from the clause's readings and the keys of the columns before it."""
    columns = collation.alignment.columns
    context = "\x1f".join(c.key for c in columns[max(0, start - CONTEXT) : start])
    readings = "\x1e".join([close_text, *sorted(set(texts.values()))])
    digest = hashlib.sha1(f"clause\x1d{context}\x1d{readings}".encode()).hexdigest()[:8]
    candidate, n = f"app-{digest}", 1
    while candidate in collation.taken:
        n += 1
        candidate = f"app-{digest}-{n}"
    collation.taken.add(candidate)
    return candidate


__all__ = ["clause_body", "ends_clause"]
