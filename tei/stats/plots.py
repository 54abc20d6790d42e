"""PNG copies of the statistics plots (agreement heat map, variation density), drawn by matplotlib when asked.

The SVG plots every build writes are drawn by hand in svg.py, in milliseconds; matplotlib (Agg backend,
no display needed, about 0.7 s to import and draw) runs only for `tei stats --png`. Files carry no date,
so the same edition always gives the same bytes.
"""

from __future__ import annotations

import io
from pathlib import Path

from tei.stats import Statistics
from tei.stats.tables import density

MAX_INCHES = 14
METADATA = {"Software": "tei"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def agreement_heatmap(stats: Statistics):
    """Witness against witness, coloured by the share of units where they take the same reading."""
    plt = _pyplot()
    size = len(stats.witnesses)
    share = {(p.first, p.second): p.share for p in stats.agreement}
    grid = [[1.0 if a == b else share.get((a, b), share.get((b, a))) for b in stats.witnesses] for a in stats.witnesses]
    side = min(2 + 0.6 * size, MAX_INCHES)  # a large tradition gets smaller labels, not a huge picture
    figure, axes = plt.subplots(figsize=(side, side - 0.5))
    image = axes.imshow(
        [[float("nan") if v is None else v for v in row] for row in grid], cmap="viridis", vmin=0, vmax=1
    )
    labels = [stats.sigla[w] for w in stats.witnesses]
    label_size = max(2.5, min(10.0, 360 / max(size, 1)))
    axes.set_xticks(range(size), labels, rotation=90 if size > 8 else 0, fontsize=label_size)
    axes.set_yticks(range(size), labels, fontsize=label_size)
    if size <= 12:
        for row, values in enumerate(grid):
            for column, value in enumerate(values):
                if value is not None and row != column:
                    axes.text(
                        column,
                        row,
                        f"{value:.0%}",
                        ha="center",
                        va="center",
                        color="white" if value < 0.6 else "black",
                        fontsize=8,
                    )
    figure.colorbar(image, ax=axes, label="agreement (same reading)", shrink=0.8)
    axes.set_title("Agreement between witnesses")
    figure.tight_layout()
    return figure


def density_plot(stats: Statistics):
    """Variation units per window along the reference witness's text."""
    plt = _pyplot()
    windows = density(stats)
    figure, axes = plt.subplots(figsize=(8, 3))
    axes.bar(
        [s for s, _, _ in windows],
        [n for _, _, n in windows],
        width=[e - s for s, e, _ in windows],
        align="edge",
        color="#3b6ea5",
        edgecolor="white",
    )
    axes.set_xlabel(f"character of witness {stats.sigla.get(stats.reference, '')}")
    axes.set_ylabel("variation units")
    axes.set_title("Variation density along the text")
    axes.set_xlim(0, max(stats.reference_length, 1))
    figure.tight_layout()
    return figure


PLOTS = {"agreement": agreement_heatmap, "density": density_plot}


def png_files(stats: Statistics, folder: Path) -> dict[Path, bytes]:
    """Each plot as PNG: <folder>/<plot>.png."""
    plt = _pyplot()
    files = {}
    for name, draw in PLOTS.items():
        figure = draw(stats)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata=METADATA)
        files[folder / f"{name}.png"] = buffer.getvalue()
        plt.close(figure)
    return files
