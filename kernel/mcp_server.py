"""The MCP server: the tools of a tool set (recipes/mcp/*.yaml), over streamable HTTP or stdio.

One process serves every client: the tools share one stage cache, so a model or an index handle
loads once, on the first call that needs it. Beside /mcp, `POST /pica/run` runs a search recipe
with the same caches and answers plain JSON: how a fresh `pica search` answers warm (kernel/remote.py).
"""

from __future__ import annotations

import functools
import inspect
import json
from typing import Any

from pica import __version__
from pica.kernel import remote
from pica.kernel.errors import PicaError
from pica.kernel.mcp_tools import TOOLS, Tools
from pica.kernel.settings import Settings
from pica.kernel.toolsets import Toolset, load_toolset

NAME = "pica"
MAX_FIELDS = 30  # metadata fields named per collection in the instructions


def tool_parameters() -> dict[str, set[str]]:
    return {name: set(inspect.signature(getattr(Tools, name)).parameters) - {"self"} for name in TOOLS}


def build_server(toolset_name: str = "default", settings: Settings | None = None) -> Any:
    from mcp.server.mcpserver import MCPServer

    settings = settings or Settings()
    toolset = load_toolset(toolset_name, tool_parameters(), settings)
    tools = Tools(settings, toolset.tools)
    offered, left_out = _available(toolset, tools)
    server = MCPServer(NAME, version=__version__, instructions=instructions(tools, left_out, toolset))
    for name in offered:
        spec = toolset.tools[name]
        server.add_tool(_with_defaults(getattr(tools, name), spec.defaults), name=name,
                        description=spec.description or None)  # fmt: skip
    server.custom_route(remote.PATH, methods=["POST"])(run_route(tools))
    return server


class NotSearch(Exception):
    """A recipe /pica/run will not run: only search recipes answer there."""


def run_route(tools: Tools) -> Any:
    """The /pica/run endpoint: {"recipe", "variables", "home", "env", "render"} -> {"hits",
    "warnings", "notes", "home"[, "text"]}. 400: a bad request, a recipe not of kind search, or a
    Pica error (its message, as a run here would print it); 409: the caller has another home or
    other settings, so its own run could differ."""
    home = remote.resolved(tools.settings.home)
    env = remote.fingerprint()  # what this process's settings came from
    configs = [_configs_seen(tools)]

    async def run(request: Any) -> Any:
        import anyio.to_thread

        refused = _refused(request)
        if refused:
            return _answer(400, {"error": refused, "error_type": "bad-request"})
        try:
            asked = json.loads(await request.body())
            recipe, variables, render = asked["recipe"], asked.get("variables") or {}, asked.get("render")
            if not isinstance(recipe, str) or not isinstance(variables, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            error = 'expected JSON {"recipe": "search/NAME", "variables": {...}}'
            return _answer(400, {"error": error, "error_type": "bad-request"})
        if asked.get("home") is not None and remote.resolved(asked["home"]) != home:
            return _answer(409, {"error": f"this server serves {home}", "home": home})
        if asked.get("env") is not None and asked["env"] != env:
            return _answer(409, {"error": "this server runs with other PICA_ settings", "home": home})
        try:
            ran = functools.partial(_run_search, tools, recipe, variables, render, configs)
            answer = await anyio.to_thread.run_sync(ran)
        except NotSearch as error:
            return _answer(400, {"error": str(error), "error_type": "not-search"})
        except PicaError as error:
            return _answer(400, {"error": str(error), "error_type": "PicaError"})
        return _answer(200, {**answer, "home": home})

    return run


def _run_search(
    tools: Tools, recipe: str, variables: dict[str, Any], render: Any, configs: list[Any]
) -> dict[str, Any]:
    """Run a search recipe as `runner.run` would, with the server's plan and stage caches."""
    from pica.kernel import runner
    from pica.kernel.executor import execute
    from pica.kernel.records import to_plain
    from pica.kernel.stage import Context

    seen = _configs_seen(tools)
    if seen != configs[0]:  # a recipe or config file changed: compose afresh, as a new process would
        configs[0], tools.plans = seen, runner.PlanCache(tools.settings)
    plan = tools.plans.get(recipe, variables)
    if plan.kind != "search":
        raise NotSearch(f"{recipe} is a recipe of kind {plan.kind}: only search recipes run here")
    result = execute(plan, Context(settings=tools.settings), tools.cache)
    answer = {"hits": to_plain(result.output), "warnings": result.warnings, "notes": result.notes}
    if isinstance(render, dict) and isinstance(result.output, list):
        from pica.kernel.render import render_hits

        answer["text"] = render_hits(result.output, bool(render.get("show_fields")))
    return answer


def _configs_seen(tools: Tools) -> frozenset[tuple[str, int, int]]:
    """Each recipe and config file plans are composed from (bundled, and the home's), as of now."""
    from pica.kernel.paths import CONFIGS_DIR, RECIPES_DIR

    folders = (RECIPES_DIR, CONFIGS_DIR, tools.settings.home.expanduser() / "configs")
    seen = set()
    for path in (p for folder in folders for p in folder.rglob("*.y*ml")):
        try:
            stat = path.stat()
        except OSError:
            continue
        seen.add((str(path), stat.st_mtime_ns, stat.st_size))
    return frozenset(seen)


def _refused(request: Any) -> str:
    """Why a request may not run here: a browser page could post to a local port, so the body
    must be JSON (a cross-site page cannot send that without asking) and any Origin local."""
    from urllib.parse import urlsplit

    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return "Content-Type must be application/json"
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).hostname not in ("127.0.0.1", "localhost", "::1"):
        return f"requests from {origin} are not accepted"
    return ""


