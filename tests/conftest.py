"""Shared test fixtures: paths to the project's seeds and fixtures, and to ../shared when it is there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from hypothesis import HealthCheck, settings
from paths import ARTIFACTS, SHARED
from system import program, tmpfs

# Hypothesis profiles. Under CI (the variable CI non-empty; `.ci/run` passes it through), every run tries the same
# examples (derandomize: seeded from each test's code) and reads no example database, so a failure is the same on
# every machine and a clean clone, and its blob is printed to replay it (@reproduce_failure). Elsewhere the default
# profile keeps exploring new examples and keeps .hypothesis/, which replays the failures it stored first.
# No deadline and no too_slow check under CI: a loaded 2-core runner must not fail a test for its timing.
# Loaded here, before the test modules are imported, since an @settings(...) takes what it leaves unset from the
# profile loaded when it is made; `pytest --hypothesis-profile NAME` still overrides this choice.
settings.register_profile(
    "ci",
    settings.get_profile("default"),
    derandomize=True,
    database=None,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


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
TOOL_FILES = {
    "test_pdf.py",
    "test_pdf_engines.py",
    "test_pdf_corpora.py",
    "test_pdf_transcriptions.py",
    "test_hadith.py",
    "test_xsltproc.py",
}


# Groups for pytest-xdist (scripts/check.sh runs `--dist loadgroup`): the tests of one group run on one worker,
# so that what they share is made once in the run, not once on each worker (or again after a worker ran another
# file's tests in between, which tears a module's fixtures down):
# - the tests of a file that use one of its module-scoped fixtures (a round trip, a collated corpus, a jing run);
# - the tests that read one rendering of a memoising fixture, by the parameters it renders for (an edition and
#   an engine); the seeds' and the mini fixture's PDFs, made once for every file that reads them.
# A test that names its group (an xdist_group mark: tests sharing a memo across files) is in that group only.
# Every other test is spread one by one, as with `--dist load`.
RENDERED_BY_PARAMS = {  # (file, memoising fixture) -> the parameters that choose what it renders
    ("test_pdf_corpora.py", "printed"): ("name", "index", "engine"),
    ("test_browser.py", "site_of"): ("name",),
}
SHARED_SESSION = {
    "seed_pdfs": "seed-pdfs",
    "mini_typst_pdf": "mini-pdfs",
    "mini_latex_pdf": "mini-pdfs",
    "mini_pdf": "mini-pdfs",
}


def xdist_group(item) -> str | None:
    """The group an item belongs to (see above), or None."""
    fixtures = set(getattr(item, "fixturenames", ()))
    for name, group in SHARED_SESSION.items():
        if name in fixtures:
            return group
    params = getattr(getattr(item, "callspec", None), "params", {})
    where = item.nodeid.split("::")[0]
    for (file, name), keys in RENDERED_BY_PARAMS.items():
        if item.path.name == file and name in fixtures:
            return "::".join([where, name, *(str(params[key]) for key in keys if key in params)])
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    for name in sorted(fixtures):
        found = definitions.get(name)
        if found and found[-1].scope == "module" and found[-1].baseid.startswith("tests"):
            return where
    return None


def join_group(item) -> None:
    """pytest-xdist 3.8 sends a group to one worker by a suffix '@group' on the nodeid, which it writes into
    item._nodeid; pytest 9.2 keeps the nodeid in item._id, so the suffix is lost and --dist loadgroup spreads a
    group's tests like --dist load (measured: one module fixture built on both workers). Write it where pytest
    9.2 reads it, as xdist would (the group names of the item's xdist_group marks, joined)."""
    names = sorted(
        {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
    )
    if names and isinstance(getattr(item, "_id", None), NodeId) and "@" not in item.nodeid.rpartition("]")[2]:
        item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = xdist_group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:  # a group the test names wins
            item.add_marker(pytest.mark.xdist_group(group))
        if getattr(config.option, "loadgroup", False):  # an xdist worker with --dist loadgroup
            join_group(item)
        fixtures = set(getattr(item, "fixturenames", ()))
        for marker, names in TIER_FIXTURES.items():
            if fixtures & names:
                item.add_marker(marker)
        if item.path.name in SLOW_FILES:
            item.add_marker("slow")
        if item.path.name in TOOL_FILES and item.path.parent.name == "render":
            item.add_marker("external_tool")
