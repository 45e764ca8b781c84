"""Choose a search recipe's settings on one half of a benchmark's questions, report on the other.

    python docs/measure/choices.py RECIPE HOME DATASET SPLIT NAME=V1,V2 [NAME=...]
    e.g. python docs/measure/choices.py search/lexical ~/.pica/bench/scifact \\
             ../shared/datasets/scifact-train train all_words_boost=0,0.25,1 stopwords=true,false

HOME is the scratch home `pica bench` built for DATASET (e.g. ~/.pica/bench/scifact after
`pica bench bench/scifact`). Questions are split by a seeded shuffle into a tuning half and a
held-out half; every combination of the values (stage params, set with Plan.with_params) is
scored by nDCG@10 on the tuning half, and the best one and the shipped defaults (the first value
of each) on the held-out half.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import yaml

from pica.kernel import runner
from pica.kernel.executor import StageCache, execute
from pica.kernel.settings import Settings
from pica.kernel.stage import Context
from pica.stages.bench.beir import load_beir
from pica.stages.bench.metrics import ndcg_at_k


def score(plan, cache, settings, questions, choice) -> float:
    total = 0.0
    for question in questions:
        asked = plan.with_params(query=question["query"], **choice)
        result = execute(asked, Context(settings=settings), cache)
        ranked = [hit.id.split("#", 1)[-1] for hit in result.output]
        total += ndcg_at_k(ranked, question["relevant"], 10)
    return total / len(questions)


def main(recipe: str, home: str, dataset: str, split: str, *grid_args: str) -> None:
    grid = {}
    for arg in grid_args:
        name, values = arg.split("=", 1)
        grid[name] = [yaml.safe_load(v) for v in values.split(",")]
    defaults = {name: values[0] for name, values in grid.items()}
    settings = Settings(home=Path(home))
    questions = load_beir(Path(dataset), split)
    random.Random(7).shuffle(questions)
    tune, held_out = questions[: len(questions) // 2], questions[len(questions) // 2 :]
    plan = runner.plan(recipe, variables={"query": "x", "k": 10}, settings=settings)
    cache = StageCache()
    results = []
    for values in itertools.product(*grid.values()):
        choice = dict(zip(grid, values, strict=True))
        results.append((score(plan, cache, settings, tune, choice), choice))
        print(f"tune {results[-1][0]:.4f} {choice}", flush=True)
    best_score, best = max(results, key=lambda pair: pair[0])
    default_tune = next(s for s, c in results if c == defaults)
    print(f"\n{recipe}, {len(tune)} tuning / {len(held_out)} held-out questions")
    best_held = score(plan, cache, settings, held_out, best)
    print(f"best on tuning half {best_score:.4f}: {best}; held-out {best_held:.4f}")
    held = score(plan, cache, settings, held_out, defaults)
    print(f"defaults {defaults}: tuning {default_tune:.4f}, held-out {held:.4f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
