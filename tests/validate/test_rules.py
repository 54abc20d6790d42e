"""Each apparatus rule and each Schematron rule of the project schema: one document made invalid on purpose
gets exactly that rule's code, at the line of the offending element."""

from __future__ import annotations

from pathlib import Path

import pytest

from tei.apparatus import witness_text
from tei.diagnostics import Severity
from tei.validate import ValidationOptions, check_file, project_schema, rules
from tei.validate.document import read_document
from tei.validate.schema import load_schema
from tei.validate.schematron import SchematronSchema

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"


def variant(tmp_path: Path, replacements: list[tuple[str, str]], name: str = "variant.xml") -> Path:
    text = MINI.read_text("utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def line_of(path: Path, marker: str, occurrence: int = 1) -> int:
    lines = path.read_text("utf-8").splitlines()
    hits = [number for number, line in enumerate(lines, 1) if marker in line]
    return hits[occurrence - 1]


def rule_codes(path: Path) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in rules.check(read_document(path), path)]


def test_the_fixture_passes_every_rule_and_the_project_schema():
    assert check_file(MINI, ValidationOptions()) == []


APPARATUS_CASES = {
    "APP001": ([('<rdg wit="#B" type="addition">', '<rdg wit="#B #Z" type="addition">')], "#B #Z", 1),
    "APP002": ([('<rdg wit="#B" type="honorific">', '<rdg wit="#B #A" type="honorific">')], 'app-0001"', 1),
    "APP003": ([('<lem wit="#A #C">(ﷺ)</lem>', '<lem wit="#A">(ﷺ)</lem>')], 'app-0001"', 1),
    "APP004": ([('<witness xml:id="B" n="B">', '<witness xml:id="B" n="A">')], 'xml:id="B" n="A"', 1),
    "APP005": (
        [
            (
                '<witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness>',
                '<witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness>\n'
                '          <witness xml:id="D" n="D">Declared, never used.</witness>',
            )
        ],
        'xml:id="D"',
        1,
    ),
    "APP006": (
        [
            (
                '<lem wit="#A">captives</lem>\n          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
                '<lem>the captives</lem>\n          <rdg wit="#A" type="substitution">captives</rdg>\n'
                '          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
            ),
        ],
        "<lem>the captives",
        1,
    ),
    "APP010": ([('<app xml:id="app-0005">', '<app xml:id="app-0005" corresp="#nowhere">')], "#nowhere", 1),
    "APP011": (
        [("'Umar <foreign", '\'Umar <app><lem wit="#C">x</lem><rdg wit="#B">y</rdg></app><foreign')],
        "<app><lem",
        1,
    ),
    "QUR001": ([("'Umar <foreign", '\'Umar <ref type="quran" cRef="8:76">[al Anfal 8:76]</ref><foreign')], "8:76", 1),
    "QUR002": ([("'Umar <foreign", '\'Umar <ref type="quran" cRef="Anfal">[Anfal]</ref><foreign')], "Anfal", 1),
}


@pytest.mark.parametrize("code", sorted(APPARATUS_CASES))
def test_each_apparatus_rule_reports_its_code_at_the_offending_line(tmp_path, code):
    replacements, marker, occurrence = APPARATUS_CASES[code]
    path = variant(tmp_path, replacements)
    assert rule_codes(path) == [(code, line_of(path, marker, occurrence))]


def test_a_duplicate_xml_id_is_refused_while_parsing_under_its_rule_code(tmp_path):
    path = variant(tmp_path, [('<app xml:id="app-0002">', '<app xml:id="app-0001">')])
    assert [(d.code, d.line, d.severity) for d in check_file(path, ValidationOptions())] == [
        ("APP009", line_of(path, 'xml:id="app-0001"', 1), Severity.INFO),  # where it was first used
        ("APP009", line_of(path, 'xml:id="app-0001"', 2), Severity.ERROR),
    ]


def test_unused_siglum_is_a_warning_and_the_rest_errors(tmp_path):
    replacements, _, _ = APPARATUS_CASES["APP005"]
    (diagnostic,) = rules.check(read_document(variant(tmp_path, replacements)), tmp_path / "variant.xml")
    assert diagnostic.severity == Severity.WARNING


