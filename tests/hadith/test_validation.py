"""A Qur'an reference out of range gets one located diagnostic from `tei validate` (QUR001), exit 1."""

from __future__ import annotations

from click.testing import CliRunner

from tei.cli import main


def _encode_and_validate(tmp_path, text: str):
    source = tmp_path / "C.txt"
    source.write_text(text, encoding="utf-8")
    runner = CliRunner()
    encoded = runner.invoke(main, ["encode", str(source), "-o", str(tmp_path / "C.xml")])
    assert encoded.exit_code == 0, encoded.output
    return runner.invoke(main, ["validate", str(tmp_path / "C.xml")])


def test_references_in_range_pass(tmp_path):
    result = _encode_and_validate(tmp_path, "He recited [al Anfal 8:67-68] and [Al 'Imran 3:165].\n")
    assert result.exit_code == 0, result.output


def test_a_verse_beyond_its_surah_is_an_error_at_its_line(tmp_path):
    result = _encode_and_validate(tmp_path, "First line.\nHe recited [al Anfal 8:67-76].\n")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "[QUR001]" in line]
    assert len(lines) == 1
    assert "8:67-76 is out of range: surah 8 has 75 verses" in lines[0]
    line_number = int(lines[0].split(":")[1])
    written = (tmp_path / "C.xml").read_text(encoding="utf-8").splitlines()
    assert 'cRef="8:67-76"' in written[line_number - 1]


def test_a_surah_beyond_114_is_an_error(tmp_path):
    result = _encode_and_validate(tmp_path, "See [Sura CXV, 2].\n")
    assert result.exit_code == 1
    assert "surah 115 does not exist (the Qur'an has 114)" in result.output


BADR_A = (
    "حدثنا هناد، حدثنا ابن المبارك، عن عكرمة بن عمار، قال حدثني سماك الحنفي، قال سمعت ابن عباس، يقول حدثني عمر، "
    "قال فأنزل الله عز وجل {إذ تستغيثون ربكم فاستجاب لكم أني ممدكم بألف من الملائكة مردفين}\n"
)
BADR_B = (
    "حدثنا أبو بكر، حدثنا أبو نوح، قراد، عن عكرمة بن عمار، حدثنا سماك، الحنفي، حدثني عبد الله بن عباس، "
    "قال حدثني عمر بن الخطاب، قال فأنزل الله {إذ تستغيثون ربكم فاستجاب لكم أني ممدكم بألف من الملائكة}\n"
)


def test_an_arabic_transcription_with_a_quotation_is_valid(tmp_path):
    """A verse quoted in Arabic is <ref type="quran" subtype="quotation">: the project schema allows ref/@subtype
    (issue 34: 13 RELAX NG errors before)."""
    result = _encode_and_validate(tmp_path, BADR_A)
    assert result.exit_code == 0, result.output
    assert 'subtype="quotation"' in (tmp_path / "C.xml").read_text(encoding="utf-8")


def test_the_build_validates_the_transcriptions_it_writes(tmp_path):
    from tei.app.build import BuildOptions, validate_edition
    from tei.errors import InvalidInputError

    for name, text in (("a.txt", BADR_A), ("b.txt", BADR_B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "edition.toml").write_text(
        '[edition]\nid = "badr"\ntitle = "Badr"\nlanguage = "ar"\nbase = "A"\n'
        '[[witness]]\nid = "A"\nsiglum = "A"\nfile = "a.txt"\n[[witness]]\nid = "B"\nsiglum = "B"\nfile = "b.txt"\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    stages = "transcriptions,edition,schema,validate"
    built = CliRunner().invoke(main, ["build", str(tmp_path / "edition.toml"), "-o", str(out), "--stages", stages])
    assert built.exit_code == 0, built.output
    validated = CliRunner().invoke(
        main, ["validate", str(out / "edition.xml"), *map(str, (out / "transcriptions").glob("*.xml"))]
    )
    assert validated.exit_code == 0, validated.output
    broken = out / "transcriptions" / "A.xml"
    broken.write_text(
        broken.read_text(encoding="utf-8").replace('type="isnad"', 'type="isnad" bogus="1"'), encoding="utf-8"
    )
    try:
        validate_edition(out / "edition.xml", BuildOptions(out))
    except InvalidInputError as error:
        assert "A.xml" in str(error.diagnostics[0])
    else:
        raise AssertionError("the build did not validate the transcription it wrote")
