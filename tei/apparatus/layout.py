"""A witness's text laid out by its pages, columns and lines, from the milestones of an edition (`--layout`).

The breaks are those the witness's run through the apparatus recorded (tei.apparatus.walk.Break): every
`pb`, `cb`, `lb` and `milestone` whose `@ed` names the witness, or that has no `@ed`, in its shared text
and its readings. The text is cut at each: a page begins a line `== page N  FACS ==`, a column `== column N
==`, a line its own line `N: `; a line broken inside a word (`@break="no"`) ends with nothing added. Other
milestones (`unit="handShift"`, `"space"`) are written inline as `{unit N}`. Space at the start and end
of each line is the break's, not the text's, and is left out.
"""

from __future__ import annotations

from tei.xmlio import tei

PB, CB, LB, MILESTONE = tei("pb"), tei("cb"), tei("lb"), tei("milestone")


def laid_out(text: str, breaks: list) -> str:
    """The witness's text with a line for every page and column and each line on its own."""
    lines: list[str] = []
    current: list[str] = []
    position = 0

    def close() -> None:
        line = "".join(current).rstrip()
        if line:
            lines.append(line)
        current.clear()

    for offset, element in breaks:
        piece = text[position:offset]
        current.append(piece.lstrip() if not current or current[-1].endswith(": ") else piece)
        position = offset
        n = element.get("n") or ""
        if element.tag == PB:
            close()
            facs = element.get("facs")
            lines.append(f"== page {n}{'  ' + facs if facs else ''} ==".replace("page  ", "page "))
        elif element.tag == CB:
            close()
            lines.append(f"== column {n} ==")
        elif element.tag == LB:
            close()
            current.append(f"{n}: " if n else "")
        elif element.tag == MILESTONE:
            current.append(f"{{{element.get('unit')}{' ' + n if n else ''}}}")
    current.append(text[position:].lstrip() if current and current[-1].endswith(": ") else text[position:])
    close()
    return "\n".join(lines) + "\n"
