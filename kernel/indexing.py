"""Indexing everything that changed, and the index's statistics: what `pica index` / `pica stats`
print and what the MCP server's `reindex` / `stats` tools return."""

from __future__ import annotations

from typing import Any

from pica.kernel import runner
from pica.kernel.collections import Collection, Collections
from pica.kernel.progress import Progress
from pica.kernel.records import to_plain
from pica.kernel.settings import Settings

RECIPES = {"files": "ingest/files", "transcripts": "ingest/transcripts"}


def planned_runs(
    settings: Settings, names: tuple[str, ...] = (), recipes: dict[str, str] | None = None
) -> list[tuple[str, str, dict]]:
    """(recipe, name, variables) for every collection and agent folder there is, or those named."""
    recipes = {**RECIPES, **(recipes or {})}
    collections = Collections(settings.home)
    agents = {a: root for a, root in settings.transcript_roots().items() if root.is_dir()}

    def agent_run(agent: str) -> tuple[str, str, dict]:
        return recipes["transcripts"], agent, {"agent": agent, "root": str(agents[agent])}

    def collection_run(collection: Collection) -> tuple[str, str, dict]:
        variables = {"path": collection.path, "collection": collection.name, **collection.options}
        return recipes["files"], collection.name, variables

    if names:
        return [agent_run(n) if n in agents else collection_run(collections.get(n)) for n in names]
    return [collection_run(c) for c in collections.all()] + [agent_run(a) for a in agents]


def index_one(recipe: str, name: str, variables: dict, progress: Progress | None = None) -> dict[str, Any]:
    """Run an ingest recipe until no changed files are left (one committed batch per run)."""
    if progress is not None:
        progress.message(f"indexing '{name}' ({variables.get('path') or variables.get('root')})")
    added, removed, skipped, keyword = set(), set(), [], {}
    while True:
        output = runner.run(recipe, variables=variables, progress=progress).output
        added |= set(output["stored"].added)
        removed |= set(output["stored"].removed)
        skipped += output["skipped"]
        keyword = output["keyword"]
        if not output["files"].postponed:
            break
    return {
        "added_or_changed": len(added),
        "removed": len(removed - added),
        "skipped": to_plain(skipped),
        "keyword_index": keyword,
    }


def stats(settings: Settings, found: dict[str, Any]) -> dict[str, Any]:
    """Index sizes, and per source its collections' counts and when it was last indexed, from what
    the `ingest/status` recipe found."""
    sources: dict[str, dict] = {}
    for name, c in found["collections"].items():
        empty = {
            "collections": {},
            "files": 0,
            "documents": 0,
            "chunks": 0,
            "embedded": 0,
            "indexed_at": None,
        }
        entry = sources.setdefault(c.get("source") or "files", empty)
        entry["collections"][name] = {
            k: c[k] for k in ("files", "documents", "chunks", "embedded", "indexed_at")
        }
        for key in ("files", "documents", "chunks", "embedded"):
            entry[key] += c[key]
        entry["indexed_at"] = max(filter(None, [entry["indexed_at"], c["indexed_at"]]), default=None)
    return {
        "home": str(settings.home.expanduser()),
        "lance_bytes": found["lance_bytes"],
        "keyword_bytes": found["keyword_bytes"],
        "sources": sources,
    }
