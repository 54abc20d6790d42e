"""The statistics plots drawn as SVG by hand: an agreement heat map and a variation-density bar chart.

Both are plain rectangles and text, so they are written directly (a few milliseconds, no plotting library
imported): the heat map is a grid with one cell per pair of witnesses, coloured on a perceptually even
scale from low to high agreement (viridis's end points and middle, interpolated), with the percentage
written in each cell of a small tradition and a legend bar; the density chart has one bar per window of
the reference witness's text. Each picture has a <title> and <desc> for screen readers, and the same
statistics always give the same bytes. PNG copies are drawn by matplotlib, only when asked (plots.py).
"""

from __future__ import annotations

from html import escape as _escape  # not xml.sax.saxutils: it imports urllib.request (40 ms at every start)

from tei.stats import Statistics
from tei.stats.tables import density

# viridis at 0, 0.25, 0.5, 0.75 and 1
_SCALE = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
FONT = "font-family:'DejaVu Sans',Arial,sans-serif"


def colour(share: float) -> str:
    """The heat-map colour of an agreement share between 0 and 1."""
    position = min(max(share, 0.0), 1.0) * (len(_SCALE) - 1)
    low = min(int(position), len(_SCALE) - 2)
    mix = position - low
    red, green, blue = (round(a + (b - a) * mix) for a, b in zip(_SCALE[low], _SCALE[low + 1]))
    return f"#{red:02x}{green:02x}{blue:02x}"


def escape(text: str) -> str:
    """Text as XML character data (&, <, >)."""
    return _escape(text, quote=False)


def _text(x: float, y: float, content: str, size: float, **attributes: str) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{_escape(value)}"' for name, value in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}"{extra}>{escape(content)}</text>'


def _document(width: float, height: float, title: str, description: str, body: list[str]) -> bytes:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" style="{FONT}">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(description)}</desc>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
        *body,
        "</svg>",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def agreement_heatmap(stats: Statistics) -> bytes:
    """Witness against witness, coloured by the share of units where they take the same reading."""
    witnesses, size = stats.witnesses, len(stats.witnesses)
    share = {(p.first, p.second): p.share for p in stats.agreement}
    share.update({(p.second, p.first): p.share for p in stats.agreement})
    cell = max(6.0, min(48.0, 720 / max(size, 1)))  # a large tradition gets smaller cells, not a huge picture
    label_size = max(4.0, min(12.0, cell * 0.45))
    labels = [stats.sigla[w] for w in witnesses]
    margin = 16 + label_size * 0.62 * max((len(label) for label in labels), default=1)
    top, grid = 40 + margin, cell * size
    legend_x = margin + grid + 24
    width, height = legend_x + 70, top + grid + 20
    body = [_text(12, 24, "Agreement between witnesses", 16, font_weight="bold")]
    for row, first in enumerate(witnesses):
        y = top + row * cell
        body.append(_text(margin - 6, y + cell / 2 + label_size / 3, labels[row], label_size, text_anchor="end"))
        x = margin + row * cell + cell / 2 + label_size / 3
        body.append(
            f'<text x="{x:.1f}" y="{top - 6:.1f}" font-size="{label_size:.1f}" '
            f'transform="rotate(-90 {x:.1f} {top - 6:.1f})">{escape(labels[row])}</text>'
        )
        for column, second in enumerate(witnesses):
            value = 1.0 if first == second else share.get((first, second))
            fill = "#dddddd" if value is None else colour(value)
            tip = f"{labels[row]} / {labels[column]}: " + ("no unit in common" if value is None else f"{value:.0%}")
            body.append(
                f'<rect x="{margin + column * cell:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                f'fill="{fill}"><title>{escape(tip)}</title></rect>'
            )
            if size <= 12 and value is not None and first != second:
                body.append(
                    _text(
                        margin + column * cell + cell / 2,
                        y + cell / 2 + 4,
                        f"{value:.0%}",
                        min(11.0, cell / 3.5),
                        text_anchor="middle",
                        fill="white" if value < 0.6 else "black",
                    )
                )
    steps = 20
    for step in range(steps):  # the legend: 100 % at the top, 0 % at the bottom
        body.append(
            f'<rect x="{legend_x:.1f}" y="{top + step * grid / steps:.1f}" width="14" '
            f'height="{grid / steps + 0.5:.1f}" fill="{colour(1 - step / (steps - 1))}"/>'
        )
    body.append(_text(legend_x + 18, top + 9, "100 %", 10))
    body.append(_text(legend_x + 18, top + grid, "0 %", 10))
    description = "; ".join(
        f"{stats.sigla[p.first]}–{stats.sigla[p.second]} "
        + ("no common unit" if p.share is None else f"{p.share:.0%} of {p.compared}")
        for p in stats.agreement
    )
    return _document(width, height, "Agreement between witnesses (same reading)", description, body)


def density_plot(stats: Statistics) -> bytes:
    """Variation units per window along the reference witness's text."""
    windows = density(stats)
    width, height, left, bottom, top = 640.0, 260.0, 56.0, 40.0, 36.0
    plot_width, plot_height = width - left - 16, height - top - bottom
    length = max(stats.reference_length, 1)
    highest = max((n for _, _, n in windows), default=0) or 1
    siglum = stats.sigla.get(stats.reference, "")
    body = [_text(12, 22, "Variation density along the text", 16, font_weight="bold")]
    for start, end, units in windows:
        bar = plot_height * units / highest
        body.append(
            f'<rect x="{left + plot_width * start / length:.1f}" y="{top + plot_height - bar:.1f}" '
            f'width="{max(plot_width * (end - start) / length - 1, 0.5):.1f}" height="{bar:.1f}" fill="#3b6ea5">'
            f"<title>characters {start}–{end}: {units} units</title></rect>"
        )
    axis_y = top + plot_height
    body.append(f'<path d="M{left} {top} V{axis_y} H{left + plot_width}" stroke="black" fill="none"/>')
    for tick in (0, highest // 2, highest) if highest > 1 else (0, highest):
        y = axis_y - plot_height * tick / highest
        body.append(_text(left - 6, y + 4, str(tick), 10, text_anchor="end"))
    body.append(_text(left, axis_y + 16, "0", 10))
    body.append(_text(left + plot_width, axis_y + 16, str(stats.reference_length), 10, text_anchor="end"))
    body.append(_text(left + plot_width / 2, axis_y + 32, f"character of witness {siglum}", 11, text_anchor="middle"))
    body.append(
        f'<text x="14" y="{top + plot_height / 2:.1f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + plot_height / 2:.1f})">variation units</text>'
    )
    description = ", ".join(f"{start}–{end}: {units}" for start, end, units in windows)
    return _document(width, height, f"Variation units along the text of witness {siglum}", description, body)


PLOTS = {"agreement": agreement_heatmap, "density": density_plot}
