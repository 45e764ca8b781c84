"""Warm federated search inside one process: mean ms a query, and per stage.

    PICA_HOME=<home> python docs/measure/federated_latency.py [recipe] [--queries N]

Runs the recipe (default search/federated) the way the MCP server does: one plan kept across
queries, one stage cache. Queries are the SciFact claims when the home is the SciFact bench home,
else a fixed list.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from pica.kernel.executor import StageCache, execute
from pica.kernel.runner import PlanCache
from pica.kernel.settings import Settings
from pica.kernel.stage import Context

QUERIES = ["memory server knowledge graph", "retry backoff timeout", "tests failing on CI",
           "how is the index rebuilt", "front matter fields", "session transcript search"]  # fmt: skip
CLAIMS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "scifact-train" / "queries.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("recipe", nargs="?", default="search/federated")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    settings = Settings()
    queries = QUERIES
    if "scifact" in str(settings.home) and CLAIMS.exists():
        queries = [json.loads(line)["text"] for line in CLAIMS.open()][: args.queries]
    queries = (queries * (args.queries // len(queries) + 1))[: args.queries]
    plans, cache = PlanCache(settings), StageCache()
    execute(plans.get(args.recipe, {"query": "warm up"}), Context(settings=settings), cache)
    per_stage: dict[str, float] = defaultdict(float)
    started = time.perf_counter()
    for query in queries:
        result = execute(plans.get(args.recipe, {"query": query}), Context(settings=settings), cache)
        for stage, seconds in result.seconds.items():
            per_stage[stage] += seconds
    total = (time.perf_counter() - started) / len(queries) * 1000
    print(f"{args.recipe}: {total:.1f} ms a query over {len(queries)} queries")
    for stage, seconds in sorted(per_stage.items(), key=lambda kv: -kv[1]):
        print(f"  {stage:22} {seconds / len(queries) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
