"""`tei stats` on the command line: a table on stdout, or a folder of tables and plots; bad input refused."""

from __future__ import annotations

import json

from cli_runner import one_error_line, run
from lxml import etree
from paths import FIXTURES

from tei.cli.stats import TABLE_NAMES
from tei.stats.tables import TABLES

MINI = FIXTURES / "editions" / "mini.xml"
SVG_PLOTS = ("agreement.svg", "density.svg")
PLOTS = (*SVG_PLOTS, "agreement.png", "density.png")


def test_the_command_offers_exactly_the_table_forms():
    assert set(TABLE_NAMES) == set(TABLES)


def test_prints_the_table_in_each_form():
    assert json.loads(run("stats", MINI, "--table", "json").stdout)["readings"] == 11
    assert run("stats", MINI, "--table", "csv").stdout.startswith("measure,key,other,value")
    assert "agreement" in run("stats", MINI).stdout


def test_writes_tables_and_plots_that_are_real_images(tmp_path):
    result = run("stats", MINI, "-o", tmp_path / "stats", "--png")
    assert result.exit_code == 0, result.stderr
    written = {line.rsplit("/", 1)[-1] for line in result.stdout.split()}
    assert written == {"statistics.txt", "statistics.json", "statistics.csv", *PLOTS}
    for name in ("agreement.svg", "density.svg"):
        svg = etree.parse(str(tmp_path / "stats" / name)).getroot()
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    for name in ("agreement.png", "density.png"):
        assert (tmp_path / "stats" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Agreement between witnesses" in (tmp_path / "stats" / "agreement.svg").read_text()


def test_plots_are_the_same_bytes_every_time(tmp_path):
    run("stats", MINI, "-o", tmp_path / "one", "--png")
    run("stats", MINI, "-o", tmp_path / "two", "--png")
    for name in PLOTS:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_bad_input_is_one_diagnostic(tmp_path):
    broken = tmp_path / "broken.xml"
    broken.write_text("<TEI>")
    result = run("stats", broken)
    assert result.exit_code == 1 and "[X001]" in one_error_line(result)
    assert run("stats", tmp_path / "absent.xml").exit_code == 3


def test_the_build_stage_reads_the_edition_on_disk(seed_edition_path, tmp_path):
    from tei.app.build import STAGES, BuildOptions

    written = dict(STAGES)["stats"](None, BuildOptions(seed_edition_path.parent))
    assert {p.name for p in written} == {"statistics.txt", "statistics.json", "statistics.csv", *SVG_PLOTS}
    assert all(p.parent == seed_edition_path.parent / "stats" for p in written)
    assert json.loads(written[seed_edition_path.parent / "stats" / "statistics.json"])["units"] > 50
    assert dict(STAGES)["stats"](None, BuildOptions(tmp_path / "nothing-built-yet")) == {}


def test_the_svg_plots_show_every_pair_and_every_window(tmp_path):
    from tei.stats import statistics
    from tei.stats.svg import agreement_heatmap, density_plot
    from tei.stats.tables import DENSITY_WINDOWS
    from tei.xmlio import parse_file

    stats = statistics(parse_file(MINI), str(MINI))
    heat = etree.fromstring(agreement_heatmap(stats))
    cells = heat.findall("{http://www.w3.org/2000/svg}rect/{http://www.w3.org/2000/svg}title")
    assert len(cells) == len(stats.witnesses) ** 2
    for pair in stats.agreement:
        first, second = stats.sigla[pair.first], stats.sigla[pair.second]
        expected = "no unit in common" if pair.share is None else f"{pair.share:.0%}"
        assert f"{first} / {second}: {expected}" in {c.text for c in cells}
    bars = etree.fromstring(density_plot(stats)).findall(
        "{http://www.w3.org/2000/svg}rect/{http://www.w3.org/2000/svg}title"
    )
    assert len(bars) == DENSITY_WINDOWS
    assert sum(int(b.text.rsplit(": ", 1)[1].split()[0]) for b in bars) == sum(stats.units_at_offsets)
