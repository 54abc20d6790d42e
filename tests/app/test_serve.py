"""`tei serve` without a browser: what it serves and refuses, where it listens, its live state, Ctrl-C."""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cli_runner import run
from paths import FIXTURES
from serving import served

from tei.app.serve import safe_path

MINI = FIXTURES / "editions" / "mini.xml"


def get(url: str, path: str, method: str = "GET") -> tuple[int, bytes, dict]:
    """The raw request, the path sent exactly as given (no client normalises ../ away)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def wait_for_state(url: str, ready, bound: float = 120) -> dict:
    """Poll /__tei/state until `ready(state)`; fail after `bound` seconds (a bound, not a timing)."""
    deadline = time.monotonic() + bound
    while True:
        state = json.loads(get(url, "/__tei/state")[1])
        if ready(state):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.1)


@pytest.fixture
def edition_folder(tmp_path) -> Path:
    folder = tmp_path / "desk"
    folder.mkdir()
    shutil.copy(MINI, folder / "edition.xml")
    (tmp_path / "secret.txt").write_text("outside the build folder", "utf-8")
    return folder


def test_paths_outside_the_folder_are_refused(tmp_path):
    root = tmp_path / "root"
    (root / "html").mkdir(parents=True)
    (root / "html" / "index.html").write_text("page", "utf-8")
    (root / ".tei-written.json").write_text("{}", "utf-8")
    (tmp_path / "secret.txt").write_text("secret", "utf-8")
    (root / "html" / "link.txt").symlink_to(tmp_path / "secret.txt")
    root = root.resolve()
    assert safe_path(root, "/html/index.html") == root / "html" / "index.html"
    assert safe_path(root, "/html/") == root / "html" / "index.html"
    assert safe_path(root, "/html") == root / "html"  # a folder without its slash: redirected by the server
    for path in (
        "/../secret.txt",
        "/html/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/html/%2E%2E/%2E%2E/secret.txt",
        "/html/..%2f..%2fsecret.txt",
        "/html/..%5c..%5csecret.txt",
        "/html/link.txt",  # a symbolic link out of the folder
        "/.tei-written.json",  # the ledger and the stamps are the toolkit's
        "//etc/passwd",
        "/html/%00index.html",
        "/html/index.html/",
        "/html/missing.html",
    ):
        assert safe_path(root, path) is None, path


def test_serve_listens_on_loopback_only_refuses_traversal_and_stops_on_ctrl_c(edition_folder):
    with served(edition_folder / "edition.xml") as (url, process, lines):
        port = urlsplit(url).port
        assert urlsplit(url).hostname == "127.0.0.1"
        assert listening_addresses(port) == ["127.0.0.1"]
        status, page, headers = get(url, "/html/index.html")
        assert status == 200 and b"/__tei/desk.js" in page and headers["Content-Type"].startswith("text/html")
        assert b"/__tei/desk.js" not in (edition_folder / "html" / "index.html").read_bytes()  # nothing on disk
        assert get(url, "/")[0] == 302 and get(url, "/")[2]["Location"] == "/html/"
        assert get(url, "/html")[2]["Location"] == "/html/"
        for path in ("/../secret.txt", "/html/../../secret.txt", "/%2e%2e/secret.txt", "/.tei-written.json"):
            status, body, _ = get(url, path)
            assert status == 404 and b"outside" not in body, path
        assert json.loads(get(url, "/__tei/state")[1])["good"] == 1
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0
    assert "tei serve: stopped" in "".join(lines)
    assert "Traceback" not in "".join(lines)


def test_an_edit_rebuilds_an_error_shows_and_the_last_good_build_stays(edition_folder):
    edition = edition_folder / "edition.xml"
    page = edition_folder / "html" / "index.html"
    with served(edition) as (url, _process, _lines):
        assert b"Umar" in page.read_bytes()
        edition.write_text(edition.read_text("utf-8").replace("Umar", "Omar the Second"), "utf-8")
        state = wait_for_state(url, lambda s: s["good"] == 2)
        assert not state["failed"] and b"Omar the Second" in page.read_bytes()
        good_page = page.read_bytes()
        edition.write_text(edition.read_text("utf-8").replace('wit="#B"', 'wit="#Q"', 1), "utf-8")
        state = wait_for_state(url, lambda s: s["failed"])
        assert any("edition.xml:" in d and "error" in d and "Q" in d for d in state["diagnostics"]), state
        assert page.read_bytes() == good_page and state["good"] == 2
        edition.write_text(edition.read_text("utf-8").replace('wit="#Q"', 'wit="#B"', 1), "utf-8")
        state = wait_for_state(url, lambda s: s["attempt"] > 3 and not s["building"])
        assert not state["failed"] and state["diagnostics"] == []


def test_serve_refuses_an_xml_file_not_named_edition_xml(tmp_path):
    shutil.copy(MINI, tmp_path / "other.xml")
    result = run("serve", tmp_path / "other.xml", "--port", "0")
    assert result.exit_code == 2 and "[SV002]" in result.stderr and "Traceback" not in result.stderr


def listening_addresses(port: int) -> list[str]:
    """The local addresses of the sockets listening on `port` (Linux: /proc/net/tcp and tcp6)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                if len(address) == 8:
                    found.append(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
                else:
                    found.append(address)
    return found


def test_the_pdf_is_built_on_request(edition_folder):
    with served(edition_folder / "edition.xml") as (url, _process, _lines):
        assert not (edition_folder / "edition.pdf").exists()  # not with every change, without --pdf
        status, body, _ = get(url, "/__tei/pdf", method="POST")
        assert status == 202
        state = wait_for_state(url, lambda s: s["pdf"] in ("ready", "failed"), bound=300)
        assert state["pdf"] == "ready", state
        status, pdf, headers = get(url, "/edition.pdf")
        assert status == 200 and pdf.startswith(b"%PDF") and headers["Content-Type"] == "application/pdf"


def test_the_desk_tells_which_kind_of_input_changed(tmp_path):
    from paths import SEEDS

    from tei.app.desk import Desk

    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    out = tmp_path / "out"
    (out / "transcriptions").mkdir(parents=True)
    (out / "edition.xml").write_text("<TEI/>", "utf-8")
    (out / "transcriptions" / "A.xml").write_text("<TEI/>", "utf-8")
    desk = Desk(seeds, out)
    desk.remember()
    assert desk.changes() == set()
    assert len(desk.watched()) == 1 + 1 + 4 + 1  # edition.xml, the manifest, four witness texts, a transcription
    (seeds / "001_9ad4fe1e89355a52.txt").write_text("another text", "utf-8")
    assert desk.changes() == {"manifest"}
    desk.remember()
    (out / "edition.xml").write_text("<TEI>edited</TEI>", "utf-8")
    (out / "transcriptions" / "A.xml").write_text("<TEI>edited</TEI>", "utf-8")
    assert desk.changes() == {"edition", "transcription"}
