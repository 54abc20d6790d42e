"""Collation against scholars' own apparatus: the witness texts of real critical apparatus files re-collated
by us and by CollateX 2.3 in the same run, each tool's published TEI scored against the scholars' units.

How a witness's text is taken: from the apparatus file itself, by the toolkit's one rebuild rule
(tei.apparatus.witness_text: shared text plus, in each unit, the reading whose @wit names the witness; a
`lem` without @wit for a witness no reading names). Before that, a unit that covers words another unit
already covered is dropped, so no word is read twice: open-cbgm files give a unit for a span
(`B25K1V1U12-20`) and units for words inside it (`U18`), or two units for one place (`from="3" to="3"`);
the first unit to cover a word of a verse keeps it. A transposition by reference (teiphy's
`B10K6V20U12-18`, whose readings list the units U12, U14-16, U18 in each witness's order) covers no word
itself: the units it moves keep theirs, and each witness reads them in its order (docs/edition-format.md).

A reading that is the editors' words and not a witness's is taken as what it says: Bisharah gives six
omissions as a note in the reading, "هذه السجعة لم ترد في" / "هذه الكلمة لم ترد في" ("this rhymed phrase / this
word is not in"), where TEI would have an empty `rdg`; read as the text of the witness, the note's four words
were collated against the phrase, and the gold paired them all with all (275 of its 371 pairs in varying
units). Those readings are emptied before anything else, for the gold and for the texts both tools get; the
run's notes say how many (`ABSENCE_NOTES`).

Which witnesses are left out, and why: a witness whose text has a lacuna marked (the rebuild gives `[…]`:
lacunaStart/witEnd/gap or witDetail type="lac"), and a witness with fewer than 80 % of the median number
of words (a fragment whose losses the file does not mark, e.g. P74 in 3 John): a fragment's words cannot
be placed against a full text by either tool, and the scholars' units say nothing about what it lacks.
A file with fewer than three complete witnesses is left out (most of the conventions folder: one or two
witnesses against a base text).

Scoring: token pairs by the pairing rule of benchmarks/collate_quality.py (shared text at the same place;
in one unit, readings of equal length pair by position, readings of unequal length pair every token with
every token), applied alike to the scholars' TEI (the gold) and to each tool's. Tokens are the
whitespace-separated words of each witness, numbered in reading order. Two figures per tool: F1 over all
pairs, and F1 over the pairs one of whose tokens stands in a scholars' unit where the complete witnesses
differ (a varying unit).

    python benchmarks/collate_realgold.py [--no-collatex] [--collatex-timeout 600]
"""

from __future__ import annotations

import argparse
import copy
import multiprocessing
import re
import sys
import time
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from collate_quality import f1, tei_pairs  # noqa: E402

from tei.apparatus import APP, Apparatus, as_parallel_segmentation, follow, witness_ids, witness_text  # noqa: E402
from tei.apparatus.elements import body  # noqa: E402
from tei.collate import collate  # noqa: E402
from tei.collate.tokenize import tokenize  # noqa: E402
from tei.model import Witness, Work  # noqa: E402
from tei.text.normalize import profile_named  # noqa: E402
from tei.writers.edition import edition_bytes  # noqa: E402
from tei.xmlio import parse_file, tei  # noqa: E402

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
FOLDERS = ("tei-apparatus", "tei-apparatus-conventions")
PROFILE = "default"
# The editors' notes of absence (see the module's text): a reading made only of one of these is an omission.
ABSENCE_NOTES = re.compile(r"^هذه (?:السجعة|الكلمة) لم ترد في$")
_UNIT_RANGE = re.compile(r"^(?P<verse>.*?)U(?P<start>\d+)(?:-(?P<end>\d+))?$")


def word_ranges(app: etree._Element) -> tuple[str, int, int] | None:
    """The verse and word span a unit covers, from @from/@to (with @n) or an id like B10K1V1U24-26."""
    if app.get("from", "").isdigit() and app.get("to", "").isdigit():
        return app.get("n", ""), int(app.get("from")), int(app.get("to"))
    found = _UNIT_RANGE.match(app.get("{http://www.w3.org/XML/1998/namespace}id") or app.get("n") or "")
    if found:
        start = int(found["start"])
        return found["verse"], start, int(found["end"] or start)
    return None


