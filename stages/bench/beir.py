"""A BEIR-format benchmark: ingest the corpus into a scratch home, run each mode, compare scores."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.bench.evaluate import evaluate, judge, known_modes

VECTOR_MODES = {"semantic", "hybrid", "rerank"}


class BeirParams(Params):
    dataset: str = Field(description="Folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv.")
    split: str = Field("test", description="Which qrels file to score against.")
    scratch: str = Field(description="A PICA_HOME of its own for the benchmark's indexes.")
    modes: list[str] = Field(default=["lexical", "semantic", "hybrid"], description="Search modes to run.")
    k: int = Field(10, gt=0, description="Results per question.")
    max_queries: int = Field(0, ge=0, description="Score only the first N questions (0: all).")
    embedder: str = Field("embed.chunks.v1", description="The embedding stage for semantic modes.")
    variables: dict[str, dict[str, Any]] = Field(
        default={}, description="Extra variables per mode (* = all)."
    )
    expected: dict[str, dict[str, float]] = Field(default={}, description="mode -> metric -> expected score.")
    tolerance: float = Field(0.01, ge=0, description="How far a score may stray from the expected one.")
    _modes = field_validator("modes")(known_modes)


@stage
class BenchBeir(Stage):
    """Benchmark search modes on a BEIR dataset; report nDCG@10, MRR@10, Recall@10 and OK/FAIL rows."""

    id = "bench.beir.v1"
    Params = BeirParams
    outputs = {"report": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        data = workdir / "tiny-beir"
        (data / "qrels").mkdir(parents=True)
        docs = {"d1": "cats purr on mats", "d2": "dogs bark at cats", "d3": "tax forms are due"}
        (data / "corpus.jsonl").write_text(
            "".join(json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in docs.items())
        )
        (data / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tax forms"}) + "\n")
        (data / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td3\t1\n")
        return Example(
            params={
                "dataset": str(data),
                "scratch": str(workdir / "scratch"),
                "modes": ["lexical"],
                "expected": {"lexical": {"ndcg@10": 1.0}},
            }
        )

    def run(self, ctx: Context) -> dict[str, Any]:
        from pica.kernel import runner
        from pica.kernel.settings import Settings

        dataset = Path(self.params.dataset).expanduser().resolve()
        needed = [
            dataset / "corpus.jsonl",
            dataset / "queries.jsonl",
            dataset / "qrels" / f"{self.params.split}.tsv",
        ]
        if not all(path.is_file() for path in needed):
            raise ValueError(
                f"no BEIR dataset at {dataset} (it needs corpus.jsonl, queries.jsonl and "
                f"qrels/{self.params.split}.tsv): give its folder with --dataset PATH (dataset=PATH in "
                f"pica run), or set PICA_DATASETS to the folder that holds {dataset.name}/"
            )
        questions = load_beir(dataset, self.params.split)
        if self.params.max_queries:
            questions = questions[: self.params.max_queries]
        home = Path(self.params.scratch).expanduser()
        settings = Settings(home=home)
        ctx.report(f"indexing {dataset.name} into {home}")
        runner.run(
            "ingest/files",
            settings=settings,
            variables={"path": str(dataset), "collection": "bench", "include": ["corpus.jsonl"]},
        )
        if VECTOR_MODES & set(self.params.modes):
            ctx.report("embedding (only chunks without vectors)")
            runner.run("ingest/embed", settings=settings, variables={"embedder": self.params.embedder})
        rows = evaluate(
            questions,
            self.params.modes,
            home,
            self.params.k,
            self.params.variables,
            lambda doc_id: doc_id.split("#", 1)[-1],
            ctx,
        )
        ok = judge(rows, self.params.expected, self.params.tolerance)
        return {
            "report": {
                "dataset": dataset.name,
                "split": self.params.split,
                "questions": len(questions),
                "tolerance": self.params.tolerance,
                "rows": rows,
                "ok": ok,
            }
        }


def load_beir(dataset: Path, split: str) -> list[dict[str, Any]]:
    """Questions with their graded relevant documents, in qrels order."""
    qrels_path = dataset / "qrels" / f"{split}.tsv"
    if not qrels_path.exists():
        raise FileNotFoundError(f"no qrels for split '{split}' at {qrels_path}")
    relevant: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            relevant.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    texts = {}
    with (dataset / "queries.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                query = json.loads(line)
                texts[str(query["_id"])] = query["text"]
    return [
        {"id": qid, "query": texts[qid], "relevant": grades}
        for qid, grades in relevant.items()
        if qid in texts and any(g > 0 for g in grades.values())
    ]
