"""Running the `tei` command line in tests, with stdout, stderr and the exit code kept apart."""

from click.testing import CliRunner

from tei.cli import main


def run(*args, input=None):
    """Run `tei ARGS`; fail the test if an exception escaped (that would be a traceback for the user)."""
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"an exception escaped the command line: {result.exception!r}") from result.exception
    return result


def one_error_line(result) -> str:
    """The single diagnostic line a failed command printed on stderr."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]
