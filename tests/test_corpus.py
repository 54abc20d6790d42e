"""Corpus mode of `tei build`: every work built, unchanged works skipped, failures isolated, shards disjoint."""

import shutil

import pytest
from cli_runner import run
from paths import SEEDS

from tei.app.corpus import Shard, works

# The corpus mechanics (skipping, failures, shards) need no rendering: those tests build the two stages that
# read the manifest; test_builds_every_work_in_parallel builds every stage.
FIRST_STAGES = ("--stages", "transcriptions,edition")


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    for name in ("w1", "w2", "deep/w3"):
        shutil.copytree(SEEDS, root / name)
    return root


def test_builds_every_work_in_parallel(corpus, tmp_path):
    result = run("build", corpus, "-o", tmp_path / "out", "--jobs", "2")
    assert result.exit_code == 0, result.stderr
    for name in ("w1", "w2", "deep/w3"):
        assert (tmp_path / "out" / name / "transcriptions" / "D.xml").is_file()
    assert "3 works: 3 built, 0 unchanged, 0 failed" in result.stderr


def test_unchanged_works_are_skipped_and_changed_ones_rebuilt(corpus, tmp_path):
    assert run("build", corpus, "-o", tmp_path / "out", *FIRST_STAGES).exit_code == 0
    (corpus / "w2" / "000_091639bda12aac5a.txt").write_text("A changed witness.")
    result = run("build", corpus, "-o", tmp_path / "out", *FIRST_STAGES)
    assert "3 works: 1 built, 2 unchanged, 0 failed" in result.stderr
    assert "A changed witness." in (tmp_path / "out" / "w2" / "transcriptions" / "A.xml").read_text()


def test_a_failing_work_does_not_stop_the_others(corpus, tmp_path):
    (corpus / "w1" / "edition.toml").write_text("[edition]\nid = 'x'\n")
    result = run("build", corpus, "-o", tmp_path / "out", "--jobs", "2", *FIRST_STAGES)
    assert result.exit_code == 1
    assert "3 works: 2 built, 0 unchanged, 1 failed" in result.stderr
    assert "w1/edition.toml" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "out" / "w2" / "transcriptions" / "A.xml").is_file()


def test_shards_split_the_corpus_without_overlap(corpus):
    everything = works(corpus)
    shards = [works(corpus, Shard(i, 2)) for i in (1, 2)]
    assert sorted(shards[0] + shards[1]) == everything
    assert not set(shards[0]) & set(shards[1])


def test_a_shard_builds_only_its_works(corpus, tmp_path):
    result = run("build", corpus, "-o", tmp_path / "out", "--shard", "1/2", *FIRST_STAGES)
    expected = len(works(corpus, Shard(1, 2)))
    assert f"{expected} works: {expected} built" in result.stderr


@pytest.mark.parametrize("shard", ["0/2", "3/2", "x", "1/0"])
def test_bad_shard_is_a_usage_error(corpus, tmp_path, shard):
    result = run("build", corpus, "-o", tmp_path / "out", "--shard", shard)
    assert result.exit_code == 2
    assert "--shard" in result.stderr
