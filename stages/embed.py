"""Embed every chunk that has no vector yet, a slab at a time, so an interrupted run resumes."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.files import write_atomically
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.models import HASHED, MODEL_FILE, load_sentence_transformer, model_id, recorded_model
from pica.stages.store.catalog import writer_lock
from pica.stages.store.lance_store import VECTOR_DIM, LanceStore


class EmbedParams(Params):
    home: str = Field(description="PICA_HOME, for the writer lock.")
    lance_dir: str = Field(description="The LanceDB database.")
    model: str = Field("all-MiniLM-L6-v2", description="Model name, folder or hub id.")
    batch_size: int = Field(64, gt=0, description="Texts per model call.")
    slab: int = Field(512, gt=0, description="Chunks per commit; an interrupted run loses at most one.")
    # Bulk embedding is 1.5x faster with both cores than with one (docs/benchmarks.md).
    threads: int = Field(0, ge=0, description="Torch threads; 0 = one per core.")


@stage
class EmbedChunks(Stage):
    """Embed chunks without vectors with a sentence-transformers model (normalised, 384 dims)."""

    id = "embed.chunks.v1"
    Params = EmbedParams
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.store.write import StoreLance

        store = StoreLance.example(workdir)
        StoreLance(StoreLance.Params(**store.params)).run(Context(), **store.inputs)
        return Example(params=store.params)

    def model_id(self) -> str:
        return model_id(self.params.model)

    def warm_up(self, ctx: Context) -> None:
        self._check_model(Path(self.params.lance_dir).expanduser(), record=False)  # before a slow load
        ctx.report(f"loading the embedding model {self.params.model}…")  # seconds, in a cold process
        threads = self.params.threads or os.cpu_count() or 1
        self.model = load_sentence_transformer(self.params.model, threads)

    def encode(self, texts: list[str]) -> Any:
        return self.model.encode(
            texts,
            batch_size=self.params.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )

    def run(self, ctx: Context) -> dict[str, Any]:
        import numpy as np

        store = LanceStore(self.params.lance_dir)
        self._check_model(Path(self.params.lance_dir).expanduser())
        total = store.chunks.count_rows("vector IS NULL")
        done = 0
        while done < total and not ctx.cancelled.is_set():
            rows = store.pending(self.params.slab)
            if not rows:
                break  # what is left belongs to documents a crash left half-written
            # One model call per batch, of texts of similar length (as sentence-transformers would
            # sort them), so the bar moves and Ctrl-C is noticed every batch, not every slab.
            rows.sort(key=lambda row: len(row[2]) + len(row[3]))
            vectors = []
            for start in range(0, len(rows), self.params.batch_size):
                if ctx.cancelled.is_set():
                    break
                batch = rows[start : start + self.params.batch_size]
                vectors.append(self.encode([f"{title}\n{text}" for _, _, title, text in batch]))
                ctx.count("embedded", done + start + len(batch), total)
            if not vectors:
                break
            rows, matrix = rows[: sum(len(v) for v in vectors)], np.concatenate(vectors)
            if matrix.shape[1] != VECTOR_DIM:
                raise ValueError(
                    f"{self.model_id()} gives {matrix.shape[1]} dims; the store holds {VECTOR_DIM}"
                )
            with writer_lock(self.params.home, ctx.report):  # what was embedded is kept, even on Ctrl-C
                store.write_vectors([(chunk_id, doc_hash) for chunk_id, doc_hash, _, _ in rows], matrix)
            done += len(rows)
        if done:
            with writer_lock(self.params.home, ctx.report):  # each slab written added a fragment
                store.compact()
        remaining = store.chunks.count_rows("vector IS NULL")
        indexed = False if ctx.cancelled.is_set() else self._index_vectors(ctx, store, done)
        return {
            "report": {
                "model": self.model_id(),
                "embedded": done,
                "remaining": remaining,
                "vector_index": indexed,
            }
        }

    def _index_vectors(self, ctx: Context, store: LanceStore, added: int) -> bool:
        """Past the ANN threshold, (re)build the vector index that semantic search then uses."""
        from pica.stages.retrieve.semantic import ANN_THRESHOLD
        from pica.stages.retrieve.vectors import build_vector_index, chunk_count, has_vector_index

        if chunk_count(store) < ANN_THRESHOLD or (added == 0 and has_vector_index(store)):
            return has_vector_index(store)
        ctx.report("building the vector index")
        with writer_lock(self.params.home, ctx.report):
            build_vector_index(store)
        return True

    def _check_model(self, lance_dir: Path, record: bool = True) -> None:
        """Vectors of two models must never mix: the first run records its model, later ones match."""
        wanted = {"model": self.model_id(), "dim": VECTOR_DIM}
        recorded = recorded_model(lance_dir)
        if recorded is not None:
            if recorded != wanted:
                raise ValueError(
                    f"the stored vectors come from {recorded['model']} ({recorded['dim']} dims), "
                    f"not {wanted['model']}; use that model, or a new PICA_HOME for this one"
                )
            return
        if not record:
            return
        write_atomically(lance_dir / MODEL_FILE, json.dumps(wanted))


@stage
class EmbedChunksHashed(EmbedChunks):
    """Embed chunks with a deterministic bag-of-words hash: a fast stand-in model for tests."""

    id = "embed.hash.v1"

    def model_id(self) -> str:
        return model_id(HASHED)

    def warm_up(self, ctx: Context) -> None:
        self._check_model(Path(self.params.lance_dir).expanduser(), record=False)

    def encode(self, texts: list[str]) -> Any:
        return hashed_vectors(texts)


def hashed_vectors(texts: list[str]) -> Any:
    import numpy as np

    vectors = np.zeros((len(texts), VECTOR_DIM), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in re.findall(r"\w+", text.lower()):
            slot = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little")
            vectors[row, slot % VECTOR_DIM] += 1.0
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)
