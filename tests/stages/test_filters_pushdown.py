"""Filters narrow the search itself: k is filled from the documents that pass, not cut before them.

The home holds 300 records that match every query best (and sort first by id) but fail the
filters, and 5 that pass: a retriever that filtered after taking its k candidates found none.
"""

from __future__ import annotations

import json

import pytest

from pica.cli.search import transcript_filters
from pica.kernel import runner
from pica.kernel.records import Hit
from pica.kernel.settings import Settings
from pica.kernel.stage import Context, Stage
from tests.helpers import embed, index, make_folder

BULK, KEEP = 300, 5
# What `pica search --project keep --until 2026-05` passes on.
PROJECT = transcript_filters("keep", "", "", "", "2026-05")


def _records() -> dict[str, str]:
    bulk = [
        {"id": f"b{n:03}", "title": "needle", "text": "needle", "project": "bulk", "owner": "bo",
         "timestamp": "2026-04-01T10:00:00Z"}
        for n in range(BULK)
    ]  # fmt: skip
    keep = [
        {"id": f"k{n}", "title": "haystack", "text": "needle in the straw of a barn", "project": "keep",
         "owner": "ana", "timestamp": f"2026-05-0{n + 1}T10:00:00Z"}
        for n in range(KEEP)
    ]  # fmt: skip
    return {
        "bulk/many.jsonl": "\n".join(json.dumps(r) for r in bulk) + "\n",
        "keep/few.jsonl": "\n".join(json.dumps(r) for r in keep) + "\n",
    }


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("pushdown-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PICA_HOME", str(home))
        index(make_folder(tmp_path_factory.mktemp("records"), _records()), "c")
        embed("embed.hash.v1")
        yield home


def run_stage(cls: type[Stage], **params) -> list[Hit]:
    stage = cls(cls.Params.model_validate(params))
    ctx = Context()
    stage.warm_up(ctx)
    return stage.run(ctx)["hits"]


def grep(**params) -> list[Hit]:
    from pica.stages.retrieve.grep import RetrieveGrep

    return run_stage(RetrieveGrep, index_dir=str(Settings().home / "tantivy"), pattern="needle", **params)


def lexical(**params) -> list[Hit]:
    from pica.stages.retrieve.lexical import RetrieveLexical

    return run_stage(RetrieveLexical, index_dir=str(Settings().home / "tantivy"), query="needle", **params)


def semantic(**params) -> list[Hit]:
    from pica.stages.retrieve.semantic import RetrieveSemantic

    lance = str(Settings().home / "lance")
    return run_stage(RetrieveSemantic, lance_dir=lance, query="needle", model="hashed-words", **params)


def kept(hits: list[Hit]) -> list[str]:
    return sorted({h.id for h in hits})


KEPT = [f"c/keep/few.jsonl#k{n}" for n in range(KEEP)]
NARROWINGS = [
    {"filters": ["owner=ana"]},
    {"filters": PROJECT},
    {"path": "keep/*"},
    {"path": "keep/*", "filters": ["owner!=bo"]},
]
NARROWING_IDS = ["metadata", "project-until", "path", "path-and-metadata"]


def test_the_home_is_as_described(home):
    assert len(grep(k=1000)) == BULK + KEEP
    assert {h.id.split("#")[0] for h in grep(k=KEEP)} == {"c/bulk/many.jsonl"}
    assert {h.path for h in semantic(k=KEEP)} == {"bulk/many.jsonl"}
    assert {h.path for h in lexical(k=KEEP)} == {"bulk/many.jsonl"}


@pytest.mark.parametrize("narrowing", NARROWINGS, ids=NARROWING_IDS)
def test_lexical_fills_k_from_what_passes(home, narrowing):
    hits = lexical(k=3, **narrowing)
    assert len(hits) == 3
    assert {h.path for h in hits} == {"keep/few.jsonl"}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert kept(lexical(k=100, **narrowing)) == KEPT


@pytest.mark.parametrize("narrowing", NARROWINGS, ids=NARROWING_IDS)
def test_grep_fills_k_from_what_passes(home, narrowing):
    hits = grep(k=3, **narrowing)
    assert len(hits) == 3
    assert {h.path for h in hits} == {"keep/few.jsonl"}
    assert kept(grep(k=100, **narrowing)) == KEPT  # fewer pass than k: all of them


@pytest.mark.parametrize("narrowing", NARROWINGS, ids=NARROWING_IDS)
def test_semantic_fills_k_from_what_passes(home, narrowing):
    hits = semantic(k=3, **narrowing)
    assert len(hits) == 3
    assert {h.path for h in hits} == {"keep/few.jsonl"}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert kept(semantic(k=100, **narrowing)) == KEPT


def test_nothing_passes_nothing_returned(home):
    assert semantic(k=5, filters=["owner=nobody"]) == []
    assert grep(k=5, path="nowhere/*") == []


def test_semantic_ann_path_fills_k_from_what_passes(home):
    from pica.stages.retrieve.vectors import build_vector_index, store_for

    build_vector_index(store_for(str(Settings().home / "lance")))
    hits = semantic(k=3, filters=PROJECT, ann_threshold=1)
    assert len(hits) == 3
    assert {h.path for h in hits} == {"keep/few.jsonl"}
    assert kept(semantic(k=100, path="keep/*", ann_threshold=1)) == KEPT


def test_retrievers_reject_a_malformed_filter(home):
    with pytest.raises(ValueError, match="'owner' is not FIELD=VALUE"):
        grep(k=3, filters=["owner"])
    with pytest.raises(ValueError, match="'owner' is not FIELD=VALUE"):
        semantic(k=3, filters=["owner"])


@pytest.mark.parametrize("mode", ["grep", "lexical", "semantic", "hybrid", "default"])
@pytest.mark.parametrize("narrowing", NARROWINGS[:3], ids=NARROWING_IDS[:3])
def test_search_recipes_fill_k_from_what_passes(home, mode, narrowing):
    variables = {"query": "needle", "k": KEEP, **narrowing}
    if mode in ("semantic", "hybrid"):
        variables["model"] = "hashed-words"
    result = runner.run(f"search/{mode}", variables=variables)
    assert result.warnings == []
    if mode == "default":  # fused: the five records have the same text, so they are one hit
        assert {h.path for h in result.output} == {"keep/few.jsonl"}
    else:
        assert kept(result.output) == KEPT
