"""Every command on every shared corpus edition, on documents with <g type="char">, and on a document outside
the TEI namespace: a result or one located diagnostic per problem, never a traceback."""

from __future__ import annotations

import pytest
from cli_runner import run

from .conftest import TEI, document, witnesses
from .test_corpus import FILES

G_CHAR = document(
    '<ab xml:space="preserve">form<g type="char" n="U+000C"/>feed <app><lem wit="#A">a<g type="char" n="U+0001"/></lem>'
    '<rdg wit="#B">b</rdg></app> end</ab>',
    witnesses("A", "B"),
)


def commands(path, output):
    """Every command the toolkit has for an edition, as argument lists."""
    return [
        ["witness", path, "--list"],
        ["stats", path],
        ["stats", path, "--table", "csv"],
        *(["convert", path, "--method", method, "-o", output / f"{method}.xml"] for method in METHODS),
        ["convert", path, "--alignment-table", "-o", output / "table.json"],
        ["validate", path],
        ["render", path, "--to", "html", "-o", output / "html"],
    ]


METHODS = ("parallel-segmentation", "location-referenced", "double-end-point")


def assert_clean(result, args) -> None:
    """A finished command: exit 0, or 1 with diagnostics on stderr that each name the file (no traceback)."""
    assert "Traceback" not in result.stderr, (args, result.stderr[-2000:])
    assert result.exit_code in (0, 1), (args, result.exit_code, result.stderr[-2000:])
    if result.exit_code == 1:
        assert result.stderr.strip(), args


@pytest.mark.needs_shared
@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_every_command_on_every_corpus_file(shared_dir, name, tmp_path):
    path = shared_dir / "corpora" / name
    for args in commands(path, tmp_path):
        assert_clean(run(*args), args)
    listed = run("witness", path, "--list")
    for line in listed.stdout.splitlines()[:3]:
        assert_clean(run("witness", path, "--wit", line.split("\t")[0]), ["witness", line])


def test_every_command_on_a_document_with_g_char(tmp_path):
    path = tmp_path / "g.xml"
    path.write_bytes(G_CHAR)
    for args in commands(path, tmp_path):
        result = run(*args)
        assert_clean(result, args)
        if args[0] in ("stats", "convert", "witness"):
            assert result.exit_code == 0, (args, result.stderr)
    assert run("witness", path, "--wit", "A").stdout == "form\x0cfeed a\x01 end"
    assert "agreement,A,B,0.0,1,0" in run("stats", path, "--table", "csv").stdout


def test_a_root_outside_the_tei_namespace_is_named_and_can_be_read_as_tei(tmp_path):
    path = tmp_path / "cte.xml"
    path.write_bytes(G_CHAR.replace(TEI.encode(), b""))
    result = run("witness", path, "--wit", "A")
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"{path}:1: error: [A004] the root element <TEI> is in no namespace")
    assert "--assume-tei-namespace" in line
    read = run("witness", path, "--wit", "B", "--assume-tei-namespace")
    assert (read.exit_code, read.stdout) == (0, "form\x0cfeed b end")
    stats = run("stats", path, "--assume-tei-namespace", "--table", "csv")
    assert stats.exit_code == 0 and "agreement,A,B,0.0,1,0" in stats.stdout
    refused = run("convert", path, "--method", "location-referenced")
    assert refused.exit_code == 1 and "[A004]" in refused.stderr
    converted = run("convert", path, "--method", "location-referenced", "--assume-tei-namespace")
    assert converted.exit_code == 0, converted.stderr
    assert 'method="location-referenced"' in converted.stdout
