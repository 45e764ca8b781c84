"""Warm search latency inside one process, at the size of an indexed home.

    python docs/measure/make_markdown.py /tmp/md1600 1600          # ~10k chunks
    PICA_HOME=/tmp/lat10k pica add /tmp/md1600 && PICA_HOME=/tmp/lat10k pica index
    PICA_HOME=/tmp/lat10k pica run ingest/embed embedder=embed.hash.v1   # vectors for the matrix
    PICA_HOME=/tmp/lat10k python docs/measure/search_latency.py

Lexical and grep run their real recipes. Semantic is timed as its two parts, because the stored
vectors here come from the fast stand-in embedder (embedding 100k chunks with MiniLM takes an
hour on 2 cores): the real MiniLM query encoding (1 thread) plus the exact cosine over every
stored vector, which costs the same whatever model made them.
"""

from __future__ import annotations

import os
import random
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

QUERIES = [
    "index commit",
    "vector search latency",
    "crash recovery of the kernel",
    "agent transcript memory",
    "schema layout version",
    "trust fusion source",
    "chunk token embed",
    "disk cache throughput",
]


def main() -> None:
    from pica.kernel import runner
    from pica.kernel.executor import StageCache, execute
    from pica.kernel.stage import Context
    from pica.stages.bench.metrics import percentile
    from pica.stages.models import load_sentence_transformer

    rng = random.Random(1)
    queries = [rng.choice(QUERIES) + f" {rng.randint(0, 99)}" for _ in range(200)]

    def timed(run) -> list[float]:
        run(queries[0])  # warm
        out = []
        for q in queries:
            started = time.perf_counter()
            run(q)
            out.append(1000 * (time.perf_counter() - started))
        return out

    for mode in ("lexical", "grep"):
        plan = runner.plan(f"search/{mode}", variables={"query": "x", "k": 10})
        cache = StageCache()
        ms = timed(
            lambda q, plan=plan, cache=cache: execute(plan.with_params(query=q, pattern=q), Context(), cache)
        )
        print(f"{mode:9} p50 {percentile(ms, 50):7.2f} ms  p95 {percentile(ms, 95):7.2f} ms")

    # Semantic: the whole stage with the stand-in encoder (vectors, cosine, passages, shaping),
    # plus the real MiniLM query encoding it stands in for.
    plan = runner.plan("search/semantic", variables={"query": "x", "k": 10, "model": "hashed-words"})
    cache = StageCache()
    stage_ms = timed(lambda q: execute(plan.with_params(query=q, pattern=q), Context(), cache))
    model = load_sentence_transformer("all-MiniLM-L6-v2", threads=1)
    encode_ms = timed(lambda q: model.encode([q], normalize_embeddings=True, show_progress_bar=False))
    total = [a + b for a, b in zip(stage_ms, encode_ms, strict=True)]
    print(
        f"semantic  p50 {percentile(total, 50):7.2f} ms  p95 {percentile(total, 95):7.2f} ms "
        f"(MiniLM encoding p50 {percentile(encode_ms, 50):.2f} + the rest p50 {percentile(stage_ms, 50):.2f})"
    )


if __name__ == "__main__":
    main()
