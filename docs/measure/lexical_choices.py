"""Choose lexical ranking settings on one half of a benchmark's questions, report on the other.

    python docs/measure/lexical_choices.py HOME DATASET SPLIT

HOME is the scratch home `pica bench` built for DATASET (e.g. ~/.pica/bench/scifact after
`pica bench bench/scifact`). Questions are split by a seeded shuffle into a tuning half and a
held-out half; every combination of the settings below is scored on the tuning half, and the
best one and the shipped defaults are then scored on the held-out half.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

from pica.kernel import runner
from pica.kernel.executor import StageCache, execute
from pica.kernel.settings import Settings
from pica.kernel.stage import Context
from pica.stages.bench.beir import load_beir
from pica.stages.bench.metrics import ndcg_at_k

GRID = {
    "all_words_boost": [0.0, 0.1, 0.25, 0.5, 1.0],
    "stopwords": [True, False],
    "title_boost": [0.3, 0.5, 1.0],
}
DEFAULTS = {"all_words_boost": 0.25, "stopwords": True, "title_boost": 0.5}


def score(plan, cache, settings, questions, choice) -> float:
    total = 0.0
    for question in questions:
        result = execute(plan.with_params(query=question["query"], **choice), Context(settings=settings), cache)
        ranked = [hit.id.split("#", 1)[-1] for hit in result.output]
        total += ndcg_at_k(ranked, question["relevant"], 10)
    return total / len(questions)


def main(home: str, dataset: str, split: str) -> None:
    settings = Settings(home=Path(home))
    questions = load_beir(Path(dataset), split)
    random.Random(7).shuffle(questions)
    tune, held_out = questions[: len(questions) // 2], questions[len(questions) // 2 :]
    plan = runner.plan("search/lexical", variables={"query": "x", "k": 10}, settings=settings)
    cache = StageCache()
    results = []
    for values in itertools.product(*GRID.values()):
        choice = dict(zip(GRID, values, strict=True))
        results.append((score(plan, cache, settings, tune, choice), choice))
        print(f"tune {results[-1][0]:.4f} {choice}", flush=True)
    best_score, best = max(results, key=lambda pair: pair[0])
    default_tune = next(s for s, c in results if c == DEFAULTS)
    print(f"\n{len(tune)} tuning / {len(held_out)} held-out questions")
    print(f"best on tuning half {best_score:.4f}: {best}; held-out {score(plan, cache, settings, held_out, best):.4f}")
    held = score(plan, cache, settings, held_out, DEFAULTS)
    print(f"defaults {DEFAULTS}: tuning {default_tune:.4f}, held-out {held:.4f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
