"""The browser UI's pages, served by `pica serve` under /ui/ beside /mcp.

Rendering only: every page runs the same tool methods the MCP tools run (`pica.mcp.tools.Tools`:
search, get, session, similar, status) with the server's shared stage and plan caches, and turns
their answer into HTML with Jinja2 (autoescaped); /ui/browse, which no tool answers, reads the
store through its read-only `LanceStore.folder`. htmx (vendored, static/htmx.min.js) swaps the
results in place; every view is also a plain GET with its own address, rendered whole on reload.

Safety: GET and HEAD only (nothing here changes state); a request from another origin is refused;
every page carries a Content-Security-Policy allowing scripts from this server only; /ui/file
serves only a regular file inside a registered collection's folder, never as HTML.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

HERE = Path(__file__).resolve().parent
STATIC = {"htmx.min.js": "text/javascript", "ui.js": "text/javascript", "ui.css": "text/css"}
PAGE_LINES = 2000  # a long document is shown this many lines at a time
LIVE_MODES = ("lexical", "grep", "federated")  # searched as you type; the others on Enter
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
FILE_CSP = "default-src 'none'; object-src 'self'; plugin-types application/pdf; sandbox"
# Facets: metadata fields counted over the results, each value a click to filter.
FACETS = ("agent", "project", "role", "owner", "author", "authors", "tags", "status", "year")
TEXT_TYPES = {".md", ".txt", ".rst", ".json", ".jsonl", ".yaml", ".yml", ".csv", ".toml", ".log"}


def add_routes(server: Any, tools: Any) -> None:
    """Register the /ui/ pages on the MCP server (its `custom_route`)."""
    ui = UI(tools)
    routes = {
        "/ui": ui.root,
        "/ui/": ui.search,
        "/ui/doc": ui.doc,
        "/ui/file": ui.file,
        "/ui/status": ui.status,
        "/ui/browse": ui.browse,
        "/ui/sessions": ui.sessions,
        "/ui/session": ui.session,
        **{f"/ui/static/{name}": functools.partial(ui.static, name) for name in STATIC},
    }
    for path, handler in routes.items():
        server.custom_route(path, methods=["GET", "HEAD"])(_guarded(handler))


def _guarded(handler: Any) -> Any:
    """Refuse what a page of another site could make a browser send here."""

    async def guarded(request: Any) -> Any:
        from starlette.responses import PlainTextResponse

        refused = refusal(request.headers)
        if refused:
            return PlainTextResponse(refused, status_code=403)
        response = await handler(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response

    return guarded


def refusal(headers: Any) -> str:
    """Why a request is refused: an Origin or a fetch from another site (a browser says so), or a
    Host that is a name other than this machine's (DNS rebinding)."""
    origin = headers.get("origin")
    if origin and urlsplit(origin).hostname not in LOCAL_HOSTS:
        return f"requests from {origin} are not accepted"
    if headers.get("sec-fetch-site", "") == "cross-site":
        return "requests from other sites are not accepted"
    host = urlsplit("//" + headers.get("host", "")).hostname or ""
    if host and host not in LOCAL_HOSTS and not _address(host):
        return f"host {host} is not served here: open http://127.0.0.1/ui/"
    return ""


