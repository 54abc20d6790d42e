"""Compiling Typst source to PDF with the Python package typst, the pages planned here as reledmac plans them.

The source (xslt/typst/edition.xsl) is compiled in two modes (xslt/typst/preamble.xsl says how):
1. measure: the text on one page of unlimited height reports every line (number, kind, height), every
   unit's first and last line, every place a page's apparatus can hang from, and every entry's width;
2. final: with the plan made here from those figures: the lines of each page, the number printed for
   each line (verse lines counted, headings, speakers and stage directions unnumbered) and the entries
   of each page's apparatus, in a footnote as tall as the apparatus, so that the page breaks after its
   planned lines. Each page holds the lines whose apparatus it can hold, and at least `floor` lines
   while text remains: of the floors up to TEXT_SHARE of the page (15 lines on A5) with which the
   apparatus ends with the text, the one that gives an entry too tall for its page the most room, then
   the one of the fewest pages that leaves the pages before the last fullest (a heavy apparatus gets
   fewer lines a page, each entry on the page of its line, rather than an apparatus pages behind its
   text; the last pages may give up lines to it). An apparatus too long for its page is continued on
   the next page (entry by entry, keyed to its line numbers), never clipped, never dropped. The final
   layout is checked against the plan (the page of every line, the height every apparatus needs) and
   planned again with the measured heights when it differs; when it agrees, the
   PDF is written from the same compiler (Typst's cache: no third layout).

Fonts: the folders of tei.render.fonts (the Python packages fontpkg-noto-serif, fontpkg-amiri and
fontpkg-frank-ruhl-libre, and Debian's Droid Sans Fallback when installed), the same files XeLaTeX is given;
system fonts are otherwise ignored, so that a PDF is the same on every machine. A character none of them
has is a warning P014 naming it, its place and the fonts tried (an error with --strict, as every warning).
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tei.diagnostics import Diagnostic, error, info, warning
from tei.errors import ExternalToolError
from tei.render.fonts import font_paths
from tei.render.pdf import refuse_missing_glyphs, reproducible_timestamp, tool_failure, uncovered

INSTALL_HINT = "install the Python packages typst and the fonts: pip install typst fontpkg-amiri fontpkg-noto-serif fontpkg-frank-ruhl-libre"
TEXT_SHARE = 0.47  # the least part of a page's height the text keeps (15 lines on A5) while text remains
CHECK_ROUNDS = 4
SPARSE_SHARE = 0.25  # a typical page before the last with fewer text lines than this share of a full page: P015
END_SERIES = "c"  # the series printed after the text (a loose rendering's clauses), not at the foot of pages


@dataclass
class Line:
    number: int
    kind: str
    block: str
    y: float
    leading: float
    rtl: bool
    frame: float = 0.0  # height of the line's box
    label: int | None = None  # the number the margin shows (None: unnumbered)


@dataclass
class Measured:
    """What the measure pass reports: lines, units, hooks, entry widths and sizes (points)."""

    lines: list[Line]
    hooks: list[tuple[str, int]]  # (hook id, line index), in text order
    units: dict[str, tuple[int, int, list[str]]]  # unit id -> (first line, last line, entry keys)
    widths: dict[str, float]
    metrics: dict[str, float]

    @property
    def body_height(self) -> float:
        return self.metrics["body-height"]


def measured(records: list[dict]) -> Measured:
    metrics: dict[str, float] = {}
    lines: list[Line] = []
    hook_points: list[tuple[str, float, float]] = []
    unit_keys: dict[str, list[str]] = {}
    ends: dict[str, tuple[float, float]] = {}
    additions: set[str] = set()  # units whose base reading has no text
    widths: dict[str, float] = {}
    for record in records:
        if "line" in record:
            lines.append(
                Line(
                    record["line"],
                    record["kind"],
                    record["block"],
                    record["y"],
                    record["leading"],
                    record["dir"] == "rtl",
                )
            )
        elif "hook" in record:
            hook_points.append((record["hook"], record["y"], record["x"]))
        elif "unit" in record:
            unit_keys[record["unit"]] = list(record["keys"])
            if record.get("addition"):
                additions.add(record["unit"])
        elif "end" in record:
            ends[record["end"]] = (record["y"], record["x"])
        elif "entry" in record:
            widths[record["entry"]] = record["width"]
        else:
            metrics.update(record)
    lines.sort(key=lambda line: line.number)
    frames(lines)
    label_lines(lines)
    tops = [line.y for line in lines]
    left = min((x for _, _, x in hook_points), default=0.0)
    right = left + metrics.get("text-width", 0.0)

    def line_at(y: float) -> int:
        # A marker stands on its line's baseline; anything of a line lies above it or on it.
        for position, baseline in enumerate(tops):
            if baseline >= y - 1.0:
                return position
        return len(tops) - 1

    def same_block(one: int, other: int) -> bool:
        return lines[one].block != "" and lines[one].block == lines[other].block

    hooks = [(hook, line_at(y)) for hook, y, _ in sorted(hook_points, key=lambda point: (point[1], point[2]))]
    hook_lines = dict(hooks)
    units = {}
    hook_x = {hook: x for hook, _, x in hook_points}
    for unit, keys in unit_keys.items():
        first = hook_lines.get(unit, 0)
        # A start that stands at the very end of a line (before the space the line broke at) belongs to
        # the next line: the lemma's first word is there. Not on a right-to-left line: there the hook
        # reports the left edge of the box it shares with the lemma's first word, so a hook at the left
        # end is that of the line's last word (Arabic pair 5 and Bisharah: a unit keyed to the line after
        # its lemma), and an addition after the line's last word stays with that word. Nor for an addition
        # (its end where its start is: no lemma), which stays with the word it follows (Avicenna's
        # 'compositos.] item add. C' was keyed to the line after the word).
        start_x = hook_x.get(unit, 0.0)
        empty = unit in ends and abs(ends[unit][1] - start_x) < 0.6 and line_at(ends[unit][0]) == first
        if first + 1 < len(lines) and not lines[first].rtl and not empty and abs(start_x - right) < 0.6:
            first += 1
        elif (
            unit in additions
            and first > 0
            and not lines[first].rtl
            and abs(start_x - left) < 0.6
            and same_block(first - 1, first)
        ):
            # An addition (left to right) after the space a line broke at: it follows the last word of the
            # line before (the seeds' 'killed] and add. B C' was keyed to the next line). Not at the start
            # of a block: there its anchor is the block's first word ('Et] add. C').
            first -= 1
        last = first
        if unit in ends:
            y, x = ends[unit]
            last = line_at(y)
            # An end that stands at the very start of a line (after the space the line broke at)
            # belongs to the line before: the lemma's last word is there.
            start_x = right if lines and lines[last].rtl else left
            if last > first and abs(x - start_x) < 0.6:
                last -= 1
        units[unit] = (first, max(first, last), keys)
    return Measured(lines, hooks, units, widths, metrics)


def frames(lines: list[Line]) -> None:
    """Each line's box height: the distance to the next line of its block less the leading; a block's
    last line takes the tallest line of its block (one line alone: the text size)."""
    by_block: dict[tuple[str, int], list[Line]] = {}
    previous = None
    run = 0
    for line in lines:
        if previous is None or line.block != previous.block or line.block == "":
            run += 1
        by_block.setdefault((line.block, run), []).append(line)
        previous = line
    for block in by_block.values():
        known = [max(1.0, b.y - a.y - a.leading) for a, b in zip(block, block[1:])]
        for line, frame in zip(block, known):
            line.frame = frame
        block[-1].frame = max(known, default=0.0)
    fallback = sorted(line.frame for line in lines if line.frame) or [10.0]
    for line in lines:
        if not line.frame:
            line.frame = fallback[len(fallback) // 2]


def label_lines(lines: list[Line]) -> None:
    """The numbers the margin shows: every prose line, the first line of every verse line (l); headings,
    speakers and stage directions none."""
    count = 0
    previous_block = None
    for line in lines:
        if line.kind == "prose" or (line.kind == "verse" and (line.block != previous_block or not line.block)):
            count += 1
            line.label = count
        previous_block = line.block


def line_label(lines: list[Line], index: int) -> int | None:
    """The number an entry gives for a line: its own, or (a verse line's continuation) its verse's."""
    for line in reversed(lines[: index + 1]):
        if line.label is not None:
            return line.label
        if line.kind != "verse" or line.block != lines[index].block:
            return None
    return None


@dataclass
class Entry:
    key: str
    label: str
    width: float  # label, lemma, readings on one line
    series: str


@dataclass
class PagePlan:
    first: int
    last: int
    hook: str | None
    entries: list[Entry] = field(default_factory=list)
    reserved: float = 0.0
    overfull: float = 0.0  # an entry taller than the room even above the hook: how much taller (estimated)


class Planner:
    def __init__(self, layout: Measured):
        self.layout = layout
        metrics = layout.metrics
        self.lines = layout.lines
        self.width = metrics["text-width"]
        self.height = metrics["body-height"]
        self.clearance = metrics["clearance"]
        pitches = sorted(b.y - a.y for a, b in zip(self.lines, self.lines[1:]) if b.y > a.y) or [13.0]
        self.pitch = pitches[len(pitches) // 2]
        self.min_height = TEXT_SHARE * self.height
        # The estimate of an apparatus (first-fit lines of summed widths) can miss by a line: a page is
        # filled to one apparatus line short of its room, so that the final layout keeps to the plan
        # without another pass (the seeds missed by 4 to 9 pt and took four passes without it).
        self.margin = metrics["apparatus-pitch"]
        self.leftover: list[Entry] = []
        self.floor = 1  # the fewest text lines a page holds while text remains
        self.extra: dict[int, float] = {}  # first line of a page -> apparatus height the estimate missed
        self.entries_by_line: dict[int, list[Entry]] = {}
        self.end: list[tuple[int, Entry]] = []  # series c, printed after the text: (first line, entry)
        for first, last, keys in layout.units.values():
            start, end = line_label(self.lines, first), line_label(self.lines, last)
            label = "" if start is None else str(start) if end in (None, start) else f"{start}–{end}"
            label_width = (
                len(label.replace("–", "")) * metrics["digit"] + ("–" in label) * metrics["dash"] + metrics["label-gap"]
                if label
                else 0.0
            )
            for key in keys:
                entry = Entry(key, label, layout.widths.get(key, 0.0) + label_width, key.rsplit("/", 1)[1])
                if entry.series == END_SERIES:
                    self.end.append((first, entry))
                else:
                    self.entries_by_line.setdefault(first, []).append(entry)
        self.end.sort(key=lambda found: found[0])
        self.hook_by_line: dict[int, str] = {}
        for hook, line in layout.hooks:
            self.hook_by_line.setdefault(line, hook)

    def text_height(self, first: int, last: int) -> float:
        # Markers stand on the baselines; a line's box reaches its frame height above it.
        return self.lines[last].y - self.lines[first].y + self.lines[first].frame

    def slack(self, last: int) -> float:
        """Room left under the last line, less than the next line needs: the page breaks after it."""
        if last + 1 < len(self.lines):
            return max(0.5, 0.3 * (self.lines[last + 1].y - self.lines[last].y))
        return 0.5

    def apparatus_height(self, totals: dict[str, tuple[float, int]]) -> float:
        """The height of an apparatus whose series hold entries of these total widths and counts: each
        series a justified paragraph, first-fit, with a margin for the ends of its lines."""
        metrics = self.layout.metrics
        height = metrics["rule"]
        for total, count in totals.values():
            if count:
                width = total + metrics["entry-gap"] * (count - 1)
                lines = max(1, math.ceil(width * 1.04 / self.width + 0.2))
                height += (
                    metrics["series-spacing"] + metrics["apparatus-line"] + (lines - 1) * metrics["apparatus-pitch"]
                )
        return height

    def room(self, first: int, last: int) -> float:
        """The apparatus height a page of these lines can hold."""
        return (
            self.height - self.clearance - self.text_height(first, last) - self.slack(last) - self.extra.get(first, 0.0)
        )

    def fitting(self, pending: list[Entry], room: float) -> int:
        """How many of the pending entries (in order) fit into the room: the height grows with the
        number, so a binary search over the running totals of each series."""
        totals: list[tuple[float, int, float, int]] = [(0.0, 0, 0.0, 0)]
        for entry in pending:
            width_a, count_a, width_b, count_b = totals[-1]
            if entry.series == "a":
                totals.append((width_a + entry.width, count_a + 1, width_b, count_b))
            else:
                totals.append((width_a, count_a, width_b + entry.width, count_b + 1))

        def height(count: int) -> float:
            width_a, count_a, width_b, count_b = totals[count]
            return self.apparatus_height({"a": (width_a, count_a), "b": (width_b, count_b)})

        low, high = 0, len(pending)
        while low < high:
            middle = (low + high + 1) // 2
            if height(middle) <= room - self.margin:
                low = middle
            else:
                high = middle - 1
        return low

    def plan(self, floor: int, relief: int | None = None) -> tuple[list[PagePlan], list[Entry], int]:
        """Pages from the start, each of at least `floor` text lines while text remains (more while the
        apparatus of the lines fits; from the line `relief` on, one line is enough: the last pages give
        up text so that the apparatus ends with it), the entries no page with text could hold, and how
        many entries were carried past the page after their own (`late`). An apparatus too long for its
        page is continued on the next one, entry by entry."""
        pages: list[PagePlan] = []
        pending: list[Entry] = []
        late = 0
        first, total_lines = 0, len(self.lines)
        while first < total_lines:
            carried = len(pending)  # continued from the page before: this page must take them
            totals = {"a": (0.0, 0), "b": (0.0, 0)}
            for entry in pending:
                width, count = totals[entry.series]
                totals[entry.series] = (width + entry.width, count + 1)
            last, chosen, hook = first, first, None
            while last < total_lines:
                text = self.text_height(first, last)
                if text > self.height and last > first:
                    break
                trial = dict(totals)
                for entry in self.entries_by_line.get(last, []):
                    width, count = trial[entry.series]
                    trial[entry.series] = (width + entry.width, count + 1)
                candidate_hook = hook or self.hook_by_line.get(last)
                empty = not any(count for _, count in trial.values())
                fits = empty or (
                    candidate_hook is not None and self.apparatus_height(trial) <= self.room(first, last) - self.margin
                )
                if not fits and last - first >= (floor if relief is None or first < relief else 1):
                    break
                totals, hook, chosen = trial, candidate_hook, last
                last += 1
            queue = pending + [e for line in range(first, chosen + 1) for e in self.entries_by_line.get(line, [])]
            page = PagePlan(first, chosen, hook)
            if hook is not None and queue:
                count = self.fitting(queue, self.room(first, chosen))
                # An entry taller than the room left: fewer text lines, while the hook stays on the page.
                hook_line = min(line for line in range(first, chosen + 1) if line in self.hook_by_line)
                while count == 0 and chosen > hook_line:
                    chosen -= 1
                    queue = pending + [
                        e for line in range(first, chosen + 1) for e in self.entries_by_line.get(line, [])
                    ]
                    count = self.fitting(queue, self.room(first, chosen))
                page.last = chosen
                page.entries = queue[: max(count, 1)]
                if count == 0:  # the first entry is taller than the room left even above the hook
                    series = "a" if queue[0].series == "a" else "b"
                    alone = {"a": (0.0, 0), "b": (0.0, 0), series: (queue[0].width, 1)}
                    page.overfull = self.apparatus_height(alone) - self.room(first, chosen) + self.margin
                page.reserved = self.room(first, chosen)
                pending = queue[len(page.entries) :]
                late += max(0, carried - len(page.entries))
            else:
                pending = queue
                late += carried
            pages.append(page)
            first = chosen + 1
        return pages, pending, late

    def relieved(self, floor: int, least: tuple[int, int]) -> tuple[list[PagePlan], list[Entry]] | None:
        """The plan at this floor that leaves no more apparatus over, and carries no more entries past the
        page after their own, than `least` (both at one line a page): as it is, or with the fewest last
        lines (up to one page's worth) relieved of the floor; None when that is not enough."""

        def good(trial: tuple[list[PagePlan], list[Entry], int]) -> bool:
            return len(trial[1]) <= least[0] and trial[2] <= least[1]

        found = self.plan(floor)
        if good(found):
            return found[:2]
        total = len(self.lines)
        low, high = max(0, total - floor), total - 1  # the latest relief that is enough
        best = None
        while low <= high:
            middle = (low + high) // 2
            trial = self.plan(floor, relief=middle)
            if good(trial):
                low, best = middle + 1, trial[:2]
            else:
                high = middle - 1
        return best

    def pages(self) -> list[PagePlan]:
        """The plan: every page keeps at least `floor` text lines while text remains, with which the
        apparatus ends with the text and no entry is continued further than the next page, so that no
        page is without a text line and no entry is far from its line. Of the floors up to TEXT_SHARE of
        the page (15 lines on A5) that do so, the one that leaves an entry taller than its page's room
        (one that cannot be split) the most room, then the one of the fewest pages, and of those the one
        whose pages before the last are fullest: the fewest lines of those pages as large as can be,
        then the next fewest, and so on (a floor's relief can leave a page short before the last; a
        larger floor is not always the fuller plan, nor always possible where a smaller one is not); of
        equal ones, the larger floor. When even one line a page leaves apparatus over (the last lines'
        apparatus is longer than a page), it is continued after the text on pages of its own: never
        dropped."""
        most = max(1, int(self.min_height / self.pitch))
        # Left over, and carried past the next page, even at one line a page: an apparatus longer than a page.
        _, over, late = self.plan(1)
        least = (len(over), late)
        best, fullest = None, None
        for floor in range(1, most + 1):
            trial = self.relieved(floor, least)
            if trial is None:
                continue
            overfull = round(sum(page.overfull for page in trial[0]), 1)
            fullness = (-overfull, -len(trial[0]), sorted(page.last - page.first + 1 for page in trial[0][:-1]))
            if fullest is None or fullness >= fullest:
                best, fullest, self.floor = trial, fullness, floor
        pages, self.leftover = best or self.plan(1)[:2]
        return pages


def plan_json(planner: Planner, pages: list[PagePlan]) -> str:
    labels = {str(line.number): line.label for line in planner.lines if line.label is not None}
    hooks = {
        page.hook: {"height": round(page.reserved, 3), "entries": [[e.key, e.label] for e in page.entries]}
        for page in pages
        if page.hook is not None and page.entries
    }
    tail = [[e.key, e.label] for e in planner.leftover]
    end = [[e.key, e.label] for _, e in planner.end]
    # The lines whose page the final pass reports: the first and the last of each page.
    checks = dict.fromkeys(str(planner.lines[i].number) for page in pages for i in (page.first, page.last))
    return json.dumps(
        {"labels": labels, "hooks": hooks, "tail": tail, "end": end, "checks": checks}, ensure_ascii=False
    )


def differences(planner: Planner, pages: list[PagePlan], checks: list[dict]) -> dict[int, float]:
    """Where the final layout differs from the plan: for each page (by its first line), the apparatus
    height the estimate missed; an empty dict when every line and every apparatus is where planned."""
    line_pages = {check["line"]: check["page"] for check in checks if "line" in check}
    # Each page's apparatus reports where its drawing starts and where it ends: the height it needed.
    starts = {check["drawing"]: check["y"] for check in checks if "drawing" in check}
    needed = {
        check["hook"]: check["y"] - starts.get(check["hook"], check["y"]) - check["reserved"]
        for check in checks
        if "hook" in check
    }
    if not line_pages:
        return {}
    start = line_pages.get(planner.lines[0].number, 1)
    missed: dict[int, float] = {}
    for index, page in enumerate(pages):
        over = needed.get(page.hook, 0.0) if page.hook else 0.0
        moved = any(line_pages.get(planner.lines[i].number) != start + index for i in (page.first, page.last))
        if over > 0.01 or moved:
            missed[page.first] = max(over, 0.0) + (planner.layout.metrics["apparatus-pitch"] if moved else 0.0)
    return missed


def sparse_pages(planner: Planner, pages: list[PagePlan], source_name: str) -> list[Diagnostic]:
    """P015 (info) when the apparatus leaves the text few lines a page: the median number of text lines of
    the pages before the last (the last holds what remains) below SPARSE_SHARE of the lines a page of
    text alone holds (its body height over the line pitch). An edition of free translations collated unit
    by unit on A5 (the seeds with the defaults: 11 pages, a median of 6 lines of 36) is told of the two
    settings that give pages a scholar prints, entries = "places" and paper = "a4" (docs/print-edition.md,
    "Pages of few lines"); an edition of one or two pages is not judged."""
    before_last = sorted(page.last - page.first + 1 for page in pages[:-1])
    if len(before_last) < 2:
        return []
    full = max(1, int(planner.height / planner.pitch))
    typical = before_last[len(before_last) // 2]
    if typical >= SPARSE_SHARE * full:
        return []
    return [
        info(
            "P015",
            f"the apparatus leaves the text {typical} lines on a typical page ({len(pages)} pages of text; "
            f"a page of text alone holds {full})",
            source_name,
            hint='in the manifest\'s [render.pdf], entries = "places" (one entry a place of variation) and '
            'paper = "a4" (or --param entries=places --param paper=a4); docs/print-edition.md',
        )
    ]


def compile_pdf(source: bytes, source_name: str, strict: bool = False) -> tuple[bytes, list[Diagnostic]]:
    """The PDF of a Typst document, and Typst's warnings and the characters no font has as diagnostics;
    `strict`: a character no font has refuses the PDF before anything is compiled."""
    try:
        import typst
    except ImportError:
        raise ExternalToolError(
            error("P011", "the Typst compiler (Python package typst) is not installed", hint=INSTALL_HINT)
        ) from None
    fonts = font_paths()
    uncovered_here = missing_glyphs(source, source_name, fonts)
    if strict:
        refuse_missing_glyphs(uncovered_here)
    options = {"font_paths": typst_fonts(tuple(fonts))}
    with tempfile.TemporaryDirectory(prefix="tei-typst-") as folder:
        # A file, not bytes: the compiler that checked the final layout then writes the PDF from its cache.
        path = Path(folder) / "edition.typ"
        path.write_bytes(source)
        try:
            measuring = typst.Compiler(input=str(path), root=folder, sys_inputs={"tei-mode": "measure"}, **options)
            planner = Planner(measured(json.loads(measuring.query("<tei-data>", field="value"))))
            pages = planner.pages()
            for _ in range(CHECK_ROUNDS):
                inputs = {"tei-mode": "final", "tei-plan": plan_json(planner, pages)}
                final = typst.Compiler(input=str(path), root=folder, sys_inputs=inputs, **options)
                missed = differences(planner, pages, json.loads(final.query("<tei-check>", field="value")))
                if not missed:
                    break
                for first, height in missed.items():
                    planner.extra[first] = planner.extra.get(first, 0.0) + height
                pages = planner.pages()
            pdf, warnings = final.compile_with_warnings(format="pdf", timestamp=reproducible_timestamp())
        except (typst.TypstError, RuntimeError) as exc:
            raise tool_failure(
                "P012",
                f"Typst could not compile the print edition: {getattr(exc, 'message', exc)}",
                source_name,
                [
                    line
                    for line in str(getattr(exc, "diagnostic", "")).splitlines()
                    if line.strip() and not line.startswith("error:")
                ][:12],
                hint="write the source with --to typst and compile it with typst to see the whole error",
            ) from None
    diagnostics = [
        warning("P013", f"Typst: {w.message}", source_name) for w in warnings if not _missing_glyph(w.message)
    ]
    diagnostics += sparse_pages(planner, pages, source_name)
    diagnostics += uncovered_here
    diagnostics += [warning("P013", f"Typst: {w.message}", source_name) for w in warnings if _missing_glyph(w.message)]
    return pdf, diagnostics


def prepare() -> None:
    """The fonts found ahead (tei.render.prepare). Typst compiles nothing here: a process that ran Typst has
    its threads, and tei build forks its workers after this."""
    typst_fonts(tuple(font_paths()))


@cache
def typst_fonts(folders: tuple[str, ...]):
    """The fonts of these folders and Typst's own (no system font), found once per process and shared by every
    compiler: a compiler given the folders searches them again and reads each font it uses anew (a document
    takes three compilers; in a corpus, every work)."""
    import typst

    return typst.Fonts(include_system_fonts=False, font_paths=list(folders))


def _missing_glyph(message: str) -> bool:
    return "unknown font family" in message or "no font could be found" in message


def missing_glyphs(source: bytes, source_name: str, fonts: list[str]) -> list[Diagnostic]:
    """One warning P014 per character of the text that no font of the chain has: the character, its first
    place in the source (line of the generated Typst source), and the fonts tried."""
    text = source.decode("utf-8")
    found = uncovered(text, fonts)
    shown = [
        warning(
            "P014",
            f"no font has the character {char!r} (U+{ord(char):04X}), first at line {text[: text.index(char)].count(chr(10)) + 1} "
            f"of the Typst source: it is printed as an empty box (fonts tried: {', '.join(tried)})",
            source_name,
            hint="install a font that has it and name it in the parameter fonts",
        )
        for char, tried in found
    ]
    return shown
