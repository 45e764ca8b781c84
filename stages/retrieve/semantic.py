"""Semantic search: the query embedded with the chunks' model, cosine against every chunk vector."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.models import query_encoder
from pica.stages.retrieve.vectors import (
    ann_hits,
    check_model,
    chunk_count,
    collection_mask,
    collections_of_source,
    has_vector_index,
    hits_for,
    store_for,
    top_rows,
    vector_matrix,
)

# Chosen by measurement (docs/benchmarks.md): exact cosine stays under 30 ms to beyond 100k
# vectors on 2 cores; past the threshold an IVF index with these probes keeps recall@10 >= 0.95.
ANN_THRESHOLD = 300_000
NPROBES = 20


class SemanticParams(Params):
    lance_dir: str = Field(description="The LanceDB database.")
    query: str = Field(description="What to find, in plain words.")
    k: int = Field(50, gt=0, le=5000, description="How many chunks to return.")
    model: str = Field("all-MiniLM-L6-v2", description="The model the chunks were embedded with.")
    collection: str = Field("", description="Only this collection (empty: all).")
    source: str = Field("", description="Only this source: files or transcripts (empty: all).")
    trust: str = Field("reference", description="Trust tier of what it finds.")
    ann_threshold: int = Field(
        ANN_THRESHOLD, gt=0, description="From this many vectors on, search the ANN index, not all vectors."
    )
    nprobes: int = Field(NPROBES, gt=0, description="ANN: index partitions searched per query.")


@stage
class RetrieveSemantic(Stage):
    """Embed the query (one torch thread) and rank chunks by cosine similarity, exactly."""

    id = "retrieve.semantic.v1"
    Params = SemanticParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "k", "collection", "source", "trust", "nprobes"})
    timeout_s = 30.0  # the first query of a process loads the model
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.embed import EmbedChunksHashed

        embed = EmbedChunksHashed.example(workdir)
        stage = EmbedChunksHashed(EmbedChunksHashed.Params(**embed.params))
        stage.warm_up(Context())
        stage.run(Context())
        return Example(
            params={"lance_dir": embed.params["lance_dir"], "query": "alpha", "model": "hashed-words"}
        )

    def warm_up(self, ctx: Context) -> None:
        self.store = store_for(self.params.lance_dir)
        check_model(Path(self.params.lance_dir), self.params.model)
        self.encode = query_encoder(self.params.model)

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        if not p.query.strip():
            return {"hits": []}
        collections = self._collections()
        if collections == set():
            return {"hits": []}  # no collection of that source
        query = self.encode([p.query])[0]
        if chunk_count(self.store) >= p.ann_threshold and has_vector_index(self.store):
            return {"hits": ann_hits(self.store, query, p.k, p.nprobes, collections, p.trust)}
        matrix = vector_matrix(self.store)
        if not matrix.rows:
            ctx.warn("no chunk has a vector yet; run `pica embed`")
            return {"hits": []}
        scores = matrix.vectors @ query
        picked = top_rows(scores, p.k, collection_mask(matrix, collections))
        return {"hits": hits_for(self.store, matrix, picked, scores, "semantic", p.trust)}

    def _collections(self) -> set[str] | None:
        """The collections to search: the one asked for, those of the source asked for; None: all."""
        wanted = {self.params.collection} if self.params.collection else None
        if self.params.source:
            of_source = collections_of_source(self.store, self.params.source)
            wanted = of_source if wanted is None else wanted & of_source
        return wanted
