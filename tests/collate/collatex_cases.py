"""CollateX's own test suite as data (../shared/corpora/peer-suites/collatex/cases/): reading a case, collating
it with `tei collate`'s library path, and scoring a tool's alignment against the case's expectation.

Shared by tests/collate/test_collatex_suite.py and benchmarks/collatex_suite.py (which runs CollateX 2.3 on the
same cases beside us); the tests never import from benchmarks/, benchmarks may import this.

**The cases.** `cases/index.json` lists one folder per test of CollateX's Java and Python suites, with
`case.json`: the witness texts, the tokenizer the test used (`java`, `python`, or `pretok`: CollateX JSON
tokens), and what it expects: an alignment table (token indexes per witness and column), aligned token pairs
(`pairs_kind` "identity": the pairs of equal tokens), pairs that must not be aligned, a transposition count.
A case counts here when it is enabled (not `@Ignore`d) and no duplicate of another; it is *complete* when it
states the whole alignment (`expect.complete`): 93 such cases.

**Tokens.** Every expectation numbers the tokens of CollateX's tokenizer, so both tools are scored on those:
- java: `SimplePatternTokenizer.BY_WS_OR_PUNCT`, a run of `.?!,;:` or a run of other non-space characters,
  with the whitespace after it; normalised by trimming and lower-casing (`SimpleTokenNormalizers.LC_TRIM_WS`);
- python: the port's `\\w+\\s*|\\W+`; normalised by trimming the trailing whitespace;
- pretok: the tokens given, normalised form `n` when given, else `t` trimmed.

**How tei is run.** Plain texts go through `tei collate`'s own path without a process per case
(tei.app.collate.collate_files with the texts as files and the output `-`: the CLI's work, profile and
writer); pre-tokenised JSON through `tei convert`'s (tei.app.convert.collatex_tree). A process per case
would cost the interpreter's start 150 times and measure nothing of the collation. Each witness is then
rebuilt from the TEI by the toolkit's rule (tei.apparatus.follow) and compared with its text byte for byte.

**The pairing rule** (one rule, for every case): two witnesses' words (their whitespace-separated words,
numbered in reading order) are aligned when they stand at one place of shared text, or at one position of
two readings of equal length in one unit; readings of unequal length pair nothing. CollateX's tokens inside
two aligned words are paired in order by their normalised form (a longest common subsequence: `trees.` and
`trees` pair `trees`, not `.`). A token pair is an identity pair when both tokens have one normalised form.

**Scores.** For a complete case, the identity pairs a tool states against the case's: from a table, the
tokens of one column with one normalised form (paired in order inside a segmented cell); from pairs, the
pairs listed. `met` on words: the two sets are equal when only tokens holding a letter or digit count;
`met` with punctuation: equal outright. A partial case (pairs without `complete`) is met when its pairs
are all stated and none of its forbidden pairs is. A transposition count is met when the tool states that
many transpositions (tei: `transpose` elements, those linking consecutive units in both places counted
once, as one moved block cut in pieces).

**CollateX's artefacts** (expectations that record how CollateX breaks a tie or tokenises, not an
alignment any reader would call the right one), classified per case by rule, never by name:
- `tie`: the tool aligns the same words as the case (per pair of witnesses, the same normalised forms,
  as many times) but other occurrences of a repeated word;
- `tokenisation`: every pair the tool and the case disagree on joins two tokens that CollateX's
  normaliser and the toolkit's comparison key judge differently (the Python port is case-sensitive,
  the toolkit's default profile folds case), or holds a token the toolkit's tokenizer cannot cut out
  (punctuation inside a word: `o(υ`).
A case so classified is not counted against the tool (`met` or `artefact`, never `missed`). (Left-parking of
unmatched tokens, CollateX's third artefact, puts unequal tokens in one column; identity pairs never see it.)
"""

from __future__ import annotations

import itertools
import json
import re
import tempfile
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from paths import SHARED

from tei.app.collate import CollateRequest, collate_files
from tei.app.convert import collatex_tree
from tei.apparatus import follow
from tei.text.normalize import profile_named
from tei.xmlio import NSMAP

CASES = SHARED / "corpora" / "peer-suites" / "collatex" / "cases"
JAVA_TOKEN = re.compile(r"[.?!,;:]+\s*|[^.?!,;:\s]+\s*")
PYTHON_TOKEN = re.compile(r"\w+\s*|\W+")
WORDLIKE = re.compile(r"\w")
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
Pair = tuple[str, int, str, int]  # (witness, token, witness, token), the first witness sorting first


