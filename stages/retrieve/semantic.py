"""Semantic search: the query embedded with the chunks' model, cosine against every chunk vector."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.filters import HitFilter
from pica.stages.models import query_encoder, recorded_model, recorded_name
from pica.stages.retrieve.vectors import (
    ann_rows,
    ann_rows_hits,
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
from pica.stages.trust import Trust, trust_field

# Chosen by measurement (docs/benchmarks.md): exact cosine stays under 30 ms to beyond 100k
# vectors on 2 cores; past the threshold an IVF index with these probes keeps recall@10 >= 0.95.
ANN_THRESHOLD = 300_000
NPROBES = 20
NO_VECTORS = "ranked by BM25 alone: no chunk has a vector yet (`pica embed` adds them)"
WIDEN = 4  # with filters: candidates taken per round, times those of the round before


class SemanticParams(Params):
    lance_dir: str = Field(description="The LanceDB database.")
    query: str = Field(description="What to find, in plain words.")
    k: int = Field(50, gt=0, le=5000, description="How many chunks to return.")
    model: str = Field(
        "all-MiniLM-L6-v2",
        description="The model the chunks were embedded with; empty: whichever the index records.",
    )
    optional: bool = Field(
        False,
        description="No vectors yet, or no model: contribute nothing and say so in a note, not a warning.",
    )
    collection: str = Field("", description="Only this collection (empty: all).")
    source: str = Field("", description="Only this source: files or transcripts (empty: all).")
    path: str = Field("", description="Only paths matching this glob (empty: all).")
    # Checked once, by the recipe's last stage (shape.results.v1), so a bad one is told once.
    filters: list[str] = Field(default=[], description="Metadata conditions FIELD=VALUE, !=, >, >=, <, <=.")
    trust: Trust = trust_field()
    ann_threshold: int = Field(
        ANN_THRESHOLD, gt=0, description="From this many vectors on, search the ANN index, not all vectors."
    )
    nprobes: int = Field(NPROBES, gt=0, description="ANN: index partitions searched per query.")


@stage
class RetrieveSemantic(Stage):
    """Embed the query (one torch thread) and rank chunks by cosine similarity, exactly.

    Filters (collection, source, path, metadata) narrow the search: it takes WIDEN times more
    candidates, best first, until `k` chunks pass or none are left.
    """

    id = "retrieve.semantic.v1"
    Params = SemanticParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "k", "collection", "source", "path", "filters", "trust", "nprobes"})
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
        self.encode: Any = None
        if not self.params.optional or recorded_model(Path(self.params.lance_dir)):
            self._load_model()

    def _load_model(self) -> None:
        """The query encoder of the model the chunks were embedded with (checked, or read)."""
        lance_dir = Path(self.params.lance_dir)
        model = self.params.model or recorded_name(lance_dir)
        if model is None:
            return  # nothing embedded yet
        check_model(lance_dir, model)
        self.encode = query_encoder(model)
        self.model = model

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        if not p.query.strip():
            return {"hits": []}
        if self.encode is None:
            self._load_model()  # a server's stage sees vectors embedded since it warmed up
        if self.encode is None:
            ctx.note(NO_VECTORS, run_wide=True)
            return {"hits": []}
        collections = self._collections()
        if collections == set():
            return {"hits": []}  # no collection of that source
        query = SHARED.get(("vector", self.model, p.query), lambda: self.encode([p.query])[0])
        keep = HitFilter(path=p.path, filters=p.filters)  # collection and source: in `collections`
        if chunk_count(self.store) >= p.ann_threshold and has_vector_index(self.store):

            def nearest(n: int) -> tuple[list[Hit], bool]:
                rows = ann_rows(self.store, query, n, p.nprobes, collections)
                return ann_rows_hits(self.store, rows, p.trust), len(rows) < n

            return {"hits": best_passing(nearest, p.k, keep)}
        matrix = vector_matrix(self.store)
        if not matrix.rows:
            if p.optional:
                ctx.note(NO_VECTORS, run_wide=True)
            else:
                ctx.warn("no chunk has a vector yet; run `pica embed`")
            return {"hits": []}
        if p.optional:
            ctx.note("ranked by BM25 and by embeddings", run_wide=True)
        scores = SHARED.get(
            ("scores", p.lance_dir, matrix.version, self.model, p.query), lambda: matrix.vectors @ query
        )
        allowed = collection_mask(matrix, collections)

        def best(n: int) -> tuple[list[Hit], bool]:
            picked = top_rows(scores, n, allowed)
            hits = hits_for(self.store, matrix, picked, scores, "semantic", p.trust)
            return hits, len(picked) < n or n >= len(matrix.rows)

        return {"hits": best_passing(best, p.k, keep)}

    def _collections(self) -> set[str] | None:
        """The collections to search: the one asked for, those of the source asked for; None: all."""
        wanted = {self.params.collection} if self.params.collection else None
        if self.params.source:
            of_source = collections_of_source(self.store, self.params.source)
            wanted = of_source if wanted is None else wanted & of_source
        return wanted


def best_passing(best: Callable[[int], tuple[list[Hit], bool]], k: int, keep: HitFilter) -> list[Hit]:
    """The `k` best hits that `keep` accepts, asking for WIDEN times more each round.

    best(n): the hits of the n best candidates, best first, and whether there are no more.
    """
    n = k
    while True:
        hits, exhausted = best(n)
        passed = [h for h in hits if keep.accepts(h)]
        if len(passed) >= k or exhausted or not keep.active:
            return passed[:k]
        n *= WIDEN


class OnceEach:
    """Work the semantic stages of one search would repeat (the question's vector, its cosine
    with every chunk: one list per source, the same numbers), done once. The first stage to ask
    computes; one asking meanwhile waits for that answer. The last `size` answers are kept."""

    def __init__(self, size: int = 16):
        self.size = size
        self.lock = threading.Lock()
        self.answers: OrderedDict[tuple, Future] = OrderedDict()

    def get(self, key: tuple, compute: Callable[[], Any]) -> Any:
        with self.lock:
            answer = self.answers.get(key)
            first = answer is None
            if first:
                answer = self.answers[key] = Future()
                while len(self.answers) > self.size:
                    self.answers.popitem(last=False)
        if first:
            try:
                answer.set_result(compute())
            except BaseException as error:
                answer.set_exception(error)
                with self.lock:
                    self.answers.pop(key, None)
        return answer.result()


SHARED = OnceEach()
