"""tei/apparatus/witnesses.py: declared witnesses, groups at any depth, hands, undeclared sigla, and what is wrong."""

from __future__ import annotations

from cli_runner import run

from tei.apparatus import Apparatus, Witnesses, witness_text
from tei.diagnostics import Severity
from tei.errors import InvalidInputError
from tei.xmlio import parse_bytes

from .conftest import document, witnesses

GROUPS = (
    '<listWit><witness xml:id="A"/>'
    '<listWit xml:id="D"><witness xml:id="D1"/><listWit xml:id="E"><witness xml:id="D2"/></listWit></listWit>'
    '<witness xml:id="F"><witness xml:id="F1"/><witness xml:id="F2"/></witness></listWit>'
)


def read(body: str, list_wit: str = "", name: str = "w.xml") -> Apparatus:
    return Apparatus(parse_bytes(document(body, list_wit), name), name)


def test_groups_at_any_depth_stand_for_their_members():
    apparatus = read('<ab>x<app><lem wit="#A">a</lem><rdg wit="#D">d</rdg><rdg wit="#F">f</rdg></app></ab>', GROUPS)
    assert apparatus.ids == ["A", "D1", "D2", "F1", "F2"]  # groups are not witnesses
    assert apparatus.witnesses.groups == {"D": ["D1", "D2"], "E": ["D2"], "F": ["F1", "F2"]}
    assert [apparatus.text(w) for w in apparatus.ids] == ["xa", "xd", "xd", "xf", "xf"]
    assert apparatus.witnesses.by_id["D2"].groups == ["D", "E"]


def test_a_group_pointing_to_another_brings_its_members():
    list_wit = (
        '<listWit><listWit xml:id="G"><witness xml:id="A"/></listWit>'
        '<listWit xml:id="H"><witness xml:id="B"/><listWit copyOf="#G"/></listWit></listWit>'
    )
    assert Witnesses(parse_bytes(document("<ab/>", list_wit), "g.xml")).groups["H"] == ["B", "A"]


def test_a_list_wit_containing_itself_is_one_located_error():
    list_wit = '<listWit>\n<listWit xml:id="G"><witness xml:id="A"/>\n<listWit sameAs="#G"/></listWit></listWit>'
    source = document('<ab><app><rdg wit="#G">x</rdg></app></ab>', list_wit)
    found = Witnesses(parse_bytes(source, "self.xml"), "self.xml").diagnostics
    assert [(d.code, d.severity, d.file, d.line) for d in found] == [("A005", Severity.ERROR, "self.xml", 3)]
    assert "'G' contains itself" in found[0].message
    try:
        Apparatus(parse_bytes(source, "self.xml"), "self.xml")
    except InvalidInputError as exc:
        assert [d.code for d in exc.diagnostics] == ["A005"]
    else:
        raise AssertionError("a group holding itself must stop the reader")


def test_hands_are_witnesses_of_their_own_that_read_as_their_witness_where_not_cited():
    list_wit = '<listWit><witness n="01"/><witness n="02"/></listWit>'
    body = (
        '<ab><app><lem/><rdg wit="01*">first</rdg><rdg wit="01C1 02">corrected</rdg></app> and '
        '<app><lem/><rdg wit="01">same</rdg><rdg wit="02">other</rdg></app></ab>'
    )
    apparatus = read(body, list_wit)
    assert apparatus.ids == ["01", "02", "01*", "01C1"]
    assert apparatus.witnesses.by_id["01*"].hand_of == "01" and apparatus.witnesses.by_id["01"].hands == ["01*", "01C1"]
    assert apparatus.text("01*") == "first and same" and apparatus.text("01C1") == "corrected and same"
    assert apparatus.text("01") == "first and same"  # 01* named and 01 not: 01 reads its first hand
    codes = [(d.code, d.severity, d.line) for d in apparatus.witnesses.diagnostics]
    assert codes == [("A006", Severity.WARNING, 1), ("A006", Severity.WARNING, 1)]


def test_undeclared_sigla_are_kept_with_a_located_warning_each():
    source = document('<ab>\n<app><lem wit="#A">a</lem>\n<rdg wit="#Z">z</rdg></app></ab>', witnesses("A"))
    apparatus = Apparatus(parse_bytes(source, "u.xml"), "u.xml")
    assert apparatus.ids == ["A", "Z"] and apparatus.text("Z") == "z"
    (found,) = apparatus.witnesses.diagnostics
    assert (found.code, found.file, found.line) == ("A007", "u.xml", 3) and "'Z'" in found.message


