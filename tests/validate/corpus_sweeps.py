"""Which files of ../shared/corpora the TEI sweeps read, and the kinds of file they were written for.

The sweeps that compare `tei validate --schema tei_all.rng` with jing and with libxml2 (test_tei_all.py, the
mutants of test_locate.py, test_cli.py, the Schematron contexts of tei_all_contexts.py) read the TEI folders:
every `tei-*` folder (the apparatus editions, the scholars' transcriptions, the invalid TEI) and
`collation-witnesses/` (its two TEI witness files from Stemmaweb). They never read `peer-suites/`: its files are
the test cases of RELAX NG, Schematron and XSD 1.1 with their own schemas and expected results, read only by the
conformance tests (test_relaxng_spectest.py and the conformance benchmark), where a case says what it expects.

A sweep was written for three kinds of file: a TEI document (root `TEI` or `teiCorpus`), an XML document with
another root (a TEI fragment), and a file that is not well-formed (both tools refuse it at a line). A file of
another kind in these folders fails the sweep, naming the file and why, rather than being compared where the
comparison means nothing or silently left out: a document that declares entities (`tei validate` refuses it by
the project's rule X002 before any schema is read; jing expands them) or one that is not XML 1.0 (lxml refuses
XML 1.1, jing reads it).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from tei.xmlio import TEI_NS

SWEPT_FOLDERS = ("tei-*", "collation-witnesses")
TEI_ROOTS = (f"{{{TEI_NS}}}TEI", f"{{{TEI_NS}}}teiCorpus")
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY\s")
_XML_VERSION = re.compile(rb"""<\?xml\s+version\s*=\s*["']([^"']*)["']""")


class NotForThisSweep(AssertionError):
    """A file in the swept folders of a kind the sweeps were not written for."""


def swept_documents(corpora: Path) -> list[Path]:
    """Every XML file of the swept folders, each checked to be of a kind the sweeps were written for."""
    documents = sorted(
        p for pattern in SWEPT_FOLDERS for folder in corpora.glob(pattern) for p in folder.rglob("*.xml")
    )
    for document in documents:
        kind(document)
    return documents


def kind(path: Path) -> str:
    """ "tei", "other root" or "not well-formed"; NotForThisSweep, naming the file and why, for any other kind."""
    data = path.read_bytes()
    head = data[:4096].replace(b"\x00", b"")  # an XML declaration or DOCTYPE written in UTF-16 read as ASCII
    if _ENTITY_DECLARATION.search(data.replace(b"\x00", b"")):
        raise NotForThisSweep(
            f"{path}: it declares entities, which `tei validate` refuses before any schema (X002) and jing "
            "expands: there is no first error of the grammar's to compare"
        )
    version = _XML_VERSION.match(head.lstrip(b"\xef\xbb\xbf\xff\xfe"))
    if version and version.group(1) != b"1.0":
        raise NotForThisSweep(
            f"{path}: it is XML {version.group(1).decode('ascii', 'replace')}, which lxml refuses and jing reads"
        )
    try:
        root = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except etree.XMLSyntaxError:
        return "not well-formed"
    return "tei" if root.tag in TEI_ROOTS else "other root"
