"""Aligning the token sequences of N witnesses into columns, deterministically and whatever their input order.

How it works (docs/collation.md tells the longer story):
1. a canonical order: the base witness (or the one most like all others) first, then, greedily, the
   witness most like one already placed; ties go by id. The order the witnesses were given never counts;
2. progressive alignment: each witness in that order is aligned to the columns built so far, on each
   column's consensus key (the key most of its witnesses have), the columns most witnesses share first;
   then a refinement pass aligns each witness again against the columns of all the others;
3. each pairwise alignment is anchored: tokens unique in both ranges, kept where they stand in the same
   order (a longest increasing subsequence), cut the problem into small ranges, recursively; a range
   without anchors is solved exactly by rapidfuzz's LCS edit operations (C++) when small enough;
4. matches standing alone between long gaps are dropped as coincidences ("chaff"); the words left
   over between two matches are paired as substitutions when they balance;
5. a run of words one witness has where the others lack it, equal to a run it lacks elsewhere, is a
   transposition (a Move), recorded so that the two places are linked in the apparatus, word for word
   (tei.collate.analyse cuts both places alike and links them piece by piece);
6. near copies (two witnesses alike in at least NEAR_COPY of their keys, in order) count as one: they
   share one witness's weight in the columns' support and consensus, come one after the other, and a copy
   joins the columns of its original's words, so adding a copy leaves the others' alignment as it was.
Growth is near-linear in the length of the texts for real witnesses, which share many rare words.

Speed with many witnesses: each witness is aligned against every column, so what it reads of the columns
(key, support, whether the ruler stands there) is kept in numpy arrays beside them (_State) and read at C
speed; a joining witness updates a column's consensus by one comparison; the likeness of hundreds of
witnesses is sketched and compared row by row in numpy (_sketched_likeness); anchorless ranges with
nothing in common skip the DP. 500 witnesses x 1,000 words align in 6 to 7 s of CPU (21 s before).
"""

from __future__ import annotations

import zlib
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import groupby
from math import lcm

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from tei.text.normalize import CLASS_MARK

EXACT_ORDER_LIMIT = 64  # witnesses up to which the canonical order compares every pair of texts exactly
SKETCH = 128  # hashes kept per witness to estimate likeness beyond that
BALANCED_LIMIT = (
    2_500  # cells of an anchorless range aligned with the fewest gaps (pure Python); larger: rapidfuzz's LCS
)
WEIGHED_LIMIT = 40  # cells of a weighed range solved by the dynamic programme outright (its ties weighed)
EXACT_LIMIT = 20_000_000  # cells of an anchorless range solved exactly; larger ranges are split
RARE_COUNT = 4  # anchors may be keys occurring the same number of times (up to this) in both ranges
CHAFF_RUN = 2  # a cluster of this many matches or fewer ...
CHAFF_GAP = 4  # ... between gaps this long on both sides is dropped as a coincidence
MIN_MOVE = 3  # words a moved block needs to count as a transposition ...
SUBSTITUTED_GAP = 1  # words substituted between two matched words of a moved block, counted as its own
MOVE_DENSITY = 0.75  # ... and the share of the moved block they must cover
MOVE_RARE = 4  # columns (at most) a key of a moved block appears in ...
MOVE_LONG = 8  # ... unless this many of its words are the same in both places (no stock phrase is that long)
SHORT_MOVE = 2  # words at most of a move shorter than MIN_MOVE (found only where unambiguous: short_moves) ...
SHORT_SPAN = 4  # ... over this many columns at most
MOVE_CANDIDATES = 5  # blocks lacking elsewhere tried for each added block, most shared words first
SMALL_GAP = 3  # in a gap this small, words of one class pair up even when the runs differ in length
MAX_PAIRED_GAP = 12  # unequal leftover runs up to this length are paired by similarity
PAIR_SIMILARITY = 75  # rapidfuzz ratio from which two leftover words are paired as a substitution
NEAR_COPY = 0.98  # likeness from which two witnesses are near copies of one text, and count as one together


@dataclass(eq=False)
class Column:
    """One place of the alignment: for each witness that has a token here, the token's index."""

    key: str
    cells: dict[str, int] = field(default_factory=dict)
    tally: dict[str, list[int]] = field(default_factory=dict, repr=False)  # key -> ranks of its witnesses
    key_id: int = -1  # the key's number in the alignment's vocabulary
    support: int = 0  # the weights of its witnesses (see witness_weights); their number when none is a near copy
    weighed: dict[str, int] = field(default_factory=dict, repr=False)  # key -> the weights of its witnesses


@dataclass(frozen=True, eq=False)
class Move:
    """A block of `witness`'s tokens standing in `moved`, where the others have it in `original`."""

    witness: str
    moved: tuple[Column, ...]
    original: tuple[Column, ...]


@dataclass
class Alignment:
    order: tuple[str, ...]  # the canonical order in which witnesses were aligned
    columns: list[Column]
    moves: list[Move]


