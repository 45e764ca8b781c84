"""The catalog's record of what each collection holds: what an MCP client is told on connecting."""

from __future__ import annotations

from pica.stages.store.catalog import Catalog


def test_the_overview_follows_index_runs_and_forgets_removed_collections(tmp_path):
    with Catalog(tmp_path) as catalog:
        catalog.record("notes", [("a.md", 1, 1, "ok", "", 1), ("b.md", 1, 1, "skipped", "bad", 0)], [], 1)
        assert catalog.overview() == {"notes": {"documents": 1, "source": "files", "fields": None}}
        about = {"source": "transcripts", "documents": 7, "fields": ["cwd"]}
        catalog.record("codex", [("s.jsonl", 1, 1, "ok", "", 2)], [], 2, about=about)
        assert catalog.overview()["codex"] == {"documents": 7, "source": "transcripts", "fields": ["cwd"]}
        catalog.forget("codex", 3)
        assert list(catalog.overview()) == ["notes"]
        catalog.record("codex", [("s.jsonl", 1, 1, "ok", "", 2)], [], 4)  # indexed again: nothing stale
        assert catalog.overview()["codex"]["fields"] is None
