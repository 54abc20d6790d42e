"""teiphy, a real downstream consumer, reads the seeds' edition (also after conversions) and writes NEXUS."""

from __future__ import annotations

import re
import subprocess

import pytest
from stats.seed import seed_edition
from system import program

from tei.convert import convert_checked
from tei.xmlio import parse_bytes, parse_file


@pytest.fixture(scope="module")
def teiphy() -> str:
    return program("teiphy", "pip install -e '.[test]'")


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    return seed_edition(tmp_path_factory.mktemp("seed"))


def nexus(teiphy, source, target, *options) -> str:
    result = subprocess.run([teiphy, *options, str(source), str(target)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Error" not in result.stderr and "Traceback" not in result.stderr
    return target.read_text("utf-8")


def test_teiphy_writes_nexus_with_every_witness_and_unit(teiphy, edition, tmp_path):
    written = nexus(teiphy, edition, tmp_path / "seed.nex")
    units = len(parse_file(edition).getroot().findall(".//{*}body//{*}app"))
    assert re.search(rf"Dimensions ntax=4 nchar={units};", written)
    matrix = written[written.index("Matrix") :]
    assert all(re.search(rf"^\s*{w}\s+\S+", matrix, re.M) for w in "ABCD")


def test_teiphy_reads_the_edition_after_a_round_trip_through_double_end_point(teiphy, edition, tmp_path):
    converted, _ = convert_checked(parse_file(edition), "double-end-point", "edition.xml")
    back, _ = convert_checked(parse_bytes(converted, "dep.xml"), "parallel-segmentation", "dep.xml")
    (tmp_path / "back.xml").write_bytes(back)
    assert nexus(teiphy, tmp_path / "back.xml", tmp_path / "back.nex") == nexus(teiphy, edition, tmp_path / "seed.nex")