@dataclass(frozen=True)
class Token:
    start: int  # where it stands in the text tei collates
    t: str
    n: str
    given: bool = False  # n was given with the token (CollateX JSON): tei compares it as it stands

    @property
    def word(self) -> bool:
        return bool(WORDLIKE.search(self.t))


@dataclass
class Case:
    id: str
    folder: Path
    data: dict
    sigla: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.sigla = list(self.data["sigla"])

    @property
    def expect(self) -> dict:
        return self.data.get("expect") or {}

    @property
    def complete(self) -> bool:
        return bool(self.expect.get("complete"))

    @property
    def pretokenised(self) -> bool:
        return self.data.get("tokenizer") == "pretok"

    @property
    def near_match(self) -> bool:
        return "near_match=True" in self.data.get("algorithm", "")

    def collatex_input(self) -> dict:
        """The case as CollateX JSON witness input (pre-tokenised cases as given)."""
        if self.pretokenised:
            return {"witnesses": [{"id": s, "tokens": t} for s, t in zip(self.sigla, self.data["pretok"])]}
        return {"witnesses": [{"id": s, "content": t} for s, t in zip(self.sigla, self.data["witnesses"])]}


def load_cases(root: Path = CASES) -> list[Case]:
    """The enabled cases that duplicate no other, in the index's order; not the five tests of CollateX's
    tokenizer alone, which give no witness to collate."""
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    found = []
    for entry in index["cases"]:
        folder = root / Path(entry["dir"]).name
        data = json.loads((folder / "case.json").read_text(encoding="utf-8"))
        if data.get("enabled") and entry.get("dup_of") is None and data.get("witnesses"):
            found.append(Case(data["id"], folder, data))
    return found


# --- tei's side -------------------------------------------------------------------------------------


@dataclass
class Result:
    """What one tool made of a case: its token pairs (None: it failed), transpositions, what went wrong."""

    pairs: set[Pair] | None
    transpositions: int | None = None
    problem: str = ""
    texts: dict[str, str] = field(default_factory=dict)  # the witness texts the tool was given


def tei_document(case: Case) -> tuple[bytes, dict[str, str]]:
    """The TEI `tei collate` (or, for CollateX JSON, `tei convert`) writes for the case, and the witness texts
    it collated, by siglum."""
    with tempfile.TemporaryDirectory() as folder:
        if case.pretokenised:
            path = Path(folder) / "case.json"
            path.write_text(json.dumps(case.collatex_input()), encoding="utf-8")
            tree = collatex_tree(path)
            return etree.tostring(tree, encoding="utf-8"), _texts_in(tree, case.sigla)
        files = []
        for siglum, text in zip(case.sigla, case.data["witnesses"]):
            files.append(Path(folder) / f"{siglum}.txt")
            files[-1].write_bytes(text.encode("utf-8"))
        (document,) = collate_files(CollateRequest(files, Path("-"))).values()
        return document, dict(zip(case.sigla, case.data["witnesses"]))


def _texts_in(tree: etree._ElementTree, sigla: list[str]) -> dict[str, str]:
    body = tree.getroot().find(".//tei:body", NSMAP)
    return {s: "".join(follow(body, s).parts) for s in sigla}


def run_tei(case: Case) -> Result:
    try:
        document, texts = tei_document(case)
    except Exception as exc:  # a crash is a finding, reported with the case
        return Result(None, problem=f"crash: {type(exc).__name__}: {exc}")
    tree = etree.ElementTree(etree.fromstring(document))
    words = word_pairs(tree, case.sigla)
    body = tree.getroot().find(".//tei:body", NSMAP)
    problem = ""
    for siglum, text in texts.items():
        rebuilt = "".join(follow(body, siglum).parts)
        expected = case.data["witnesses"][case.sigla.index(siglum)] if not case.pretokenised else text
        if rebuilt != expected:
            problem = f"witness {siglum} not rebuilt byte for byte"
    tokens = case_tokens(case, texts)
    return Result(token_pairs(words, texts, tokens), transposition_count(tree), problem, texts)


