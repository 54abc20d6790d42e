"""The validator's three faces over one generator: iter_diagnostics yields, validate raises, is_valid answers."""

import pytest
from paths import FIXTURES

from tei.errors import InvalidInputError
from tei.validate import ValidationOptions, is_valid, iter_diagnostics, validate

MINI = FIXTURES / "editions" / "mini.xml"


def test_a_valid_edition(tmp_path):
    assert list(iter_diagnostics([MINI], ValidationOptions())) == []
    assert is_valid([MINI], ValidationOptions())
    validate([MINI], ValidationOptions())


def test_an_invalid_edition(tmp_path):
    broken = tmp_path / "broken.xml"
    broken.write_text(
        MINI.read_text().replace('<rdg wit="#B #C" type="substitution">', '<rdg wit="#B #Z" type="substitution">')
    )
    found = list(iter_diagnostics([broken], ValidationOptions()))
    assert found and all(d.file == str(broken) for d in found)
    assert not is_valid([broken], ValidationOptions())
    with pytest.raises(InvalidInputError) as excinfo:
        validate([broken], ValidationOptions())
    assert [d.code for d in excinfo.value.diagnostics] == [d.code for d in found if d.severity.value == "error"]