def _address(host: str) -> bool:
    """HOST is an IP address (the one `pica serve --host` bound), not a name."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class UI:
    def __init__(self, tools: Any):
        self.tools = tools
        self._env: Any = None

    @property
    def env(self) -> Any:
        if self._env is None:  # Jinja2 loads with the first page, not with the server
            import jinja2

            self._env = jinja2.Environment(
                loader=jinja2.FileSystemLoader(HERE / "templates"),
                autoescape=True,
                undefined=jinja2.StrictUndefined,
            )
            self._env.filters["mark"] = mark
            self._env.filters["when"] = when
            self._env.globals["url"] = url
        return self._env

    def render(self, template: str, status: int = 200, **values: Any) -> Any:
        from starlette.responses import HTMLResponse

        html = self.env.get_template(template).render(**values)
        return HTMLResponse(html, status_code=status, headers={"Vary": "HX-Request"})

    async def call(self, method: str, **arguments: Any) -> Any:
        """A tool method in a worker thread, as the MCP tools run."""
        import anyio.to_thread

        return await anyio.to_thread.run_sync(functools.partial(getattr(self.tools, method), **arguments))

    async def root(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse

        return RedirectResponse("/ui/", status_code=307)

    async def search(self, request: Any) -> Any:
        from pica.kernel.errors import PicaError
        from pica.kernel.modes import search_modes

        params = request.query_params
        query, mode = params.get("q", "").strip(), params.get("mode", "default")
        collection = params.get("collection", "")
        filters = [f for f in params.getlist("f") if "=" in f]
        sort = params.get("sort", "")
        modes = search_modes()
        result, error = None, ""
        similar = params.get("similar", "")
        if similar:
            try:
                result = await self.call(
                    "similar", id=similar, k=_int(params, "k", 20), collection=collection
                )
            except PicaError as e:
                error = str(e)
        elif query:
            try:
                grouped: dict[str, list[str]] = {}
                for f in filters:
                    field, value = f.split("=", 1)
                    grouped.setdefault(field, []).append(value)
                result = await self.call(
                    "search", query=query, mode=mode if mode in modes else "default", k=_int(params, "k", 20),
                    collection=collection, filters=grouped or None, sort=sort,
                    budget_tokens=0,  # a page has no tool-output cap to keep under
                )  # fmt: skip
            except PicaError as e:
                error = str(e)
        state = {"q": query, "mode": mode, "collection": collection, "f": filters, "sort": sort,
                 "similar": similar}  # fmt: skip
        values = {
            "state": state,
            "modes": modes,
            "live_modes": LIVE_MODES,
            "result": result,
            "error": error,
            "words": query_words(query),
            "top": max((h.score for h in result.hits), default=0) if result else 0,
            "facets": facets(result.hits, state) if result else {},
            "sort_fields": sorted({k for h in result.hits for k in h.metadata}) if result else [],
            "chips": chips(state),
            "collections": await self._collections(),
        }
        partial = request.headers.get("hx-request") and not request.headers.get("hx-history-restore-request")
        return self.render("results.html" if partial else "search.html", **values)

    async def doc(self, request: Any) -> Any:
        from pica.kernel.errors import PicaError

        params = request.query_params
        doc_id, lines = params.get("id", ""), params.get("lines", "")
        first, last = _span(lines)
        try:
            report = (await self.call("get", id=doc_id)).report
        except PicaError as e:
            return self.render("error.html", status=404, message=str(e))
        metadata = report.get("metadata") or {}
        back = params.get("back", "")
        back = back if back.startswith("/ui/") and not re.search(r"//|\\|\.\.", back) else "/ui/"
        words = query_words(params.get("q", ""))
        # Opened from the results (htmx into #reader): the document alone, shown beside the list.
        pane = request.headers.get("hx-target") == "reader" and not request.headers.get(
            "hx-history-restore-request"
        )
        here = url("/ui/doc", **dict(params))
        if report.get("source") == "transcripts" and metadata.get("session"):
            items = (await self.call("session", id=str(metadata["session"]))).items
            return self.render(
                "session_body.html" if pane else "session.html", report=report, items=items, marked=doc_id,
                back=back, words=words, pane=pane, here=here,
            )  # fmt: skip
        text_lines = str(report.get("text", "")).split("\n")
        if text_lines and text_lines[-1] == "":
            text_lines.pop()
        start = int(report.get("line_start") or 1)
        numbered = list(enumerate(text_lines, start))
        at_hit = max(first - start, 0) // PAGE_LINES + 1 if first else 1
        page = _int(params, "page", at_hit) if params.get("page") else at_hit
        pages = max(1, -(-len(numbered) // PAGE_LINES))
        page = min(max(page, 1), pages)
        shown = numbered[(page - 1) * PAGE_LINES : page * PAGE_LINES]
        openable = report.get("source") == "files" and await self._file(report) is not None
        return self.render(
            "doc_body.html" if pane else "doc.html", pane=pane, here=here,
            report=report, lines=shown, first=first, last=last, metadata=metadata,
            page=page, pages=pages, back=back, words=words, openable=openable, doc_id=doc_id, span=lines,
            query=params.get("q", ""),
        )  # fmt: skip

    async def file(self, request: Any) -> Any:
        """The original file of a document: only a regular file inside its registered collection,
        PDFs inline, text as text/plain, anything else as a download; never rendered as HTML."""
        from starlette.responses import FileResponse, PlainTextResponse

        params = request.query_params
        path = self._safe_file(params.get("collection", ""), params.get("path", ""))
        if path is None:
            return PlainTextResponse("no such file in a registered collection", status_code=404)
        headers = {"Content-Security-Policy": FILE_CSP, "X-Content-Type-Options": "nosniff"}
        suffix = path.suffix.lower()
        if suffix == ".pdf":
            media, disposition = "application/pdf", "inline"
        elif suffix in TEXT_TYPES:
            media, disposition = "text/plain; charset=utf-8", "inline"
        else:
            media, disposition = "application/octet-stream", "attachment"
        return FileResponse(path, media_type=media, headers=headers, content_disposition_type=disposition,
                            filename=path.name)  # fmt: skip

    async def sessions(self, request: Any) -> Any:
        """The agents' sessions, newest first (the list_sessions tool), by agent and project."""
        from pica.kernel.errors import PicaError

        params = request.query_params
        agent, project = params.get("agent", ""), params.get("project", "")
        try:
            items = (
                await self.call("list_sessions", n=_int(params, "n", 200), agent=agent, project=project)
            ).items
        except PicaError as e:
            return self.render("error.html", status=400, message=str(e))
        return self.render("sessions.html", items=items, agent=agent, project=project)

    async def session(self, request: Any) -> Any:
        """One whole session (the session tool), no message marked."""
        from pica.kernel.errors import PicaError

        session_id = request.query_params.get("id", "")
        try:
            items = (await self.call("session", id=session_id)).items
        except PicaError as e:
            return self.render("error.html", status=404, message=str(e))
        first = items[0] if items else {}
        metadata = {**first.get("metadata", {}), "session": session_id}
        report = {"id": session_id, "title": "", "source": "transcripts", "metadata": metadata,
                  "collection": first.get("collection", ""), "path": first.get("path", "")}  # fmt: skip
        return self.render("session.html", report=report, items=items, marked="", back="/ui/sessions",
                           words=[], pane=False, here="")  # fmt: skip

    async def browse(self, request: Any) -> Any:
        """A collection's folder as the index holds it: sub-folders (a click goes one level down)
        and documents (a click reads one); breadcrumbs go back up. Without a collection: the
        collections, from the status tool."""
        params = request.query_params
        collection = params.get("collection", "")
        folder = "/".join(p for p in params.get("folder", "").split("/") if p)
        if not collection:
            report = (await self.call("status")).report
            return self.render("browse.html", collection="", folder="", crumbs=[], listing=None,
                               collections=report.get("collections", {}))  # fmt: skip
        listing = await self.call_store("folder", collection, folder)
        parts = folder.split("/") if folder else []
        crumbs = [(part, url("/ui/browse", collection=collection, folder="/".join(parts[: n + 1])))
                  for n, part in enumerate(parts)]  # fmt: skip
        return self.render("browse.html", collection=collection, folder=folder, crumbs=crumbs,
                           listing=listing, collections={})  # fmt: skip

    async def call_store(self, method: str, *arguments: Any) -> Any:
        """A read-only method of the LanceDB store (stages/store/lance_store.py) in a worker thread."""
        import anyio.to_thread

        from pica.stages.store.lance_store import LanceStore

        def read() -> Any:
            store = LanceStore(Path(self.tools.settings.home).expanduser() / "lance")
            return getattr(store, method)(*arguments)

        return await anyio.to_thread.run_sync(read)

    async def status(self, request: Any) -> Any:
        report = (await self.call("status")).report
        return self.render("status.html", report=report)

    async def static(self, name: str, request: Any) -> Any:
        from starlette.responses import Response

        body = (HERE / "static" / name).read_bytes()
        return Response(body, media_type=STATIC[name], headers={"Cache-Control": "max-age=3600"})

    async def _collections(self) -> list[str]:
        from pica.stages.store.collections import Collections

        return [c.name for c in Collections(self.tools.settings.home).all()]

    async def _file(self, report: dict[str, Any]) -> Path | None:
        return self._safe_file(str(report.get("collection", "")), str(report.get("path", "")))

    def _safe_file(self, collection: str, relative: str) -> Path | None:
        """COLLECTION's folder / RELATIVE, if that is a regular file inside the folder once every
        symlink is resolved; None for an absolute path, `..`, a link out, or anything else."""
        from pica.kernel.errors import PicaError
        from pica.stages.store.collections import Collections

        if not relative or relative.startswith(("/", "\\")) or "\x00" in relative:
            return None
        if any(part in ("..", "") for part in relative.replace("\\", "/").split("/")):
            return None
        try:
            folders = {c.name: c.path for c in Collections(self.tools.settings.home).all()}
        except PicaError:
            return None
        if collection not in folders:
            return None
        root = Path(folders[collection]).resolve()
        try:
            path = (root / relative).resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not path.is_relative_to(root) or not path.is_file():
            return None
        return path


