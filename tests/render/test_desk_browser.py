"""`tei serve` in Chromium: the page follows edition.xml as it is edited on disk, shows the diagnostics of an
invalid edition over the last good build, and recovers; the web edition built by `tei build` works under a
sub-path."""

from __future__ import annotations

import functools
import http.server
import re
import threading

import pytest
from cli_runner import run
from paths import SEEDS
from serving import served

pytestmark = pytest.mark.browser

BOUND = 180_000  # ms: a bound for a page that never changes, not a figure of speed (benchmarks/serve.py times it)
# A unit whose lemma (witness A) is one plain word, in the middle of the edition.
SIMPLE_UNIT = re.compile(r'<app xml:id="(app-[0-9a-f]+)">(\s*)<lem wit="#A">([A-Za-z]+) </lem>')
PLACE = "id => Math.round(document.getElementById(id).getBoundingClientRect().top)"


def test_the_page_follows_edits_shows_diagnostics_over_the_last_good_build_and_recovers(browser, tmp_path, artifacts):
    output = tmp_path / "build"
    with served(SEEDS, "-o", output) as (url, _process, _lines):
        edition = output / "edition.xml"
        text = edition.read_text("utf-8")
        units = SIMPLE_UNIT.findall(text)
        unit, space, word = units[len(units) // 2]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda exception: errors.append(str(exception)))
        try:
            page.goto(url + "html/")
            page.wait_for_selector("#tei-desk")
            page.evaluate("id => document.getElementById(id).scrollIntoView({block: 'center'})", unit)
            before = page.evaluate(PLACE, unit)
            assert before > 200  # the unit is well down the screen, not at the top of a page scrolled to its start

            edition.write_text(
                text.replace(f'{space}<lem wit="#A">{word} </lem>', f'{space}<lem wit="#A">Zebrafish </lem>', 1),
                "utf-8",
            )
            page.wait_for_function(
                "id => (document.getElementById(id)?.textContent || '').includes('Zebrafish')", arg=unit, timeout=BOUND
            )
            page.wait_for_function("() => document.getElementById('tei-desk')", timeout=BOUND)
            assert abs(page.evaluate(PLACE, unit) - before) <= 40  # reloaded at the unit the editor was reading
            page.screenshot(path=artifacts / "serve-valid.png")

            good = edition.read_text("utf-8")
            edition.write_text(good.replace('wit="#B #C"', 'wit="#B #Zed"', 1), "utf-8")
            page.wait_for_selector("#tei-desk-problems:not([hidden])", timeout=BOUND)
            problems = page.inner_text("#tei-desk-problems")
            assert re.search(r"edition\.xml:\d+(:\d+)?: error: \[APP001\] @wit names the witness .Zed.", problems), (
                problems
            )
            assert "Zed" in problems
            assert "Zebrafish" in page.inner_text(f"#{unit}")  # the last good view is still there
            page.screenshot(path=artifacts / "serve-invalid.png")

            edition.write_text(good, "utf-8")
            page.wait_for_selector("#tei-desk-problems", state="hidden", timeout=BOUND)
            assert "Zebrafish" in page.inner_text(f"#{unit}")
            assert page.inner_text("#tei-desk").startswith("tei serve: live")
            assert errors == []
        finally:
            page.close()


@pytest.fixture
def sub_path_site(tmp_path):
    """The seeds built by `tei build`, served by a plain static server under /sub/path/ (as GitHub Pages serves a
    project's site), on 127.0.0.1 and a free port; stopped after the test."""

    site = tmp_path / "site"
    output = site / "sub" / "path"
    result = run("build", SEEDS, "-o", output, "--stages", "transcriptions,edition,schema,html,dts")
    assert result.exit_code == 0, result.stderr
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the standard library's name)
        pass

    def do_GET(self):
        if self.path == "/favicon.ico":  # the browser's own request at the host's root, not the site's
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


def test_the_web_edition_works_under_a_sub_path_and_copies_a_citation(browser, sub_path_site, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=sub_path_site)
    page = context.new_page()
    errors, requests = [], []
    page.on("pageerror", lambda exception: errors.append(str(exception)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("request", lambda request: requests.append(request.url))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))
    try:
        page.goto(sub_path_site + "/sub/path/html/index.html#passage-badr-text")
        page.wait_for_selector(".app[role=button]")  # edition.js ran
        sheets = "Array.from(document.styleSheets).filter(s => s.cssRules.length).map(s => s.href)"
        assert page.evaluate(sheets) == [sub_path_site + "/sub/path/html/edition.css"]  # its CSS, loaded
        assert page.evaluate("document.getElementById('passage-badr-text').dataset.cite") == "badr-text"
        unit = page.evaluate("document.querySelectorAll('#reading-text .app[id]')[11].id")
        number = page.get_attribute(f"#{unit}", "data-n")
        page.click(f"#{unit}")
        citations = page.locator("#entry-panel .citation-text").all_inner_texts()
        assert citations == [f"Badr, A {number}; {unit}", "Badr, badr-text"]
        page.click("#entry-panel .copy-citation >> nth=0")
        page.wait_for_function("() => document.querySelector('#entry-panel .copy-citation').textContent === 'Copied'")
        assert page.evaluate("navigator.clipboard.readText()") == f"Badr, A {number}; {unit}"
        entry = page.evaluate("fetch('dts/index.json').then(r => r.json())")
        assert entry["@type"] == "EntryPoint"
        collection = page.evaluate("fetch('dts/collection.json').then(r => r.json())")
        assert collection["member"][0]["@id"] == "badr"
        page.screenshot(path=artifacts / "sub-path-citation.png")
        assert errors == []
        assert requests and all(url.startswith(sub_path_site + "/sub/path/") for url in requests), requests
    finally:
        context.close()
