"""The files of a statistics folder: the figures in every table form and every plot in every image format."""

from __future__ import annotations

from pathlib import Path

from tei.stats import statistics
from tei.stats.plots import plot_files
from tei.stats.tables import EXTENSIONS, TABLES
from tei.xmlio import parse_file


def statistics_files(edition: Path, folder: Path) -> dict[Path, bytes]:
    """<folder>/statistics.{txt,json,csv}, agreement.{svg,png} and density.{svg,png}, from the edition XML."""
    stats = statistics(parse_file(edition), str(edition))
    files = {
        folder / f"statistics.{EXTENSIONS[name]}": render(stats).encode("utf-8") for name, render in TABLES.items()
    }
    files.update(plot_files(stats, folder))
    return files
