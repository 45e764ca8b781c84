"""The lexical query syntax: operators as promised, every other character plain text, never empty
when a word of the query is in the index, and questions ranked by BM25 in score order."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pica.kernel import runner
from pica.kernel.executor import StageCache, execute
from pica.kernel.stage import Context
from pica.stages.retrieve.query import lex
from tests.helpers import index, make_folder

NOTES = {
    "retry.md": "# Retry policy\nUse exponential back-off between attempts.\nThe dialyzer runs nightly.\n",
    "manifold.md": "# Topology\nA 0-dimensional manifold is a set of points.\n",
    "trace.md": "# Crash\nTypeError: x is undefined\n  at main (app.py:23)\nsee https://example.com/docs/errors\n",
    "lint.md": "# Lint\nThe dialyzer and credo both run in CI.\n",
    "near.md": "# Order\nrebuild the cache after the deploy\n",
    "far.md": "# Order\ndeploy first, then we rebuild everything\n",
    "cjk.md": "# 大模型的训练\n大模型需要大量数据。\n",
    "jp.md": "# 東京タワー\n東京タワーは高い。\n",
    "build.md": "# Build\nwhy did the build fail on the slice_builder module\n",
    "other.md": "# Other\nfail fast and build often\n",
    "mice.md": "# Obesity\nMice fed a high-fat diet develop insulin resistance within weeks.\n",
    "pd1.md": "# Immunology\nPD-1 blockade partly restores exhausted T cells in chronic infection.\n",
    "bone.md": "# Ageing\nVitamin D supplementation and bone mineral density in older women.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("query-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PICA_HOME", str(home))
        index(make_folder(tmp_path_factory.mktemp("notes"), NOTES), "notes")
        yield home


@functools.cache
def plan():
    return runner.plan("search/lexical", variables={"query": "x", "k": 20})


CACHE = StageCache()


def run(query):
    result = execute(plan().with_params(query=query), Context(), CACHE)
    return result.output, result.notes


def ids(hits):
    return [h.id.removeprefix("notes/") for h in hits]


@pytest.mark.parametrize(("query", "expected"), [
    ("back-off", "retry.md"),
    ("exponential back-off attempts", "retry.md"),
    ("0-dimensional", "manifold.md"),
    ("TypeError: x", "trace.md"),
    ("app.py:23", "trace.md"),
    ("https://example.com/docs/errors", "trace.md"),
    ("main (app.py:23", "trace.md"),  # an unclosed bracket is text
    ('"exponential back', "retry.md"),  # so is an unclosed quote
    ("retry+policy^2 ~attempts*", "retry.md"),
    ("大模型", "cjk.md"),
    ("训练", "cjk.md"),
    ("タワー", "jp.md"),
])  # fmt: skip
def test_punctuation_is_text(home, query, expected):
    hits, _ = run(query)
    assert ids(hits)[:1] == [expected]


def test_and_not_means_not(home):
    assert ids(run("dialyzer AND NOT credo")[0]) == ["retry.md"]
    assert ids(run("dialyzer NOT credo")[0]) == ["retry.md"]
    assert sorted(ids(run("dialyzer OR credo")[0])) == ["lint.md", "retry.md"]


def test_near_is_order_free_and_a_phrase_is_not(home):
    assert sorted(ids(run("rebuild NEAR deploy")[0])) == ["far.md", "near.md"]
    assert sorted(ids(run("deploy NEAR/4 rebuild")[0])) == ["far.md", "near.md"]
    assert ids(run("deploy NEAR/3 rebuild")[0]) == ["far.md"]  # 3 words apart; near.md has 4
    assert ids(run('"rebuild the cache"')[0]) == ["near.md"]
    assert ids(run("deploy NEAR/0 rebuild")[0]) == []


def test_field_prefix(home):
    assert ids(run("title:topology")[0]) == ["manifold.md"]
    assert ids(run("path:lint")[0]) == ["lint.md"]


@pytest.mark.parametrize("query", ["!!! ??? ...", "😀", "*", "-- :: //", "AND OR NOT"])
def test_no_words_no_results_and_a_note(home, query):
    hits, notes = run(query)
    assert hits == []
    assert any("no words" in note for note in notes)


def test_a_question_ranks_by_bm25_over_any_word_in_score_order(home):
    hits, _ = run("why did the build fail")
    assert ids(hits)[0] == "build.md"  # holds every word
    assert "other.md" in ids(hits)  # holds some
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(("question", "expected"), [
    ("high-fat diet raises insulin resistance in mice", "mice.md"),
    ("T-cell exhaustion reverses under anti-PD-1 therapy", "pd1.md"),
    ("long-term effects of vitamin D on bone density in elderly women", "bone.md"),
])  # fmt: skip
@pytest.mark.parametrize("recipe", ["search/lexical", "search/default"])
def test_questions_from_the_trial_are_answered(home, recipe, question, expected):
    """Each came back empty from the old default: not every word is in one chunk."""
    result = runner.run(recipe, variables={"query": question})
    assert ids(result.output)[:1] == [expected]
    if recipe == "search/default":
        assert any("BM25 alone" in note for note in result.notes)  # this home has no vectors


def test_words_not_in_the_index_do_not_empty_a_question(home):
    assert {"lint.md", "retry.md"} <= set(ids(run("high-fat diet raises dialyzer resistance in moles")[0]))


# Property tests: hostile text never raises, and a plain word of the query in the index is found.

PUNCTUATION = [*"!#$%&'*+,-./:;<=>?@[\\]^_`{|}~()\"\t \n"]
SCRIPTS = ["😀", "🔥", "\u200f", "\u202e", "שלום", "مرحبا", "你好", "x", "é", "ß", "0", "9", "TODO", "ÆØ"]
CODE = ["def f(x):", "C:\\Users\\a b", "/usr/lib/x.so", "at com.x.Y(Y.java:12)", "http://a.b/c?d=e&f"]
SYNTAX = [" AND ", " OR ", " NOT ", " NEAR ", " NEAR/3 ", "title:", "meta:", '"']
HOSTILE = st.lists(st.sampled_from(PUNCTUATION + SCRIPTS + CODE + SYNTAX), max_size=40).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=HOSTILE)
def test_hostile_queries_never_raise(home, junk):
    hits, _ = run(junk)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=HOSTILE, after=HOSTILE, word=st.sampled_from(["dialyzer", "manifold", "nightly", "大模型"]))
def test_a_plain_word_in_the_index_is_always_found(home, before, after, word):
    query = f"{before} {word} {after}"
    # Operators, quotes and field prefixes may rightly exclude it; brackets may not.
    assume(all(lexeme.kind in ("word", "open", "close") and not lexeme.field for lexeme in lex(query)))
    hits, _ = run(query)
    assert hits


def test_ten_kilobytes_of_punctuation(home):
    hits, _ = run("!@#$%^&*()[]{}<>?/\\|~`'\";:,." * 350 + " dialyzer")
    assert "retry.md" in ids(hits)
