"""`tei stats` on many witnesses (issue 38): the streamed agreement is the pairwise count it replaced.

tei.stats.Agreement counts every pair over a witnesses × units array of reading numbers, one row at a
time; the reference here is the algorithm it replaced, written out: for each pair, the units both take a
reading in (a lem or rdg element, or NOTHING; a lacuna is none), and those where the reading is the same
object. Random apparatus of positive and negative citation, lacunae, nested units and units without lem
(additions) are compared with it, and the streamed tables with the whole ones.
"""

from __future__ import annotations

import json
from itertools import combinations

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tei.apparatus import LACUNOSE, Apparatus
from tei.cli import main
from tei.stats import statistics
from tei.stats.tables import CHUNKS, TABLES, as_records
from tei.xmlio import parse_bytes

HEAD = (
    '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>'
    "<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>{witnesses}</listWit></sourceDesc>"
    "</fileDesc></teiHeader><text><body><ab>{body}</ab></body></text></TEI>"
)


def pairwise(tree, witnesses):
    """The old algorithm: a dict unit → reading a witness, intersected pair by pair."""
    apparatus = Apparatus(tree, "t.xml")
    taken = {}
    for w in witnesses:
        passages = apparatus.path(w, marker="").passages
        taken[w] = {id(p.app): p.reading for p in passages if p.reading is not None and p.reading is not LACUNOSE}
    found = {}
    for a, b in combinations(witnesses, 2):
        both = taken[a].keys() & taken[b].keys()
        found[a, b] = (len(both), sum(1 for u in both if taken[a][u] is taken[b][u]))
    return found


def unit(draw, witnesses, depth):
    """One app: an optional lem, one to three rdg citing a random part of the witnesses, sometimes a
    lacuna, sometimes a unit nested in a reading."""
    cited = lambda: " ".join(f"#{w}" for w in draw(st.lists(st.sampled_from(witnesses), max_size=4, unique=True)))  # noqa: E731
    parts = []
    if draw(st.booleans()):
        wit = cited()
        parts.append(f'<lem wit="{wit}">l</lem>' if wit else "<lem>l</lem>")
    for index in range(draw(st.integers(1, 3))):
        inner = unit(draw, witnesses, depth + 1) if depth < 1 and draw(st.integers(0, 4)) == 0 else ""
        parts.append(f'<rdg wit="{cited() or "#" + witnesses[0]}">r{index} {inner}</rdg>')
    if draw(st.integers(0, 3)) == 0:
        parts.append(f'<witDetail type="lac" wit="#{draw(st.sampled_from(witnesses))}"/>')
    return "<app>" + "".join(parts) + "</app>"


@st.composite
def editions(draw):
    witnesses = [f"W{i}" for i in range(draw(st.integers(2, 9)))]
    body = " w ".join(unit(draw, witnesses, 0) for _ in range(draw(st.integers(1, 6))))
    declared = "".join(f'<witness xml:id="{w}"/>' for w in witnesses)
    return HEAD.format(witnesses=declared, body=f"x {body} y")


@settings(max_examples=150, deadline=None)
@given(editions())
def test_agreement_is_the_pairwise_count(source):
    tree = parse_bytes(source.encode(), "t.xml")
    stats = statistics(tree, "t.xml")
    found = {(p.first, p.second): (p.compared, p.agreeing) for p in stats.agreement}
    assert list(found) == list(combinations(stats.witnesses, 2))
    assert len(stats.agreement) == len(found)
    assert found == pairwise(tree, stats.witnesses)


@settings(max_examples=40, deadline=None)
@given(editions())
def test_streamed_tables_are_the_whole_ones(source):
    stats = statistics(parse_bytes(source.encode(), "t.xml"), "t.xml")
    assert "".join(CHUNKS["json"](stats)) == json.dumps(as_records(stats), ensure_ascii=False, indent=2) + "\n"
    for name in CHUNKS:
        assert "".join(CHUNKS[name](stats)) == TABLES[name](stats)


def test_many_witnesses_as_the_pairwise_count(tmp_path):
    """600 witnesses (179,700 pairs), two readings a unit split by parity, one lacuna: every pair as the old
    algorithm counts it, and the CLI's streamed CSV and JSON carry each."""
    count = 600
    half = " ".join(f"#W{i}" for i in range(0, count, 2))
    other = " ".join(f"#W{i}" for i in range(1, count, 3))
    body = "".join(f'a <app><lem wit="{half}">b{u}</lem><rdg wit="{other}">c{u}</rdg></app> d ' for u in range(4))
    body += '<app><lem wit="#W0 #W1">e</lem><witDetail type="lac" wit="#W2"/></app>'
    source = HEAD.format(witnesses="".join(f'<witness xml:id="W{i}"/>' for i in range(count)), body=body)
    tree = parse_bytes(source.encode(), "t.xml")
    stats = statistics(tree, "t.xml")
    expected = pairwise(tree, stats.witnesses)
    assert {(p.first, p.second): (p.compared, p.agreeing) for p in stats.agreement} == expected
    path = tmp_path / "many.xml"
    path.write_text(source, "utf-8")
    csv_out = CliRunner().invoke(main, ["stats", str(path), "--table", "csv"]).output
    rows = [line.split(",") for line in csv_out.splitlines() if line.startswith("agreement,")]
    assert {(r[1], r[2]): (int(r[4]), int(r[5])) for r in rows} == expected
    records = json.loads(CliRunner().invoke(main, ["stats", str(path), "--table", "json"]).output)
    assert {(p["first"], p["second"]): (p["compared"], p["agreeing"]) for p in records["agreement"]} == expected
