"""Fixtures of the collation tests: the seeds' work, its edition (model and XML), and a rebuild helper."""

from __future__ import annotations

import pytest
from lxml import etree
from paths import SEEDS

from tei.collate import collate
from tei.readers.manifest import read_manifest
from tei.writers.edition import EditionOptions, edition_bytes
from tei.xmlio import parse_bytes


@pytest.fixture(scope="session")
def seed_work():
    return read_manifest(SEEDS / "edition.toml")


@pytest.fixture(scope="session")
def seed_edition(seed_work):
    return collate(seed_work)


@pytest.fixture(scope="session")
def seed_tree(seed_edition) -> etree._ElementTree:
    return parse_bytes(edition_bytes(seed_edition, EditionOptions("schemas/tei-edition.rng")), "seed edition")
