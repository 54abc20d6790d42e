"""Progressive alignment: each witness in the canonical order joins the columns built so far (weighed by what
the witnesses there read), then a refinement pass; blocks the others read in one order join them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby

import numpy as np

from tei.collate.align.moves import _moves
from tei.collate.align.order import _copies_together, canonical_order, likeness, near_copies, witness_weights
from tei.collate.align.pairwise import _count_matched, _with_substitutions, matched_pairs, without_chaff
from tei.collate.align.params import EXACT_ORDER_LIMIT, Alignment, Column, Move


def align(keys: dict[str, list[str]], base: str | None = None) -> Alignment:
    """Columns aligning every witness's keys; `keys` maps witness id to the keys of its tokens."""
    like = likeness(keys)
    groups = near_copies(keys, like)
    order = _copies_together(canonical_order(keys, base, like), groups)
    weights = witness_weights(groups)
    vocabulary: dict[str, int] = {}  # every key numbered once: columns and tokens are compared as numbers
    numbers = {wid: [vocabulary.setdefault(key, len(vocabulary)) for key in keys[wid]] for wid in order}
    sizes = Counter(groups.values())
    whole = max((weights[wid] * sizes[groups[wid]] for wid in order), default=1)  # one witness's weight
    state = _State(keys, numbers, vocabulary, order, weights, groups, whole)
    for wid in order:
        state.add(wid)
    _refine(state)
    moves = _moves(state.columns, order, weights)
    if _join_unmoved(state, moves):
        moves = _moves(state.columns, order, weights)
    return Alignment(order, state.columns, moves)


def _join_unmoved(state: _State, moves: list[Move]) -> bool:
    """Blocks found moved that their witness reads in the same order as the others: it reads nothing
    between the two places, so joining the place where the others stand crosses none of its words. Such a
    block is no transposition (two witnesses that share one order are never linked as moved), it was left
    apart by the progressive alignment: its words join the columns of the place it matched. MatchTableLinker's
    Suscepto: C's `tribus diebus sompno suscepto` stood before A's `morte morietur`, B's `tribus diebus
    somno suscepto` after it, and C lacks those words. Whether anything was joined."""
    columns = state.columns
    where = {id(column): n for n, column in enumerate(columns)}
    joined = False
    for move in moves:
        wid = move.witness
        places = [where[id(column)] for column in move.moved + move.original]
        low, high = min(places), max(places)
        inside = {where[id(column)] for column in move.moved}
        if any(wid in columns[n].cells for n in range(low, high + 1) if n not in inside):
            continue
        if any(len(column.cells) != 1 for column in move.moved):
            continue
        for moved, original in zip(move.moved, move.original):
            token = moved.cells.pop(wid)
            _update_consensus([moved], state.keys, state.order, wid, -state.weights[wid], state.vocabulary)
            original.cells[wid] = token
            _update_consensus([original], state.keys, state.order, wid, state.weights[wid], state.vocabulary)
        joined = True
    if joined:
        state.columns = [column for column in columns if column.cells]
    return joined


