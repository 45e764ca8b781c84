"""Keep the Tantivy keyword index in step with LanceDB, which it is derived from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Chunk, StoreChanges
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.index.keyword_index import (
    LAYOUT,
    meta_text,
    open_for_writing,
    read_marker,
    write_marker,
)
from pica.stages.store.catalog import writer_lock


class TantivyParams(Params):
    index_dir: str = Field(description="Folder of the keyword index.")
    lance_dir: str = Field(description="The LanceDB database it is derived from.")
    home: str = Field(description="PICA_HOME, for the writer lock.")
    heap_mb: int = Field(64, ge=16, description="Writer memory budget in MB.")


@stage
class IndexTantivy(Stage):
    """Apply a store commit to the Tantivy index; rebuild it from LanceDB when they disagree."""

    id = "index.tantivy.v2"
    Params = TantivyParams
    inputs = {"stored": StoreChanges, "chunks": list[Chunk]}
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.store.write import StoreLance

        store = StoreLance.example(workdir)
        stored = StoreLance(StoreLance.Params(**store.params)).run(Context(), **store.inputs)
        params = {**store.params, "index_dir": str(workdir / "home" / "tantivy")}
        return Example(params=params, inputs={**stored, "chunks": store.inputs["chunks"]})

    def run(self, ctx: Context, stored: StoreChanges | None, chunks: list[Chunk]) -> dict[str, Any]:
        report = {"index_dir": str(Path(self.params.index_dir).expanduser()), "action": "none"}
        if stored is None:
            return {"report": report}
        marker = read_marker(self.params.index_dir)
        if (
            marker.get("layout") == LAYOUT
            and marker.get("lance_version") == stored.version
            and not stored.added
            and not stored.removed
        ):
            return {"report": report}  # in step already: no need to open LanceDB
        with writer_lock(self.params.home, ctx.report):
            index, fresh = open_for_writing(self.params.index_dir)
            marker = {} if fresh else read_marker(self.params.index_dir)
            if marker.get("lance_version") == stored.previous_version:
                added = set(stored.added)
                self._write(ctx, index, [c for c in chunks if c.doc_id in added], delete=stored.removed)
                write_marker(self.params.index_dir, stored.version)
                report.update(action="updated", chunks=sum(c.doc_id in added for c in chunks))
            else:
                report.update(self._rebuild(ctx, index, marker))
        index.reload()
        report["index_chunks"] = index.searcher().num_docs
        return {"report": report}

    def _rebuild(self, ctx: Context, index: Any, marker: dict[str, Any]) -> dict[str, Any]:
        from pica.stages.store.lance_store import LanceStore

        store = LanceStore(self.params.lance_dir)
        version = store.documents_version()
        if marker.get("lance_version") == version:
            return {"action": "none"}
        if marker:
            ctx.report(
                f"the keyword index reflects LanceDB version {marker.get('lance_version')}, "
                f"not {version}: rebuilding it from LanceDB"
            )
        else:
            ctx.report("building the keyword index from LanceDB")
        chunks = list(store.iter_chunks())
        self._write(ctx, index, chunks, delete=None)
        write_marker(self.params.index_dir, version)
        return {"action": "rebuilt", "chunks": len(chunks)}

    def _write(self, ctx: Context, index: Any, chunks: list[Chunk], delete: list[str] | None) -> None:
        import tantivy

        # One thread: on two cores the other is busy reading and converting.
        writer = index.writer(heap_size=self.params.heap_mb * 1_000_000, num_threads=1)
        try:
            if delete is None:
                writer.delete_all_documents()
            else:
                for doc_id in delete:
                    writer.delete_documents_by_term("doc_id", doc_id)
            for n, chunk in enumerate(chunks, 1):
                writer.add_document(
                    tantivy.Document(
                        chunk_id=chunk.id,
                        doc_id=chunk.doc_id,
                        collection=chunk.collection,
                        source=chunk.source,
                        path=chunk.path,
                        title=chunk.title,
                        text=chunk.text,
                        meta=meta_text(chunk.metadata),
                        metadata=chunk.metadata,
                        metadata_json=json.dumps(chunk.metadata, ensure_ascii=False, default=str).encode(),
                        line_start=chunk.line_start,
                        line_end=chunk.line_end,
                    )
                )
                if n % 2000 == 0 or n == len(chunks):
                    ctx.count("keyword-indexed", n, len(chunks))
            writer.commit()  # atomic: a crash before it leaves the previous commit
            writer.wait_merging_threads()
        except BaseException:
            writer.rollback()
            raise