def without_overlaps(tree: etree._ElementTree) -> tuple[etree._ElementTree, int]:
    """A copy of the tree without the units that cover a word an earlier unit covered, and their number."""
    tree = copy.deepcopy(tree)
    moving = {unit.app for unit in Apparatus(tree).units() if unit.transposes}  # they carry no words
    covered: dict[str, set[int]] = {}
    dropped = 0
    for app in list(tree.getroot().iter(APP)):
        span = word_ranges(app)
        if span is None or app in moving:
            continue
        verse, start, end = span
        words = set(range(start, end + 1))
        if covered.setdefault(verse, set()) & words:
            _remove_keeping_tail(app)
            dropped += 1
        else:
            covered[verse] |= words
    return tree, dropped


def _remove_keeping_tail(element: etree._Element) -> None:
    parent, tail = element.getparent(), element.tail
    previous = element.getprevious()
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def notes_as_omissions(tree: etree._ElementTree) -> int:
    """Empty every reading that is an editors' note of absence (ABSENCE_NOTES); how many there were."""
    emptied = 0
    for reading in tree.iter(tei("rdg")):
        if ABSENCE_NOTES.match(" ".join("".join(reading.itertext()).split())):
            for child in list(reading):
                reading.remove(child)
            reading.text = None
            emptied += 1
    return emptied


