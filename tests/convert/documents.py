"""TEI documents for the conversion tests, built from a body, and the names of the shared corpus samples."""

from __future__ import annotations

from paths import APPARATUS_SAMPLES

TEI = 'xmlns="http://www.tei-c.org/ns/1.0"'
SAMPLES = APPARATUS_SAMPLES


def document(body: str, method: str | None = "parallel-segmentation", witnesses=("A", "B", "C")) -> bytes:
    """A small TEI document: listWit with the given ids, the method declared (or not), the body."""
    wits = "".join(f'<witness xml:id="{w}"/>' for w in witnesses)
    encoding = (
        f'<encodingDesc><variantEncoding method="{method}" location="internal"/></encodingDesc>' if method else ""
    )
    return (
        f"<TEI {TEI}><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>"
        f"<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>{wits}</listWit></sourceDesc>"
        f"</fileDesc>{encoding}</teiHeader><text><body>{body}</body></text></TEI>"
    ).encode()
