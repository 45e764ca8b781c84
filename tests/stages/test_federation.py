"""Federation: each provider on the corpus or a local server, trust-weighted fusion with dedup,
source and tier selection, token budgets, and providers that are slow or broken."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from pica.cli import main
from pica.kernel import runner
from pica.kernel.paths import RECIPES_DIR
from pica.kernel.records import Hit
from pica.kernel.registry import Registry, registry
from pica.kernel.settings import Settings
from pica.kernel.stage import Context, Params, Stage
from pica.stages.fuse import FuseTrust, normalise_url
from pica.stages.retrieve.kg import RetrieveKg, read_graph
from pica.stages.retrieve.table import RetrieveVector
from pica.stages.tokens import heuristic_tokens, token_counter
from pica.stages.trim import TrimBudget, hit_text
from pica.stages.web.search import RetrieveWeb
from tests import helpers
from tests.conftest import CORPUS
from tests.helpers import index, make_folder
from tests.web_server import local_web, result

KG = CORPUS / "kg"
KG_FILES = sorted(KG.glob("*/*/memory.jsonl"))
needs_kg = pytest.mark.skipif(not KG_FILES, reason=f"no knowledge graphs under {KG}")


def run_stage(cls: type[Stage], **params) -> tuple[list[Hit], Context]:
    stage = cls(cls.Params.model_validate(params))
    ctx = Context()
    stage.warm_up(ctx)
    return stage.run(ctx)["hits"], ctx


# kg


@needs_kg
@pytest.mark.parametrize("path", KG_FILES, ids=lambda p: p.parent.name)
def test_every_corpus_graph_variant_is_read_without_problems(path):
    graph = read_graph(path)
    assert graph.problems == []
    assert len(graph.entities) >= 2
    for entity in graph.entities.values():
        assert entity.name.strip()
        assert all(isinstance(o, str) and o for o in entity.observations)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    names = {item["name"] for item in lines if "name" in item and "from" not in item}
    assert set(graph.entities) == names  # every entity line, whatever its variant, is an entity
    relations = {(i["from"], i["to"], i["relationType"]) for i in lines if "from" in i}
    assert {(r.source, r.target, r.kind) for r in graph.relations} == relations


@needs_kg
def test_duplicate_names_merge_and_dangling_relations_are_kept():
    path = KG / "reference-format/oshliaer-server-memory-editor/memory.jsonl"
    graph = read_graph(path)
    assert any(len(e.types) > 1 for e in graph.entities.values()), "duplicate names keep both types"
    dangling = [r for r in graph.relations if r.target not in graph.entities]
    assert {"GitHub Pages", "Mike Bostock"} <= {r.target for r in dangling}
    hits, _ = run_stage(RetrieveKg, path=str(path), query="визуализатор редактор")
    assert hits[0].id == "kg/server-memory-editor"
    assert hits[0].trust == "fact" and hits[0].source == "kg"
    assert "-> GitHub Pages ?" in hits[0].passage  # a relation to no entity is shown, marked


@needs_kg
def test_kg_search_matches_names_types_observations_across_scripts():
    cbatool = str(KG / "reference-format/tomdowns-cbatool/memory.jsonl")
    hits, _ = run_stage(RetrieveKg, path=cbatool, query="hydrographic surveyor")
    assert hits[0].id == "kg/default_user"
    assert "Works as a hydrographic surveyor" in hits[0].passage
    assert hits[0].line_start == 1  # the entity's line in the file, to cite
    vietnamese = str(KG / "variant-no-type/maithanhduyan-memory-graph/memory.jsonl")
    hits, _ = run_stage(RetrieveKg, path=vietnamese, query="du an phan mem")  # typed without accents
    assert hits and hits[0].title == "Memory Graph MCP Server"
    think_tank = str(KG / "variant-_type-_savedAt/jasonpaulso-mcp-think-tank/memory.jsonl")
    hits, _ = run_stage(RetrieveKg, path=think_tank, query="structured environment enhanced reasoning")
    assert hits[0].title == "MCP Think Tank"  # observations that are {"text": ...} objects are read


@needs_kg
def test_a_bad_kg_line_is_skipped_and_reported_and_changes_are_picked_up(tmp_path):
    lines = (KG / "reference-format/tomdowns-cbatool/memory.jsonl").read_text().splitlines()
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join([lines[0], "{not json", '["a list"]', *lines[1:]]))
    stage = RetrieveKg(RetrieveKg.Params(path=str(path), query="Trenching_QC"))
    ctx = Context()
    stage.warm_up(ctx)
    assert stage.run(ctx)["hits"][0].id == "kg/default_user"
    assert any("line 2: not JSON" in w for w in ctx.warnings)
    assert any("line 3: neither an entity nor a relation" in w for w in ctx.warnings)
    new = {"type": "entity", "name": "Trenching_QC tool", "entityType": "project", "observations": []}
    path.write_text(path.read_text() + "\n" + json.dumps(new))
    assert "kg/Trenching_QC tool" in [h.id for h in stage.run(Context())["hits"]]


def test_many_bad_kg_lines_are_named_up_to_three_and_counted(tmp_path):
    path = tmp_path / "memory.jsonl"
    entity = json.dumps({"type": "entity", "name": "Pica", "entityType": "tool", "observations": []})
    path.write_text("\n".join(["{bad"] * 5 + [entity]))
    hits, ctx = run_stage(RetrieveKg, path=str(path), query="pica")
    assert [h.id for h in hits] == ["kg/Pica"]
    assert len(ctx.warnings) == 4 and ctx.warnings[-1] == "memory.jsonl: 2 more bad lines skipped"


def test_unconfigured_providers_say_so_and_contribute_nothing():
    for cls, params in ((RetrieveKg, {}), (RetrieveVector, {}), (RetrieveWeb, {})):
        hits, ctx = run_stage(cls, query="anything", **params)
        assert hits == [] and ctx.warnings == []
        assert "not configured" in ctx.notes[0]


# vector


def make_table(uri: Path, texts: list[str], encode) -> None:
    """A table as a user might have made it: its own column names, vectors of its own model."""
    import lancedb
    import pyarrow as pa

    vectors = encode(texts)
    columns = {
        "key": pa.array([f"n{i}" for i in range(len(texts))]),
        "body": pa.array(texts),
        "vec": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel(), pa.float32()), vectors.shape[1]),
        "year": pa.array([2020 + i for i in range(len(texts))]),
    }
    lancedb.connect(uri).create_table("notes", data=pa.table(columns))


VECTOR_TEXTS = [
    "The invoice service retries failed payments three times.",
    "Our staging cluster runs on two small machines.",
    "Bread rises faster in a warm kitchen.",
]


def test_vector_provider_searches_an_existing_table_and_sees_new_rows(tmp_path):
    import lancedb

    from pica.stages.embed import hashed_vectors

    make_table(tmp_path / "own", VECTOR_TEXTS, hashed_vectors)
    params = dict(uri=str(tmp_path / "own"), table="notes", text_column="body", vector_column="vec")
    stage = RetrieveVector(RetrieveVector.Params(**params, id_column="key", model="hashed-words", query="x"))
    stage.warm_up(Context())
    stage.params = stage.params.model_copy(update={"query": "staging cluster machines"})
    hits = stage.run(Context())["hits"]
    assert hits[0].id == "vector/notes/n1" and hits[0].passage == VECTOR_TEXTS[1]
    assert hits[0].metadata == {"year": 2021} and hits[0].trust == "lead" and hits[0].source == "vector"
    assert hits[0].score > hits[1].score
    new = [{"key": "n9", "body": "kitchen bread oven", "vec": hashed_vectors(["kitchen bread oven"])[0].tolist(),
            "year": 2030}]  # fmt: skip
    lancedb.connect(tmp_path / "own").open_table("notes").add(new)
    stage.params = stage.params.model_copy(update={"query": "kitchen bread oven"})
    assert stage.run(Context())["hits"][0].id == "vector/notes/n9"


def test_vector_provider_explains_a_wrong_column_or_model(tmp_path):
    from pica.stages.embed import hashed_vectors

    make_table(tmp_path / "own", VECTOR_TEXTS, lambda texts: hashed_vectors(texts)[:, :16])
    base = dict(uri=str(tmp_path / "own"), table="notes", query="x", model="hashed-words")
    with pytest.raises(ValueError, match=r"no column 'text', 'vector' \(columns: key, body, vec, year\)"):
        run_stage(RetrieveVector, **base)
    with pytest.raises(ValueError, match="makes 384-dimension vectors but column 'vec' holds 16"):
        run_stage(RetrieveVector, **base, text_column="body", vector_column="vec")


def test_vector_provider_with_the_packaged_model(tmp_path):
    from pica.stages.models import query_encoder

    make_table(tmp_path / "own", VECTOR_TEXTS, query_encoder("all-MiniLM-L6-v2"))
    hits, _ = run_stage(
        RetrieveVector, uri=str(tmp_path / "own"), table="notes", text_column="body", vector_column="vec",
        query="how often do we try charging a card again?",
    )  # fmt: skip
    assert hits[0].passage == VECTOR_TEXTS[0]


# web


def test_web_provider_asks_every_phrasing_of_a_searxng_endpoint():
    with local_web() as web:
        web.results["tower height"] = [
            result("https://a.example/tower", "Tower facts", "The tower is 330 m tall."),
            result("https://b.example/x", "Other", "Something else."),
        ]
        web.results["how tall is the tower"] = [result("https://c.example/t", "Tall", "330 metres.")]
        web.results["broken phrasing"] = 500
        hits, ctx = run_stage(
            RetrieveWeb,
            url=web.url,
            query="tower height",
            queries=["how tall is the tower", "broken phrasing"],
        )
        asked = sorted(a.split("q=")[1].split("&")[0] for a in web.asked)
    assert asked == ["broken+phrasing", "how+tall+is+the+tower", "tower+height"]
    assert [(h.id, h.title, h.passage, h.via) for h in hits] == [
        ("https://a.example/tower", "Tower facts", "The tower is 330 m tall.", "q0"),
        ("https://b.example/x", "Other", "Something else.", "q0"),
        ("https://c.example/t", "Tall", "330 metres.", "q1"),
    ]
    assert hits[0].metadata["domain"] == "a.example" and hits[0].source == "web" and hits[0].trust == "lead"
    assert any("'broken phrasing' failed: HTTPError: HTTP Error 500" in w for w in ctx.warnings)


def test_web_provider_fails_when_every_phrasing_fails():
    with local_web() as web:
        web.results["q"] = 503
        with pytest.raises(Exception, match="503"):
            run_stage(RetrieveWeb, url=web.url, query="q")


# fusion


def hit(doc: str, source: str, trust: str, text: str, via: str = "") -> Hit:
    return Hit(
        doc, f"{doc}#0", source, doc, doc, 1, 2, 1.0, text, source=source, trust=trust, via=via or source
    )


def fuse(hits: list[Hit], **params) -> list[Hit]:
    return FuseTrust(FuseTrust.Params(**params)).run(Context(), hits)["hits"]


def test_fusion_weighs_each_list_by_its_trust_tier():
    fused = fuse([hit("t1", "transcripts", "lead", "one"), hit("k1", "kg", "fact", "two"),
                  hit("f1", "files", "reference", "three"), hit("f2", "files", "reference", "four")])  # fmt: skip
    assert [h.id for h in fused] == ["k1", "f1", "f2", "t1"]
    assert fused[0].score == pytest.approx(3 / 61) and fused[2].score == pytest.approx(2 / 62)
    weights = {"fact": 1, "reference": 1, "lead": 5, "stale": 0.1}
    assert fuse(fused, weights=weights)[0].id == "t1"  # weights are configuration


def test_same_content_from_several_sources_is_one_hit_that_lists_them():
    fused = fuse([
        hit("notes/db.md", "files", "reference", "We chose Postgres 16,\nfor row-level security."),
        hit("claude-code/s1#3", "transcripts", "lead", "we chose postgres 16 for ROW-LEVEL security"),
        hit("notes/other.md", "files", "reference", "Unrelated text."),
        hit("kg/Postgres", "kg", "fact", "We chose Postgres 16 for row-level security!"),
    ])  # fmt: skip
    assert [h.id for h in fused] == ["kg/Postgres", "notes/other.md"]
    top = fused[0]
    assert top.trust == "fact"  # shown by the most trusted place
    assert [(c["source"], c["id"], c["lines"]) for c in top.corroboration] == [
        ("files", "notes/db.md", [1, 2]),
        ("transcripts", "claude-code/s1#3", [1, 2]),
    ]
    assert top.score == pytest.approx(2 / 61 + 1 / 61 + 3 / 61)  # each list adds its contribution


def test_min_trust_leaves_out_lower_tiers_and_names_the_tiers_when_wrong():
    hits = [
        hit("t", "transcripts", "lead", "a"),
        hit("f", "files", "reference", "b"),
        hit("s", "files", "stale", "c"),
    ]
    assert {h.id for h in fuse(hits, min_trust="reference")} == {"f"}
    assert {h.id for h in fuse(hits, min_trust="stale")} == {"t", "f", "s"}
    with pytest.raises(ValidationError, match="min_trust 'gold' is not a tier"):
        FuseTrust.Params(min_trust="gold")


def test_evidence_keeps_weak_high_tier_hits_from_burying_a_strong_low_tier_hit():
    query = "flaky retry websocket handshake"
    weak = [hit(f"kg/e{n}", "kg", "fact", f"entity {n} mentions retry") for n in range(30)]
    strong = hit("claude-code/s#1", "transcripts", "lead", "the flaky websocket handshake needed a retry")
    plain = fuse([*weak, strong], query=query, evidence=0.0)
    assert [h.id for h in plain].index(strong.id) == 30  # last: every weak fact hit outweighs it
    weighed = fuse([*weak, strong], query=query, evidence=1.0)
    assert weighed[0].id == strong.id


def test_an_embedding_hit_that_shares_no_words_keeps_the_weight_of_its_similarity():
    paraphrase = replace(
        hit("vector/notes/n0", "vector", "lead", "payments are retried three times"), score=0.6
    )
    fused = fuse(
        [paraphrase, hit("f", "files", "reference", "card")], query="charging a card again", evidence=2
    )
    assert fused[0].id == "vector/notes/n0"  # 1 x 0.6^2 / 61 beats 2 x (1/3)^2 / 61
    assert fused[0].score == pytest.approx(0.36 / 61)


def test_url_dedup_normalises_urls():
    assert normalise_url("HTTPS://www.Example.org:443/a/?utm_source=x&b=2#top") == "https://example.org/a?b=2"
    assert normalise_url("http://example.org") == "http://example.org/"
    web = [hit("https://example.org/a/?utm_medium=m", "web", "lead", "x", "q0"),
           hit("https://www.example.org/a", "web", "lead", "y", "q1")]  # fmt: skip
    fused = fuse(web, dedup="url")
    assert len(fused) == 1 and len(fused[0].corroboration) == 1


# token budget


def corpus_hits() -> list[Hit]:
    texts = [p.read_text(errors="replace") for p in sorted((CORPUS / "documents/md").rglob("*.md"))[:20]]
    texts = texts or ["word " * 500, "другой текст " * 200]
    return [hit(f"doc{n}", "files", "reference", text) for n, text in enumerate(texts)]


@pytest.mark.parametrize("tokenizer", ["heuristic", "tiktoken"])
def test_budget_is_never_exceeded_and_the_first_hit_is_cut_not_sent_whole(tokenizer):
    count = token_counter(tokenizer)
    hits = corpus_hits()
    for budget in (1, 5, 12, 40, 100, 333, 1000, 5000):
        out = TrimBudget(TrimBudget.Params(budget=budget, tokenizer=tokenizer)).run(Context(), hits)
        spent = sum(count(hit_text(h)) for h in out["hits"])
        assert spent == out["tokens"] <= budget
        if out["hits"] and out["hits"][0].passage != hits[0].passage:
            assert out["hits"][0].passage.endswith(" …") or not out["hits"][0].passage
        assert [h.id for h in out["hits"]] == [h.id for h in hits[: len(out["hits"])]]  # order kept
    # 150: the first hit's citation (its JSON without the passage) and a few words of its passage
    small = TrimBudget(TrimBudget.Params(budget=150, tokenizer=tokenizer)).run(Context(), hits)["hits"]
    assert len(small) == 1 and small[0].passage.endswith(" …")
    unlimited = TrimBudget(TrimBudget.Params(tokenizer=tokenizer)).run(Context(), hits)
    assert unlimited["hits"] == hits and unlimited["tokens"] == sum(count(hit_text(h)) for h in hits)


def test_heuristic_counts_at_least_what_openai_bpe_counts_on_natural_text():
    exact = token_counter("tiktoken")
    texts = [h.passage for h in corpus_hits()]
    texts += [p.read_text(errors="replace")[:4000] for p in sorted(KG_FILES)]
    assert texts
    for text in texts:
        assert heuristic_tokens(text) >= exact(text), text[:80]


# the federated recipe


SHARED = "We chose Postgres 16 for the ledger service because of row-level security."


def claude_line(n: int, text: str) -> str:
    return helpers.claude_line(n, text, "s-ledger")


@pytest.fixture(scope="module")
def federated_home(tmp_path_factory):
    from pica.stages.embed import hashed_vectors

    root = tmp_path_factory.mktemp("federated")
    home, claude = root / "home", root / "claude" / "-work-ledger"
    claude.mkdir(parents=True)
    (claude / "s-ledger.jsonl").write_text(
        "\n".join([claude_line(1, SHARED), claude_line(2, "Ledger migrations run with alembic on deploy.")])
        + "\n"
    )
    kg = root / "memory.jsonl"
    entity = {"type": "entity", "name": "ledger service", "entityType": "service",
              "observations": ["owned by the payments team", "stores balances in Postgres"]}  # fmt: skip
    kg.write_text(json.dumps(entity) + "\n" + json.dumps({"type": "relation", "from": "ledger service",
                  "to": "Postgres", "relationType": "uses"}))  # fmt: skip
    make_table(root / "own", ["The ledger service keeps balances per account.", "Unrelated row."],
               hashed_vectors)  # fmt: skip
    notes = make_folder(
        root / "notes", {"db.md": f"{SHARED}\n", "ops.md": "# Ops\nLedger deploys on Fridays.\n"}
    )
    env = {
        "PICA_HOME": str(home), "PICA_CLAUDE_DIR": str(root / "claude"), "PICA_KG_PATH": str(kg),
        "PICA_VECTOR_URI": str(root / "own"), "PICA_VECTOR_TABLE": "notes",
    }  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        index(notes, "notes")
        runner.run("ingest/transcripts", variables={"agent": "claude-code", "root": str(root / "claude")})
        yield env


def federated(query: str, overrides=(), **variables) -> runner.RunResult:
    vector = ["providers.vector.text_column=body", "providers.vector.vector_column=vec",
              "providers.vector.id_column=key", "providers.vector.model=hashed-words"]  # fmt: skip
    return runner.run("search/federated", [*vector, *overrides], variables={"query": query, **variables})


def test_every_local_provider_answers_with_its_trust_tier(federated_home):
    result = federated("ledger", k=20)
    assert result.warnings == [] and result.notes == []
    tiers = {h.source: h.trust for h in result.output}
    assert tiers == {"files": "reference", "transcripts": "lead", "kg": "fact", "vector": "lead"}
    assert result.output[0].id == "kg/ledger service"  # the fact tier's best hit leads
    assert "ledger service -[uses]-> Postgres ?" in result.output[0].passage


def test_the_same_passage_in_a_file_and_a_transcript_is_one_corroborated_hit(federated_home):
    hits = federated("Postgres row-level security", k=20).output
    shared = [h for h in hits if SHARED in h.passage]
    assert len(shared) == 1
    assert shared[0].source == "files" and shared[0].trust == "reference"
    assert [c["source"] for c in shared[0].corroboration] == ["transcripts"]
    assert shared[0].corroboration[0]["id"].startswith("claude-code/")


def test_sources_and_min_trust_choose_what_is_asked(federated_home):
    only = federated("ledger", k=20, sources=["kg", "vector"]).output
    assert {h.source for h in only} == {"kg", "vector"}
    result = federated("ledger", k=20, min_trust="reference")
    assert {h.source for h in result.output} == {"kg", "files"}
    with pytest.raises(Exception, match="'wiki' is not one of the choices"):
        federated("ledger", sources=["files", "wiki"])


def test_budget_trims_the_federated_list(federated_home):
    full = federated("ledger", k=20).output
    trimmed = federated("ledger", k=20, budget=300).output
    assert 0 < len(trimmed) < len(full)
    assert sum(heuristic_tokens(hit_text(h)) for h in trimmed) <= 300


def test_federated_hybrid_adds_an_embedding_list_per_local_source(federated_home):
    from pica.stages.retrieve.semantic import RetrieveSemantic

    helpers.embed("embed.hash.v1")
    lance = str(Path(federated_home["PICA_HOME"]) / "lance")
    for source in ("transcripts", "files"):
        hits, _ = run_stage(
            RetrieveSemantic, lance_dir=lance, query="ledger", model="hashed-words", source=source
        )
        assert hits and {h.source for h in hits} == {source}
    query = "Postgres row-level security"
    plain = federated(query, k=5).output
    hybrid = runner.run("search/federated-hybrid", ["providers.vector.vector_column=vec",
                        "providers.vector.text_column=body", "providers.vector.model=hashed-words"],
                        variables={"query": query, "k": 5, "model": "hashed-words"})  # fmt: skip
    assert hybrid.status["transcripts_semantic"] == hybrid.status["files_semantic"] == "ok"
    assert hybrid.output[0].id == plain[0].id == "notes/db.md"
    assert hybrid.output[0].score > plain[0].score  # found by a second list of each source


def test_a_team_override_changes_providers_and_weights_without_a_recipe(federated_home, tmp_path):
    plan = runner.plan("search/federated", ["team=example"], variables={"query": "x"})
    assert plan.stages["transcripts"].enabled is False and plan.stages["web"].enabled is True
    assert plan.stages["fuse"].params.weights["lead"] == 0.7
    assert plan.stages["vector"].params.trust == "reference"


def test_the_default_search_is_federated_and_reports_on_the_command_line(federated_home, monkeypatch):
    out = CliRunner().invoke(main, ["search", "ledger", "-k", "20", "--json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    assert {h["source"] for h in answer["hits"]} == {"files", "transcripts", "kg"}  # vector: wrong columns
    assert any("vector" in w and "no column 'text'" in w for w in answer["warnings"])
    monkeypatch.delenv("PICA_KG_PATH")
    plain = CliRunner().invoke(main, ["search", "ledger"])
    assert plain.exit_code == 0 and "not configured" not in plain.stderr  # said when asked for by name
    assert "note: ranked by BM25 alone" in plain.stderr  # which ranking the default used is always said
    named = CliRunner().invoke(main, ["search", "ledger", "--sources", "files,kg"])
    assert "note: kg: not configured: set PICA_KG_PATH" in named.stderr
    bad = CliRunner().invoke(main, ["search", "ledger", "--sources", "files,wiki"])
    assert bad.exit_code == 2 and "'wiki' is not one of the choices" in bad.output
    assert CliRunner().invoke(main, ["search", "x", "--mode", "lexical", "--sources", "files"]).exit_code == 2
    cut = CliRunner().invoke(main, ["search", "ledger", "--mode", "lexical", "--budget", "5"])  # any mode
    assert cut.exit_code == 0 and "fit the budget of 5 tokens" in cut.stderr


# providers that are slow or broken


class StandInParams(Params):
    """The params of the kg and vector providers a stand-in takes the place of, and its own."""

    seconds: float = 0
    query: str = ""
    k: int = 10
    trust: str = "fact"
    path: str = ""
    uri: str = ""
    table: str = ""
    text_column: str = ""
    vector_column: str = ""
    title_column: str = ""
    id_column: str = ""
    model: str = ""


class SlowProvider(Stage):
    """Sleep, then answer (too late)."""

    id = "test.slow_provider.v1"
    Params = StandInParams
    outputs = {"hits": list[Hit]}
    on_error = "skip"

    def run(self, ctx):
        import time

        time.sleep(self.params.seconds)
        return {"hits": [hit("late", "kg", "fact", "too late")]}


class BrokenProvider(Stage):
    """Raise."""

    id = "test.broken_provider.v1"
    Params = StandInParams
    outputs = {"hits": list[Hit]}
    on_error = "skip"

    def run(self, ctx):
        raise ConnectionError("the store is down")


def test_a_slow_and_a_failing_provider_fail_open_with_warnings(federated_home, tmp_path):
    shutil.copy(RECIPES_DIR / "search/federated.yaml", tmp_path / "federated.yaml")
    (tmp_path / "broken.yaml").write_text(
        "defaults: [federated, _self_]\n"
        "stages:\n"
        "  kg: {use: test.slow_provider.v1, params: {seconds: 3}, timeout_s: 0.5}\n"
        "  vector: {use: test.broken_provider.v1}\n"
    )
    stages = Registry(builtin_package=None, group="pica.tests.none")
    stages.stages.update(registry.all())
    stages.register(SlowProvider)
    stages.register(BrokenProvider)
    from pica.kernel.executor import execute

    plan = runner.plan(tmp_path / "broken.yaml", variables={"query": "ledger", "k": 20}, stages=stages)
    result = execute(plan, Context(settings=Settings()))
    assert {h.source for h in result.output} == {"files", "transcripts"}
    assert result.status["kg"] == "timed out" and result.status["vector"] == "skipped"
    assert any(w.startswith("stage 'kg' (test.slow_provider.v1) timed out") for w in result.warnings)
    assert any("'vector'" in w and "ConnectionError: the store is down" in w for w in result.warnings)


# stale


def test_old_hits_and_hits_from_vanished_files_are_stale(tmp_path, pica_home):
    from pica.stages.stale import MarkStale
    from pica.stages.store.collections import Collections

    folder = make_folder(tmp_path / "notes", {"here.md": "x"})
    Collections(pica_home).add(folder, "notes", {})
    Collections(pica_home).add(make_folder(tmp_path / "gone", {"a.md": "x"}), "unmounted", {})
    shutil.rmtree(tmp_path / "gone")  # the whole folder missing says nothing about its files

    def hit_at(collection: str, path: str, date: str = "") -> Hit:
        metadata = {"timestamp": date} if date else {}
        return Hit(f"{collection}/{path}", path, collection, path, path, 1, 1, 1.0, "x",
                   metadata=metadata, trust="reference")  # fmt: skip

    hits = [hit_at("notes", "here.md", "2020-01-01T00:00:00Z"), hit_at("notes", "here.md", "2999-01-01"),
            hit_at("notes", "deleted.md"), hit_at("unmounted", "a.md")]  # fmt: skip
    params = MarkStale.Params(home=str(pica_home), max_age_days=365)
    marked = MarkStale(params).run(Context(settings=Settings()), hits)["hits"]
    assert [(h.trust, h.metadata.get("stale")) for h in marked] == [
        ("stale", "old"),
        ("reference", None),
        ("stale", "vanished"),
        ("reference", None),
    ]
    assert marked[0].metadata["trust_was"] == "reference"


def test_pica_team_applies_a_team_to_every_recipe(monkeypatch, tmp_path):
    monkeypatch.setenv("PICA_TEAM", "example")
    plan = runner.plan("search/lexical", [], Settings(home=tmp_path), {"query": "x"})
    assert plan.stages["results"].params.k == 5