def test_a_witness_inside_a_lacuna_needs_no_reading(tmp_path):
    path = variant(
        tmp_path,
        [
            ('<lem wit="#A #C">(ﷺ)</lem>', '<lem wit="#A #C">(ﷺ)<lacunaStart wit="#C"/></lem>'),
            ('<rdg wit="#B #C" type="orthographic">Qiblah</rdg>', '<rdg wit="#B" type="orthographic">Qiblah</rdg>'),
            ('<lem wit="#A #C"/>', '<lem wit="#A #C"><lacunaEnd wit="#C"/></lem>'),
        ],
    )
    assert rule_codes(path) == []


def test_a_lemma_without_wit_stands_for_every_unnamed_witness(tmp_path):
    path = variant(tmp_path, [('<lem wit="#A">Qibla</lem>', "<lem>Qibla</lem>")])
    assert rule_codes(path) == []


def transcription_of(text: str) -> str:
    return (
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/><text><body><p xml:space="preserve">'
        f"{text}</p></body></text></TEI>"
    )


BASE_A = (
    '<variantEncoding method="parallel-segmentation" location="internal"/>',
    '<variantEncoding method="parallel-segmentation" location="internal" source="#A"/>',
)
EDITOR = ("<title>A miniature edition (test fixture)</title>", '<title>A miniature edition (test fixture)</title>\n'
          '        <editor xml:id="ed">The Editor</editor>')  # fmt: skip


def test_an_eclectic_lemma_from_another_witness_than_the_base_is_accepted(tmp_path):
    path = variant(
        tmp_path,
        [
            BASE_A,
            (
                '<lem wit="#A">captives</lem>\n          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
                '<lem wit="#B #C">prisoners</lem>\n          <rdg wit="#A" type="substitution">captives</rdg>',
            ),
        ],
    )
    assert check_file(path, ValidationOptions()) == []


def test_a_conjecture_read_by_no_witness_is_accepted_when_someone_claims_it(tmp_path):
    path = variant(
        tmp_path,
        [
            BASE_A,
            EDITOR,
            (
                '<lem wit="#A">captives</lem>\n          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
                '<lem resp="#ed">the captives</lem>\n          <rdg wit="#A" type="substitution">captives</rdg>\n'
                '          <rdg wit="#B #C" type="substitution">prisoners</rdg>',
            ),
        ],
    )
    assert check_file(path, ValidationOptions()) == []


def test_an_unclaimed_conjecture_names_the_fix(tmp_path):
    replacements, marker, _ = APPARATUS_CASES["APP006"]
    (diagnostic,) = rules.check(read_document(variant(tmp_path, [BASE_A, *replacements])), tmp_path / "v.xml")
    assert diagnostic.code == "APP006"
    assert 'resp="#ed"' in diagnostic.hint and "@wit" in diagnostic.hint


def test_a_base_witness_that_is_not_declared_is_app006(tmp_path):
    path = variant(tmp_path, [(BASE_A[0], BASE_A[1].replace("#A", "#Q"))])
    assert rule_codes(path) == [("APP006", line_of(path, "<variantEncoding"))]


@pytest.mark.parametrize("damage, code", [(lambda text: text, None), (lambda text: text + "!", "APP007")])
def test_the_rebuilt_witness_text_must_equal_its_transcription(tmp_path, damage, code):
    path = variant(
        tmp_path,
        [
            (
                "Close translation, two sentences.",
                'Close translation, two sentences.<ptr type="transcription" target="A.xml"/>',
            )
        ],
    )
    text = witness_text(read_document(path), "A")
    (tmp_path / "A.xml").write_text(transcription_of(damage(text).replace("&", "&amp;").replace("<", "&lt;")), "utf-8")
    expected = [] if code is None else [(code, line_of(path, 'xml:id="A"'))]  # past the last unit: the witness
    assert rule_codes(path) == expected


def test_a_corrected_reading_is_reported_at_its_line_naming_the_transcription_and_tei_sync(tmp_path):
    path = variant(
        tmp_path,
        [
            (
                "Close translation, two sentences.",
                'Close translation, two sentences.<ptr type="transcription" target="A.xml"/>',
            )
        ],
    )
    text = witness_text(read_document(path), "A")
    (tmp_path / "A.xml").write_text(transcription_of(text.replace("captives", "captivse")), "utf-8")
    (diagnostic,) = rules.check(read_document(path), path)
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("APP007", line_of(path, ">captives<"), None)
    assert "the captives." in diagnostic.message and "the captivse." in diagnostic.message
    assert "character" not in diagnostic.message
    assert "A.xml" in diagnostic.hint and "tei sync variant.xml --wit A" in diagnostic.hint


