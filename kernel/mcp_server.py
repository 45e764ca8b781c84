"""The MCP server: the tools of a tool set (recipes/mcp/*.yaml), over streamable HTTP or stdio.

One process serves every client: the tools share one stage cache, so a model or an index handle
loads once, on the first call that needs it.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from pica import __version__
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
    return server


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
