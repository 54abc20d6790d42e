"""Every diagnostic code the toolkit can give, in tei/ and in the stylesheets, is documented in docs/diagnostics.md."""

from __future__ import annotations

import re

from paths import PROJECT

# A code as the source gives it to error()/warning()/Diagnostic() or to the stylesheets' report template.
CODE_IN_PYTHON = re.compile(r"""(?:error|warning|info|Diagnostic|problems\.add)\(\s*["']([A-Z]{1,4}[0-9]{3})["']""")
CODE_IN_XSLT = re.compile(r"""<xsl:with-param name="code">([A-Z]{1,4}[0-9]{3})</xsl:with-param>""")
DOCUMENTED = re.compile(r"^\| ([A-Z]{1,4}[0-9]{3}) \|", re.M)


def codes_in_source() -> set[str]:
    found = set()
    for path in (PROJECT / "tei").rglob("*.py"):
        found |= set(CODE_IN_PYTHON.findall(path.read_text("utf-8")))
    for path in (PROJECT / "xslt").rglob("*.xsl"):
        found |= set(CODE_IN_XSLT.findall(path.read_text("utf-8")))
    return found


def test_every_code_in_the_source_is_documented():
    documented = set(DOCUMENTED.findall((PROJECT / "docs" / "diagnostics.md").read_text("utf-8")))
    source = codes_in_source()
    assert len(source) > 80  # the pattern still finds the codes
    assert sorted(source - documented) == []


def test_no_code_is_documented_twice():
    listed = DOCUMENTED.findall((PROJECT / "docs" / "diagnostics.md").read_text("utf-8"))
    assert sorted(code for code in set(listed) if listed.count(code) > 1) == []
