"""`python -m tei` runs the command line."""

from tei.cli import run

run()
