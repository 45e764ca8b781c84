"""Pica: local-first federated search for AI agents.

import pica
hits = pica.search("front matter", k=5)           # list of pica.kernel.records.Hit
result = pica.run("ingest/markdown", path="docs")  # any recipe, with its variables
verdict = pica.summarize("4e27c414")             # a guardrailed session summary (docs/llm.md)
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def run(recipe: str, **variables: Any):
    """Run a recipe (a path or a bundled name) with `key=value` variables; returns a RunResult."""
    from pica.kernel.runner import run as run_recipe

    return run_recipe(recipe, variables=variables)


def search(query: str, mode: str = "default", k: int = 10, **variables: Any) -> list:
    """Search with the bundled `search/<mode>` recipe (default: every provider, trust-ranked, the
    local ones by BM25 and by embeddings where they have vectors); warnings are not raised."""
    result = run(f"search/{mode}", query=query, k=k, **variables)
    return result.output


def summarize(session: str, n_messages: int = 80) -> dict:
    """A local model's summary of a session's last `n_messages`, checked by six probes: `trust` is
    "clean" with `summary`, or "degraded" with no summary text, the failed `probes` and their
    evidence, and `see` (the command that shows the raw session). Warnings are not raised."""
    result = run("summarize/session", session=session, n_messages=n_messages)
    return {**result.output, "warnings": result.warnings}