def word_pairs(tree: etree._ElementTree, sigla: list[str]) -> set[Pair]:
    """The word pairs a parallel-segmentation TEI states, by the pairing rule of the module's text."""
    body = tree.getroot().find(".//tei:body", NSMAP)
    shared: dict[tuple[int, int], list[tuple[str, int]]] = {}
    units: dict[int, dict[str, list[int]]] = {}
    for siglum in sigla:
        path = follow(body, siglum)
        text = "".join(path.parts)
        outer = [p for p in path.passages if p.depth == 0]
        starts = [p.offset for p in outer]
        after: Counter = Counter()
        for number, word in enumerate(re.finditer(r"\S+", text)):
            k = bisect_right(starts, word.start()) - 1
            if k >= 0 and word.start() < outer[k].end:
                units.setdefault(k, {}).setdefault(siglum, []).append(number)
            else:
                shared.setdefault((k, after[k]), []).append((siglum, number))
                after[k] += 1
    pairs: set[Pair] = set()
    for place in shared.values():
        pairs.update((x, i, y, j) for (x, i), (y, j) in itertools.combinations(sorted(place), 2))
    for readings in units.values():
        for x, y in itertools.combinations(sorted(readings), 2):
            if len(readings[x]) == len(readings[y]):
                pairs.update((x, i, y, j) for i, j in zip(readings[x], readings[y]))
    return pairs


def transposition_count(tree: etree._ElementTree) -> int:
    """The `transpose` elements, those whose units follow the previous one's in both places counted once."""
    order = {app.get(XML_ID): n for n, app in enumerate(tree.getroot().iter("{http://www.tei-c.org/ns/1.0}app"))}
    links = []
    for transpose in tree.getroot().iterfind(".//tei:transpose", NSMAP):
        targets = [order.get(ptr.get("target", "").lstrip("#"), -1) for ptr in transpose.iterfind("tei:ptr", NSMAP)]
        links.append(tuple(sorted(targets)))
    count, before = 0, None
    for link in sorted(links):
        if before is None or len(link) != len(before) or any(a != b + 1 for a, b in zip(link, before)):
            count += 1
        before = link
    return count


# --- CollateX's tokens ------------------------------------------------------------------------------


def case_tokens(case: Case, texts: dict[str, str]) -> dict[str, list[Token]]:
    """Each witness's tokens as the case numbers them, placed in the text tei collated."""
    found = {}
    for n, siglum in enumerate(case.sigla):
        text = texts[siglum]
        if case.pretokenised:
            tokens, position = [], 0
            for given in case.data["pretok"][n]:
                start = text.find(given["t"], position)
                position = start + len(given["t"])
                n = given.get("n")
                tokens.append(Token(start, given["t"], n if isinstance(n, str) else given["t"].strip(), "n" in given))
        elif case.data.get("tokenizer") == "python":
            tokens = [Token(m.start(), m.group(), m.group().rstrip()) for m in PYTHON_TOKEN.finditer(text)]
        else:
            tokens = [Token(m.start(), m.group(), m.group().strip().lower()) for m in JAVA_TOKEN.finditer(text)]
        found[siglum] = tokens
    return found


def token_pairs(words: set[Pair], texts: dict[str, str], tokens: dict[str, list[Token]]) -> set[Pair]:
    """The identity pairs of CollateX's tokens inside aligned words (see the module's pairing rule)."""
    inside: dict[str, dict[int, list[int]]] = {}
    for siglum, text in texts.items():
        starts = [m.start() for m in re.finditer(r"\S+", text)]
        by_word: dict[int, list[int]] = {}
        for number, token in enumerate(tokens[siglum]):
            first = token.start + (len(token.t) - len(token.t.lstrip()))  # its first character that is no space
            by_word.setdefault(bisect_right(starts, first) - 1, []).append(number)
        inside[siglum] = by_word
    pairs: set[Pair] = set()
    for x, i, y, j in words:
        a, b = inside[x].get(i, []), inside[y].get(j, [])
        pairs.update((x, p, y, q) for p, q in _in_order(a, b, tokens[x], tokens[y]))
    return pairs


def _in_order(a: list[int], b: list[int], ta: list[Token], tb: list[Token]) -> list[tuple[int, int]]:
    """A longest common subsequence of two short token lists, by normalised form."""
    if len(a) == len(b) == 1:
        return [(a[0], b[0])] if ta[a[0]].n == tb[b[0]].n else []
    best = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for p in range(len(a) - 1, -1, -1):
        for q in range(len(b) - 1, -1, -1):
            same = ta[a[p]].n == tb[b[q]].n
            best[p][q] = max(best[p + 1][q + 1] + 1 if same else 0, best[p + 1][q], best[p][q + 1])
    found, p, q = [], 0, 0
    while p < len(a) and q < len(b):
        if ta[a[p]].n == tb[b[q]].n and best[p][q] == best[p + 1][q + 1] + 1:
            found.append((a[p], b[q]))
            p, q = p + 1, q + 1
        elif best[p + 1][q] >= best[p][q + 1]:
            p += 1
        else:
            q += 1
    return found


