"""`tei serve`: the web edition of a desk (tei.app.desk) on 127.0.0.1, rebuilt as its files change, live in the page.

The standard library's threading HTTP server serves the output folder and nothing outside it: a request's path
is split into its segments, and one that is empty, `.`, `..`, hidden (a leading dot: the ledger, the stamps),
or holds a backslash or a NUL byte is refused (404) before the file system is asked; the file found must lie
inside the folder once every symbolic link is resolved. `/` leads to the web edition (`/html/`). Every page
served gets one script (xslt/html/desk.js, under the reserved prefix `/__tei/`); no file on disk is changed
for it, so the folder stays what `tei build` writes and any static host would serve.

The page listens to `/__tei/events` (server-sent events): the desk's state (tei.app.desk.State) each time it
changes, and a comment every second to notice a page gone. A new good build makes the page reload at the unit
the editor was reading; a failed one shows its diagnostics over the page, which stays the last good build.
`POST /__tei/pdf` asks for the PDF (built by the watcher thread, which runs every build one after another).

The watcher polls the desk every POLL seconds. Ctrl-C (SIGINT) ends `serve_forever` in the main thread; the
watcher and the event streams are told to stop and end within a poll, and the socket is closed.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tei.app.desk import Desk
from tei.resources import resource

HOST = "127.0.0.1"  # never another interface: the desk is the editor's own
POLL = 0.1  # seconds between two looks at the watched files (a stat of each, a few files)
HEARTBEAT = 1.0  # seconds between two comments on an event stream
PREFIX = "/__tei/"
SCRIPT = '<script src="/__tei/desk.js" data-good="{good}" defer></script>'  # the good build the page is


class DeskServer(ThreadingHTTPServer):
    daemon_threads = True  # a request still open (an event stream) never holds the process at exit
    allow_reuse_address = True

    def __init__(self, desk: Desk, port: int):
        self.desk = desk
        self.root = desk.output.resolve()
        self.stopping = threading.Event()
        self.pdf_wanted = threading.Event()
        super().__init__((HOST, port), DeskHandler)


def safe_path(root: Path, request_path: str) -> Path | None:
    """The file under `root` that the URL path names (a folder: its index.html, or the folder itself when the
    path lacks the final slash, for the caller to redirect), or None if it names nothing there or tries to leave."""
    path = unquote(urlsplit(request_path).path)
    wants_folder = path.endswith("/")
    segments = path.split("/")[1:-1] if wants_folder else path.split("/")[1:]
    for segment in segments:
        if segment in ("", ".", "..") or segment.startswith(".") or "\\" in segment or "\0" in segment:
            return None
    try:
        target = root.joinpath(*segments).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    if not target.is_relative_to(root):
        return None
    if target.is_dir():
        if not wants_folder:
            return target
        target = target / "index.html"
    elif wants_folder:
        return None
    return target if target.is_file() else None


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 (the standard library's name): requests are not logged
        pass

    def do_GET(self):
        path = urlsplit(self.path).path
        if path == "/":
            return self._redirect("/html/")
        if path.startswith(PREFIX):
            return self._desk(path[len(PREFIX) :])
        target = safe_path(self.server.root, self.path)
        if target is None:
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        if target.is_dir():  # a folder's page: its relative links need the slash
            return self._redirect(path + "/")
        try:
            data = target.read_bytes()
        except OSError:  # removed since it was found (a build replaces files by renaming, never half-written)
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if target.suffix == ".html":
            data = inject(data, self.server.desk.snapshot()["good"])
        if kind.startswith("text/") or kind in ("application/json", "application/xml"):
            kind += "; charset=utf-8"
        return self._send(HTTPStatus.OK, data, kind)

    def do_POST(self):
        if urlsplit(self.path).path == PREFIX + "pdf":
            self.server.pdf_wanted.set()
            return self._send(HTTPStatus.ACCEPTED, b'{"pdf": "building"}', "application/json")
        return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def _desk(self, name: str):
        if name == "desk.js":
            return self._send(HTTPStatus.OK, resource("xslt", "html/desk.js").read_bytes(), "text/javascript")
        if name == "state":
            return self._send(HTTPStatus.OK, json.dumps(self.server.desk.snapshot()).encode(), "application/json")
        if name == "events":
            return self._events()
        return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def _events(self):
        desk, stopping = self.server.desk, self.server.stopping
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        sent = None
        try:
            while not stopping.is_set():
                state = desk.snapshot()
                if state != sent:
                    self.wfile.write(f"data: {json.dumps(state)}\n\n".encode())
                    sent = state
                else:
                    self.wfile.write(b": waiting\n\n")
                self.wfile.flush()
                with desk.changed:
                    desk.changed.wait(HEARTBEAT)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed or reloaded

    def _redirect(self, location: str):
        self.send_response(HTTPStatus.FOUND)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: HTTPStatus, data: bytes, kind: str):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)


def inject(page: bytes, good: int) -> bytes:
    """The page with the desk's script, before </body> (or at the end), told which good build it is."""
    script = SCRIPT.format(good=good).encode()
    at = page.rfind(b"</body>")
    return page[:at] + script + page[at:] if at >= 0 else page + script


def watch(server: DeskServer) -> None:
    """Poll the desk's files; build what a change calls for once it has been seen twice alike (a save is whole)."""
    desk = server.desk
    pending: set[str] = set()
    while not server.stopping.wait(POLL):
        if server.pdf_wanted.is_set():
            server.pdf_wanted.clear()
            desk.update(pdf="building")
            desk.rebuild({"edition"}, with_pdf=True)
            desk.remember()
            continue
        kinds = desk.changes()
        if kinds:
            pending |= kinds
            desk.remember()
            continue  # wait one more poll: the file may still be being written
        if pending:
            desk.rebuild(pending)
            desk.remember()
            pending = set()


def serve(desk: Desk, port: int = 0, on_ready: Callable[[str], None] | None = None) -> None:
    """Build once, then serve the desk on 127.0.0.1:`port` (0: a free port) until Ctrl-C (KeyboardInterrupt)."""
    desk.first_build()
    desk.remember()
    server = DeskServer(desk, port)
    watcher = threading.Thread(target=watch, args=(server,), name="tei-serve-watch", daemon=True)
    watcher.start()
    try:
        if on_ready is not None:
            on_ready(f"http://{HOST}:{server.server_address[1]}/")
        server.serve_forever(poll_interval=POLL)
    finally:
        server.stopping.set()
        with desk.changed:
            desk.changed.notify_all()
        watcher.join(timeout=30)
        server.server_close()