def canonical_order(
    keys: dict[str, list[str]], base: str | None, like: dict[tuple[str, str], float] | None = None
) -> tuple[str, ...]:
    """Base (or the most central witness) first, then each time the witness most like one already placed.

    Likeness is the share of keys two witnesses have in common (as multisets), computed once per pair from
    each witness's key counts; beyond EXACT_ORDER_LIMIT witnesses it is estimated from bottom-k sketches
    (_sketched_likeness), so a pair costs SKETCH items, not the length of the texts. The greedy choice keeps for every witness not yet placed its best likeness
    to those placed, updated as each is placed: O(n^2) pairs, not O(n^3). The most central witness is
    the one most like all the others, its near copies included: a text many witnesses attest is central
    (open-cbgm's John 6:23, 103 witnesses: 0.9931 inside varying units so, 0.9870 with near copies
    counted as one)."""
    ids = sorted(keys)
    if not ids:
        return ()
    position = {wid: n for n, wid in enumerate(ids)}
    if like is None:
        like = likeness(keys)

    def between(x: str, y: str) -> float:
        return like[(x, y) if x < y else (y, x)]

    first = base if base in keys else max(ids, key=lambda x: (sum(between(x, y) for y in ids if y != x), -position[x]))
    order, rest = [first], [wid for wid in ids if wid != first]
    best = {wid: between(wid, first) for wid in rest}
    while rest:
        chosen = max(rest, key=lambda x: (best[x], -position[x]))
        order.append(chosen)
        rest.remove(chosen)
        for wid in rest:
            value = between(wid, chosen)
            if value > best[wid]:
                best[wid] = value
    return tuple(order)


def likeness(keys: dict[str, list[str]]) -> dict[tuple[str, str], float]:
    """The likeness of every pair of witnesses (x < y), as canonical_order describes it."""
    ids = sorted(keys)
    if len(ids) > EXACT_ORDER_LIMIT:
        return _sketched_likeness(keys, ids)
    counts = {wid: dict(Counter(keys[wid])) for wid in ids}

    def similarity(x: str, y: str) -> float:
        small, large = (counts[x], counts[y]) if len(counts[x]) <= len(counts[y]) else (counts[y], counts[x])
        get = large.get
        shared = sum(min(count, get(key, 0)) for key, count in small.items())
        return shared / (max(len(keys[x]), len(keys[y])) or 1)

    return {(x, y): similarity(x, y) for n, x in enumerate(ids) for y in ids[n + 1 :]}


def near_copies(keys: dict[str, list[str]], like: dict[tuple[str, str], float]) -> dict[str, str]:
    """Each witness's group of near copies, named by its first member in id order: two witnesses are near
    copies when both their likeness (shared keys, in any order) and the share of their keys in one common
    subsequence (rapidfuzz's Indel similarity, the order counting: a transposition is no copy) are at
    least NEAR_COPY; groups are joined transitively."""
    group = {wid: wid for wid in keys}

    def root(wid: str) -> str:
        while group[wid] != wid:
            group[wid] = group[group[wid]]
            wid = group[wid]
        return wid

    for (x, y), value in like.items():
        if value >= NEAR_COPY and Indel.normalized_similarity(keys[x], keys[y]) >= NEAR_COPY:
            rx, ry = root(x), root(y)
            if rx != ry:
                group[max(rx, ry)] = min(rx, ry)
    return {wid: root(wid) for wid in keys}


def _copies_together(order: tuple[str, ...], groups: dict[str, str]) -> tuple[str, ...]:
    """The order with each witness's near copies right after the first of them to come: while one member of
    a group is placed and another is not, the group's weight would stand on the first alone."""
    members: dict[str, list[str]] = {}
    for wid in order:
        members.setdefault(groups[wid], []).append(wid)
    return tuple(wid for group in members.values() for wid in group)