def test_a_missing_transcription_is_reported_at_its_pointer(tmp_path):
    path = variant(
        tmp_path,
        [
            (
                "Close translation, two sentences.",
                'Close translation, two sentences.<ptr type="transcription" target="gone.xml"/>',
            )
        ],
    )
    assert rule_codes(path) == [("APP008", line_of(path, "gone.xml"))]


SCHEMATRON_CASES = {
    "ED001": ([('<variantEncoding method="parallel-segmentation" location="internal"/>', "")], "<TEI ", 1),
    "ED002": ([('location="internal"', 'location="external"')], "<variantEncoding", 1),
    "ED003": (
        [
            (
                '<rdg wit="#B #C" type="substitution">prisoners</rdg>',
                '<rdgGrp><lem wit="#B">prisoners</lem><rdg wit="#C">prisoners</rdg></rdgGrp>',
            )
        ],
        'app-0005"',
        1,
    ),
    "ED004": ([('<witness xml:id="C" n="C">', '<witness n="C">')], '<witness n="C">', 1),
    "ED005": (
        [
            (
                "</ab>\n    </body>",
                "</ab>\n      <listTranspose>\n        <transpose>\n"
                '          <ptr target="#app-0001"/>\n          <ptr target="#mini-text"/>\n'
                "        </transpose>\n      </listTranspose>\n    </body>",
            )
        ],
        "#mini-text",
        1,
    ),
    "ED006": ([('type="addition"', 'type="gloss"')], 'type="gloss"', 1),
}


@pytest.fixture(scope="module")
def project_rules() -> SchematronSchema:
    (engine,) = [e for e in load_schema(project_schema()) if isinstance(e, SchematronSchema)]
    return engine


@pytest.mark.parametrize("code", sorted(SCHEMATRON_CASES))
def test_each_schematron_rule_of_the_project_schema_reports_its_code(tmp_path, project_rules, code):
    replacements, marker, occurrence = SCHEMATRON_CASES[code]
    path = variant(tmp_path, replacements)
    found = [(d.code, d.line) for d in project_rules.check(read_document(path), str(path))]
    assert found == [(code, line_of(path, marker, occurrence))]


def test_only_the_reading_type_rule_is_a_warning(tmp_path, project_rules):
    path = variant(tmp_path, SCHEMATRON_CASES["ED006"][0])
    (diagnostic,) = project_rules.check(read_document(path), str(path))
    assert diagnostic.severity == Severity.WARNING


GROUPED = [
    (
        '<witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness>',
        '<listWit xml:id="G"><witness xml:id="C" n="C">Translation quoting an Arabic formula.</witness></listWit>',
    ),
]


def test_a_group_cited_in_wit_stands_for_its_members(tmp_path):
    path = variant(tmp_path, [*GROUPED, ('<lem wit="#A #C">(ﷺ)</lem>', '<lem wit="#A #G">(ﷺ)</lem>')])
    assert rule_codes(path) == []


def test_a_group_holding_itself_is_one_error_at_its_line(tmp_path):
    path = variant(
        tmp_path,
        [(GROUPED[0][0], GROUPED[0][1].replace("</listWit>", '<listWit copyOf="#G"/></listWit>'))],
    )
    found = [(d.code, d.severity, d.line) for d in rules.check(read_document(path), path)]
    assert found == [("A005", Severity.ERROR, line_of(path, 'copyOf="#G"'))]


def test_a_hand_of_a_declared_witness_is_a_warning_and_reads_as_its_witness(tmp_path):
    path = variant(tmp_path, [('<rdg wit="#B" type="honorific">', '<rdg wit="#B #A*" type="honorific">')])
    found = [(d.code, d.severity) for d in rules.check(read_document(path), path)]
    assert found == [("A006", Severity.WARNING)]


def test_on_a_foreign_document_every_apparatus_finding_is_a_warning(tmp_path):
    replacements, _, _ = APPARATUS_CASES["APP002"]
    path = variant(tmp_path, replacements)
    (found,) = rules.check(read_document(path), path, own=False)
    assert (found.code, found.severity) == ("APP002", Severity.WARNING)
