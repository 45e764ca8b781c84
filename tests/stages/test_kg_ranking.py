"""Ranking of the knowledge-graph provider: names of every spelling are words, a hit's score is the
query's and the entity's alone (not the list's length), and queries without words find nothing."""

from __future__ import annotations

import json

import pytest

from pica.kernel import runner
from pica.kernel.stage import Context
from pica.stages.fuse import FuseTrust
from pica.stages.retrieve.kg import RetrieveKg
from pica.stages.terms import coverage, query_terms
from tests.stages.test_federation import KG, needs_kg, run_stage


def entity(name: str, kind: str = "component", *observations: str) -> dict:
    return {"type": "entity", "name": name, "entityType": kind, "observations": list(observations)}


def relation(source: str, target: str, kind: str) -> dict:
    return {"type": "relation", "from": source, "to": target, "relationType": kind}


def graph(tmp_path, *lines: dict) -> str:
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    return str(path)


# Entities that hold the query's words in names of their own, or all of them in observations.
DECOYS = [
    entity("CPU Package", "package", "holds the implementation of the cpu metrics"),
    entity("ImplementationFiles", "files", "where the cpu implementation lives"),
    entity("implementation notes", "notes", "cpu usage per core"),
    entity("cpu_metrics_module", "module", "collects cpu usage; implementation in cgo"),
    entity("CPU API", "api", "the cpu implementation implements it"),
]


# names


@pytest.mark.parametrize(
    "name", ["cpu_implementation", "cpuImplementation", "CPUImplementation", "cpu-implementation", "cpu.impl"]
)
def test_a_name_in_snake_camel_kebab_or_dotted_case_is_its_words(tmp_path, name):
    query = "cpu impl" if name == "cpu.impl" else "cpu implementation"
    path = graph(tmp_path, *DECOYS, entity(name, "component", "Implements CPU metrics collection via cgo"))
    hits, _ = run_stage(RetrieveKg, path=path, query=query)
    assert hits[0].title == name  # the name is the query's words: it leads
    assert hits[0].score > hits[1].score


def test_the_whole_name_and_compound_types_match_too(tmp_path):
    path = graph(
        tmp_path,
        *DECOYS,
        entity("cpu_implementation", "Component", "Implements CPU metrics"),
        entity("CPUImplementation", "Component", "darwin"),
        entity("ledger", "PaymentService", "balances"),
    )
    for query in ("cpu_implementation", "CPUImplementation"):
        hits, _ = run_stage(RetrieveKg, path=path, query=query)
        assert hits[0].title == query
    assert {h.title for h in run_stage(RetrieveKg, path=path, query="cpuimplementation")[0][:2]} == {
        "cpu_implementation",
        "CPUImplementation",
    }
    hits, _ = run_stage(RetrieveKg, path=path, query="service")
    assert [h.title for h in hits] == ["ledger"]


@needs_kg
def test_the_entity_named_like_the_query_leads_in_a_corpus_graph():
    path = str(KG / "variant-createdAt-version/sm-moshi-dmetrics-go/memory.jsonl")
    hits, _ = run_stage(RetrieveKg, path=path, query="cpu implementation")
    assert [h.title for h in hits[:2]] == [
        "cpu_implementation",
        "CPU Implementation",
    ]  # both exact; file order
    hits, _ = run_stage(RetrieveKg, path=path, query="power metrics")
    assert hits[0].title in {"PowerMetrics", "Power_Metrics", "power_metrics"}


# scores


def fused(path: str, query: str, k: int) -> dict[str, float]:
    """The kg list as the federated recipe fuses it (its trust config: evidence 2)."""
    hits, _ = run_stage(RetrieveKg, path=path, query=query, k=k)
    out = FuseTrust(FuseTrust.Params(query=query, evidence=2.0)).run(Context(), hits)["hits"]
    return {h.id: h.score for h in out}


