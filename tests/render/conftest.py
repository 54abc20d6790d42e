"""Fixtures of the render tests: a site rendered into a temporary folder, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path

import pytest
from chromium import CHROMIUM, launch
from system import program

from tei.apparatus import APP, LACUNOSE, Apparatus, readings, witness_ids, witness_text
from tei.outputs import write_files
from tei.render import render
from tei.xmlio import parse_file

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = Path(__file__).resolve().parent.parent / "fixtures" / "editions" / "mini.xml"


MARK = "{urn:x-test}n"

# For each entry of the page: the witnesses behind the sigla of each reading (as a multiset of sorted
# tuples), and those listed as lacunose. A siglum's data-ids are the witnesses it stands for (a group, a
# range, a witness with the hands that read with it).
ENTRY_WITNESSES = """() => Array.from(document.querySelectorAll('.entries .entry')).map(entry => {
    const ids = part => Array.from(part.querySelectorAll('.siglum'))
        .flatMap(s => (s.dataset.ids || '').split(' ').filter(Boolean)).sort();
    return {readings: Array.from(entry.querySelectorAll('.reading')).map(r => ids(r).join(' ')).sort(),
            lacunose: Array.from(entry.querySelectorAll('.lacunae')).flatMap(ids).sort().join(' ')};
})"""


def reader_entries(tree) -> list[dict]:
    """What each entry must list, straight from the apparatus reader (Apparatus.attestations): for each app
    in document order, the witnesses reading each of its lem/rdg, and those lacunose there."""
    tree = deepcopy(tree)
    apps = list(tree.getroot().iter(APP))
    for number, app in enumerate(apps):  # marks that survive the folding of a base-text apparatus
        app.set(MARK, str(number))
        for place, reading in enumerate(readings(app)):
            reading.set(MARK, f"{number}.{place}")
    found = {}
    for app, taken in Apparatus(tree).attestations().items():
        if app.get(MARK) is None:
            continue
        # every lem and rdg, and the lem that folding gives a base-text unit (the passage it points to)
        by_reading = {r: w for r, w in taken.items() if r is not LACUNOSE and hasattr(r, "get")}
        found[int(app.get(MARK))] = {
            "readings": sorted(
                " ".join(sorted(by_reading.get(r, [])))
                for r in readings(app)
                if r.get(MARK) is not None or by_reading.get(r)  # a folding's lem that no witness reads is not shown
            ),
            "lacunose": " ".join(sorted(taken.get(LACUNOSE, []))),
        }
    return [found.get(n, {"readings": sorted("" for _ in readings(a)), "lacunose": ""}) for n, a in enumerate(apps)]


def mini_variant(folder: Path, old: str, new: str) -> Path:
    """The mini fixture with one passage changed, written into `folder` (the passage must be there)."""
    text = MINI.read_text("utf-8")
    assert old in text, f"the mini fixture no longer contains {old!r}"
    edition = folder / "variant.xml"
    edition.write_text(text.replace(old, new), "utf-8")
    return edition


def transposed_mini(folder: Path) -> Path:
    """The mini fixture with units 2 and 5 in a listTranspose."""
    transposition = (
        '<listTranspose><transpose><ptr target="#app-0002"/><ptr target="#app-0005"/></transpose></listTranspose>'
    )
    return mini_variant(folder, "</ab>", "</ab>" + transposition)


def render_site(edition: Path, folder: Path) -> Path:
    """Render `edition` as html into `folder`; the page's path."""
    write_files(render(edition, "html", folder).files)
    return folder / "index.html"


@pytest.fixture(scope="session")
def mini_site(tmp_path_factory) -> Path:
    return render_site(MINI, tmp_path_factory.mktemp("mini-site"))


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from Debian (package chromium), launched by its path; no browser is downloaded."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[test]'")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup.sh --test (Debian package chromium)")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


class Page:
    """A page opened from file://, with every console error and uncaught exception collected."""

    def __init__(self, browser, path: Path, fragment: str = ""):
        self.errors: list[str] = []
        self.page = browser.new_page()
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda exception: self.errors.append(str(exception)))
        self.page.goto(path.as_uri() + fragment)
        self.page.wait_for_selector("html.ready")

    def visible_text(self, selector: str) -> str:
        """The text nodes under `selector` that are rendered (no display:none ancestor), joined."""
        return self.page.eval_on_selector(
            selector,
            """root => {
                const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                const parts = [];
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    if (node.parentElement.checkVisibility()) parts.push(node.data);
                }
                return parts.join("");
            }""",
        )

    def shows_each_witness_as_tei_witness(self, edition: Path) -> None:
        """Pick each witness in the switch: the text on screen is the text `tei witness` gives."""
        tree = parse_file(edition)
        for witness in witness_ids(tree):
            self.page.select_option("#witness-select", witness)
            assert self.visible_text("#reading-text") == witness_text(tree, witness), witness


@pytest.fixture
def open_page(browser):
    opened = []

    def opener(path: Path, fragment: str = "") -> Page:
        page = Page(browser, path, fragment)
        opened.append(page)
        return page

    yield opener
    for page in opened:
        page.page.close()


@pytest.fixture(scope="session")
def xsltproc() -> str:
    return program("xsltproc", "run scripts/setup.sh (Debian package xsltproc)")