def test_a_hand_of_an_undeclared_witness_is_one_located_warning():
    source = document('<ab><app><lem wit="#A">a</lem>\n\n<rdg wit="#Q*">q</rdg></app></ab>', witnesses("A"))
    (found,) = Witnesses(parse_bytes(source, "h.xml"), "h.xml").diagnostics
    assert (found.code, found.line) == ("A008", 3) and "hand of witness 'Q'" in found.message


def test_no_list_wit_at_all_is_one_warning_for_all_sigla():
    apparatus = read('<ab><app><lem wit="#F">a</lem><rdg wit="#G #σ">b</rdg></app></ab>')
    assert apparatus.ids == ["F", "G", "σ"]
    assert [d.code for d in apparatus.witnesses.diagnostics] == ["A007"]


def test_witnesses_cited_by_siglum_when_declared_with_an_id():
    list_wit = '<listWit><witness xml:id="M1" n="A"/><witness xml:id="M2" n="B"/></listWit>'
    apparatus = read('<ab><app><lem wit="A">x</lem><rdg wit="#M2">y</rdg></app></ab>', list_wit)
    assert [apparatus.text(w) for w in apparatus.ids] == ["x", "y"]
    assert apparatus.witnesses.known("B") == "M2"


def test_the_command_line_names_each_problem_in_one_line(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_bytes(
        document(
            '<ab><app><lem wit="#A">a</lem>\n<rdg wit="#Z">z</rdg>\n<rdg wit="#Q*">q</rdg></app></ab>', witnesses("A")
        )
    )
    result = run("witness", path, "--wit", "A")
    assert result.exit_code == 0 and result.stdout == "a"
    lines = result.stderr.strip().splitlines()
    assert [line.split(": ", 2)[:2] for line in lines] == [[f"{path}:2", "warning"], [f"{path}:3", "warning"]]
    assert "[A007]" in lines[0] and "[A008]" in lines[1]
    looped = tmp_path / "loop.xml"
    looped.write_bytes(document("<ab/>", '<listWit><listWit xml:id="G"><listWit copyOf="#G"/></listWit></listWit>'))
    result = run("witness", looped, "--list")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"{looped}:1: error: [A005]")


def test_witness_text_of_a_group_member_is_not_the_lemma():
    body = '<ab><app><lem>base</lem><rdg wit="#D">group</rdg></app></ab>'
    assert witness_text(parse_bytes(document(body, GROUPS), "g.xml"), "D1") == "group"


def test_a_huge_wit_token_is_cut_only_where_a_declared_name_could_end(monkeypatch):
    """Failure 9: one @wit token of 1.28 M characters took 39 s in every command: `_hand_base` sliced the
    token at every position. It now tries only the lengths of the declared names (and finds the same hands)."""
    from lxml import etree

    from tei.apparatus import witnesses as module

    calls = []
    checked = module._is_hand_suffix
    monkeypatch.setattr(module, "_is_hand_suffix", lambda suffix: calls.append(len(suffix)) or checked(suffix))
    tokens = ["A1" + "2" * 200_000, "A" + "C" * 200_000, "Ms" + "1" * 200_000 + "x", "MsC12", "A*"]
    body = "".join(f'<rdg wit="#{t}">r</rdg>' for t in tokens)
    root = etree.fromstring(
        document(f'<ab><app><lem wit="#A">a</lem>{body}</app></ab>', witnesses("A", "Ms")),
        etree.XMLParser(huge_tree=True),
    )
    found = module.Witnesses(root)
    assert [found.by_id[t].kind for t in tokens] == ["hand", "undeclared", "undeclared", "hand", "hand"]
    assert [found.by_id[t].hand_of for t in ("MsC12", "A*", tokens[0])] == ["Ms", "A", "A"]
    assert len(calls) <= 2 * len(tokens)  # one try a declared length (1 and 2), not one a character


def test_the_hand_rules_by_str_methods_are_the_regular_expressions():
    import itertools

    from tei.apparatus.witnesses import HAND_ONLY, HAND_SUFFIX, _hand_suffix, _is_hand_suffix

    for size in range(6):
        for letters in itertools.product("AC*1c٣x", repeat=size):
            token = "".join(letters)
            match = HAND_SUFFIX.fullmatch(token)
            assert _hand_suffix(token) == (match.groupdict() if match else None), token
            assert _is_hand_suffix(token) == bool(HAND_ONLY.fullmatch(token)), token
