"""Pairwise matching of two sequences: anchors, the fewest-gaps dynamic programme (weighed), runs kept
together, chaff, and the words left between matches paired as substitutions."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from tei.collate.align.params import (
    BALANCED_LIMIT,
    CHAFF_GAP,
    CHAFF_RUN,
    EXACT_LIMIT,
    MAX_PAIRED_GAP,
    PAIR_SIMILARITY,
    RARE_COUNT,
    SMALL_GAP,
    WEIGHED_LIMIT,
)
from tei.text.normalize import CLASS_MARK


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
