"""Ranking metrics against hand-computed values, and the bench command end to end."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from pica.stages.bench.evaluate import judge, read_questions
from pica.stages.bench.metrics import mrr_at_k, ndcg_at_k, percentile, recall_at_k


def test_ndcg_by_hand():
    relevant = {"a": 3, "b": 2, "c": 1}
    # ranks: x(0) a(3) c(1): DCG = 3/log2(3) + 1/log2(4); ideal: 3/1 + 2/log2(3) + 1/2
    dcg = 3 / math.log2(3) + 1 / math.log2(4)
    idcg = 3 + 2 / math.log2(3) + 0.5
    assert ndcg_at_k(["x", "a", "c"], relevant) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(["a", "b", "c"], relevant) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "y"], relevant) == 0.0
    assert ndcg_at_k(["a"], {}) == 0.0


def test_ndcg_cuts_at_k():
    relevant = {"a": 1}
    assert ndcg_at_k([*"bcdefghijk", "a"], relevant, 10) == 0.0
    assert ndcg_at_k([*"bcdefghij", "a"], relevant, 10) == pytest.approx(1 / math.log2(11))


def test_mrr_and_recall_by_hand():
    relevant = {"a": 1, "b": 1, "z": 0}
    assert mrr_at_k(["z", "x", "b", "a"], relevant) == pytest.approx(1 / 3)  # grade 0 is not relevant
    assert mrr_at_k(["x"], relevant) == 0.0
    assert recall_at_k(["a", "x", "z"], relevant) == 0.5
    assert recall_at_k([*"cdefghijkl", "a", "b"], relevant, 10) == 0.0


def test_percentile_is_linear_between_ranks():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([10], 95) == 10
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


def test_judge_marks_rows():
    rows = [{"mode": "lexical", "ndcg@10": 0.50}, {"mode": "semantic", "ndcg@10": 0.40}, {"mode": "hybrid"}]
    assert not judge(rows, {"lexical": {"ndcg@10": 0.505}, "semantic": {"ndcg@10": 0.45}}, 0.01)
    assert [r["verdict"] for r in rows] == ["OK", "FAIL", "-"]


def test_questions_file_forms(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(
        json.dumps({"questions": [{"query": "a", "relevant": ["x"]}, {"query": "b", "relevant": {"y": 2}}]})
    )
    assert read_questions(path) == [
        {"query": "a", "relevant": {"x": 1}},
        {"query": "b", "relevant": {"y": 2}},
    ]
    path.write_text(json.dumps([{"query": "a"}]))
    with pytest.raises(ValueError, match="question 0 needs a query and its relevant document ids"):
        read_questions(path)


def test_bench_command_on_questions(tmp_path, pica_home):
    from tests.helpers import index

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "cats.md").write_text("# Cats\ncats purr on warm mats\n")
    (folder / "dogs.md").write_text("# Dogs\ndogs bark at the mail carrier\n")
    index(folder, "notes")
    questions = tmp_path / "questions.json"
    questions.write_text(
        json.dumps(
            [
                {"query": "purring cats", "relevant": ["notes/cats.md"]},
                {"query": "barking dog", "relevant": {"notes/dogs.md": 2}},
                {"query": "mail", "relevant": ["notes/cats.md"]},
            ]
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "pica", "bench", str(questions), "--modes", "lexical", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)["rows"][0]
    assert (row["mode"], row["questions"]) == ("lexical", 3)
    assert row["ndcg@10"] == row["mrr@10"] == round(2 / 3, 4)  # two of three at rank 1
    assert row["p95_ms"] >= row["p50_ms"] > 0


def test_bench_recipe_fails_when_a_score_misses(tmp_path, pica_home):
    from pica.stages.bench.beir import BenchBeir

    example = BenchBeir.example(tmp_path)
    recipe = tmp_path / "tiny.yaml"
    recipe.write_text(
        json.dumps(
            {
                "kind": "bench",
                "stages": {
                    "bench": {
                        "use": "bench.beir.v1",
                        "params": {
                            **example.params,
                            "expected": {"lexical": {"ndcg@10": 0.5}},
                            "tolerance": 0.01,
                        },
                    }
                },
                "output": "bench.report",
            }
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "pica", "bench", str(recipe)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "lexical            1.0000" in result.stdout and result.stdout.rstrip().endswith("FAIL")


CRANFIELD = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "datasets", "cranfield")


@pytest.mark.skipif(not os.path.isdir(CRANFIELD), reason="no Cranfield dataset")
def test_cranfield_lexical_bench_is_green(pica_home):
    result = subprocess.run(
        [sys.executable, "-m", "pica", "bench", "bench/cranfield", "--modes", "lexical", "--json"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] and [r["verdict"] for r in report["rows"]] == ["OK"]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir(CRANFIELD), reason="no Cranfield dataset")
def test_cranfield_bench_is_green_in_every_mode(pica_home):
    result = subprocess.run(
        [sys.executable, "-m", "pica", "bench", "bench/cranfield", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {r["mode"]: r for r in json.loads(result.stdout)["rows"]}
    assert all(r["verdict"] == "OK" for r in rows.values())
    assert rows["hybrid"]["ndcg@10"] >= max(rows["lexical"]["ndcg@10"], rows["semantic"]["ndcg@10"])