def table_pairs(cells: dict[str, list[list[int]]], tokens: dict[str, list[Token]]) -> set[Pair]:
    """The identity pairs of an alignment table given as token indexes per witness and column."""
    pairs: set[Pair] = set()
    sigla = sorted(cells)
    width = max((len(column) for column in cells.values()), default=0)
    for k in range(width):
        for x, y in itertools.combinations(sigla, 2):
            a = cells[x][k] if k < len(cells[x]) else []
            b = cells[y][k] if k < len(cells[y]) else []
            if a and b:
                pairs.update((x, p, y, q) for p, q in _in_order(a, b, tokens[x], tokens[y]))
    return pairs


def expected_pairs(case: Case, tokens: dict[str, list[Token]]) -> set[Pair] | None:
    """The identity pairs a complete case states (None: it states none)."""
    expect = case.expect
    if "table" in expect:
        return table_pairs(expect["table"]["cells"], tokens)
    if "pairs" in expect:
        return {_ordered(p) for p in expect["pairs"] if _same(p, tokens)}
    return None


def _ordered(pair) -> Pair:
    (x, i), (y, j) = pair
    return (x, i, y, j) if x <= y else (y, j, x, i)


def _same(pair, tokens) -> bool:
    (x, i), (y, j) = pair
    return tokens[x][i].n == tokens[y][j].n


# --- scoring ------------------------------------------------------------------------------------------


@dataclass
class Score:
    met_words: bool | None = None  # None: the case states no complete alignment
    met_punct: bool | None = None
    partial: bool | None = None  # a partial case's pairs (and forbidden pairs)
    artefact: str = ""  # why a miss is CollateX's artefact, not the tool's
    transpositions: tuple[int, int | None] | None = None  # expected, found
    true: int = 0  # identity word pairs stated and expected
    stated: int = 0
    expected: int = 0
    missing: list[Pair] = field(default_factory=list)
    extra: list[Pair] = field(default_factory=list)


def words_only(pairs: set[Pair], tokens) -> set[Pair]:
    return {p for p in pairs if tokens[p[0]][p[1]].word and tokens[p[2]][p[3]].word}


def score(case: Case, result: Result, texts: dict[str, str]) -> Score:
    tokens = case_tokens(case, texts)
    found = Score()
    expect = case.expect
    if "transpositions" in expect:
        found.transpositions = (expect["transpositions"], result.transpositions)
    if result.pairs is None:
        return found
    if case.complete:
        wanted = expected_pairs(case, tokens)
        if wanted is not None:
            found.met_punct = result.pairs == wanted
            mine, theirs = words_only(result.pairs, tokens), words_only(wanted, tokens)
            found.met_words = mine == theirs
            found.true, found.stated, found.expected = len(mine & theirs), len(mine), len(theirs)
            found.missing, found.extra = sorted(theirs - mine), sorted(mine - theirs)
            if not found.met_words:
                found.artefact = artefact(mine, theirs, tokens, texts)
    elif "pairs" in expect or "neg_pairs" in expect:
        needed = {_ordered(p) for p in expect.get("pairs", [])}
        refused = {_ordered(p) for p in expect.get("neg_pairs", [])}
        found.partial = needed <= result.pairs and not refused & result.pairs
    return found


def artefact(mine: set[Pair], theirs: set[Pair], tokens, texts) -> str:
    """Why the difference is CollateX's artefact (see the module's text), or '' when it is the tool's miss."""

    def forms(pairs):
        return Counter((x, y, tokens[x][i].n) for x, i, y, j in pairs)

    if forms(mine) == forms(theirs):
        return "tie"
    profile = profile_named("default")

    def judged_otherwise(x, i, y, j) -> bool:
        a, b = tokens[x][i], tokens[y][j]
        ours = _key(a, profile) == _key(b, profile)
        return ours != (a.n == b.n) or not _cut_out(a, texts[x]) or not _cut_out(b, texts[y])

    differing = (mine - theirs) | (theirs - mine)
    if all(judged_otherwise(*p) for p in differing):
        return "tokenisation"
    return ""


def _key(token: Token, profile) -> str:
    """The toolkit's comparison key of a case's token: its given `n`, else the profile's key."""
    return token.n if token.given else profile.key(token.t.strip())


def _cut_out(token: Token, text: str) -> bool:
    """Whether the toolkit's tokens can hold this token apart: it begins and ends at a word's edge."""
    start, end = token.start, token.start + len(token.t.rstrip())
    edge_before = start == 0 or not text[start - 1].isalnum() or not text[start].isalnum()
    edge_after = end >= len(text) or not text[end].isalnum() or not text[end - 1].isalnum()
    return edge_before and edge_after
