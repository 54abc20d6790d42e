"""The aligner's parameters (each with its reason) and the records its stages share: Column, Move, Alignment."""

from __future__ import annotations

from dataclasses import dataclass, field

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
