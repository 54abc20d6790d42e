"""CITATION.cff and the output folder's README, from the manifest; `cffconvert --validate` checks the former."""

from __future__ import annotations

import subprocess

from cli_runner import run
from paths import SEEDS
from system import program

from tei.app.publish import citation_cff, person
from tei.model import Work


def validate(path) -> subprocess.CompletedProcess:
    cffconvert = program("cffconvert", "pip install -e '.[test]' (cffconvert)")
    return subprocess.run([cffconvert, "--validate", "-i", str(path)], capture_output=True, text=True, timeout=120)


def test_the_seeds_build_writes_a_valid_citation_file_and_a_readme(tmp_path):
    out = tmp_path / "b"
    result = run("build", SEEDS, "-o", out, "--stages", "citation")
    assert result.exit_code == 0, result.stderr
    assert sorted(result.stdout.split()) == [str(out / "CITATION.cff"), str(out / "README.md")]
    checked = validate(out / "CITATION.cff")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = (out / "CITATION.cff").read_text("utf-8")
    assert 'title: "The Battle of Badr (Sahih Muslim 1763 and parallels)"' in text
    assert "The Battle of Badr" in (out / "README.md").read_text("utf-8")
    assert run("build", SEEDS, "-o", out, "--stages", "citation").stdout == ""  # unchanged: nothing written


def test_editors_version_and_doi_reach_the_citation_file(tmp_path):
    work = Work(
        "w", 'A "quoted" work: Ibn Rushd’s', editors=("Doe, Jane", "Ibn Rushd"), version="1.2", doi="10.5281/zenodo.42"
    )
    path = tmp_path / "CITATION.cff"
    path.write_bytes(citation_cff(work))
    checked = validate(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = path.read_text("utf-8")
    assert '  - family-names: "Doe"\n    given-names: "Jane"\n  - family-names: "Ibn Rushd"' in text
    assert 'version: "1.2"' in text and 'doi: "10.5281/zenodo.42"' in text


def test_a_name_without_a_comma_is_a_family_name():
    assert person("Doe, Jane") == {"family-names": "Doe", "given-names": "Jane"}
    assert person("al-Nawawi") == {"family-names": "al-Nawawi"}
