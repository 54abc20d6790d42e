"""Writes the README's generated sections (CLI reference from --help, exit-code table) so they cannot drift.

python scripts/cli_reference.py --write   # update README.md in place
python scripts/cli_reference.py --check   # exit 1 if README.md is out of date
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from click.testing import CliRunner

from tei.cli import COMMANDS, main
from tei.errors import EXIT_CODE_TABLE

README = Path(__file__).resolve().parent.parent / "README.md"
SECTIONS = ("cli-reference", "exit-codes")


def help_text(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=100, prog_name="tei")
    return result.output.rstrip() + "\n"


def cli_reference() -> str:
    blocks = [f"```text\n$ tei --help\n{help_text()}```\n"]
    for name in sorted(COMMANDS):
        blocks.append(f"```text\n$ tei {name} --help\n{help_text(name)}```\n")
    return "\n".join(blocks)


def exit_codes() -> str:
    rows = "".join(f"| {int(code)} | `{code.name}` | {meaning} |\n" for code, meaning in EXIT_CODE_TABLE)
    return "| code | name | meaning |\n|---|---|---|\n" + rows


def rendered(readme: str) -> str:
    for section, text in zip(SECTIONS, (cli_reference(), exit_codes())):
        pattern = re.compile(rf"(<!-- {section}:start -->\n).*?(<!-- {section}:end -->)", re.S)
        readme = pattern.sub(lambda m, text=text: m.group(1) + text + m.group(2), readme)
    return readme


if __name__ == "__main__":
    current = README.read_text("utf-8")
    wanted = rendered(current)
    if "--write" in sys.argv:
        README.write_text(wanted, "utf-8")
    elif current != wanted:
        sys.exit("README.md is out of date: run python scripts/cli_reference.py --write")
