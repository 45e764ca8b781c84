"""Collections as a whole: what the indexes hold, and removing one collection from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.index.keyword_index import open_for_writing, read_marker, write_marker
from pica.stages.secrets import redact
from pica.stages.store.catalog import Catalog, writer_lock
from pica.stages.store.lance_store import LanceStore


class HomeParams(Params):
    home: str = Field(description="PICA_HOME.")
    lance_dir: str = Field(description="The LanceDB database.")
    index_dir: str = Field(description="The Tantivy keyword index.")


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


class StatusParams(HomeParams):
    collections: list[str] = Field(default=[], description="Names to list even with nothing indexed yet.")


@stage
class StoreStatus(Stage):
    """Count files, documents, chunks and embedded chunks per collection, and the secrets redacted
    in its files per class; name its metadata fields (from up to 500 documents); sizes on disk."""

    id = "store.status.v1"
    Params = StatusParams
    outputs = {"status": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        home = workdir / "home"
        return Example(
            params={
                "home": str(home),
                "lance_dir": str(home / "lance"),
                "index_dir": str(home / "tantivy"),
                "collections": ["c"],
            }
        )

    def run(self, ctx: Context) -> dict[str, Any]:
        with Catalog(self.params.home) as catalog:
            files, skipped, redacted = catalog.summary(), catalog.skipped(), catalog.redactions()
        store = LanceStore(self.params.lance_dir)
        counts = store.counts()
        collections = {}
        for name in sorted(set(files) | set(counts) | set(self.params.collections)):
            entry = {
                "files": 0,
                "skipped": 0,
                "indexed_at": None,
                "documents": 0,
                "chunks": 0,
                "embedded": 0,
            }
            entry.update(files.get(name, {}))
            entry.update(counts.get(name, {}))
            entry["skipped_files"] = [  # the catalog keeps real paths; what is shown is redacted
                {"path": redact(p), "reason": redact(r)} for c, p, r in skipped if c == name
            ]
            entry["redacted"] = redacted.get(name, {})
            entry["fields"] = store.metadata_fields(name) if name in counts else []
            collections[name] = entry
        lance, tantivy = (
            Path(self.params.lance_dir).expanduser(),
            Path(self.params.index_dir).expanduser(),
        )
        return {
            "status": {
                "collections": collections,
                "lance_bytes": folder_bytes(lance),
                "keyword_bytes": folder_bytes(tantivy),
                "keyword_reflects_version": read_marker(tantivy).get("lance_version"),
            }
        }


class RemoveParams(HomeParams):
    collection: str = Field(description="The collection to remove from the indexes.")


@stage
class StoreRemove(Stage):
    """Remove a collection's documents, chunks and vectors from both indexes (files stay)."""

    id = "store.remove.v1"
    Params = RemoveParams
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        home = workdir / "home"
        params = {"home": str(home), "lance_dir": str(home / "lance"), "index_dir": str(home / "tantivy")}
        return Example(params={**params, "collection": "c"})

    def run(self, ctx: Context) -> dict[str, Any]:
        import tantivy  # noqa: F401 - fail before touching anything if it is missing

        with writer_lock(self.params.home, ctx.report):
            store = LanceStore(self.params.lance_dir)
            previous = store.documents_version()
            before = store.counts().get(self.params.collection, {}).get("documents", 0)
            store.remove_collection(self.params.collection)
            version = store.documents_version()
            index, fresh = open_for_writing(self.params.index_dir)
            if not fresh and read_marker(self.params.index_dir).get("lance_version") == previous:
                writer = index.writer(heap_size=32_000_000, num_threads=1)
                writer.delete_documents_by_term("collection", self.params.collection)
                writer.commit()
                writer.wait_merging_threads()
                write_marker(self.params.index_dir, version)
            # Otherwise the index is behind already; the next index run rebuilds it.
            with Catalog(self.params.home) as catalog:
                catalog.forget(self.params.collection, version)
        return {"report": {"collection": self.params.collection, "documents_removed": before}}
