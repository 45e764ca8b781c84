"""Recall@10 of the ANN path against exact cosine, on a home with real MiniLM vectors.

    pica bench bench/scifact                       # builds ~/.pica/bench/scifact with real vectors
    python docs/measure/ann_recall.py ~/.pica/bench/scifact

Works on a copy, since it builds a vector index there.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main(home: Path, dataset: Path) -> None:
    from pica.stages.bench.metrics import percentile
    from pica.stages.models import load_sentence_transformer
    from pica.stages.retrieve.vectors import ann_hits, build_vector_index, store_for, top_rows, vector_matrix

    copy = Path(tempfile.mkdtemp()) / "home"
    shutil.copytree(home, copy)
    store = store_for(str(copy / "lance"))
    started = time.perf_counter()
    build_vector_index(store)
    print(f"index built over {store.chunks.count_rows():,} chunks in {time.perf_counter() - started:.1f} s")
    model = load_sentence_transformer("all-MiniLM-L6-v2", threads=1)
    queries = [json.loads(line)["text"] for line in (dataset / "queries.jsonl").open()][:300]
    vectors = model.encode(queries, normalize_embeddings=True, show_progress_bar=False)
    matrix = vector_matrix(store)
    for nprobes in (5, 10, 20, 40):
        recalls, millis = [], []
        for query in vectors:
            exact = {matrix.rows[i]["id"] for i in top_rows(matrix.vectors @ query, 10)}
            started = time.perf_counter()
            found = {h.chunk_id for h in ann_hits(store, query, 10, nprobes, "", "")}
            millis.append(1000 * (time.perf_counter() - started))
            recalls.append(len(exact & found) / 10)
        recall = sum(recalls) / len(recalls)
        print(f"nprobes={nprobes:3}: recall@10 {recall:.3f}, p50 {percentile(millis, 50):.1f} ms")


if __name__ == "__main__":
    main(
        Path(sys.argv[1]).expanduser(),
        Path(sys.argv[2] if len(sys.argv) > 2 else "../shared/datasets/scifact-train"),
    )
