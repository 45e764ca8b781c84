"""Commit one collection's changes to LanceDB, then record the files in the catalog."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Chunk, Document, FileChanges, FileRef, Skipped, StoreChanges
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.redact import MARK, stored_path
from pica.stages.store.catalog import Catalog, writer_lock
from pica.stages.store.lance_store import LanceStore, document_hash


class StoreParams(Params):
    home: str = Field(description="PICA_HOME: the catalog and the writer lock live here.")
    lance_dir: str = Field(description="The LanceDB database folder.")


@stage
class StoreLance(Stage):
    """Write new and changed documents and their chunks to LanceDB; remove deleted ones."""

    id = "store.lance.v1"
    Params = StoreParams
    inputs = {
        "files": FileChanges,
        "documents": list[Document],
        "chunks": list[Chunk],
        "skipped": list[Skipped],
        "redactions": dict,  # real path -> {class: secrets redacted in it}, from redact.secrets.v1
    }
    outputs = {"stored": StoreChanges}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        doc = Document("c/a.md", "c", "a.md", "A", "alpha beta")
        chunk = Chunk("c/a.md#0", "c/a.md", "c", "a.md", "A", "alpha beta", 1, 1, char_end=10)
        files = FileChanges("c", str(workdir), changed=[FileRef("a.md", 10, 1)])
        params = {"home": str(workdir / "home"), "lance_dir": str(workdir / "home" / "lance")}
        inputs = {"files": files, "documents": [doc], "chunks": [chunk], "skipped": [], "redactions": {}}
        return Example(params=params, inputs=inputs)

    def run(
        self,
        ctx: Context,
        files: FileChanges | None,
        documents: list[Document],
        chunks: list[Chunk],
        skipped: list[Skipped],
        redactions: dict[str, dict[str, int]] | None = None,
    ) -> dict[str, Any]:
        if files is None:
            return {"stored": StoreChanges("")}
        with Catalog(self.params.home) as catalog:
            if not files.changed and not files.deleted:
                version = int(catalog.get("documents_version") or 0)
                return {"stored": StoreChanges(files.collection, [], [], version, version)}
            with writer_lock(self.params.home, ctx.report):
                stored = self._commit(ctx, catalog, files, documents, chunks, skipped, redactions or {})
        ctx.report(
            f"{len(stored.added)} documents added or changed, "
            f"{len(set(stored.removed) - set(stored.added))} removed"
        )
        return {"stored": stored}

    def _commit(
        self,
        ctx: Context,
        catalog: Catalog,
        files: FileChanges,
        documents: list[Document],
        chunks: list[Chunk],
        skipped: list[Skipped],
        redactions: dict[str, dict[str, int]],
    ) -> StoreChanges:
        store = LanceStore(self.params.lance_dir)
        previous = store.documents_version()
        rewrite = store.repair(files.collection)  # what a crash left half written
        existing = store.doc_hashes(files.collection)
        changed_paths = {f.path for f in files.changed}
        on_disk = changed_paths | set(files.unchanged) | set(files.postponed)
        failed = {s.path: s.reason for s in skipped if s.path in changed_paths}
        incoming = {d.id: (d, document_hash(d)) for d in documents}
        # Documents keep their path with its secrets redacted (stored_path); the files are known by
        # their real one. Only when a stored path was redacted must real paths be mapped to compare.
        if any(MARK in path for path, _ in existing.values()):
            as_stored = {p: stored_path(p) for p in on_disk | set(failed) | set(files.partial)}
        else:
            as_stored = {}
        failed_paths = {as_stored.get(p, p) for p in failed}
        partial = {as_stored.get(p, p) for p in files.partial}
        changed_stored = {as_stored.get(p, p) for p in changed_paths}
        on_disk = {as_stored.get(p, p) for p in on_disk}

        added = [
            (d, h) for doc_id, (d, h) in incoming.items()
            if existing.get(doc_id, ("", ""))[1] != h or doc_id in rewrite
        ]  # fmt: skip
        gone = [
            doc_id for doc_id, (path, _) in existing.items()
            # A file that now fails to read keeps its last good documents: nothing is lost;
            # one read from where it stopped keeps those of its earlier part.
            if doc_id not in incoming and path not in failed_paths and path not in partial
            and (path in changed_stored or path not in on_disk)
        ]  # fmt: skip
        replaced = [d.id for d, _ in added if d.id in existing]
        added_ids = {d.id for d, _ in added}
        store.replace(added, [c for c in chunks if c.doc_id in added_ids], gone + replaced, files.collection)
        if compacted := store.compact():
            ctx.report(f"compacted {' and '.join(compacted)}")
        version = store.documents_version()
        catalog.record(
            files.collection,
            _file_rows(files.changed, documents, skipped, failed, set(files.cursors)),
            files.deleted,
            version,
            {path: c for path, c in files.cursors.items() if path not in failed},
            {f.path: redactions.get(f.path, {}) for f in files.changed if f.path not in failed},
            set(files.partial),
            store.about(files.collection),
        )
        return StoreChanges(files.collection, sorted(added_ids), gone + replaced, previous, version)


def _file_rows(
    changed: list[FileRef],
    documents: list[Document],
    skipped: list[Skipped],
    failed: dict[str, str],
    read: set[str],
) -> list[tuple[str, int, int, str, str, int]]:
    """Catalog rows; a file its reader took (it left a cursor) is ok even with no new documents."""
    per_file = Counter(d.path for d in documents)
    for f in changed:  # a path with a secret in it is stored redacted
        if not per_file[f.path] and f.path not in failed:
            per_file[f.path] = per_file[stored_path(f.path)]
    bad_records = Counter(s.path.rsplit(":", 1)[0] for s in skipped if s.path not in failed)
    rows = []
    for f in changed:
        if f.path in failed:
            rows.append((f.path, f.size, f.mtime_ns, "skipped", failed[f.path], 0))
        elif per_file[f.path] or f.path in read:
            note = f"{bad_records[f.path]} records skipped" if bad_records[f.path] else ""
            rows.append((f.path, f.size, f.mtime_ns, "ok", note, per_file[f.path]))
        else:
            rows.append((f.path, f.size, f.mtime_ns, "skipped", "no reader takes this file type", 0))
    return rows