def query_words(query: str) -> list[str]:
    """The words of a query to mark in passages (operators and one-letter words left out)."""
    words = re.findall(r"\w+", query)
    return sorted({w for w in words if len(w) > 1 and w not in ("AND", "OR", "NOT", "NEAR")}, key=len,
                  reverse=True)  # fmt: skip


def mark(text: Any, words: list[str]) -> Any:
    """TEXT escaped, with each of WORDS (and words they start) wrapped in <mark>."""
    from markupsafe import Markup, escape

    text = str(text)
    if not words:
        return escape(text)
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\w*", re.IGNORECASE)
    out, at = [], 0
    for m in pattern.finditer(text):
        out += [escape(text[at : m.start()]), Markup("<mark>"), escape(m.group()), Markup("</mark>")]
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)


def when(timestamp: Any) -> str:
    """A Unix time as UTC date and time; empty when there is none."""
    import datetime

    if not isinstance(timestamp, int | float):
        return ""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def url(address: str, /, **params: Any) -> str:
    """ADDRESS with the non-empty PARAMS as its query (lists repeat their key)."""
    pairs = [(k, v) for k, vs in params.items() for v in (vs if isinstance(vs, list) else [vs]) if v]
    return address + ("?" + urlencode(pairs) if pairs else "")


def facets(hits: list[Any], state: dict[str, Any]) -> dict[str, list[tuple[str, int, str]]]:
    """Per metadata field, each value among the results (not yet filtered on) with its count and
    the address that adds it as a filter."""
    counts: dict[str, dict[str, int]] = {}
    for hit in hits:
        for name in FACETS:
            value = hit.metadata.get(name)
            for v in {str(v) for v in (value if isinstance(value, list) else [value]) if v not in (None, "")}:
                counts.setdefault(name, {})[v] = counts.get(name, {}).get(v, 0) + 1
    out: dict[str, list[tuple[str, int, str]]] = {}
    for name, by_value in counts.items():
        for value, n in sorted(by_value.items(), key=lambda kv: (-kv[1], kv[0])):
            if f"{name}={value}" not in state["f"]:
                link = url("/ui/", **{**state, "f": [*state["f"], f"{name}={value}"]})
                out.setdefault(name, []).append((value, n, link))
    return out


def chips(state: dict[str, Any]) -> list[tuple[str, str]]:
    """The filters in force, each with the address that drops it."""
    out = [(f, url("/ui/", **{**state, "f": [g for g in state["f"] if g != f]})) for f in state["f"]]
    if state["collection"]:
        out.append((f"collection={state['collection']}", url("/ui/", **{**state, "collection": ""})))
    return out


def _span(lines: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", lines.strip())
    if not m:
        return 0, 0
    return int(m.group(1)), int(m.group(2) or m.group(1))


def _int(params: Any, name: str, default: int) -> int:
    try:
        return max(1, min(int(params.get(name, default)), 100 if name == "k" else 10**6))
    except ValueError:
        return default
