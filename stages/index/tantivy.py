"""Write chunks into the Tantivy keyword index, replacing what it held for the same collections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Chunk
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.index.keyword_index import meta_text, open_index


class TantivyParams(Params):
    index_dir: str = Field(description="Folder of the keyword index.")
    heap_mb: int = Field(64, ge=16, description="Writer memory budget in MB.")


@stage
class IndexTantivy(Stage):
    """Index chunks in Tantivy (BM25); each collection given is replaced whole, in one commit."""

    id = "index.tantivy.v1"
    Params = TantivyParams
    inputs = {"chunks": list[Chunk]}
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        chunk = Chunk("c/a.md#0", "c/a.md", "c", "a.md", "A", "some text", 1, 1)
        return Example(params={"index_dir": str(workdir / "tantivy")}, inputs={"chunks": [chunk]})

    def run(self, ctx: Context, chunks: list[Chunk]) -> dict[str, Any]:
        import tantivy

        index = open_index(self.params.index_dir, create=True)
        # One thread: on two cores the other is busy reading and chunking.
        writer = index.writer(heap_size=self.params.heap_mb * 1_000_000, num_threads=1)
        try:
            collections = sorted({c.collection for c in chunks})
            for collection in collections:
                writer.delete_documents_by_term("collection", collection)
            for n, chunk in enumerate(chunks, 1):
                if ctx.cancelled.is_set():
                    raise InterruptedError("cancelled before commit; the index is unchanged")
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
                        line_start=chunk.line_start,
                        line_end=chunk.line_end,
                    )
                )
                if n % 5000 == 0:
                    ctx.report(f"indexed {n}/{len(chunks)} chunks")
            writer.commit()  # atomic: a crash before this leaves the previous commit intact
            writer.wait_merging_threads()
        except BaseException:
            writer.rollback()
            raise
        index.reload()
        total = index.searcher().num_docs
        ctx.report(f"committed {len(chunks)} chunks; the index holds {total}")
        return {
            "report": {
                "collections": collections,
                "documents": len({c.doc_id for c in chunks}),
                "chunks": len(chunks),
                "index_chunks": total,
                "index_dir": str(Path(self.params.index_dir).expanduser()),
            }
        }
