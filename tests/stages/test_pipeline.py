"""The first real pipeline on ../shared/corpus: ingest Markdown and text, search with BM25."""

from __future__ import annotations

import pytest

from pica.kernel import runner
from tests.conftest import DOCUMENTS, needs_corpus

pytestmark = needs_corpus()


@pytest.fixture
def indexed(pica_home):
    reports = {}
    for folder in ("md", "txt"):
        reports[folder] = runner.run("ingest/markdown", [f"path={DOCUMENTS / folder}"]).output
    return reports


def search(query, **variables):
    result = runner.run("search/lexical", variables={"query": query, **variables})
    return result.output, result.warnings


def test_ingest_reports_what_it_indexed_and_skipped(indexed):
    md, txt = indexed["md"], indexed["txt"]
    assert len(md["stored"].added) == len([p for p in (DOCUMENTS / "md").rglob("*") if p.is_file()])
    assert md["skipped"] == []
    assert {s.path for s in txt["skipped"]} == {
        "unstructured/fake-text-all-whitespace.txt",
        "unstructured/test-file-contents.txt",  # one 395 KB line of base64
    }
    assert txt["keyword"]["action"] == "updated"


def test_reingesting_an_unchanged_folder_changes_nothing(indexed):
    again = runner.run("ingest/markdown", [f"path={DOCUMENTS / 'md'}"]).output
    assert again["stored"].added == again["stored"].removed == []
    assert again["keyword"]["action"] == "none"


def test_keyword_search_finds_the_document_and_cites_lines(indexed):
    hits, warnings = search("permalink front matter", k=3)
    assert warnings == []
    assert hits[0].id == "md/jekyll/front-matter.md"
    assert hits[0].title == "Front Matter"
    for hit in hits:
        lines = (DOCUMENTS / hit.collection / hit.path).read_text(encoding="utf-8").split("\n")
        assert "\n".join(lines[hit.line_start - 1 : hit.line_end]) == hit.passage


def test_one_hit_per_document_best_first(indexed):
    hits, _ = search("norwich city football", k=5)
    assert hits[0].id == "txt/unstructured/norwich-city.txt"
    assert len({h.id for h in hits}) == len(hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_front_matter_values_are_searchable(indexed):
    hits, _ = search("bob")  # only in hello-toml.md's TOML front matter
    assert [h.id for h in hits] == ["md/python-frontmatter/hello-toml.md"]
    assert hits[0].metadata["author"] == "bob"


def test_stemming_and_utf16_files(indexed):
    hits, _ = search("blanket hamburger")
    assert {h.id for h in hits} == {
        "txt/unstructured/fake-text.txt",
        "txt/unstructured/fake-text-utf-16.txt",
        "txt/unstructured/fake-text-utf-16-be.txt",
    }


def test_all_words_first_then_any_word(indexed):
    strict, warnings = search("hamburgers norwich")  # no document has both
    assert warnings == []
    assert strict and {h.id for h in strict} >= {"txt/unstructured/norwich-city.txt"}


def test_invalid_query_syntax_is_searched_as_words(indexed):
    hits, warnings = search('permalink AND (front "matter')
    assert warnings == []
    assert hits and hits[0].id == "md/jekyll/front-matter.md"


def test_collection_filter(indexed):
    everywhere, _ = search("the", k=20)
    assert {h.collection for h in everywhere} == {"md", "txt"}
    hits, _ = search("the", collection="md", k=20)
    assert hits and all(h.collection == "md" for h in hits)


def test_search_before_any_ingest_warns_and_returns_nothing(pica_home):
    hits, warnings = search("anything")
    assert hits == []
    assert len(warnings) == 1 and "no keyword index at" in warnings[0]
