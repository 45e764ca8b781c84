"""What an MCP client is told on connecting (the server's instructions), built from cheap parts so
a stdio server can answer `initialize` before the MCP SDK has even loaded (pica/mcp/stdio.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pica.cli import remote

if TYPE_CHECKING:
    from pica.kernel.settings import Settings
    from pica.mcp.tools import Tools
    from pica.mcp.toolsets import Toolset

MAX_FIELDS = 30  # metadata fields named per collection


SOURCES = {"transcripts": "past agent transcripts", "files": "document collections",
           "kg": "a knowledge graph", "vector": "a vector table", "web": "the web (when asked)"}  # fmt: skip


def about(tools: Tools, offered: list[str], toolset: Toolset) -> dict[str, Any]:
    """What the instructions say that only the settings and recipes decide (a stdio start reuses
    it from its last run while those are unchanged: pica/mcp/stdio.py)."""
    return {
        "offered": offered,
        "toolset": toolset.description or toolset.source,
        "sources": _sources(tools),
        "home": remote.resolved(tools.settings.home),
    }


def overview(settings: Settings) -> dict[str, Any]:
    """collection -> documents, source, fields: the catalog's record, without opening the indexes."""
    from pica.kernel import runner

    return runner.run("ingest/overview", settings=settings).output


def instructions(about: dict[str, Any], collections: dict[str, Any]) -> str:
    """What the agent is told on connecting: the home served and what it holds (`collections`,
    from the `ingest/overview` recipe: the catalog, read without opening the indexes), and how to
    search it; only what this server offers is named."""
    offered, sources = about["offered"], about["sources"]
    described = [SOURCES[s] for s in sources]
    lines = [
        f"Pica searches this user's own material: {', '.join(described[:-1])} and {described[-1]}. "
        "It retrieves and cites; it never writes answers."
    ]
    if "search" in offered:
        get = "; open a hit with `get` using its id and lines" if "get" in offered else ""
        lines.append("Start with `search`: its default mode asks every local source at once and ranks "
                     f"by trust (fact > reference > lead > stale){get}.")  # fmt: skip
    if "summarize" in offered:
        lines.append("The one exception is `summarize`: a local model's summary of a session, given "
                     "only when six checks find nothing wrong with it (else no text and why); it is "
                     "generated, so confirm what matters with `session`.")  # fmt: skip
    lines.append(f"Tool set: {about['toolset']}.")
    lines.append(_home(about["home"], collections, "reindex" in offered))
    if collections:
        lines.append(
            "Collections (name: source, documents; metadata fields usable in `filters`, `fields`, `sort`):"
        )
    for name, c in collections.items():
        names = c["fields"]
        if names is None:  # indexed before the catalog kept them
            fields = "`status` lists them"
        else:
            more = (
                f", and {len(names) - MAX_FIELDS} more (`status` lists all)"
                if len(names) > MAX_FIELDS
                else ""
            )
            fields = (", ".join(names[:MAX_FIELDS]) or "none") + more
        lines.append(f"- {name}: {c['source']}, {c['documents']} documents; fields: {fields}")
    if "search" in offered:
        lines.append("Sources for `search` `sources`: " + ", ".join(sources) + ".")
    return "\n".join(lines)


def _home(home: str, collections: dict[str, Any], reindex: bool) -> str:
    """Which home this server reads, and how much it holds: a client that starts the server with
    a minimal environment loses PICA_HOME, and the agent should be able to tell the user so."""
    if collections:
        documents = sum(c["documents"] for c in collections.values())
        plural = "s" if len(collections) != 1 else ""
        return f"Home: {home} ({len(collections)} collection{plural}, {documents} documents)."
    return (
        f"Home: {home} holds nothing indexed. If the user has indexed elsewhere, this server was "
        "started without their settings: MCP clients start servers with a minimal environment, so "
        "PICA_HOME (and PICA_KG_PATH and the like) must be set in the `env` block of this server's "
        "entry in the client's configuration."
        + (" `reindex` indexes the agent transcripts found on this machine." if reindex else "")
    )


def _sources(tools: Tools) -> list[str]:
    """The providers of the federated recipe that are set up here."""
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
    return [name for name, ok in configured.items() if ok]
