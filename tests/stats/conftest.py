"""The seeds' edition, collated once for the statistics tests."""

import pytest

from .seed import seed_edition


@pytest.fixture(scope="session")
def seed_edition_path(tmp_path_factory):
    return seed_edition(tmp_path_factory.mktemp("seed-build"))