@dataclass
class _State:
    """What progressive alignment keeps between witnesses: keys, their numbers, the columns so far, the
    columns each witness stands in (so taking a witness out costs its own columns, not all of them).

    Beside the columns, three arrays hold for each column its key's number, its support and whether the
    ruler (the first witness of the order) stands in it. Each witness is aligned against every column, so
    what it reads of them is read from these arrays (at C speed) rather than from the columns themselves:
    with 500 witnesses there are some 25,000 columns, scattered in memory. Adding a witness inserts its
    new columns into the arrays and updates the entries of the columns it joined."""

    keys: dict[str, list[str]]
    numbers: dict[str, list[int]]
    vocabulary: dict[str, int]
    order: tuple[str, ...]
    weights: dict[str, int]
    groups: dict[str, str]  # witness -> its group of near copies
    whole: int  # the weight of one witness (of a group of near copies together): witness_weights' L
    placed: dict[str, list[Column]] = field(default_factory=dict)
    columns: list[Column] = field(default_factory=list)
    key_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    support: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    ruled: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    agree: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # the weight of each consensus

    def add(self, wid: str) -> None:
        mate = next((w for w in self.placed if self.groups[w] == self.groups[wid]), None)
        with_mate = None if mate is None else (mate, self.numbers[mate])
        touched, at = _add_witness(self, wid, with_mate)
        _update_consensus(touched, self.keys, self.order, wid, self.weights[wid], self.vocabulary)
        self.key_ids[at] = [column.key_id for column in touched]
        self.support[at] = [column.support for column in touched]
        self.agree[at] = [column.weighed[column.key] for column in touched]
        if wid == self.order[0]:
            self.ruled[at] = True
        self.placed[wid] = touched

    def remove(self, wid: str) -> None:
        touched = [column for column in self.placed.pop(wid) if column.cells.pop(wid, None) is not None]
        _update_consensus(touched, self.keys, self.order, wid, -self.weights[wid], self.vocabulary)
        if any(not column.cells for column in touched):
            self.columns = [column for column in self.columns if column.cells]
        ruler = self.order[0]
        self.key_ids = np.array([column.key_id for column in self.columns], dtype=np.int64)
        self.support = np.array([column.support for column in self.columns], dtype=np.int64)
        self.agree = np.array([c.weighed.get(c.key, 0) for c in self.columns], dtype=np.int64)
        self.ruled = np.array([ruler in column.cells for column in self.columns], dtype=bool)


def _refine(state: _State) -> None:
    """Each witness aligned once more, against the columns of all the others (of two, once is enough);
    near copies are taken out together and put back one after the other, so that a copy never holds its
    original's columns in place. Beyond EXACT_ORDER_LIMIT witnesses the columns are already set by so many
    that a second pass moves little (111 x 150 words: 914 columns without it, 1,020 with it) and it would
    double the time."""
    order = state.order
    if len(order) > EXACT_ORDER_LIMIT:
        return
    groups = [list(members) for _, members in groupby(order, key=state.groups.get)]  # contiguous in the order
    for group in groups[1:] if len(groups) == 2 else groups if len(groups) > 2 else []:
        for wid in group:
            state.remove(wid)
        for wid in group:
            state.add(wid)


def _update_consensus(
    columns: list[Column], keys: dict[str, list[str]], order: tuple[str, ...], wid: str, weight: int, vocabulary
) -> None:
    """Each column the witness joined (weight > 0) or left (weight < 0) gets as key the key of the most weight
    among its witnesses (ties: the one whose first witness comes earliest in the order). Incremental: each
    column keeps the ranks and the weight of its witnesses per key, so a change costs the column's number of
    distinct keys, not of witnesses; and a witness joining a column changes the standing of its own key
    alone, so that key takes the column or the column keeps its key: one comparison."""
    rank = order.index(wid)
    for column in columns:
        column.support += weight
        if weight > 0:
            key = keys[wid][column.cells[wid]]
            column.tally.setdefault(key, []).append(rank)
            column.weighed[key] = column.weighed.get(key, 0) + weight
            current = column.key  # the heaviest key before (a new column's own key, not yet tallied)
            if current == key or current not in column.tally or _outweighs(column, key, current):
                column.key, column.key_id = key, vocabulary[key]
            continue
        for found, ranks in list(column.tally.items()):
            if rank in ranks:
                ranks.remove(rank)
                column.weighed[found] += weight
                if not ranks:
                    del column.tally[found], column.weighed[found]
        if column.tally:
            column.key = max(column.tally, key=lambda k: _standing(column, k))
            column.key_id = vocabulary[column.key]


def _standing(column: Column, key: str) -> tuple[int, int]:
    """What a key weighs in a column: the weight of its witnesses, then the earliest of them in the order."""
    return column.weighed[key], -min(column.tally[key])


