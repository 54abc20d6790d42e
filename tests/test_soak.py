"""The soak loop (tests/witness_sets.py) on a few hundred random witness sets: no character is ever lost."""

import pytest
from witness_sets import soak


@pytest.mark.slow
def test_random_witness_sets_rebuild_exactly_from_the_tei():
    result = soak(300, seed=7)
    assert result.sets == 300 and result.witnesses > 600
    assert result.lost == 0, result.failures[:5]
