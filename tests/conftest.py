"""Shared test fixtures: paths to the project's seeds and fixtures, and to ../shared when it is there."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import ARTIFACTS, SHARED
from system import program, tmpfs


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared (corpora for tests); the test skips with a reason when it is absent."""
    if not (SHARED / "corpora").is_dir():
        pytest.skip("../shared/corpora is absent: this test needs the shared corpora (CI always has them)")
    return SHARED


@pytest.fixture(scope="session")
def tei_all_rng(shared_dir) -> Path:
    return shared_dir / "corpora" / "tei-p5-schema" / "4.12.0" / "tei_all.rng"


@pytest.fixture(scope="session")
def jing() -> str:
    """The jing executable (Debian package jing, installed by scripts/setup.sh --test)."""
    return program("jing", "run scripts/setup.sh --test")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """A folder for test artifacts (screenshots, page images), kept after the run."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def readonly_dir(tmp_path):
    """A folder nobody can write into, not even root: a read-only tmpfs mount (skips where mounting is denied)."""
    with tmpfs(tmp_path / "readonly", "ro,size=64k") as folder:
        yield folder


# Test tiers (markers registered in pyproject.toml), given by what a test uses, so that `-m "not browser"`,
# `-m "not needs_shared"` or `-m "not slow"` select a tier without every test having to say it.
TIER_FIXTURES = {
    "needs_shared": {"shared_dir", "tei_all_rng"},
    "browser": {"browser", "open_page"},
    "external_tool": {"jing", "teiphy", "xsltproc"},
}
SLOW_FILES = {"test_interruption.py", "test_soak.py", "test_corpus.py", "test_packaging.py"}
TOOL_FILES = {"test_pdf.py", "test_pdf_engines.py", "test_pdf_corpora.py", "test_hadith.py", "test_xsltproc.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        for marker, names in TIER_FIXTURES.items():
            if fixtures & names:
                item.add_marker(marker)
        if item.path.name in SLOW_FILES:
            item.add_marker("slow")
        if item.path.name in TOOL_FILES and item.path.parent.name == "render":
            item.add_marker("external_tool")
