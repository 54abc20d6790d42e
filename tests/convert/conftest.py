"""The folder of real TEI apparatus samples, for the conversion tests."""

import pytest


@pytest.fixture(scope="session")
def apparatus_corpus(shared_dir):
    return shared_dir / "corpora" / "tei-apparatus"
