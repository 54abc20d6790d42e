"""The README: its two commands come first, and its generated sections match the code."""

import re
import runpy

from paths import PROJECT

README = PROJECT / "README.md"


def test_generated_sections_are_current():
    generator = runpy.run_path(str(PROJECT / "scripts" / "cli_reference.py"))
    current = README.read_text("utf-8")
    assert generator["rendered"](current) == current, "run: python scripts/cli_reference.py --write"


def test_the_readme_starts_with_exactly_two_commands():
    first_blocks = re.findall(r"```sh\n(.*?)```", README.read_text("utf-8"), re.S)[:2]
    assert [len(block.strip().splitlines()) for block in first_blocks] == [1, 1]
    setup, tests = (block.strip() for block in first_blocks)
    assert "tei build seeds -o build" in setup
    assert "scripts/check.sh" in tests
    check = (PROJECT / "scripts" / "check.sh").read_text("utf-8")
    for step in ("lint-imports", "ruff check", "ruff format --check", "-m pytest"):
        assert step in check
    ci = (PROJECT / ".ci" / "run").read_text("utf-8")
    assert tests in ci
    assert "env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin" in ci  # no shell setting can hide a missing install step
