"""Run questions through search recipes and score the rankings (nDCG@10, MRR@10, Recall@10, ms)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from pica.kernel.modes import search_modes
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.bench.metrics import mrr_at_k, ndcg_at_k, percentile, recall_at_k


def known_modes(modes: list[str]) -> list[str]:
    """The modes unchanged, once each is a search mode (a validator for `modes` params)."""
    unknown = [mode for mode in modes if mode not in search_modes()]
    if unknown:
        raise ValueError(f"'{unknown[0]}' is not a search mode (modes: {', '.join(search_modes())})")
    return modes


def evaluate(
    questions: list[dict[str, Any]],
    modes: list[str],
    home: Path,
    k: int,
    variables: dict[str, Any],
    id_of: Any,
    ctx: Context,
) -> list[dict[str, Any]]:
    """One row per mode: mean metrics over the questions and warm per-query latency."""
    from pica.kernel import runner
    from pica.kernel.executor import StageCache, execute
    from pica.kernel.settings import Settings

    settings = Settings(home=home)
    rows = []
    for mode in modes:
        wanted = {**variables.get("*", {}), **variables.get(mode, {})}
        plan = runner.plan(
            f"search/{mode}", variables={"query": "warm up", "k": k, **wanted}, settings=settings
        )
        cache = StageCache()
        execute(plan, Context(settings=settings), cache)  # loads models, opens indexes
        scores: dict[str, list[float]] = {"ndcg@10": [], "mrr@10": [], "recall@10": []}
        millis: list[float] = []
        empty = 0  # questions that got no result at all
        warnings: set[str] = set()
        for done, question in enumerate(questions, 1):
            run_ctx = Context(settings=settings)
            started = time.perf_counter()
            # Retrievers take the question as `query`, grep as `pattern`.
            result = execute(
                plan.with_params(query=question["query"], pattern=question["query"]), run_ctx, cache
            )
            millis.append(1000 * (time.perf_counter() - started))
            warnings.update(result.warnings)
            ranked = [id_of(hit.id) for hit in result.output]
            empty += not ranked
            relevant = question["relevant"]
            scores["ndcg@10"].append(ndcg_at_k(ranked, relevant, 10))
            scores["mrr@10"].append(mrr_at_k(ranked, relevant, 10))
            scores["recall@10"].append(recall_at_k(ranked, relevant, 10))
            ctx.count(f"{mode} questions", done, len(questions))
        row = {"mode": mode, "questions": len(questions)}
        row.update({name: round(sum(v) / len(v), 4) if v else 0.0 for name, v in scores.items()})
        row.update(p50_ms=round(percentile(millis, 50), 2), p95_ms=round(percentile(millis, 95), 2))
        row["empty"] = empty
        for warning in sorted(warnings):
            ctx.warn(f"{mode}: {warning}")
        rows.append(row)
    return rows


def judge(rows: list[dict[str, Any]], expected: dict[str, dict[str, float]], tolerance: float) -> bool:
    """Mark each row OK or FAIL against the expected scores; True when every row is OK."""
    ok = True
    for row in rows:
        targets = expected.get(row["mode"], {})
        misses = {m: v for m, v in targets.items() if abs(row.get(m, 0.0) - v) > tolerance}
        row["expected"] = targets
        row["verdict"] = "FAIL" if misses else "OK" if targets else "-"
        ok &= not misses
    return ok


def read_questions(path: Path) -> list[dict[str, Any]]:
    """[{query, relevant: {doc id: grade} or [doc ids]}] from a JSON file (or {"questions": [...]});
    ValueError saying what is wrong and where."""
    shape = 'a list of {"query": "...", "relevant": ["collection/path", ...]}'
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"cannot read the questions file {path}: {error.strerror}") from None
    except ValueError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    items = data.get("questions") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ValueError(f'{path} must hold {shape} (or {{"questions": [...]}})')
    questions = []
    for n, item in enumerate(items):
        relevant = item.get("relevant") if isinstance(item, dict) else None
        if isinstance(relevant, list):
            relevant = dict.fromkeys(relevant, 1)
        if not isinstance(item.get("query") if isinstance(item, dict) else None, str) or not (
            isinstance(relevant, dict) and relevant and all(isinstance(g, int) for g in relevant.values())
        ):
            raise ValueError(f"{path}: question {n} needs a query and its relevant document ids ({shape})")
        questions.append({"query": item["query"], "relevant": {str(d): g for d, g in relevant.items()}})
    return questions


class QuestionsParams(Params):
    questions: str = Field(description="JSON file: [{query, relevant: [ids] or {id: grade}}].")
    modes: list[str] = Field(default=["lexical", "semantic", "hybrid"], description="Search modes.")
    home: str = Field(description="The PICA_HOME to search.")
    k: int = Field(10, gt=0, description="Results per question.")
    variables: dict[str, dict[str, Any]] = Field(
        default={}, description="Extra variables per mode (* = all)."
    )
    _modes = field_validator("modes")(known_modes)


@stage
class BenchQuestions(Stage):
    """Score search modes on questions with known answers: nDCG@10, MRR@10, Recall@10, latency."""

    id = "bench.questions.v1"
    Params = QuestionsParams
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.retrieve.lexical import RetrieveLexical

        RetrieveLexical.example(workdir)  # an index holding c/a.md with "alpha beta"
        questions = workdir / "questions.json"
        questions.write_text(json.dumps([{"query": "alpha", "relevant": ["c/a.md"]}]))
        return Example(
            params={"questions": str(questions), "modes": ["lexical"], "home": str(workdir / "home")}
        )

    def run(self, ctx: Context) -> dict[str, Any]:
        questions = read_questions(Path(self.params.questions).expanduser())
        rows = evaluate(
            questions,
            self.params.modes,
            Path(self.params.home).expanduser(),
            self.params.k,
            self.params.variables,
            lambda doc_id: doc_id,
            ctx,
        )
        return {"report": {"questions": len(questions), "rows": rows}}
