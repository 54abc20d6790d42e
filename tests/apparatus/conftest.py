"""Documents for the apparatus reader's tests, and the two shared corpora of other projects' editions."""

from __future__ import annotations

import pytest

TEI = 'xmlns="http://www.tei-c.org/ns/1.0"'


def document(body: str, list_wit: str = "", encoding: str = "", space: str = "") -> bytes:
    """A TEI document: listWit (if given), an encodingDesc (if given), the body (xml:space on <text> if given)."""
    source = f"<sourceDesc>{list_wit}</sourceDesc>" if list_wit else "<sourceDesc><p/></sourceDesc>"
    header = (
        f"<teiHeader><fileDesc><titleStmt><title>t</title></titleStmt><publicationStmt><p>p</p></publicationStmt>"
        f"{source}</fileDesc>{encoding}</teiHeader>"
    )
    text_space = f' xml:space="{space}"' if space else ""
    return f"<TEI {TEI}>{header}<text{text_space}><body>{body}</body></text></TEI>".encode()


def witnesses(*ids: str) -> str:
    return "<listWit>" + "".join(f'<witness xml:id="{w}"/>' for w in ids) + "</listWit>"


@pytest.fixture(scope="session")
def corpus_files(shared_dir):
    """Every TEI file of ../shared/corpora/tei-apparatus and tei-apparatus-conventions."""
    corpora = shared_dir / "corpora"
    return sorted([*(corpora / "tei-apparatus").glob("*.xml"), *(corpora / "tei-apparatus-conventions").glob("*.xml")])
