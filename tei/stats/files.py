"""The files of a statistics folder: the figures in every table form and every plot in every image format."""

from __future__ import annotations

from pathlib import Path

from tei.stats import read_statistics, svg
from tei.stats.tables import EXTENSIONS, TABLES


def statistics_files(
    edition: Path, folder: Path, png: bool = False, assume_tei_namespace: bool = False
) -> dict[Path, bytes]:
    """<folder>/statistics.{txt,json,csv}, agreement.svg and density.svg, from the edition XML; with `png`,
    agreement.png and density.png too (matplotlib is imported only then)."""
    stats = read_statistics(edition, assume_tei_namespace)
    files = {
        folder / f"statistics.{EXTENSIONS[name]}": render(stats).encode("utf-8") for name, render in TABLES.items()
    }
    files.update({folder / f"{name}.svg": draw(stats) for name, draw in svg.PLOTS.items()})
    if png:
        from tei.stats.plots import png_files  # matplotlib: 0.7 s, paid only when PNG is asked for

        files.update(png_files(stats, folder))
    return files
