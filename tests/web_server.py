"""A small web on 127.0.0.1: a SearXNG-compatible /search that answers JSON, and the pages it finds."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class LocalWeb:
    """`results[query]` is what /search answers for a query (a list of SearXNG result dicts, or an
    int: an HTTP error code); `pages[path]` is (content type, body) served at that path;
    `delays[path]` makes a path answer after that many seconds. `asked` records every request."""

    def __init__(self) -> None:
        self.results: dict[str, list[dict] | int] = {}
        self.pages: dict[str, tuple[str, bytes]] = {}
        self.delays: dict[str, float] = {}
        self.redirects: dict[str, str] = {}
        self.asked: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def page(self, path: str, html: str, content_type: str = "text/html") -> str:
        self.pages[path] = (content_type, html.encode())
        return f"{self.url}{path}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        web = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                web.asked.append(self.path)
                time.sleep(web.delays.get(parts.path, 0))
                if parts.path in web.redirects:
                    self.send_response(302)
                    self.send_header("Location", web.redirects[parts.path])
                    self.end_headers()
                elif parts.path == "/search":
                    query = parse_qs(parts.query).get("q", [""])[0]
                    answer = web.results.get(query, [])
                    if isinstance(answer, int):
                        self._send(answer, "text/plain", b"error")
                    else:
                        body = json.dumps({"query": query, "results": answer}).encode()
                        self._send(200, "application/json", body)
                elif parts.path in web.pages:
                    self._send(200, *web.pages[parts.path])
                else:
                    self._send(404, "text/plain", b"not found")

            def _send(self, code: int, content_type: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


@contextmanager
def local_web():
    web = LocalWeb()
    thread = threading.Thread(target=web.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield web
    finally:
        web.server.shutdown()
        web.server.server_close()
        thread.join(5)


def result(url: str, title: str, content: str, engine: str = "duckduckgo") -> dict:
    return {"url": url, "title": title, "content": content, "engine": engine, "engines": [engine]}
