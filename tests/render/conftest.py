"""Fixtures of the render tests: a site rendered into a temporary folder, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import shutil
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


@pytest.fixture(scope="session")
def latexmk():
    """latexmk and XeLaTeX (Debian packages installed by scripts/setup.sh)."""
    if shutil.which("latexmk") is None or shutil.which("xelatex") is None:
        pytest.fail("latexmk/xelatex are missing: run scripts/setup.sh (Debian packages latexmk texlive-xetex ...)")


@pytest.fixture(scope="session")
def seed_edition_file(tmp_path_factory) -> Path:
    """The seeds collated into edition.xml, as `tei build` writes it."""
    from paths import SEEDS

    from tei.collate import collate
    from tei.readers.manifest import read_manifest
    from tei.writers.edition import EditionOptions, edition_bytes

    path = tmp_path_factory.mktemp("seeds") / "edition.xml"
    path.write_bytes(
        edition_bytes(collate(read_manifest(SEEDS / "edition.toml")), EditionOptions("schemas/tei-edition.rng"))
    )
    return path


class SeedPdfs(dict):
    """The seeds' PDF of each engine with the default parameters, made when first asked for: engine -> (pdf,
    diagnostics). One per run for every test that reads it (the layout tests, the eulogy's source form): the
    tests that use seed_pdfs run on one worker (group seed-pdfs, tests/conftest.py)."""

    def __init__(self, folder, edition: Path, request):
        super().__init__()
        self.folder, self.edition, self.request = folder, edition, request

    def __missing__(self, engine: str) -> tuple[Path, list]:
        if engine == "latex":
            self.request.getfixturevalue("latexmk")
        output = self.folder.mktemp(f"seeds-{engine}") / "seeds.pdf"
        rendered = render(self.edition, "pdf", output, {"engine": engine})
        write_files(rendered.files)
        self[engine] = (output, rendered.diagnostics)
        return self[engine]


@pytest.fixture(scope="session")
def seed_pdfs(tmp_path_factory, request) -> SeedPdfs:
    return SeedPdfs(tmp_path_factory, request.getfixturevalue("seed_edition_file"), request)
