"""`tei render` and the html stage of `tei build`: exit codes, stdout and stderr, nothing half-written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from tei.app.build import STAGES, BuildOptions
from tei.cli import main

from .conftest import FIXTURES, MINI


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_render_writes_the_site_and_lists_it(tmp_path):
    result = run("render", str(MINI), "--to", "html", "-o", str(tmp_path / "site"), "--format", "json")
    assert result.exit_code == 0, result.output
    written = json.loads(result.stdout)
    assert sorted(Path(p).name for p in written) == [
        "OFL.txt",
        "amiri-arabic.woff",
        "edition.css",
        "edition.js",
        "index.html",
        "tei-symbols.woff",
    ]
    assert result.stderr == ""


def test_render_passes_stylesheet_parameters(tmp_path):
    result = run("render", str(MINI), "-o", str(tmp_path), "--param", "title=Badr & after")
    assert result.exit_code == 0
    assert "<title>Badr &amp; after</title>" in (tmp_path / "index.html").read_text("utf-8")


def test_render_refuses_a_malformed_parameter(tmp_path):
    result = run("render", str(MINI), "-o", str(tmp_path), "--param", "title")
    assert result.exit_code == 2
    assert "NAME=VALUE" in result.stderr


def test_unknown_format_is_a_usage_error(tmp_path):
    result = run("render", str(MINI), "--to", "docx", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert "[R101] unknown output format 'docx'" in result.stderr
    assert "html" in result.stderr


def test_missing_edition_exits_3(tmp_path):
    result = run("render", str(tmp_path / "none.xml"), "-o", str(tmp_path / "site"))
    assert result.exit_code == 3
    assert "[IO001]" in result.stderr and not (tmp_path / "site").exists()


def test_malformed_edition_exits_1_with_its_place_and_writes_nothing(tmp_path):
    result = run("render", str(FIXTURES / "malformed.xml"), "-o", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert "malformed.xml:4:" in result.stderr and "[X001]" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "site").exists()


def test_not_tei_is_refused_with_exit_1(tmp_path):
    result = run("render", str(FIXTURES / "not-tei.xml"), "-o", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert "[H001]" in result.stderr and not (tmp_path / "site").exists()


def test_warnings_go_to_stderr_and_the_site_is_still_written(tmp_path):
    result = run("render", str(FIXTURES / "unknown-witness.xml"), "-o", str(tmp_path))
    assert result.exit_code == 0
    assert "unknown-witness.xml:60: warning: [H004]" in result.stderr
    assert (tmp_path / "index.html").is_file()


def test_an_output_that_is_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "site").write_text("a file", "utf-8")
    result = run("render", str(MINI), "-o", str(tmp_path / "site"))
    assert result.exit_code == 2 and "[O001]" in result.stderr


def test_hand_edited_page_is_not_overwritten_without_force(tmp_path):
    assert run("render", str(MINI), "-o", str(tmp_path)).exit_code == 0
    (tmp_path / "index.html").write_text("my notes", "utf-8")
    result = run("render", str(MINI), "-o", str(tmp_path))
    assert result.exit_code == 1 and "[O004]" in result.stderr
    assert (tmp_path / "index.html").read_text("utf-8") == "my notes"
    assert run("render", str(MINI), "-o", str(tmp_path), "--force").exit_code == 0


def test_build_stage_renders_the_edition_on_disk_into_html(tmp_path):
    shutil.copy(MINI, tmp_path / "edition.xml")
    files = dict(STAGES)["html"](None, BuildOptions(tmp_path))
    assert sorted(p.relative_to(tmp_path).as_posix() for p in files) == [
        "html/edition.css",
        "html/edition.js",
        "html/fonts/OFL.txt",
        "html/fonts/amiri-arabic.woff",
        "html/fonts/tei-symbols.woff",
        "html/index.html",
    ]


def test_build_stage_renders_nothing_before_an_edition_exists(tmp_path):
    assert dict(STAGES)["html"](None, BuildOptions(tmp_path)) == {}