def _outweighs(column: Column, key: str, other: str) -> bool:
    """_standing(column, key) > _standing(column, other), looking at the ranks (hundreds of witnesses
    may stand behind a key) only when the weights are equal."""
    mine, theirs = column.weighed[key], column.weighed[other]
    return mine > theirs or (mine == theirs and min(column.tally[key]) < min(column.tally[other]))


def _add_witness(state: _State, wid: str, mate: tuple[str, list[int]] | None = None):
    """The witness's tokens placed in the state's columns (new columns where they match none); the columns
    it joined or made (for the caller to tally) and their places.

    `mate` (a near copy already placed, and its keys' numbers): the witness is aligned to its near copy's
    own words and joins the columns they stand in, so that copies stand together whatever the others'
    consensus there; its own words between are placed as substitutions or additions."""
    columns, own, token_ids = state.columns, state.keys[wid], state.numbers[wid]
    most = int(state.support.max(initial=0))
    strong = 2 * state.support >= most  # the columns most witnesses share
    if mate is None:
        # a place for each column (and one for the end) that measures gaps in words of one text: a column
        # counts when most witnesses share it or when the ruler (the first witness of the canonical order,
        # the base) stands in it. So a hundred witnesses' scattered additions make no gap, while the base's
        # own passage is as long as it is.
        counted = np.cumsum(strong | state.ruled)  # place + 1 of each column that counts
        # a column counts as held by several witnesses when more than one witness's weight stands in it (a
        # witness and its near copy are one)
        several = lambda i: columns[i].support > state.whole  # noqa: E731
        matched = supported_pairs(state.key_ids, strong, token_ids, several, _match_weights(state, len(own)))
        ends = [i for i, _ in matched] + [len(columns)]
        place = dict(zip(ends, np.concatenate(([0], counted))[ends].tolist()))  # where without_chaff looks
        pairs = without_chaff(matched, len(columns), len(own), place)
    else:  # a copy's words matched to its original's are no coincidence: no chaff to drop
        other, other_ids = mate
        column_of = {column.cells[other]: n for n, column in enumerate(columns) if other in column.cells}
        pairs = [(column_of[i], j) for i, j in matched_pairs(other_ids, token_ids)]

    def keys_in(column_index: int) -> dict[str, int]:  # the keys its witnesses read, with their weight
        return columns[column_index].weighed

    shared_by_most = strong.tolist().__getitem__
    pairs = _with_substitutions(pairs, keys_in, shared_by_most, len(columns), own)
    merged: list[Column] = []
    joined: list[Column] = []
    at: list[int] = []  # the places of the joined columns among the merged ones
    new_at: list[int] = []  # for each new column, the index of the old column it comes before
    previous_column, previous_token = 0, 0
    for column_index, token_index in pairs + [(len(columns), len(own))]:
        merged.extend(columns[previous_column:column_index])
        for t in range(previous_token, token_index):
            added = Column(own[t], {wid: t}, key_id=token_ids[t])
            at.append(len(merged))
            merged.append(added)
            joined.append(added)  # the caller tallies it
            new_at.append(column_index)
        if column_index < len(columns):
            columns[column_index].cells[wid] = token_index
            at.append(len(merged))
            merged.append(columns[column_index])
            joined.append(columns[column_index])
        previous_column, previous_token = column_index + 1, token_index + 1
    state.columns = merged
    state.key_ids = np.insert(state.key_ids, new_at, 0)  # the caller enters the joined columns' key and support
    state.support = np.insert(state.support, new_at, 0)
    state.ruled = np.insert(state.ruled, new_at, False)
    state.agree = np.insert(state.agree, new_at, 0)
    return joined, at


