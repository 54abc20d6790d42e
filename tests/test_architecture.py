"""The layers of docs/architecture.md hold: the import contracts pass and no module takes part in an import cycle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

PROJECT = Path(__file__).resolve().parent.parent


def test_no_import_cycle_anywhere():
    graph = grimp.build_graph("tei")
    cycles = []
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if graph.chain_exists(imported=module, importer=imported):
                cycles.append(f"{module} -> {imported} -> ... -> {module}")
    assert not cycles, "\n".join(sorted(cycles))


def test_import_contracts_are_kept():
    lint = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint)], cwd=PROJECT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