def complete_witnesses(tree: etree._ElementTree, name: str) -> tuple[dict[str, str], dict[str, str]]:
    """The texts of the complete witnesses (by siglum), and why each other witness is left out."""
    texts = {wid: witness_text(tree, wid, name) for wid in witness_ids(tree)}
    counts = sorted(len(text.split()) for text in texts.values())
    median = counts[len(counts) // 2] if counts else 0
    kept, left_out = {}, {}
    for wid, text in texts.items():
        if "[…]" in text:
            left_out[wid] = "lacuna marked"
        elif len(text.split()) < 0.8 * median:
            left_out[wid] = f"fragment: {len(text.split())} of a median {median} words"
        else:
            kept[wid] = text
    return kept, left_out


def xml_id(siglum: str) -> str:
    return "w" + re.sub(r"[^\w.-]", lambda m: f"_{ord(m.group()):x}", siglum)


def gold_pairs(tree: etree._ElementTree, sigla: list[str]) -> tuple[set, set]:
    """The scholars' pairs (witness ids as xml ids) and the tokens standing in a varying unit: an
    outermost unit where the complete witnesses do not all read the same words."""
    pairs = tei_pairs(tree, sigla)
    container = body(tree)
    paths = {wid: follow(container, wid) for wid in sigla}
    varying: set[tuple[str, int]] = set()
    outer = {wid: [p for p in path.passages if p.depth == 0] for wid, path in paths.items()}
    texts = {wid: "".join(path.parts) for wid, path in paths.items()}
    count = len(next(iter(outer.values()), []))
    for k in range(count):
        read = {wid: texts[wid][outer[wid][k].offset : outer[wid][k].end].split() for wid in sigla}
        if len({" ".join(words) for words in read.values()}) > 1:
            for wid in sigla:
                before = len(texts[wid][: outer[wid][k].offset].split())
                varying.update((wid, before + n) for n in range(len(read[wid])))
    rename = {s: xml_id(s) for s in sigla}
    return (
        {(rename[a], i, rename[b], j) for a, i, b, j in pairs},
        {(rename[w], n) for w, n in varying},
    )


def our_tei(texts: dict[str, str]) -> bytes:
    witnesses = tuple(Witness(xml_id(s), s, text, language="grc") for s, text in texts.items())
    return edition_bytes(collate(Work("gold", "Gold", language="grc", profile=PROFILE, witnesses=witnesses)))


def collatex_tei(texts: dict[str, str]) -> bytes:
    from collatex import Collation
    from collatex import collate as collatex_collate

    profile = profile_named(PROFILE)
    witnesses = [
        {"id": xml_id(s), "tokens": [{"t": word + " ", "n": _key(word, profile)} for word in text.split()]}
        for s, text in texts.items()
    ]
    return collatex_collate(Collation.create_from_dict({"witnesses": witnesses}), output="tei").encode()


def _key(word: str, profile) -> str:
    """CollateX gets the whitespace-separated words (so both tools' words are the scored tokens), each
    compared by our key of it."""
    return " ".join(t.key for t in tokenize(word, profile))


def _run(tool, texts, queue) -> None:
    started = time.perf_counter()
    queue.put((tool(texts), time.perf_counter() - started))


def timed(tool, texts, timeout: float | None):
    """The tool's TEI and its seconds, in a child process stopped after `timeout` seconds (None: stopped)."""
    queue = multiprocessing.get_context("fork").Queue()
    process = multiprocessing.get_context("fork").Process(target=_run, args=(tool, texts, queue))
    process.start()
    try:
        result = queue.get(timeout=timeout)
    except Exception:
        result = None
    process.join(1)
    if process.is_alive():
        process.kill()
        process.join()
    return result


def score(predicted: set, gold: set, varying: set) -> tuple[float, float]:
    inside = {p for p in predicted if (p[0], p[1]) in varying or (p[2], p[3]) in varying}
    gold_inside = {p for p in gold if (p[0], p[1]) in varying or (p[2], p[3]) in varying}
    return f1(predicted, gold)[2], f1(inside, gold_inside)[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-collatex", action="store_true")
    parser.add_argument("--collatex-timeout", type=float, default=600)
    arguments = parser.parse_args()
    print(f"{'file':<40} {'wit':>4} {'words':>6} {'tool':<9} {'F1 all':>7} {'F1 varying':>10} {'seconds':>8}")
    notes = []
    for folder in FOLDERS:
        for path in sorted((CORPORA / folder).glob("*.xml")):
            name = path.name
            try:
                tree, dropped = without_overlaps(as_parallel_segmentation(parse_file(path), name))
                noted = notes_as_omissions(tree)
                texts, left_out = complete_witnesses(tree, name)
            except Exception as exc:  # a file the apparatus reader refuses: say so and go on
                notes.append(f"{name}: left out, not readable as an apparatus ({type(exc).__name__}: {exc})")
                continue
            if len(texts) < 3:
                reasons = sorted({reason.split(":")[0] for reason in left_out.values()})
                notes.append(
                    f"{name}: left out, {len(texts)} complete witness(es)"
                    + (f" ({len(left_out)} others: {', '.join(reasons)})" if left_out else "")
                )
                continue
            if left_out or dropped:
                reasons = sorted({reason.split(":")[0] for reason in left_out.values()})
                notes.append(
                    f"{name}: {len(left_out)} witnesses left out ({', '.join(reasons) or 'none'}: "
                    f"{', '.join(sorted(left_out)[:12])}{' ...' if len(left_out) > 12 else ''}); "
                    f"{dropped} overlapping units dropped"
                )
            if noted:
                notes.append(f"{name}: {noted} readings that are an editors' note of absence read as omissions")
            sigla = sorted(texts)
            gold, varying = gold_pairs(tree, sigla)
            ids = sorted(xml_id(s) for s in sigla)
            words = sum(len(t.split()) for t in texts.values())
            tools = [("tei", our_tei)] + ([] if arguments.no_collatex else [("CollateX", collatex_tei)])
            for label, tool in tools:
                result = timed(tool, texts, arguments.collatex_timeout if label == "CollateX" else None)
                if result is None:
                    print(
                        f"{name:<40} {len(sigla):>4} {words:>6} {label:<9} {'> ' + str(int(arguments.collatex_timeout)) + ' s':>19}"
                    )
                    continue
                document, seconds = result
                every, inside = score(tei_pairs(document, ids), gold, varying)
                print(
                    f"{name:<40} {len(sigla):>4} {words:>6} {label:<9} {every:>7.4f} {inside:>10.4f} {seconds:>8.2f}",
                    flush=True,
                )
    print()
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
