"""Hostile documents are refused with one clear diagnostic, in bounded memory, without touching files or network.

Each case runs `tei validate` in a child process whose address space is capped at 1 GiB; the timeout
only guards the test run against a hang, it measures nothing.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tei.validate.document import read_document, unprocessed_xincludes

MEMORY_CAP = 1024 * 1024 * 1024
HANG_GUARD_SECONDS = 120
TEI_START = '<TEI xmlns="http://www.tei-c.org/ns/1.0">'

BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE TEI [\n <!ENTITY lol "lol">\n'
    + "".join(f' <!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">\n' for i in range(1, 10))
    + f"]>\n{TEI_START}&lol9;</TEI>\n"
)
QUADRATIC_BLOWUP = (
    f'<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY a "{"x" * 100_000}">]>\n{TEI_START}{"&a;" * 20_000}</TEI>\n'
)
EXTERNAL_ENTITY = (
    f'<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n{TEI_START}&secret;</TEI>\n'
)
EXTERNAL_DTD = f'<?xml version="1.0"?>\n<!DOCTYPE TEI SYSTEM "http://example.org/tei.dtd">\n{TEI_START}</TEI>\n'
LOCAL_DTD = f'<?xml version="1.0"?>\n<!DOCTYPE TEI SYSTEM "file:///etc/passwd">\n{TEI_START}</TEI>\n'
REMOTE_XINCLUDE = (
    f'<?xml version="1.0"?>\n{TEI_START}\n  <xi:include xmlns:xi="http://www.w3.org/2001/XInclude" '
    'href="http://example.org/secret.xml"/>\n</TEI>\n'
)


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from tei.cli import main; main()", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
        preexec_fn=_cap_memory,
    )


# libxml2 stops both expansion attacks itself (amplification limit) before tei.xmlio refuses the declarations.
@pytest.mark.parametrize(
    "document, code, line",
    [
        (BILLION_LAUGHS, "X001] not well-formed XML: Maximum entity amplification", None),
        (QUADRATIC_BLOWUP, "X001] not well-formed XML: Maximum entity amplification", 3),
        (EXTERNAL_ENTITY, "X002] the document declares the entity 'secret'", None),
        (EXTERNAL_DTD, "SEC001] the document refers to the external DTD", 1),
        (LOCAL_DTD, "SEC001] the document refers to the external DTD", 1),
        (REMOTE_XINCLUDE, "SEC002] the document XIncludes the remote resource", 3),
    ],
    ids=["billion-laughs", "quadratic-blowup", "external-entity", "external-dtd", "local-file-dtd", "remote-xinclude"],
)
def test_hostile_documents_are_refused(tmp_path, document, code, line):
    path = tmp_path / "hostile.xml"
    path.write_text(document, "utf-8")
    result = run_validate(path)
    assert result.returncode == 1
    diagnostics = [d for d in result.stderr.splitlines() if ": error: [" in d]
    location = f"{path}:{line}:" if line else f"{path}:"
    assert len(diagnostics) == 1 and diagnostics[0].startswith(location) and f"[{code}" in diagnostics[0]
    assert "root:" not in result.stdout + result.stderr  # nothing of /etc/passwd was read
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "include, severity",
    [
        ('<xi:include href="part.xml"/>', "warning"),
        ('<xi:include href="missing.xml"/>', "error"),
        ('<xi:include href="missing.xml"><xi:fallback/></xi:include>', "warning"),
        ('<xi:include href="sub/../missing%20part.xml" parse="text"/>', "error"),
        ('<xi:include xml:base="sub/" href="part.xml"/>', "error"),
        ('<xi:include href="" xpointer="a"/>', "warning"),
    ],
    ids=["existing", "missing", "missing-with-fallback", "missing-escaped", "missing-after-xml-base", "same-document"],
)
def test_a_local_xinclude_is_never_read_and_an_error_only_when_its_file_is_missing(tmp_path, include, severity):
    """SEC003: never processed; an error when the file is not there and nothing falls back (jing stops there)."""
    (tmp_path / "part.xml").write_text("<p/>", "utf-8")
    path = tmp_path / "document.xml"
    path.write_text(f'{TEI_START[:-1]} xmlns:xi="http://www.w3.org/2001/XInclude">\n  {include}\n</TEI>\n', "utf-8")
    (diagnostic,) = unprocessed_xincludes(read_document(path), str(path))
    assert (diagnostic.code, diagnostic.severity.value, diagnostic.line) == ("SEC003", severity, 2)