def witness_weights(groups: dict[str, str]) -> dict[str, int]:
    """Each witness's weight in the columns' support and consensus: near copies of one text share the weight
    one witness has, as sequence weighting does in multiple alignment (ClustalW). So adding a copy of a
    manuscript, or a second hand of it, does not double its say in where the words of the others go, and
    the alignment of the others stays as it was. Weights are whole numbers: L / (the size of the witness's
    group), L the least common multiple of the sizes, so that without near copies every weight is 1 and
    support is the number of witnesses, as before."""
    size = Counter(groups.values())
    unit = lcm(*size.values()) if size else 1
    return {wid: unit // size[group] for wid, group in groups.items()}


def _sketched_likeness(keys: dict[str, list[str]], ids: list[str]) -> dict[tuple[str, str], float]:
    """The Jaccard similarity of every two witnesses' key multisets (the k-th occurrence of a key an item
    of its own), estimated from bottom-k sketches: each witness keeps the SKETCH smallest CRC-32 hashes of
    its items; of the SKETCH smallest hashes of the two sketches together, the share found in both.
    Deterministic (CRC-32, not Python's salted hash), so the order never depends on the run.

    All pairs of one witness at once, in numpy: its sketch beside each later witness's, sorted, row by
    row. A hash in both sketches stands twice in a row, its second copy right after the first; counting
    the repeats before each place gives every hash's rank among the distinct hashes of the two sketches,
    so the hashes in both whose rank is at most SKETCH are the shared ones of the SKETCH smallest. Rows
    are padded with hashes of their own above any CRC-32, never shared and never among the smallest
    while real hashes are left. (500 witnesses: 0.5 s, where comparing sets pair by pair took 4 s.)"""
    count = len(ids)
    sketches = np.empty((count, SKETCH), dtype=np.int64)
    sizes = np.empty(count, dtype=np.int64)  # real hashes in each sketch (fewer than SKETCH in a short text)
    for row, wid in enumerate(ids):
        seen: Counter = Counter()
        hashes = []
        for key in keys[wid]:
            seen[key] += 1
            hashes.append(zlib.crc32(f"{key}\x00{seen[key]}".encode()))
        smallest = sorted(set(hashes))[:SKETCH]
        sizes[row] = len(smallest)
        padding = (1 << 32) + row * SKETCH + np.arange(SKETCH - len(smallest), dtype=np.int64)
        sketches[row] = np.concatenate((np.array(smallest, dtype=np.int64), padding))
    ranks_if_distinct = np.arange(2, 2 * SKETCH + 1)  # the rank of each place but the first, no hash twice
    like: dict[tuple[str, str], float] = {}
    for row in range(count - 1):
        later = sketches[row + 1 :]
        both = np.sort(np.concatenate((np.broadcast_to(sketches[row], later.shape), later), axis=1), axis=1)
        twice = both[:, 1:] == both[:, :-1]  # the second copy of a hash both sketches hold
        rank = ranks_if_distinct - np.cumsum(twice, axis=1)
        shared = np.count_nonzero(twice & (rank <= SKETCH), axis=1).tolist()
        union = np.minimum(sizes[row] + sizes[row + 1 :] - np.count_nonzero(twice, axis=1), SKETCH).tolist()
        x = ids[row]
        for y, common, size in zip(ids[row + 1 :], shared, union):
            like[(x, y)] = common / size if size else 0.0
    return like


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


def _moves(columns: list[Column], order: tuple[str, ...], weights: dict[str, int]) -> list[Move]:
    """The moved blocks of every witness, each once (of two witnesses, each one's block is the other's)."""
    frequency = Counter(column.key for column in columns)
    moves: list[Move] = []
    seen: set[frozenset[int]] = set()
    inserted, deleted = _runs(columns, order, weights)
    for wid in order:
        for move in find_moves(wid, inserted[wid], deleted[wid], frequency):
            places = frozenset(id(column) for column in move.moved + move.original)
            if places not in seen:
                seen.add(places)
                moves.append(move)
    used = {id(column) for move in moves for column in move.moved + move.original}
    short = {wid: [run for run in inserted[wid] if len(run) <= SHORT_MOVE] for wid in order}
    read_in, position = _places_read(columns, short)
    for wid in order:  # then the short ones, where no block stands
        for move in short_moves(wid, short[wid], columns, read_in, position):
            places = [id(column) for column in move.moved + move.original]
            if used.isdisjoint(places):
                used.update(places)
                moves.append(move)
    return moves


def short_moves(
    wid: str, runs: list[list[Column]], columns: list[Column], read_in: dict[str, list[int]], position: dict[int, int]
) -> list[Move]:
    """Moves of one or two words (shorter than MIN_MOVE), found only where they are unambiguous: a run the
    witness alone reads, of at most SHORT_MOVE words, whose every key is read in exactly two columns of
    the whole alignment (by any witness: its own and one other; `read_in`, from _places_read), the others
    standing one after the other, without the witness, not beside the run and at most SHORT_SPAN columns
    from it. So `a b` / `b a`, `X a b` / `a b X`, `Darly among others` / `among others Darly` (where D's
    `Darly` stands against the others' `Magee`) are moves; a stock word (`the`, `and`, `to`: in dozens of
    columns) never is, nor a word that stands twice in a text, nor one that a translation happens to use
    twice, far apart (the seeds' `we` in A's `that we may cut off their heads` and C's `we have`, 20
    columns on)."""
    moves = []
    for run in runs:
        own = [position[id(column)] for column in run]
        if any(len(read_in.get(column.key, ())) != 2 for column in run):
            continue
        other = [next(n for n in read_in[column.key] if n != at) for column, at in zip(run, own)]
        adjacent = all(b == a + 1 for a, b in zip(other, other[1:]))
        beside = other[0] - 1 <= own[-1] and own[0] - 1 <= other[-1]
        near = max(other[0] - own[-1], own[0] - other[-1]) - 1 <= SHORT_SPAN
        if adjacent and near and not beside and not any(wid in columns[n].cells for n in other):
            moves.append(Move(wid, tuple(run), tuple(columns[n] for n in other)))
    return moves


def _places_read(columns: list[Column], runs: dict[str, list[list[Column]]]):
    """For each key of these runs, the columns where some witness reads it (up to three: more is too many
    for a short move); and each column's place. One pass over the columns for all witnesses."""
    wanted = {column.key for found in runs.values() for run in found for column in run}
    read_in: dict[str, list[int]] = {}
    position: dict[int, int] = {}
    if not wanted:
        return read_in, position
    for n, column in enumerate(columns):
        position[id(column)] = n
        for key in column.weighed:
            if key not in wanted:
                continue
            found = read_in.setdefault(key, [])
            if len(found) < 3:
                found.append(n)
    return read_in, position


def _runs(columns: list[Column], order: tuple[str, ...], weights: dict[str, int]):
    """For each witness, the runs of consecutive columns only it has (inserted) and the runs of consecutive
    columns it lacks where at least half of the others (by weight) stand (deleted: where a moved block stood; another
    witness's own addition is not). One pass over the columns, then one over the well-supported ones per
    witness, so the cost is not witnesses times columns when many witnesses add words of their own."""
    inserted: dict[str, list[list[Column]]] = {wid: [] for wid in order}
    deleted: dict[str, list[list[Column]]] = {wid: [] for wid in order}
    last_alone: dict[str, int] = {}
    supported: list[int] = []
    others = sum(weights.values()) - max(weights.values(), default=0)  # without one witness of the most weight
    for index, column in enumerate(columns):
        size = len(column.cells)
        if size == 1:
            (wid,) = column.cells
            if last_alone.get(wid) == index - 1:
                inserted[wid][-1].append(column)
            else:
                inserted[wid].append([column])
            last_alone[wid] = index
        if 2 * column.support >= others:
            supported.append(index)
    for wid in order:
        previous = -2
        for index in supported:
            column = columns[index]
            if wid not in column.cells:
                if index == previous + 1:
                    deleted[wid][-1].append(column)
                else:
                    deleted[wid].append([column])
                previous = index
    return inserted, deleted


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


def _count_matched(a: list[int], b: list[int]) -> int:
    return len(matched_pairs(a, b)) if a and b and not set(a).isdisjoint(b) else 0


def matched_pairs(
    a: list[int], b: list[int], weight: list[int] | None = None, whole: bool = False
) -> list[tuple[int, int]]:
    """Index pairs (i, j), increasing in both, of equal items of a and b: a near-longest common subsequence.

    `weight` (one for each item of a: what a match with it weighs, see _match_weights) decides between
    placements with as many matches in a small range (WEIGHED_LIMIT cells, whole or left between anchors):
    it is solved by the dynamic programme outright, the heaviest placement winning, so a word joins the
    column most witnesses read rather than another witness's stray one (`y` / `x y z` / `z y`: B's `y` with
    A's and C's, not its `z` with C's). Larger ranges keep their equal ends and unique anchors as without
    weights: solving ranges of up to 150 cells so (or taking the heaviest chain of anchors) changed the
    seeds' apparatus in 200 to 700 lines, cutting shared phrases of the translations (`the infidels, and
    they were one thousand`) and linking coincidences as transpositions (5 -> 16 links)."""
    pairs: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        if weight is not None and (a1 - a0) * (b1 - b0) <= WEIGHED_LIMIT:  # small and weighed: solved exactly
            plain = _unambiguous(a, a0, a1, b, b0, b1)
            if plain is not None:
                pairs.extend(plain)
            elif not set(a[a0:a1]).isdisjoint(b[b0:b1]):
                ends = (whole and a0 == 0 and b0 == 0, whole and a1 == len(a) and b1 == len(b))
                pairs.extend(_balanced_pairs(a[a0:a1], b[b0:b1], a0, b0, weight[a0:a1], ends))
            continue
        while a0 < a1 and b0 < b1 and a[a0] == b[b0]:
            pairs.append((a0, b0))
            a0, b0 = a0 + 1, b0 + 1
        while a0 < a1 and b0 < b1 and a[a1 - 1] == b[b1 - 1]:
            a1, b1 = a1 - 1, b1 - 1
            pairs.append((a1, b1))
        if a0 == a1 or b0 == b1:
            continue
        anchors = _anchors(a, a0, a1, b, b0, b1)
        if anchors:
            pairs.extend(anchors)
            starts = [(a0, b0)] + [(i + 1, j + 1) for i, j in anchors]
            ends = anchors + [(a1, b1)]
            stack.extend((s[0], e[0], s[1], e[1]) for s, e in zip(starts, ends))
        elif (a1 - a0) * (b1 - b0) <= EXACT_LIMIT:
            pairs.extend(_exact_pairs(a, a0, a1, b, b0, b1, weight))
        else:
            middle_a, middle_b = (a0 + a1) // 2, (b0 + b1) // 2
            stack.extend([(a0, middle_a, b0, middle_b), (middle_a, a1, middle_b, b1)])
    pairs.sort()
    return runs_kept_together(pairs, a, b)


def _unambiguous(a, a0, a1, b, b0, b1) -> list[tuple[int, int]] | None:
    """The matches of two ranges when there is nothing to choose: every item they have in common stands once
    in each and in the same order (then every placement matches them all, as the weighed programme would);
    None when there is a choice."""
    common = set(a[a0:a1]).intersection(b[b0:b1])
    if not common:
        return []
    at_a = [i for i in range(a0, a1) if a[i] in common]
    at_b = [j for j in range(b0, b1) if b[j] in common]
    if len(at_a) != len(common) or len(at_b) != len(common):
        return None
    if any(a[i] != b[j] for i, j in zip(at_a, at_b)):
        return None
    return list(zip(at_a, at_b))


def runs_kept_together(pairs: list[tuple[int, int]], a: list[int], b: list[int]) -> list[tuple[int, int]]:
    """Among placements of equal length, the one that keeps runs of agreement together: a matched word
    standing apart from its neighbours' run slides over a gap to an equal word next to that run
    (`εν εφεσω εν τω` against `εν τω`: the second `εν`, beside `τω`, not the first). The number of
    matches never changes; each slide only closes a gap on one side without opening one on the other."""
    pairs = list(pairs)
    for n in range(len(pairs) - 2, -1, -1):  # slide right, towards the next match
        (i, j), (i2, j2) = pairs[n], pairs[n + 1]
        if n and pairs[n - 1] == (i - 1, j - 1):
            continue  # already in a run on its left
        if j2 == j + 1 and i2 > i + 1 and a[i2 - 1] == a[i]:
            pairs[n] = (i2 - 1, j)
        elif i2 == i + 1 and j2 > j + 1 and b[j2 - 1] == b[j]:
            pairs[n] = (i, j2 - 1)
    for n in range(1, len(pairs)):  # slide left, towards the previous match
        (i0, j0), (i, j) = pairs[n - 1], pairs[n]
        if n + 1 < len(pairs) and pairs[n + 1] == (i + 1, j + 1):
            continue
        if j == j0 + 1 and i > i0 + 1 and a[i0 + 1] == a[i]:
            pairs[n] = (i0 + 1, j)
        elif i == i0 + 1 and j > j0 + 1 and b[j0 + 1] == b[j]:
            pairs[n] = (i, j0 + 1)
    return pairs


def without_chaff(
    pairs: list[tuple[int, int]], length_a: int, length_b: int, place: Mapping[int, int] | list[int] | None = None
) -> list[tuple[int, int]]:
    """Matched pairs without the chaff: a cluster of at most CHAFF_RUN matches (matches closer than
    CHAFF_GAP words belong together) standing alone between longer gaps is a coincidence ("the", "for
    them"), not a place the texts share; keeping it would cut a paraphrase or an added passage into
    confetti. Clusters at the very start or end of both sequences stay.

    `place` (a position for each item of a, and one for its end; those of the paired items suffice)
    measures gaps in a: when a is columns,
    only the columns most witnesses share count, so the words other witnesses added in between (many,
    with a hundred witnesses) never make a true match look like a stray one."""
    where = place if place is not None else range(length_a + 1)
    clusters: list[list[tuple[int, int]]] = []
    previous = (-1, -1)
    for pair in pairs:
        at = (where[pair[0]], pair[1])
        if clusters and _gap(previous, at) < CHAFF_GAP:
            clusters[-1].append(pair)
        else:
            clusters.append([pair])
        previous = at
    kept: list[tuple[int, int]] = []
    end = (where[length_a], length_b)
    for cluster in clusters:
        first, last = (where[cluster[0][0]], cluster[0][1]), (where[cluster[-1][0]], cluster[-1][1])
        at_edge = _gap((-1, -1), first) < CHAFF_GAP or _gap(last, end) < CHAFF_GAP
        if len(cluster) > CHAFF_RUN or at_edge:
            kept.extend(cluster)
    return kept


def _gap(left: tuple[int, int], right: tuple[int, int]) -> int:
    return max(right[0] - left[0], right[1] - left[1]) - 1


def _anchors(a, a0, a1, b, b0, b1) -> list[tuple[int, int]]:
    """Pairs of rare items in the same order in both ranges: unique ones first, else equally rare ones."""
    count_a, count_b = Counter(a[a0:a1]), Counter(b[b0:b1])
    for limit in (1, RARE_COUNT):
        rare = {item for item, n in count_a.items() if n <= limit and count_b.get(item) == n}
        if rare:
            break
    if not rare:
        return []
    positions_b: dict[int, list[int]] = {}
    for j in range(b0, b1):
        if b[j] in rare:
            positions_b.setdefault(b[j], []).append(j)
    seen: Counter = Counter()
    candidates = []
    for i in range(a0, a1):
        if a[i] in rare:
            candidates.append((i, positions_b[a[i]][seen[a[i]]]))
            seen[a[i]] += 1
    return _longest_increasing(candidates)


def _longest_increasing(candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of candidates (sorted by i) whose j also increases (patience sorting)."""
    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(candidates)
    for n, (_, j) in enumerate(candidates):
        place = bisect_left(tails, j)
        if place == len(tails):
            tails.append(j)
            tail_index.append(n)
        else:
            tails[place] = j
            tail_index[place] = n
        previous[n] = tail_index[place - 1] if place else -1
    chain, n = [], tail_index[-1] if tail_index else -1
    while n >= 0:
        chain.append(candidates[n])
        n = previous[n]
    return chain[::-1]


def _exact_pairs(a, a0, a1, b, b0, b1, weight=None) -> list[tuple[int, int]]:
    if set(a[a0:a1]).isdisjoint(b[b0:b1]):
        return []  # nothing to match (most ranges without anchors: a substitution, an addition beside one)
    if (a1 - a0) * (b1 - b0) <= BALANCED_LIMIT:
        return _balanced_pairs(a[a0:a1], b[b0:b1], a0, b0, None if weight is None else weight[a0:a1])
    pairs = []
    for block in Indel.opcodes(a[a0:a1], b[b0:b1]):
        if block.tag == "equal":
            pairs.extend(
                zip(range(a0 + block.src_start, a0 + block.src_end), range(b0 + block.dest_start, b0 + block.dest_end))
            )
    return pairs


def _balanced_pairs(
    a: list[int], b: list[int], a0: int, b0: int, weight=None, free: tuple[bool, bool] = (False, False)
) -> list[tuple[int, int]]:
    """A longest common subsequence of a and b that, among all of that length, opens the fewest gaps:
    the words left between two matches stand side by side (a substitution) rather than as an omission
    in one place and an addition in the next (`ahu X a a daqi` against `ahu a a a janiya`: X against
    the first `a`, then `a a`, not `a a` first and a stray `a` after). Dynamic programming with affine
    gaps (a match weighs more than any number of gaps), for small ranges only. With `weight` (one for each
    item of a), among placements with as many matches and as few gaps the heaviest wins; `free` (at the
    start, at the end): the range begins or ends a whole sequence, where a gap opens nothing between two
    matches and costs nothing (`y` / `x y z` / `z y`: B's `z` with C's or its `y` with A's and C's open
    no gap either way, and the weight decides)."""
    n, m = len(a), len(b)
    worst = -(1 << 60)
    gap_room = n + m + 2  # more than the gaps the range can open
    weights = weight if weight is not None else [0] * n
    penalty = sum(weights) + 1  # a gap opened outweighs all the weight
    gain = [penalty * gap_room + w for w in weights]  # one more match outweighs every gap
    left_free, right_free = free

    def cost_a(j: int) -> int:  # a gap opened consuming a alone, at column j of b
        return 0 if (left_free and j == 0) or (right_free and j == m) else penalty

    def cost_b(i: int) -> int:
        return 0 if (left_free and i == 0) or (right_free and i == n) else penalty

    # three states per cell: the last step was diagonal (0), consumed a alone (1), consumed b alone (2)
    score = [[[worst] * 3 for _ in range(m + 1)] for _ in range(n + 1)]
    score[0][0][0] = 0
    for i in range(n + 1):
        row = score[i]
        for j in range(m + 1):
            cell = row[j]
            if i and j:
                before = score[i - 1][j - 1]
                cell[0] = max(before) + (gain[i - 1] if a[i - 1] == b[j - 1] else 0)
            if i:
                up = score[i - 1][j]
                c = cost_a(j)
                cell[1] = max(up[0] - c, up[1], up[2] - c)
            if j:
                left = row[j - 1]
                c = cost_b(i)
                cell[2] = max(left[0] - c, left[2], left[1] - c)
    pairs = []
    i, j = n, m
    state = max(range(3), key=lambda s: (score[n][m][s], -s))
    while i or j:
        value = score[i][j][state]
        if state == 0:
            if a[i - 1] == b[j - 1]:
                pairs.append((a0 + i - 1, b0 + j - 1))
            previous = score[i - 1][j - 1]
            gained = gain[i - 1] if a[i - 1] == b[j - 1] else 0
            state = next(s for s in range(3) if previous[s] + gained == value)
            i, j = i - 1, j - 1
        elif state == 1:
            up = score[i - 1][j]
            c = cost_a(j)
            state = next(s for s in range(3) if up[s] - c * (s != 1) == value)
            i -= 1
        else:
            left = score[i][j - 1]
            c = cost_b(i)
            state = next(s for s in (2, 0, 1) if left[s] - c * (s != 2) == value)
            j -= 1
    return pairs[::-1]


def _with_substitutions(pairs, keys_in, shared_by_most, column_count: int, own: list[str]) -> list[tuple[int, int]]:
    """Matched pairs plus, between them, the words some witnesses of a column read there (_read_there),
    and the words left over paired where they balance (see _similar_pairs); a gap whose columns most
    witnesses share are as many as the witness's words balances on those."""
    result: list[tuple[int, int]] = []
    previous = (-1, -1)
    for pair in pairs + [(column_count, len(own))]:
        bounds = [previous, *_read_there(previous, pair, keys_in, own), pair]
        for left, right in zip(bounds, bounds[1:]):
            gap_a, gap_b = range(left[0] + 1, right[0]), range(left[1] + 1, right[1])
            result.extend(_paired_gap(gap_a, gap_b, keys_in, shared_by_most, own))
            if right[0] < column_count:
                result.append(right)
        previous = pair
    return result


def _read_there(left: tuple[int, int], right: tuple[int, int], keys_in, own: list[str]) -> list[tuple[int, int]]:
    """In a long gap between two matches, the witness's few words (SMALL_GAP at most) that some witnesses
    of a column there read too. The consensus of a column is the key most of its witnesses read, so the
    others' word (`υμιν` where most read `ημιν`) matches no column, and past MAX_PAIRED_GAP nothing pairs
    it: it stood alone as an addition beside the same word, because the others' additions (`εκ της
    σαρκος αυτου και εκ των οστεων αυτου εν κυριω`) made the gap long (teiphy's Ephesians). The most such
    words in order, each in the column where most witnesses read it; a cluster of them standing alone,
    far from both ends of the gap, is chaff (as in without_chaff). A longer run of the witness's own is
    its own passage and stays whole: matching its common words there changed dozens of the seeds' units
    and cut D's clauses a word at a time. Short gaps need none of this: _similar_pairs scores a word
    the column's witnesses read highest."""
    gap_a, gap_b = range(left[0] + 1, right[0]), range(left[1] + 1, right[1])
    if not gap_b or len(gap_b) > SMALL_GAP or len(gap_a) <= MAX_PAIRED_GAP or len(gap_a) * len(gap_b) > BALANCED_LIMIT:
        return []
    words = {own[j] for j in gap_b}
    read = [keys_in(i) for i in gap_a]
    if all(words.isdisjoint(keys) for keys in read):
        return []
    unit = 1 + sum(sum(keys.values()) for keys in read)  # one more word outweighs every weight

    def gain(r: int, c: int) -> int:
        weight = read[r].get(own[gap_b[c]])
        return -1 if weight is None else unit + weight

    found = _monotone_pairs(gap_a, gap_b, gain)
    clusters: list[list[tuple[int, int]]] = []
    for pair in found:
        if clusters and _gap(clusters[-1][-1], pair) < CHAFF_GAP:
            clusters[-1].append(pair)
        else:
            clusters.append([pair])
    return [
        pair
        for cluster in clusters
        if len(cluster) > CHAFF_RUN or _gap(left, cluster[0]) < CHAFF_GAP or _gap(cluster[-1], right) < CHAFF_GAP
        for pair in cluster
    ]


def _paired_gap(gap_a: range, gap_b: range, keys_in, shared_by_most, own: list[str]) -> list[tuple[int, int]]:
    """The words of a gap between two matches paired with its columns where they balance."""
    if gap_a and gap_b and max(len(gap_a), len(gap_b)) <= MAX_PAIRED_GAP:
        shared = [column for column in gap_a if shared_by_most(column)]
        if len(gap_a) != len(gap_b) and len(shared) == len(gap_b):
            return _similar_pairs(shared, gap_b, keys_in, own, True)
        balanced = len(gap_a) == len(gap_b) or max(len(gap_a), len(gap_b)) <= SMALL_GAP
        return _similar_pairs(gap_a, gap_b, keys_in, own, balanced)
    if len(gap_a) == len(gap_b):
        return [(i, j) for i, j in zip(gap_a, gap_b) if all(_same_class(k, own[j]) for k in keys_in(i))]
    return []


def _similar_pairs(gap_a, gap_b: range, keys_in, own: list[str], balanced: bool):
    """The monotone pairing of two short runs that maximises the similarity of the paired words: when the
    runs balance, any two words of one class may pair (a substitution); else only similar ones (spelling)."""
    rows, cols = len(gap_a), len(gap_b)
    similarity = [
        [max(_similarity(k, own[gap_b[c]]) for k in keys_in(gap_a[r])) for c in range(cols)] for r in range(rows)
    ]

    def gain(r: int, c: int) -> float:
        value = similarity[r][c]
        return value + 1.0 if value >= 0 and (balanced or value >= PAIR_SIMILARITY) else -1.0

    return _monotone_pairs(gap_a, gap_b, gain)


def _monotone_pairs(gap_a, gap_b, gain) -> list[tuple[int, int]]:
    """The monotone pairing of two runs with the greatest sum of gains (a pair only where its gain is
    positive), by dynamic programming from the ends; ties go to the earliest pairs."""
    rows, cols = len(gap_a), len(gap_b)
    score = [[0] * (cols + 1) for _ in range(rows + 1)]
    for r in range(rows - 1, -1, -1):
        for c in range(cols - 1, -1, -1):
            score[r][c] = max(score[r + 1][c + 1] + gain(r, c), score[r + 1][c], score[r][c + 1])
    pairs, r, c = [], 0, 0
    while r < rows and c < cols:
        if gain(r, c) > 0 and score[r][c] == score[r + 1][c + 1] + gain(r, c):
            pairs.append((gap_a[r], gap_b[c]))
            r, c = r + 1, c + 1
        elif score[r][c] == score[r + 1][c]:
            r += 1
        else:
            c += 1
    return pairs


def _same_class(x: str, y: str) -> bool:
    """A class key (an honorific formula, ⟨...⟩) pairs only with another class key, a word with a word."""
    return x.startswith(CLASS_MARK) == y.startswith(CLASS_MARK)


def _similarity(x: str, y: str) -> float:
    """rapidfuzz's ratio (0-100) of two keys of one class; -1 for a formula against a word."""
    return fuzz.ratio(x, y) if _same_class(x, y) else -1.0


def find_moves(
    wid: str, inserted_runs: list[list[Column]], deleted_runs: list[list[Column]], frequency: Counter
) -> list[Move]:
    """Blocks the witness has in one place (inserted) that match a block it lacks in another (deleted).

    A block matches when at least MIN_MOVE of its words, one of them rare in the text (in at most
    MOVE_RARE columns: not a stock phrase like "the Messenger of Allah") or MOVE_LONG of them the same,
    align in order with the other block and cover MOVE_DENSITY of it (a moved block may itself have lost
    or gained a word). Two rare words with a substituted word between them, or a respelled one beside
    them, make a block too (_with_substituted). What is left of an inserted run on either side of a block
    it matched is tried again: the others may read it in another place."""
    where: dict[str, list[int]] = {}
    for number, run in enumerate(deleted_runs):
        for column in run:
            where.setdefault(column.key, []).append(number)
    used: set[int] = set()
    moves = []
    waiting = list(reversed(inserted_runs))
    while waiting:
        run = waiting.pop()
        if len(run) < MIN_MOVE:
            continue
        votes = Counter(number for column in run for number in set(where.get(column.key, ())) if number not in used)
        for number, shared in votes.most_common(MOVE_CANDIDATES):
            if shared < MIN_MOVE - 1:
                break
            move = _matched_block(wid, run, deleted_runs[number], frequency)
            if move and (
                sum(m.key == o.key for m, o in zip(move.moved, move.original)) >= MOVE_LONG
                or min(frequency[column.key] for column in move.original) <= MOVE_RARE
            ):
                moves.append(move)
                used.add(number)
                # the rest of the run may have stood elsewhere (a block the others read in two places)
                first, last = run.index(move.moved[0]), run.index(move.moved[-1])
                waiting.extend((run[last + 1 :], run[:first]))
                break
    return moves


def _with_substituted(pairs: list[tuple[int, int]], run: list[Column], target: list[Column]) -> list[tuple[int, int]]:
    """The matched pairs with the words between two of them that stand in the same number in both blocks
    (at most SUBSTITUTED_GAP), and a word before the first or after the last that is a spelling of the word
    there (PAIR_SIMILARITY): a moved block keeps its substitutions and respellings where they stand."""
    (i, j), (i2, j2) = pairs[0], pairs[-1]
    if i and j and _similarity(run[i - 1].key, target[j - 1].key) >= PAIR_SIMILARITY:
        pairs = [(i - 1, j - 1)] + pairs
    if (
        i2 + 1 < len(run)
        and j2 + 1 < len(target)
        and _similarity(run[i2 + 1].key, target[j2 + 1].key) >= PAIR_SIMILARITY
    ):
        pairs = pairs + [(i2 + 1, j2 + 1)]
    filled: list[tuple[int, int]] = []
    for (i, j), (i2, j2) in zip(pairs, pairs[1:] + [(-1, -1)]):
        filled.append((i, j))
        if i2 >= 0 and i2 - i == j2 - j and 1 < i2 - i <= SUBSTITUTED_GAP + 1:
            filled.extend((i + k, j + k) for k in range(1, i2 - i))
    return filled


def _matched_block(wid: str, run: list[Column], target: list[Column], frequency: Counter) -> Move | None:
    interned: dict[str, int] = {}
    pairs = matched_pairs(
        [interned.setdefault(c.key, len(interned)) for c in run],
        [interned.setdefault(c.key, len(interned)) for c in target],
    )
    if len(pairs) < MIN_MOVE - 1 or len({run[i].key for i, _ in pairs}) < 2:
        return None  # too short, or one common word repeated ("a a a")
    rare = all(frequency[run[i].key] <= MOVE_RARE for i, _ in pairs)
    if len(pairs) < MIN_MOVE and not rare:
        return None  # one word short of a block: only rare words, with a substitution beside them, make one
    filled = _with_substituted(pairs, run, target)
    if rare:  # the substituted words count towards the block's size and density only beside rare words
        pairs = filled
    if len(pairs) < MIN_MOVE:
        return None
    moved_span = pairs[-1][0] - pairs[0][0] + 1
    others = {wid for _, j in pairs for wid in target[j].cells}
    shared_span = sum(
        1
        for column in target[pairs[0][1] : pairs[-1][1] + 1]
        if 2 * len(others.intersection(column.cells)) >= len(others)
    )
    if len(pairs) < MOVE_DENSITY * moved_span or shared_span > 2 * len(pairs):
        return None  # the block must be mostly matched where it stood; a few witnesses' own words there do not count
    return Move(wid, tuple(run[i] for i, _ in filled), tuple(target[j] for _, j in filled))
