"""Paths every test may need: the project, its seeds and fixtures, ../shared and the artifacts folder."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
PROJECT = TESTS.parent
SEEDS = PROJECT / "seeds"
FIXTURES = TESTS / "fixtures"
SHARED = PROJECT.parent / "shared"
ARTIFACTS = TESTS / "artifacts"
