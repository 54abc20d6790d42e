"""The canonical order of the witnesses and their weights: likeness, near copies, sequence weighting."""

from __future__ import annotations

import zlib
from collections import Counter
from math import lcm

import numpy as np
from rapidfuzz.distance import Indel

from tei.collate.align.params import EXACT_ORDER_LIMIT, NEAR_COPY, SKETCH


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
