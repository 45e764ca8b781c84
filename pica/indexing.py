"""Indexing everything that changed, and the index's statistics: what `pica index` / `pica stats`
print and what the MCP server's `reindex` / `stats` tools return."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pica.kernel import runner
from pica.kernel.errors import PicaError
from pica.kernel.records import to_plain
from pica.kernel.settings import Settings
from pica.stages.store.collections import Collections

RECIPES = {"files": "ingest/files", "transcripts": "ingest/transcripts"}


def planned_runs(
    settings: Settings, names: tuple[str, ...] = (), recipes: dict[str, str] | None = None
) -> list[tuple[str, str, dict]]:
    """(recipe, name, variables) for every collection and agent folder there is, or those named."""
    recipes = {**RECIPES, **(recipes or {})}
    collections = {c.name: c for c in Collections(settings.home).all()}
    agents = {a: root for a, root in settings.transcript_roots().items() if root.is_dir()}

    def run_of(name: str) -> tuple[str, str, dict]:
        if name in agents:
            return recipes["transcripts"], name, {"agent": name, "root": str(agents[name])}
        if name not in collections:
            raise _not_indexable(settings, name, list(agents))
        collection = collections[name]
        variables = {"path": collection.path, "collection": name, **collection.options}
        return recipes["files"], name, variables

    return [run_of(n) for n in names or [*collections, *agents]]


def held(settings: Settings) -> list[str]:
    """Every collection the indexes hold or will: registered folders, agents' transcripts, and
    those a recipe run made (`pica run ingest/markdown path=DIR`)."""
    registered = [c.name for c in Collections(settings.home).all()]
    found = runner.run("ingest/status", settings=settings, variables={"collections": registered}).output
    return sorted(found["collections"])


def _not_indexable(settings: Settings, name: str, agents: list[str]) -> PicaError:
    roots = settings.transcript_roots()
    if name in roots:
        return PicaError(f"no {name} transcripts here: {roots[name]} is not a folder")
    names = held(settings)
    if name in names:
        return PicaError(
            f"collection '{name}' was made by a recipe run, not from a registered folder: run that "
            f"recipe again, or register its folder with `pica add PATH --name {name}`"
        )
    collections = ", ".join(n for n in names if n not in roots) or "none"
    return PicaError(
        f"no collection or agent '{name}' (collections: {collections}; agents: {', '.join(agents) or 'none'})"
    )


def index_one(
    recipe: str, name: str, variables: dict, progress: Any = None, plans: dict | None = None
) -> dict[str, Any]:
    """Run an ingest recipe until no changed files are left (one committed batch per run).
    `progress` is the command line's (pica/cli/progress.py): messages, counters and close().
    `plans` keeps the composed plan between calls (the watcher indexes the same folder often)."""
    key = (recipe, repr(sorted(variables.items())))
    plan = plans.get(key) if plans is not None else None
    if plan is None:
        plan = runner.plan(recipe, variables=variables)
        if plans is not None:
            plans[key] = plan
    if progress is not None:
        progress.message(f"indexing '{name}' ({variables.get('path') or variables.get('root')})")
    added, removed, skipped, keyword, redacted = set(), set(), [], {}, Counter()
    while True:
        result = runner.execute_plan(plan, progress=progress)
        output = result.output
        if progress is not None:
            progress.close()  # this batch's bars end here; what is printed next goes below them
        added |= set(output["stored"].added)
        removed |= set(output["stored"].removed)
        skipped += output["skipped"]
        redacted.update(output.get("redacted") or {})
        keyword = output["keyword"]
        if not output["files"].postponed:
            break
    return {
        "added_or_changed": len(added),
        "removed": len(removed - added),
        "skipped": to_plain(skipped),
        "redacted": by_count(redacted),
        "keyword_index": keyword,
    }


def stats(settings: Settings, found: dict[str, Any]) -> dict[str, Any]:
    """Index sizes, and per source its collections' counts (secrets redacted per class too) and
    when it was last indexed, from what the `ingest/status` recipe found."""
    sources: dict[str, dict] = {}
    for name, c in found["collections"].items():
        empty = {
            "collections": {},
            "files": 0,
            "documents": 0,
            "chunks": 0,
            "embedded": 0,
            "indexed_at": None,
            "redacted": {},
        }
        entry = sources.setdefault(c.get("source") or "files", empty)
        entry["collections"][name] = {
            k: c[k] for k in ("files", "documents", "chunks", "embedded", "indexed_at", "redacted")
        }
        for key in ("files", "documents", "chunks", "embedded"):
            entry[key] += c[key]
        entry["redacted"] = by_count(Counter(entry["redacted"]) + Counter(c["redacted"]))
        entry["indexed_at"] = max(filter(None, [entry["indexed_at"], c["indexed_at"]]), default=None)
    return {
        "home": str(settings.home.expanduser()),
        "lance_bytes": found["lance_bytes"],
        "keyword_bytes": found["keyword_bytes"],
        "sources": sources,
        "redacted": by_count(sum((Counter(s["redacted"]) for s in sources.values()), Counter())),
    }


def by_count(found: Counter[str]) -> dict[str, int]:
    """Secrets redacted per class, the most frequent first."""
    return dict(sorted(found.items(), key=lambda item: (-item[1], item[0])))
