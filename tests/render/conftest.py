"""Fixtures of the render tests: a site rendered into a temporary folder, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import shutil
from copy import deepcopy
from pathlib import Path

import pytest
from chromium import CHROMIUM, launch
from system import program

from tei.apparatus import APP, LACUNOSE, LEM, RDG, Apparatus, readings, witness_ids, witness_text
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
    in document order, the witnesses reading each of its lem/rdg, and those lacunose there. Of a reading
    holding units (a paraphrase's container), only the witnesses that take, at every unit inside it, the
    reading its entry prints there (issue 41): inside a base reading the base reading, inside a variant
    reading the one its first witness takes."""
    tree = deepcopy(tree)
    apps = list(tree.getroot().iter(APP))
    for number, app in enumerate(apps):  # marks that survive the folding of a base-text apparatus
        app.set(MARK, str(number))
        for place, reading in enumerate(readings(app)):
            reading.set(MARK, f"{number}.{place}")
    attested = Apparatus(tree).attestations()
    chose = {
        (w, app.get(MARK)): r.get(MARK)
        for app, taken in attested.items()
        for r, ids in taken.items()
        if hasattr(r, "get")
        for w in ids
    }
    found = {}
    for app, taken in attested.items():
        if app.get(MARK) is None:
            continue
        # every lem and rdg, and the lem that folding gives a base-text unit (the passage it points to)
        by_reading = {r: w for r, w in taken.items() if r is not LACUNOSE and hasattr(r, "get")}
        by_reading = {r: _reading_printed_words(r, w, chose) for r, w in by_reading.items()}
        found[int(app.get(MARK))] = {
            "readings": sorted(
                " ".join(sorted(by_reading.get(r, [])))
                for r in readings(app)
                if r.get(MARK) is not None or by_reading.get(r)  # a folding's lem that no witness reads is not shown
            ),
            "lacunose": " ".join(sorted(taken.get(LACUNOSE, []))),
        }
    return [found.get(n, {"readings": sorted("" for _ in readings(a)), "lacunose": ""}) for n, a in enumerate(apps)]


def _reading_printed_words(reading, ids: list[str], chose: dict) -> list[str]:
    """The witnesses of a reading that read the words its entry prints (see reader_entries)."""
    inner = [a for a in reading.iter(APP)]
    if not inner:
        return ids
    shown = {}
    for app in inner:  # outer units first: document order
        outer = next(app.iterancestors(LEM, RDG))
        found = readings(app)
        base = next((r for r in found if r.tag == LEM), found[0])
        holder = next(outer.iterancestors(APP))
        holder_readings = readings(holder)
        holder_base = next((r for r in holder_readings if r.tag == LEM), holder_readings[0])
        if outer is holder_base:
            shown[app.get(MARK)] = base.get(MARK)
        else:
            first = next((w for w, u in chose if u == holder.get(MARK) and chose[w, u] == outer.get(MARK)), None)
            shown[app.get(MARK)] = chose.get((first, app.get(MARK)), base.get(MARK))
    return [w for w in ids if all(chose.get((w, u), r) == r for u, r in shown.items() if (w, u) in chose)]


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


# The state a test may leave a page of the web edition in, and restore() puts back as loaded: no unit active, the
# entry panel closed, the text tab, the edition's own text, nothing focused, scrolled to the top, no fragment.
STATE = """() => ({hash: location.hash, scroll: [scrollX, scrollY], focus: document.activeElement === document.body,
    active: document.querySelectorAll('.app.active').length, html: document.documentElement.className,
    panel: document.getElementById('entry-panel')?.className,
    tab: document.querySelector('[role=tab][aria-selected=true]')?.id,
    witness: document.getElementById('witness-select')?.value,
    sideways: Array.from(document.querySelectorAll('.synoptic')).map(s => s.scrollLeft)})"""

