"""The chunk vectors of LanceDB held in memory as one matrix, for exact cosine search.

Loaded once per process and reloaded when the chunks table has a new version, so a long-lived
server sees new embeddings. At 100k chunks the matrix is 150 MB and a query is one matrix-vector
product (docs/benchmarks.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pica.kernel.records import Hit
from pica.stages.store.lance_store import LanceStore, chunk_metadata, sql_text
from pica.stages.trust import Trust, tier

_CACHE: dict[tuple[str, str], tuple[int, Any]] = {}  # (what, database) -> (table version, value)
REFINE = 4
_LOCK = threading.Lock()


@dataclass
class VectorMatrix:
    version: int
    vectors: Any  # float32 (n, 384), rows normalised
    rows: list[dict[str, Any]]  # id, doc_id, collection, path, line_start, line_end, char_start, char_end


def _cached(key: tuple[str, str], version: int, load: Callable[[], Any]) -> Any:
    """The value kept for `key` while its table stays at `version`; loaded again once it moves."""
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None or cached[0] != version:
            cached = _CACHE[key] = (version, load())
        return cached[1]


def vector_matrix(store: LanceStore) -> VectorMatrix:
    store.chunks.checkout_latest()
    version = store.chunks.version

    def load() -> VectorMatrix:
        import numpy as np

        columns = ["id", "doc_id", "collection", "path", "line_start", "line_end", "char_start", "char_end"]
        table = (
            store.chunks.search()
            .where("vector IS NOT NULL")
            .select([*columns, "vector"])
            .limit(None)
            .to_arrow()
        )
        flat = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        dim = table.schema.field("vector").type.list_size  # a fixed size, so no rows is (0, dim)
        vectors = np.ascontiguousarray(flat.reshape(len(table), dim), dtype=np.float32)
        return VectorMatrix(version, vectors, table.select(columns).to_pylist())

    return _cached(("vectors", str(store.dir)), version, load)


def top_rows(scores: Any, k: int, allowed: Any = None) -> list[int]:
    """Indexes of the k best scores, best first (optionally only where `allowed`)."""
    import numpy as np

    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    k = min(k, len(scores))
    if k <= 0:
        return []
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.argsort(-scores[best])]
    return [int(i) for i in best if np.isfinite(scores[i])]


def documents(store: LanceStore) -> dict[str, dict[str, Any]]:
    """Every document's title, text, metadata and source, held in memory like the vectors.

    Looking candidates up in LanceDB cost ~100 ms a query at 20k documents; a dict costs nothing.
    """
    store.documents.checkout_latest()

    def load() -> dict[str, dict[str, Any]]:
        rows = LanceStore._select(store.documents, None, ["id", "title", "text", "metadata", "source"])
        return {r["id"]: r for r in rows}

    return _cached(("documents", str(store.dir)), store.documents.version, load)


def hits_for(
    store: LanceStore, matrix: VectorMatrix, picked: list[int], scores: Any, via: str, trust: Trust
) -> list[Hit]:
    """Hits for matrix rows, with passages sliced from the stored documents."""
    docs = documents(store)
    hits = []
    for i in picked:
        row = matrix.rows[i]
        doc = docs.get(row["doc_id"])
        if doc is None:
            continue
        hits.append(
            Hit(
                id=row["doc_id"],
                chunk_id=row["id"],
                collection=row["collection"],
                path=row["path"],
                title=doc["title"],
                line_start=row["line_start"],
                line_end=row["line_end"],
                score=float(scores[i]),
                passage=doc["text"][row["char_start"] : row["char_end"]],
                source=doc["source"],
                metadata=chunk_metadata(doc, row["char_start"], row["char_end"]),
                trust=tier(trust, doc["source"]),
                via=via,
            )
        )
    return hits


def collection_mask(matrix: VectorMatrix, collection: str | set[str] | None) -> Any:
    """Rows of this collection (or of any of these); None: every row."""
    import numpy as np

    if not collection:
        return None if collection is None or collection == "" else np.zeros(len(matrix.rows), dtype=bool)
    names = {collection} if isinstance(collection, str) else collection
    return np.array([r["collection"] in names for r in matrix.rows], dtype=bool)


def collections_of_source(store: LanceStore, source: str) -> set[str]:
    """The collections whose documents come from `source` (files, transcripts), kept per version."""
    version = store.documents.version

    def load() -> dict[str, str]:
        rows = store.documents_where(None, ["collection", "source"])
        return {row["collection"]: row["source"] for row in rows}

    sources = _cached(("sources", str(store.dir)), version, load)
    return {collection for collection, of in sources.items() if of == source}


def store_for(lance_dir: str) -> LanceStore:
    return LanceStore(Path(lance_dir).expanduser())


def check_model(lance_dir: Path, model: str) -> None:
    """A query must be embedded by the model that embedded the chunks."""
    from pica.stages.models import model_id, recorded_model

    vectors = recorded_model(lance_dir)
    if vectors is None:
        return
    recorded, wanted = vectors["model"], model_id(model)
    if recorded != wanted:
        raise ValueError(
            f"the chunks were embedded with {recorded}, not {wanted}; search with model={recorded}"
        )


def chunk_count(store: LanceStore) -> int:
    """All chunks, from the table's metadata (a filtered count would scan the table)."""
    return store.chunks.count_rows()


def has_vector_index(store: LanceStore) -> bool:
    return any("vector" in index.columns for index in store.chunks.list_indices())


def build_vector_index(store: LanceStore) -> None:
    """An IVF index with scalar-quantised HNSW partitions, cosine distance."""
    from lancedb.index import IvfHnswSq

    store.chunks.create_index("vector", config=IvfHnswSq(distance_type="cosine"), replace=True)


def ann_hits(
    store: LanceStore, query: Any, k: int, nprobes: int, collections: set[str] | None, trust: Trust
) -> list[Hit]:
    """Approximate nearest chunks through LanceDB's vector index."""
    return ann_rows_hits(store, ann_rows(store, query, k, nprobes, collections), trust)


def ann_rows(
    store: LanceStore, query: Any, limit: int, nprobes: int, collections: set[str] | None
) -> list[dict[str, Any]]:
    """The `limit` approximate nearest chunk rows (with `_distance`), nearest first."""
    columns = ["id", "doc_id", "collection", "path", "line_start", "line_end", "char_start", "char_end"]
    search = store.chunks.search(query, vector_column_name="vector").distance_type("cosine")
    # refine_factor re-scores the quantised candidates with the full vectors: exact cosines.
    search = search.nprobes(nprobes).refine_factor(REFINE).limit(limit).select([*columns, "_distance"])
    if collections is not None:
        names = ", ".join(sql_text(c) for c in sorted(collections)) or "NULL"
        search = search.where(f"collection IN ({names})", prefilter=True)
    return search.to_arrow().to_pylist()


def ann_rows_hits(store: LanceStore, rows: list[dict[str, Any]], trust: Trust) -> list[Hit]:
    """Hits for rows of `ann_rows`, scored by cosine similarity."""
    matrix = VectorMatrix(0, None, rows)
    scores = [1.0 - r["_distance"] for r in rows]
    return hits_for(store, matrix, list(range(len(rows))), scores, "semantic", trust)
