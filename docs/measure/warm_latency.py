"""Warm per-query latency (p50/p95) of the search recipes, the way a running server answers.

    python docs/measure/make_markdown.py /tmp/md100k 16000                 # 99,530 chunks
    PICA_HOME=/tmp/bench100k pica add /tmp/md100k && PICA_HOME=/tmp/bench100k pica index
    PICA_HOME=/tmp/bench100k pica run ingest/embed embedder=embed.hash.v1  # stand-in vectors
    python docs/measure/warm_latency.py /tmp/bench100k 200

One plan per recipe, composed once and warmed; each query then runs `plan.with_params(query=q)`.
search/default uses the model the chunks were embedded with, here the `hashed-words` stand-in
(MiniLM over 100k chunks takes an hour on 2 cores; the cosine costs the same whatever made the
vectors). So the script also times the query encoders alone, one thread, and estimates the real
default as default-with-hash + (MiniLM encode - hash encode), medians.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))

from make_markdown import WORDS

from pica.kernel.executor import StageCache, execute
from pica.kernel.runner import plan
from pica.kernel.settings import Settings
from pica.kernel.stage import Context
from pica.stages.bench.metrics import percentile

RECIPES = ["search/lexical", "search/federated", "search/default"]
QUESTIONS = [
    "how is the vector index rebuilt after a crash",
    "what does the kernel cache on disk",
    "why is query latency high for large collections",
    "which stage ranks passages by score",
    "where are agent session transcripts stored",
    "how do I search a folder of markdown files",
    "what changed in the schema version",
    "how does trust fusion combine sources",
]


def make_queries(n: int) -> list[str]:
    rng = random.Random(7)
    queries = [" ".join(rng.sample(WORDS, rng.randint(1, 4))) for _ in range(n - len(QUESTIONS))]
    queries += QUESTIONS[:n]
    rng.shuffle(queries)
    return queries


def one_thread() -> None:
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def timed(run, queries: list[str]) -> list[float]:
    run("warm up")
    one_thread()
    out = []
    for q in queries:
        started = time.perf_counter()
        run(q)
        out.append(1000 * (time.perf_counter() - started))
    return out


def report(name: str, ms: list[float]) -> None:
    print(f"{name:28} p50 {percentile(ms, 50):7.2f} ms  p95 {percentile(ms, 95):7.2f} ms")


def main(home: str, n: int) -> None:
    settings = Settings(home=Path(home))
    queries = make_queries(n)
    print(f"{home}: {len(queries)} queries, k = 10")
    p50 = {}
    for recipe in RECIPES:
        the_plan = plan(recipe, variables={"query": "warm up", "k": 10}, settings=settings)
        cache = StageCache()
        ms = timed(
            lambda q, p=the_plan, c=cache: execute(p.with_params(query=q), Context(settings=settings), c),
            queries,
        )
        report(recipe, ms)
        p50[recipe] = percentile(ms, 50)

    from pica.stages.models import query_encoder

    encode = {}
    for model in ("hashed-words", "all-MiniLM-L6-v2"):
        enc = query_encoder(model)
        ms = timed(lambda q, enc=enc: enc([q]), queries)
        report(f"encode {model}", ms)
        encode[model] = percentile(ms, 50)
    estimate = p50["search/default"] + encode["all-MiniLM-L6-v2"] - encode["hashed-words"]
    print(f"ESTIMATE search/default with MiniLM: p50 ~ {estimate:.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200)