def _answer(status: int, body: dict[str, Any]) -> Any:
    from starlette.responses import Response

    text = json.dumps(body, ensure_ascii=False, default=str)
    return Response(text.encode(), status_code=status, media_type="application/json")


def _available(toolset: Toolset, tools: Tools) -> tuple[list[str], dict[str, str]]:
    """The tool set's tools that can work here, and those left out with why (deepweb needs a web
    search endpoint)."""
    offered, left_out = [], {}
    for name in toolset.tools:
        if name == "deepweb" and not _web_configured(tools):
            left_out[name] = "no web search endpoint (set PICA_WEB_URL)"
        else:
            offered.append(name)
    return offered, left_out


def _web_configured(tools: Tools) -> bool:
    from pica.kernel import runner

    plan = runner.plan(tools.recipe("deepweb"), settings=tools.settings, variables={"query": "x"})
    return bool(plan.config.get("providers", {}).get("web", {}).get("url"))


def _with_defaults(method: Any, defaults: dict[str, Any]) -> Any:
    """The tool with the tool set's defaults in its signature (so they show in its schema), whose
    Pica errors (a bad filter, no such session) come back as tool errors with their message."""
    signature = inspect.signature(method)
    parameters = [
        p.replace(default=defaults[p.name]) if p.name in defaults else p
        for p in signature.parameters.values()
    ]

    @functools.wraps(method)
    def tool(**arguments: Any) -> Any:
        from mcp.server.mcpserver.exceptions import ToolError

        try:
            return method(**arguments)
        except PicaError as error:  # the caller's mistake, told plainly; anything else is a crash
            raise ToolError(str(error)) from None

    tool.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return tool


def instructions(tools: Tools, left_out: dict[str, str], toolset: Toolset) -> str:
    """What the agent is told on connecting: what Pica holds and how to search it."""
    status = tools.run("ingest/status", {}).output
    lines = [
        "Pica searches this user's own material: past agent transcripts, document collections, a "
        "knowledge graph, a vector table and (when asked) the web. It retrieves and cites; it "
        "never writes answers. Start with `search` (mode federated asks every source and ranks by "
        "trust: fact > reference > lead > stale); open a hit with `get` using its id and lines.",
        f"Tool set: {toolset.description or toolset.source}.",
        "Collections (name: source, documents; metadata fields usable in `filters`, `fields`, `sort`):",
    ]
    for name, c in status["collections"].items():
        names = c.get("fields", [])
        more = f", and {len(names) - MAX_FIELDS} more (`status` lists all)" if len(names) > MAX_FIELDS else ""
        fields = (", ".join(names[:MAX_FIELDS]) or "none") + more
        lines.append(f"- {name}: {c.get('source') or 'files'}, {c['documents']} documents; fields: {fields}")
    if not status["collections"]:
        lines.append("- none indexed yet (`reindex` indexes the agent transcripts found on this machine)")
    lines.append("Sources for `search` `sources`: " + ", ".join(_sources(tools)) + ".")
    if left_out:
        lines.append("Not offered here: " + "; ".join(f"{n}: {why}" for n, why in left_out.items()) + ".")
    return "\n".join(lines)


def _sources(tools: Tools) -> list[str]:
    """Each provider of the federated recipe, and whether it is set up."""
    from pica.kernel import runner

    plan = runner.plan("search/federated", settings=tools.settings, variables={"query": "x"})
    providers = plan.config.get("providers", {})
    configured = {
        "transcripts": True,
        "files": True,
        "kg": bool(providers.get("kg", {}).get("path")),
        "vector": bool(providers.get("vector", {}).get("uri")),
        "web": bool(providers.get("web", {}).get("url")),
    }
    return [f"{name}{'' if ok else ' (not configured)'}" for name, ok in configured.items()]