def _match_weights(state: _State, length: int) -> np.ndarray:
    """What a match with each column weighs, to choose between placements with as many matches: first the
    weight of the witnesses reading the column's key (the word most witnesses share wins), then the support of
    the columns beside it beyond one witness's (of two equal places, the one beside the run the others joined: `a` / `b` / `c`
    against `a b c a b c` stand in one run, not `a` in the first and `b`, `c` in the second)."""
    support = state.support
    others = np.maximum(support - state.whole, 0)  # beyond one witness: a column of one witness's words is no run
    beside = np.zeros_like(support)
    beside[1:] += others[:-1]
    beside[:-1] += others[1:]
    return state.agree * (2 * int(support.max(initial=0)) * (length + 1) + 1) + beside


def supported_pairs(
    a: np.ndarray, strong: np.ndarray, b: list[int], several=None, weight: np.ndarray | None = None
) -> list[tuple[int, int]]:
    """Matched pairs, the columns most witnesses share first (`strong`: whether each column of a is one):
    b is aligned to the well-supported columns of a, then, between those matches, to the rest (so a word
    joins the column where most witnesses have it, not the stray column of one witness's moved or added
    word). `weight`: the weight of the witnesses reading each column's key; among placements with as many
    matches, the heaviest is taken (see matched_pairs). Of the array a only the items compared are made
    Python numbers."""
    places = np.flatnonzero(strong).tolist()
    if len(places) == len(a):
        return matched_pairs(a.tolist(), b, None if weight is None else weight.tolist(), True)
    strong_weight = None if weight is None else weight[strong].tolist()
    pairs = _room_for_the_rest(
        [(places[i], j) for i, j in matched_pairs(a[strong].tolist(), b, strong_weight, True)], a, b, several
    )
    result: list[tuple[int, int]] = []
    previous = (-1, -1)
    for pair in pairs + [(len(a), len(b))]:
        a0, b0 = previous[0] + 1, previous[1] + 1
        if a0 < pair[0] and b0 < pair[1]:
            part = None if weight is None else weight[a0 : pair[0]].tolist()
            between = matched_pairs(a[a0 : pair[0]].tolist(), b[b0 : pair[1]], part)
            result.extend((a0 + i, b0 + j) for i, j in between)
        if pair[0] < len(a):
            result.append(pair)
        previous = pair
    return result


def _room_for_the_rest(
    pairs: list[tuple[int, int]], a: np.ndarray, b: list[int], several=None
) -> list[tuple[int, int]]:
    """The matches on the well-supported columns, each moved, among the places of equal length, to the one
    that leaves the most matches with the other columns around it. A repeated word can stand against a
    well-supported column at either of its places, and the other columns are matched only between: in
    `και την αγαπην την εις` against the columns `και την* αγαπην την εις*` (* well supported), the first
    `την` leaves `αγαπην την` for the columns after it, the second (next to `εις`) leaves nothing, and the
    witness's `την αγαπην` stood alone as an addition beside nine witnesses' identical words (teiphy's
    Ephesians). Only a match whose word recurs between its neighbouring matches is looked at; ties keep
    it where it was. `several(i)`: whether column i holds more than one witness; only those count, for a
    column of one witness's own word is no agreement to keep (with four witnesses, matching the common
    `a` of another's addition cost the synthetic sets 2 and 9 up to 0.003 of F1)."""

    def items(start: int, end: int) -> list[int]:  # the columns' keys, a column of one witness matching nothing
        keys = a[start:end].tolist()
        return keys if several is None else [key if several(start + k) else -1 - k for k, key in enumerate(keys)]

    pairs = list(pairs)
    for n, (i, j) in enumerate(pairs):
        before = pairs[n - 1] if n else (-1, -1)
        after = pairs[n + 1] if n + 1 < len(pairs) else (len(a), len(b))
        others = [k for k in range(before[1] + 1, after[1]) if k != j and b[k] == b[j]]
        if not others:
            continue
        left_columns, right_columns = items(before[0] + 1, i), items(i + 1, after[0])
        best, most = j, -1
        for k in [j, *others]:
            found = _count_matched(left_columns, b[before[1] + 1 : k]) + _count_matched(
                right_columns, b[k + 1 : after[1]]
            )
            if found > most:
                best, most = k, found
        pairs[n] = (i, best)
    return pairs
