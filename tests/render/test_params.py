"""Render parameters: a format that declares its parameters refuses any other one, naming those it takes."""

from __future__ import annotations

import pytest

from tei.errors import UsageError
from tei.render import OutputFormat, check_params


def test_a_parameter_the_format_does_not_take_is_a_usage_error_listing_the_known_ones():
    html_like = OutputFormat("demo", "a test format", lambda request: None, ("html/params.xsl",), ("engine",))
    known = html_like.parameters()
    assert "title" in known and "engine" in known and "synoptic-columns" in known
    check_params(html_like, {"title": "x", "engine": "typst"})
    with pytest.raises(UsageError) as refused:
        check_params(html_like, {"nonexistent": "3"})
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.code == "R102" and "'nonexistent'" in diagnostic.message
    assert "title" in diagnostic.hint and refused.value.exit_code == 2


def test_a_format_that_declares_nothing_passes_parameters_on():
    assert OutputFormat("open", "no declared parameters", lambda request: None).parameters() is None
    check_params(OutputFormat("open", "", lambda request: None), {"anything": "1"})


def test_the_command_line_refuses_an_unknown_parameter_and_names_the_known_ones(tmp_path):
    from cli_runner import run
    from paths import FIXTURES

    result = run("render", FIXTURES / "editions" / "mini.xml", "-o", tmp_path, "--param", "nonexistent=3")
    assert result.exit_code == 2
    assert "[R102] the html format has no parameter 'nonexistent'" in result.stderr
    assert "synoptic-columns" in result.stderr and not list(tmp_path.iterdir())
    result = run("render", FIXTURES / "editions" / "mini.xml", "--to", "typst", "-o", tmp_path / "e.typ", "--param",
                 "engine=latex")  # fmt: skip
    assert result.exit_code == 2 and "'engine'" in result.stderr  # engine is a pdf option, not a typst one
