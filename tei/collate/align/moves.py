"""Moved blocks: runs one witness reads where the others lack them, matched with runs it lacks elsewhere
(three words or more, or one or two where unambiguous)."""

from __future__ import annotations

from collections import Counter

from tei.collate.align.pairwise import _similarity, matched_pairs
from tei.collate.align.params import (
    MIN_MOVE,
    MOVE_CANDIDATES,
    MOVE_DENSITY,
    MOVE_LONG,
    MOVE_RARE,
    PAIR_SIMILARITY,
    SHORT_MOVE,
    SHORT_SPAN,
    SUBSTITUTED_GAP,
    Column,
    Move,
)


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
