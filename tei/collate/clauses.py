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
4. **Close stretches.** Where a paraphrase follows the base word for word for CLOSE_STRETCH words or
   more (consecutive in its words and in the columns the base reads, each the base's own word under
   normalisation) and spells one of those words otherwise, a formula aside (D's `"Go ahead, Hayzūm."`
   and A's `Go ahead, Haizum!`), the stretch is a clause of its own, cut in the paraphrase exactly at
   its first and last word, so that the spelling is typed as such; a clause bound of the close text
   inside it is dropped (the stretch is read as one, never in pieces that read the base's very letters).
5. **Containers.** Each clause is one `<app type="paraphrase">`: its lemma (or first reading, without a
   base) names the close witnesses and holds their text with their word-level units, flat, exactly as
   the plain collation would cut them there; each paraphrase's clause is a reading of its own, typed
   `paraphrase` (`omission` when it has nothing there, `addition` when the close witnesses have
   nothing), or by the documented vocabulary against the base's words where it reads those words under
   normalisation (`orthographic`, `punctuation`, ..., in an rdgGrp of that type). The paraphrase thus
   never enters a word-level unit, and every witness rebuilds byte for byte.
"""

from __future__ import annotations

import hashlib

import regex

from tei.collate.align import Column, matched_pairs, without_chaff
from tei.collate.analyse import CONTEXT, NON_SUBSTANTIVE, Collation, Text, arrange, reading_type
from tei.model import Reading, ReadingGroup, Token, VariationUnit, text_read
from tei.text.normalize import CLASS_MARK

MIN_CLAUSE = 4  # columns a clause of the close text needs before another cut
CLOSE_STRETCH = 3  # words in a row, each the base's, that make a paraphrase's respelled stretch a clause of its own
_CLAUSE_END = regex.compile(r"[.!?;:؛؟。][\"'”’»)\]\p{Pf}\p{Pe}]*\Z")


def ends_clause(token: Token) -> bool:
    return bool(_CLAUSE_END.search(token.surface)) or "\n" in token.whitespace


def clause_body(collation: Collation, loose: dict[str, list[Token]]) -> tuple[str | VariationUnit, ...]:
    """The body: one paraphrase container per clause of the close witnesses' collation."""
    columns = collation.alignment.columns
    close = collation.alignment.order
    bounds = _close_bounds(columns, close, collation)
    anchors = {wid: _anchors(columns, tokens) for wid, tokens in sorted(loose.items())}
    stretches = {wid: _close_stretches(columns, anchors[wid], loose[wid], collation) for wid in anchors}
    spans = [(c0, c1) for found in stretches.values() for c0, c1, _ in found]
    bounds = sorted({b for b in bounds if not any(c0 < b < c1 for c0, c1 in spans)} | {e for s in spans for e in s})
    cuts = {wid: _loose_cuts(columns, bounds, loose[wid], anchors[wid], stretches[wid]) for wid in anchors}
    body: list[str | VariationUnit] = []
    for n in range(len(bounds) - 1):
        run = columns[bounds[n] : bounds[n + 1]]
        parts = arrange(run, close, collation) if run else ()
        read = {wid: loose[wid][cuts[wid][n] : cuts[wid][n + 1]] for wid in cuts}
        texts = {wid: "".join(t.text for t in tokens) for wid, tokens in read.items()}
        if len(parts) == 1 and isinstance(parts[0], str) and set(texts.values()) == {parts[0]}:
            body.append(parts[0])  # every witness, paraphrases too, reads exactly this
        elif parts or any(texts.values()):
            body.append(_container(run, parts, read, collation, bounds[n]))
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


def _anchors(columns: list[Column], tokens: list[Token]) -> list[tuple[int, int]]:
    """(column, token) pairs where the paraphrase demonstrably says what the close text says (step 2)."""
    interned: dict[str, int] = {}
    column_ids = [interned.setdefault(c.key, len(interned)) for c in columns]
    token_ids = [interned.setdefault(t.key, len(interned)) for t in tokens]
    return without_chaff(matched_pairs(column_ids, token_ids), len(columns), len(tokens))


def _close_stretches(
    columns: list[Column], anchors: list[tuple[int, int]], tokens: list[Token], collation: Collation
) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """(first column, column after the last, its (column, token) pairs) of each stretch of CLOSE_STRETCH
    words or more where the paraphrase reads the base's words one after the other, and spells one at
    least otherwise (step 4: where it reads the base's very letters, no cut is needed).

    A stretch grows from an anchor where the paraphrase's word has the base's key, word by word on both
    sides while the base's next word (in the next column the base reads) has the paraphrase's next key:
    an anchor is on a column's consensus key, and where the others read otherwise the base's own words
    are found only so. A stretch that would disagree with an anchor is no stretch."""
    base = collation.base
    if base is None or base not in collation.alignment.order:
        return []
    own = [n for n, column in enumerate(columns) if base in column.cells]  # the columns the base reads
    rank = {c: n for n, c in enumerate(own)}

    def same(n: int, t: int) -> bool:  # the base's n-th word and the paraphrase's t-th have one key
        if not (0 <= n < len(own) and 0 <= t < len(tokens)):
            return False
        return collation.tokens[base][columns[own[n]].cells[base]].key == tokens[t].key

    found: list[tuple[int, int, list[tuple[int, int]]]] = []
    for c, t in anchors:
        if c not in rank or not same(rank[c], t) or (found and c < found[-1][1]):
            continue
        first, last = 0, 0
        while same(rank[c] + first - 1, t + first - 1):
            first -= 1
        while same(rank[c] + last + 1, t + last + 1):
            last += 1
        pairs = [(own[rank[c] + k], t + k) for k in range(first, last + 1)]
        c0, c1 = pairs[0][0], pairs[-1][0] + 1
        if len(pairs) < CLOSE_STRETCH or (found and c0 < found[-1][1]):
            continue
        placed = dict(pairs)
        if any(
            (j >= pairs[0][1]) if i < c0 else (j <= pairs[-1][1]) if i >= c1 else placed.get(i, j) != j
            for i, j in anchors
        ):
            continue  # it would cross an anchor or place one of its words otherwise
        if any(_spelled_otherwise(columns[i], tokens[j], base, collation) for i, j in pairs):
            found.append((c0, c1, pairs))
    return found


def _spelled_otherwise(column: Column, token: Token, base: str, collation: Collation) -> bool:
    """Whether the paraphrase's word is the base's spelled otherwise (its letters, case aside, differ); an
    honorific formula is not a word spelled otherwise (one formula for another does not cut a clause)."""
    theirs = collation.tokens[base][column.cells[base]]
    return not token.key.startswith(CLASS_MARK) and _letters(theirs.surface) != _letters(token.surface)


def _letters(surface: str) -> str:
    return "".join(character for character in surface.casefold() if character.isalnum())


def _loose_cuts(
    columns: list[Column],
    bounds: list[int],
    tokens: list[Token],
    anchors: list[tuple[int, int]],
    stretches: list[tuple[int, int, list[tuple[int, int]]]],
) -> list[int]:
    """For each clause bound of the close columns, the token index where the paraphrase is cut: at the
    edge of one of its close stretches, at the stretch's own first word or after its last (step 4); else
    between the two anchors around the bound (step 3)."""
    cuts = [0]
    for bound in bounds[1:-1]:
        inside = [pairs for c0, c1, pairs in stretches if c0 <= bound <= c1]
        if inside:  # at the first word matched from the bound on, else after the last
            after = [j for i, j in inside[0] if i >= bound]
            cuts.append(max(after[0] if after else inside[0][-1][1] + 1, cuts[-1]))
            continue
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


def _container(run, parts, read: dict[str, list[Token]], collation: Collation, start: int) -> VariationUnit:
    close = tuple(w for w in collation.witness_order if w in collation.alignment.order)
    close_text = text_read(parts, collation.alignment.order[0])
    texts = {wid: "".join(t.text for t in tokens) for wid, tokens in read.items()}
    unit_id = _container_id(collation, start, close_text, texts)
    base = collation.base if collation.base in close else None
    lemma = Reading(close, tuple(parts), None if base else "paraphrase", is_lemma=bool(base))
    grouped: dict[str, list[str]] = {}
    for wid in (w for w in collation.witness_order if w in texts):
        grouped.setdefault(texts[wid], []).append(wid)
    base_words = Text(tuple(collation.tokens[base][c.cells[base]] for c in run if base in c.cells)) if base else None
    readings = []
    for text, wids in grouped.items():
        kind = "omission" if not text else "addition" if not any(text_read(parts, w) for w in close) else "paraphrase"
        if kind == "paraphrase" and base_words is not None and base_words.tokens:
            same = reading_type(Text(tuple(read[wids[0]])), base_words, collation.profile)
            kind = same if same in NON_SUBSTANTIVE else kind  # the base's words, under normalisation
        reading = Reading(tuple(wids), (text,) if text else (), kind)
        readings.append(ReadingGroup(kind, (reading,)) if kind in NON_SUBSTANTIVE else reading)
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
