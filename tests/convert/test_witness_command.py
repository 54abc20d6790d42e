"""`tei witness` reads every shared sample in every method, giving the text the converter checked."""

from __future__ import annotations

import pytest
from cli_runner import run

from tei.apparatus import witness_ids
from tei.convert import METHODS, convert_checked, witness_texts
from tei.xmlio import parse_file

from .documents import SAMPLES
from .test_round_trips import REFUSED


@pytest.mark.parametrize("sample", SAMPLES)
def test_tei_witness_on_every_method(apparatus_corpus, sample, tmp_path):
    tree = parse_file(apparatus_corpus / sample)
    witnesses = witness_ids(tree)[:3]
    expected = witness_texts(tree, witnesses, sample)
    for method in METHODS:
        if (sample, method) in REFUSED:
            continue
        path = tmp_path / f"{method}.xml"
        path.write_bytes(convert_checked(tree, method, sample)[0])
        for witness in witnesses:
            result = run("witness", path, "--wit", witness)
            assert result.exit_code == 0, result.stderr
            assert result.stdout == expected[witness]
