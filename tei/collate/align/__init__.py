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

The package, by job: order (canonical order, likeness, near copies, weights), pairwise (matching two
sequences), progressive (the columns built witness by witness, `align`), moves (moved blocks), params
(the parameters with their reasons, and Column, Move, Alignment). This module only re-exports (issue 37).
"""

from tei.collate.align.moves import find_moves, short_moves
from tei.collate.align.order import canonical_order, likeness, near_copies, witness_weights
from tei.collate.align.pairwise import matched_pairs, runs_kept_together, without_chaff
from tei.collate.align.params import Alignment, Column, Move
from tei.collate.align.progressive import align, supported_pairs

__all__ = [
    "Alignment",
    "Column",
    "Move",
    "align",
    "canonical_order",
    "find_moves",
    "likeness",
    "matched_pairs",
    "near_copies",
    "runs_kept_together",
    "short_moves",
    "supported_pairs",
    "witness_weights",
    "without_chaff",
]
