"""Every search mode and option, over the corpus and a small collection with front matter."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import pica
from pica.kernel import runner
from tests.conftest import DOCUMENTS, needs_corpus
from tests.helpers import embed, index, make_folder

NOTES = {
    "alpha.md": "---\ntitle: Alpha plan\nowner: ana\ntags: [infra, search]\ncreated: 2023-11-02\npriority: 3\n---\n"
    "# Alpha plan\nWe rebuild the search index nightly.\nThe crawler is running on two hosts.\n",
    "beta.md": "---\ntitle: Beta notes\nowner: bo\ntags: [ui]\ncreated: 2024-02-10\npriority: 1\n---\n"
    "# Beta notes\nThe user interface shows search results.\nError: file not found at /var/log/x.log\n",
    "gamma.md": "---\ntitle: Gamma retro\nowner: ana\ntags: [search, retro]\ncreated: 2024-12-31\npriority: 2\n---\n"
    "# Gamma retro\nNightly rebuild failed twice.\nWe moved the index to faster disks.\n",
    "deep/delta.txt": "Delta is a plain text note about disks and hosts.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("search-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PICA_HOME", str(home))
        index(make_folder(tmp_path_factory.mktemp("notes"), NOTES), "notes")
        if DOCUMENTS.is_dir():
            index(DOCUMENTS, "corpus")
        embed("embed.hash.v1")
        yield home


def search(query, mode="lexical", **variables):
    if mode in ("semantic", "hybrid"):
        variables.setdefault("model", "hashed-words")
    result = runner.run(f"search/{mode}", variables={"query": query, **variables})
    return result.output, result.warnings


def ids(hits):
    return [h.id for h in hits]


# lexical


@pytest.mark.parametrize(("query", "expected"), [
    ("crawler AND hosts", ["notes/alpha.md"]),
    ("rebuild AND disks", ["notes/gamma.md"]),
    ("crawler OR interface", ["notes/alpha.md", "notes/beta.md"]),
    ("rebuild NOT disks", ["notes/alpha.md"]),
    ('"search results"', ["notes/beta.md"]),
    ("nightly NEAR rebuild", ["notes/alpha.md", "notes/gamma.md"]),
    ("(crawler OR retro) AND nightly", ["notes/alpha.md", "notes/gamma.md"]),
    ("meta:ana", ["notes/alpha.md", "notes/gamma.md"]),  # front-matter values only
    ("rebuilding", ["notes/alpha.md", "notes/gamma.md"]),  # stemming
])  # fmt: skip
def test_lexical_operators(home, query, expected):
    hits, warnings = search(query, collection="notes")
    assert warnings == []
    assert sorted(ids(hits)) == expected


def test_lexical_invalid_syntax_is_searched_as_words(home):
    for query in ('(unclosed "quote', "AND OR", "title:", "^^^", ")"):
        hits, warnings = search(query, collection="notes")
        assert warnings == []
    hits, _ = search('crawler (hosts "', collection="notes")
    assert ids(hits) == ["notes/alpha.md", "notes/deep/delta.txt"]  # the words, any of them


def test_lexical_question_ranks_by_any_word_most_words_first(home):
    hits, _ = search("crawler hosts", collection="notes")
    assert ids(hits) == ["notes/alpha.md", "notes/deep/delta.txt"]  # both words, then one
    hits, _ = search("crawler hosts", collection="notes", require_all=True)
    assert ids(hits) == ["notes/alpha.md"]
    hits, _ = search("disks hosts nightly crawler", collection="notes")
    assert ids(hits)[:1] == ["notes/alpha.md"]  # three of the four words; nobody has all four
    assert set(ids(hits)) == {"notes/alpha.md", "notes/gamma.md", "notes/deep/delta.txt"}


def test_hits_cite_their_source(home):
    hit = search("crawler", collection="notes")[0][0]
    assert (hit.id, hit.collection, hit.path, hit.title) == (
        "notes/alpha.md",
        "notes",
        "alpha.md",
        "Alpha plan",
    )
    assert (hit.source, hit.trust) == ("files", "reference")
    assert hit.line_start == 8 and "crawler" in hit.passage  # lines of the file, front matter counted


# grep


def test_grep_literal_finds_exact_lines(home):
    hits, _ = search("Error: file not found", mode="grep")
    assert [(h.id, h.line_start, h.passage) for h in hits] == [
        ("notes/beta.md", 10, "Error: file not found at /var/log/x.log")
    ]
    assert hits[0].metadata["owner"] == "bo"  # front matter travels with grep hits too, for filters


def test_grep_matches_inside_words_and_paths(home):
    assert ids(search("unning on two", mode="grep")[0]) == ["notes/alpha.md"]
    assert ids(search("/var/log/x.log", mode="grep")[0]) == ["notes/beta.md"]


def test_grep_regex_and_case(home):
    hits, _ = search(r"Night\w+ rebuild", mode="grep", regex=True, collection="notes")
    assert ids(hits) == ["notes/gamma.md"]
    hits, _ = search("nightly", mode="grep", collection="notes")
    assert ids(hits) == ["notes/alpha.md"]  # case-sensitive by default
    hits, _ = search("nightly", mode="grep", ignore_case=True, collection="notes")
    assert ids(hits) == ["notes/alpha.md", "notes/gamma.md"]


def test_grep_bad_regex_is_an_error(home):
    from pica.kernel.errors import RecipeError

    with pytest.raises(RecipeError, match=r"not a valid regular expression: .* at position 1"):
        search("([unclosed", mode="grep", regex=True)


@needs_corpus()
def test_grep_line_numbers_match_the_file(home):
    hits, _ = search("misfits", mode="grep", collection="corpus", k=50)
    assert hits
    for hit in hits:
        if hit.path.endswith((".md", ".txt")):
            lines = (DOCUMENTS / hit.path).read_text().split("\n")
            assert hit.passage == lines[hit.line_start - 1]


# semantic, hybrid, similar, rerank


def test_semantic_and_hybrid(home):
    hits, warnings = search("nightly rebuild of the index", mode="semantic", collection="notes")
    assert warnings == [] and ids(hits)[0] in ("notes/alpha.md", "notes/gamma.md")
    hits, warnings = search("nightly rebuild of the index", mode="hybrid", collection="notes")
    assert warnings == [] and ids(hits)[:2] == ["notes/gamma.md", "notes/alpha.md"]
    assert all(h.via == "rrf" for h in hits)


def test_semantic_refuses_another_model(home):
    hits, warnings = search("anything", mode="semantic", model="all-MiniLM-L6-v2")
    assert hits == [] and "embedded with pica/hashed-words" in warnings[0]


def test_similar_documents(home):
    hits = runner.run("search/similar", variables={"id": "notes/alpha.md", "collection": "notes"}).output
    assert "notes/alpha.md" not in ids(hits)
    assert ids(hits)[0] == "notes/gamma.md"


def test_rerank_with_a_tiny_model_built_here(home, tmp_path):
    from pica.stages.rerank import tiny_cross_encoder

    model = tiny_cross_encoder(tmp_path / "tiny")
    variables = {"reranker": str(model), "model": "hashed-words", "collection": "notes"}
    result = runner.run("search/rerank", variables={"query": "nightly rebuild", **variables})
    assert result.warnings == []
    assert set(ids(result.output)) == {
        "notes/alpha.md",
        "notes/gamma.md",
        "notes/deep/delta.txt",
        "notes/beta.md",
    } & set(ids(result.output))
    assert result.output and all(h.via == "rerank" for h in result.output)


def test_rerank_without_its_model_is_an_error(home):
    from pica.kernel.errors import StageFailed

    variables = {"reranker": "/nowhere/model", "model": "hashed-words", "collection": "notes"}
    with pytest.raises(StageFailed) as failed:  # asked for by name: no silent hybrid order instead
        runner.run("search/rerank", variables={"query": "nightly rebuild", **variables})
    assert failed.value.reason.startswith("cross-encoder '/nowhere/model' is not on this machine")


# options


@pytest.mark.parametrize(("filters", "expected"), [
    (["owner=ana"], ["alpha", "gamma"]),
    (["owner=bo,ana"], ["alpha", "beta", "gamma"]),
    (["owner!=ana"], ["beta", "delta"]),
    (["tags=search"], ["alpha", "gamma"]),  # a list field contains the value
    (["created<=2024"], ["alpha", "beta", "gamma"]),  # all of 2024 counts
    (["created<2024"], ["alpha"]),
    (["created>=2024-02"], ["beta", "gamma"]),
    (["created=2024-12"], ["gamma"]),
    (["priority>1"], ["alpha", "gamma"]),
    (["priority>=1", "owner=ana"], ["alpha", "gamma"]),
])  # fmt: skip
def test_field_filters(home, filters, expected):
    hits, _ = search("the OR a OR is OR we OR plain", collection="notes", filters=filters, k=20)
    assert sorted(h.path.rsplit("/", 1)[-1].split(".")[0] for h in hits) == expected


def test_path_sort_fields_compact_k(home):
    hits, _ = search("the OR a OR we OR plain", collection="notes", path="deep/*")
    assert ids(hits) == ["notes/deep/delta.txt"]
    hits, _ = search("the OR we", collection="notes", sort="-priority", fields=["owner"], compact=True)
    assert [(h.metadata, h.passage) for h in hits] == [
        ({"owner": "ana"}, ""),
        ({"owner": "ana"}, ""),
        ({"owner": "bo"}, ""),
    ]
    assert [h.path for h in hits] == ["alpha.md", "gamma.md", "beta.md"]
    assert len(search("the OR we", collection="notes", k=1)[0]) == 1


def test_bad_filter_is_a_clear_error(home):
    from pica.kernel.errors import RecipeError

    with pytest.raises(RecipeError, match=r"stages.results.params.filters: .*'owner~ana' is not FIELD=VALUE"):
        search("x", filters=["owner~ana"])


@needs_corpus()
def test_all_passages(home):
    one, _ = search("norwich", collection="corpus", k=50)
    every, _ = search("norwich", collection="corpus", k=50, all_passages=True)
    assert len(set(ids(one))) == len(one) and len(every) > len(one)


def test_python_api(home):
    hits = pica.search("crawler", k=3, collection="notes")  # the default: BM25 and embeddings
    assert ids(hits)[0] == "notes/alpha.md"
    hits = pica.search("Error: file", mode="grep", collection="notes")
    assert ids(hits) == ["notes/beta.md"]


def pica_cli(*args):
    result = subprocess.run(
        [sys.executable, "-m", "pica", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_cli_search_and_get(home):
    out = json.loads(pica_cli("search", "crawler", "-c", "notes", "--json", "--fields", "owner,tags"))
    assert out["warnings"] == []
    assert [(h["id"], h["metadata"]) for h in out["hits"]] == [
        ("notes/alpha.md", {"owner": "ana", "tags": ["infra", "search"]})
    ]
    text = pica_cli("search", "x.log", "--mode", "grep")
    assert text.startswith("1. notes/beta.md:10-10  Beta notes")
    document = json.loads(pica_cli("get", "notes/alpha.md", "--lines", "9-10", "--fields", "owner", "--json"))
    assert document["text"] == "We rebuild the search index nightly.\nThe crawler is running on two hosts."
    assert (document["line_start"], document["line_end"], document["metadata"]) == (9, 10, {"owner": "ana"})
    whole = pica_cli("get", "notes/alpha.md")
    assert whole.splitlines()[:4] == ["---", "id: notes/alpha.md", "lines: 8-10", "title: Alpha plan"]


def test_get_unknown_id_is_a_clear_error(home):
    result = subprocess.run(
        [sys.executable, "-m", "pica", "get", "notes/nope.md"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "no document 'notes/nope.md' in the index" in result.stderr


def test_semantic_uses_the_vector_index_past_the_threshold(home):
    """The ANN path (threshold lowered so a small home crosses it) finds what exact search finds."""
    from pica.kernel.settings import Settings
    from pica.stages.retrieve.vectors import build_vector_index, store_for

    store = store_for(str(Settings().home / "lance"))
    build_vector_index(store)
    exact, _ = search("nightly rebuild of the index", mode="semantic", collection="notes", k=3)
    plan_variables = {
        "query": "nightly rebuild of the index",
        "model": "hashed-words",
        "collection": "notes",
        "k": 3,
    }
    result = runner.run(
        "search/semantic", ["+stages.semantic.params.ann_threshold=1"], variables=plan_variables
    )
    assert result.warnings == []
    assert ids(result.output)[:2] == ids(exact)[:2]
    assert [round(h.score, 3) for h in result.output[:2]] == [round(h.score, 3) for h in exact[:2]]
