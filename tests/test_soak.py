"""The soak loop of benchmarks/soak.py on a few hundred random witness sets: no character is ever lost."""

import runpy

from paths import PROJECT


def test_random_witness_sets_rebuild_exactly_from_the_tei():
    soak = runpy.run_path(str(PROJECT / "benchmarks" / "soak.py"))["soak"]
    result = soak(300, seed=7)
    assert result.sets == 300 and result.witnesses > 600
    assert result.lost == 0, result.failures[:5]