def k_graph(tmp_path) -> str:
    # names that hold one word of two, listed before entities holding both in observations
    return graph(
        tmp_path,
        entity("Test Runner", "tool", "runs things"),
        entity("Test Fixtures", "tool", "shared setup"),
        entity("Suite Layout", "doc", "folders"),
        entity("nightly", "job", "the whole test suite, every night"),
        entity("flaky", "issue", "a test suite that fails at random"),
    )


def test_a_hits_score_does_not_depend_on_how_many_are_asked_for(tmp_path):
    path = k_graph(tmp_path)
    for query in ("test suite", "test runner suite"):
        every = {h.id: h.score for h in run_stage(RetrieveKg, path=path, query=query, k=50)[0]}
        everything_fused = fused(path, query, 50)
        for k in range(1, len(every) + 1):
            hits, _ = run_stage(RetrieveKg, path=path, query=query, k=k)
            assert len(hits) == k
            assert all(h.score == every[h.id] for h in hits)
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
            assert all(
                score == pytest.approx(everything_fused[i]) for i, score in fused(path, query, k).items()
            )


@needs_kg
@pytest.mark.parametrize(
    ("file", "query"),
    [
        ("variant-createdAt-version/sm-moshi-dmetrics-go", "power metrics"),
        ("variant-createdAt-version/sm-moshi-dmetrics-go", "test suite"),
        ("variant-createdAt-version/sm-moshi-dmetrics-go", "frequency cpu"),
        ("variant-no-type/maithanhduyan-memory-graph", "search engine"),
    ],
)
def test_fused_kg_scores_are_the_same_at_k_3_and_12_on_corpus_graphs(file, query):
    path = str(KG / file / "memory.jsonl")
    at3, at12 = fused(path, query, 3), fused(path, query, 12)
    assert at3 and all(score == pytest.approx(at12[i]) for i, score in at3.items())


def test_a_list_is_in_the_order_of_the_query_words_its_hits_hold(tmp_path):
    """What fusion measures as evidence (the share of the query a hit's text holds) never rises
    down the list, so fusion has nothing to lift from hits further down."""
    path = k_graph(tmp_path)
    terms = query_terms("test suite")
    hits, _ = run_stage(RetrieveKg, path=path, query="test suite")
    shares = [coverage(terms, f"{h.title} {h.passage}") for h in hits]
    assert shares == sorted(shares, reverse=True)
    assert {h.title for h in hits[:2]} == {"nightly", "flaky"}


def test_the_kg_recipe_gives_the_same_scores_whatever_k(tmp_path, pica_home, monkeypatch):
    monkeypatch.setenv("PICA_KG_PATH", k_graph(tmp_path))
    results = [runner.run("search/kg", variables={"query": "test suite", "k": k}).output for k in (1, 3, 5)]
    scores = [{h.id: h.score for h in output} for output in results]
    assert [len(s) for s in scores] == [1, 3, 5]
    for smaller in scores[:-1]:
        assert all(score == pytest.approx(scores[-1][i]) for i, score in smaller.items())


# queries without words


def test_a_query_without_word_characters_finds_nothing(tmp_path):
    path = graph(tmp_path, *DECOYS, entity("__init__", "file", "python package marker"))
    for query in ("", "   ", "!!!", "-- ? --", "…", "___", "_"):
        assert run_stage(RetrieveKg, path=path, query=query)[0] == [], query


def test_stop_words_alone_match_names_not_every_observation(tmp_path):
    path = graph(
        tmp_path,
        entity("The Who", "band", "the band of the sixties"),
        entity("ledger", "service", "the ledger of the payments team, which is what it does"),
        entity("cache", "service", "it is flushed by the hour"),
        relation("ledger", "cache", "uses"),
    )
    assert [h.title for h in run_stage(RetrieveKg, path=path, query="the who")[0]] == ["The Who"]
    assert run_stage(RetrieveKg, path=path, query="what is it")[0] == []
    assert [h.title for h in run_stage(RetrieveKg, path=path, query="the ledger")[0]] == ["ledger"]