RESTORE = """() => {
    const select = document.getElementById('witness-select');
    if (select && select.value) {
        select.value = '';
        select.dispatchEvent(new Event('change'));
    }
    const text = document.getElementById('tab-text');
    if (text && text.getAttribute('aria-selected') !== 'true') text.click();
    document.querySelectorAll('.synoptic').forEach(s => { s.scrollLeft = 0; });
    if (document.activeElement) document.activeElement.blur();
    history.replaceState(null, '', location.pathname + location.search);
    window.scrollTo(0, 0);
}"""


class Page:
    """A browser tab the tests open pages of the web edition in, one after another, collecting every console
    error and uncaught exception of the page it shows (errors). A tab in a new context for each test, as before,
    cost 1.3-1.6 s a test of the mini page (open, click a unit, close; load average 4), a new tab in one context
    0.7-0.8 s, a load in the tab already there 0.4-0.5 s."""

    def __init__(self, context):
        self.context = context
        self.page = None
        self.errors: list[str] = []
        self.loaded: str | None = None  # the URL of the page shown
        self.fresh = False  # no test has used the page since it was loaded (see test_browser.py, edition_page)
        self.as_loaded: dict | None = None  # its STATE when loaded

    def _tab(self):
        if self.page is None or self.page.is_closed():
            self.page = self.context.new_page()
            self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
            self.page.on("pageerror", lambda exception: self.errors.append(str(exception)))
        return self.page

    def open(self, path: Path, fragment: str = "") -> Page:
        """Load the page afresh, as a new tab would: about:blank first (a fragment of the page shown is a load
        too), the pointer in the corner, screen media."""
        page = self._tab()
        page.mouse.move(0, 0)
        page.goto("about:blank")
        page.emulate_media(media="null")
        self.errors = []
        page.goto(path.as_uri() + fragment)
        page.wait_for_selector("html.ready")
        self.loaded, self.fresh = path.as_uri() + fragment, True
        self.as_loaded = page.evaluate(STATE) if not fragment else None
        return self

    def restore(self) -> bool:
        """Put the page back as loaded after a test used it: the entry panel closed (Escape), the text tab, the
        edition's text, no focus, the top. Whether it is as loaded (STATE)."""
        if self.as_loaded is None or self.page is None or self.page.is_closed():
            return False
        self.page.keyboard.press("Escape")
        self.page.evaluate(RESTORE)
        self.page.mouse.move(0, 0)
        self.errors = []
        return self.page.evaluate(STATE) == self.as_loaded

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

    def close(self) -> None:
        if self.page is not None and not self.page.is_closed():
            self.page.close()


def page_key(item) -> tuple | None:
    """The page a test reads through test_browser.py's edition_page: (file, edition, width), or None."""
    if "edition_page" not in getattr(item, "fixturenames", ()):
        return None
    params = item.callspec.params
    return (str(item.path), params["name"], params.get("width", "desk"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The tests that read one edition's page at one width (edition_page) run one after another, in the order of
    their file, so that the page is loaded once for all of them: the first test of the file to read a page is the
    one that needs it as loaded, the others restore() it. They keep the places the collection gave them all, and
    each xdist group (one edition, tests/conftest.py) keeps its tests in the order of the list."""
    places = [n for n, item in enumerate(items) if page_key(item) is not None]
    chosen = [items[n] for n in places]
    first: dict[tuple, int] = {}
    for n, item in enumerate(chosen):
        first.setdefault(page_key(item), n)
    for n, item in zip(places, sorted(chosen, key=lambda item: first[page_key(item)])):
        items[n] = item


@pytest.fixture(scope="session")
def desk_context(browser):
    """The browser context of the tests that open a page at Playwright's default size (1280 x 720)."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture(scope="session")
def reused_tab(desk_context) -> Page:
    tab = Page(desk_context)
    yield tab
    tab.close()


@pytest.fixture
def open_page(reused_tab, desk_context):
    """path, fragment -> a Page showing it, loaded afresh: the run's one tab, or a new one for a test's second page."""
    extra = []

    def opener(path: Path, fragment: str = "") -> Page:
        opener.calls += 1
        if opener.calls == 1:
            return reused_tab.open(path, fragment)
        page = Page(desk_context)
        extra.append(page)
        return page.open(path, fragment)

    opener.calls = 0
    yield opener
    for page in extra:
        page.close()


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
