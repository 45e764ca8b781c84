"""BM25 keyword search over the Tantivy chunk index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.filters import HitFilter
from pica.stages.index.keyword_index import open_for_search, stored_hit
from pica.stages.retrieve.query import QueryBuilder
from pica.stages.trust import Trust, trust_field


class LexicalParams(Params):
    index_dir: str = Field(description="Folder of the keyword index.")
    query: str = Field(
        description='Words to find; AND OR NOT NEAR NEAR/n "phrases" ( ) title: text: meta: path: work.'
    )
    k: int = Field(50, gt=0, le=5000, description="How many chunks to return.")
    documents: int = Field(
        0, ge=0, description="Stop once the chunks found come from this many documents (0: take k chunks)."
    )
    collection: str = Field("", description="Only this collection (empty: all).")
    source: str = Field("", description="Only this source: files or transcripts (empty: all).")
    path: str = Field("", description="Only paths matching this glob (empty: all).")
    # Checked once, by the recipe's last stage (shape.results.v1), so a bad one is told once.
    filters: list[str] = Field(default=[], description="Metadata conditions FIELD=VALUE, !=, >, >=, <, <=.")
    require_all: bool = Field(
        False, description="A question's words must all match (falling back to any word when none does)."
    )
    # Chosen on one half of each benchmark set's questions, checked on the other (docs/benchmarks.md).
    # 0 to 1 moved nDCG@10 by less than 0.003 on both sets while doubling the search time at
    # 100k chunks: BM25's sum over the words already puts chunks holding more of them first.
    all_words_boost: float = Field(
        0.0, ge=0, description="A question: score x (1 + this) for chunks holding every word."
    )
    stopwords: bool = Field(
        True, description="A question: leave out English stop words (unless that is all it has)."
    )
    # Every chunk repeats its document's title, so a title match counts once per chunk already;
    # 0.5 measured best of 0-3 on both benchmark sets (docs/benchmarks.md).
    title_boost: float = Field(0.5, ge=0, description="Weight of title matches against text matches.")
    trust: Trust = trust_field()


@stage
class RetrieveLexical(Stage):
    """Keyword search (BM25, stemmed) over chunk text, title, front-matter values and path.

    A plain question ranks by BM25 over any of its words, chunks holding all of them lifted; with
    operators (AND OR NOT NEAR "phrase" ( ) field:) it matches as written. Filters (collection,
    source, path, metadata) narrow the search: it reads further down the ranking until `k`
    chunks pass or none are left. Hits come best first, in the order of their scores.
    """

    id = "retrieve.lexical.v1"
    Params = LexicalParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset(
        {"query", "k", "documents", "collection", "source", "path", "filters", "require_all",
         "all_words_boost", "stopwords", "title_boost", "trust"}
    )  # fmt: skip
    timeout_s = 5.0
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.index.tantivy import IndexTantivy

        ingest = IndexTantivy.example(workdir)
        IndexTantivy(IndexTantivy.Params(**ingest.params)).run(Context(), **ingest.inputs)
        return Example(params={"index_dir": ingest.params["index_dir"], "query": "alpha"})

    def warm_up(self, ctx: Context) -> None:
        self.index = open_for_search(self.params.index_dir)

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        builder = QueryBuilder(self.index.schema, p.title_boost, p.all_words_boost, p.stopwords)
        query = builder.build(p.query)
        if query is None:
            if p.query.strip():
                ctx.note(f"nothing to search for: '{p.query[:60]}' has no words")
            return {"hits": []}
        self.index.reload()  # see commits made since warm-up
        searcher = self.index.searcher()
        strict = builder.build(p.query, strict=True) if p.require_all else None
        hits = self._search(searcher, strict) if strict is not None else []
        return {"hits": hits or self._search(searcher, query)}

    def _search(self, searcher: Any, query: Any) -> list[Hit]:
        """The best `k` chunks that pass the filters, reading down the ranking as far as needed."""
        import tantivy

        p = self.params
        Occur = tantivy.Occur
        clauses = [(Occur.Must, query)]
        for field in ("collection", "source"):
            if value := getattr(p, field):
                clauses.append((Occur.Must, tantivy.Query.term_query(self.index.schema, field, value)))
        if len(clauses) > 1:
            query = tantivy.Query.boolean_query(clauses)
        keep = HitFilter(path=p.path, filters=p.filters)
        hits: list[Hit] = []
        documents: set[str] = set()
        # Reading stored chunks costs as much as the search: with a number of documents to find,
        # start small (a document has a few matching chunks) and read on only as needed.
        page, offset = min(p.k, 3 * p.documents) if p.documents else p.k, 0
        while True:
            found = searcher.search(query, limit=page, offset=offset).hits
            for score, address in found:
                hit = stored_hit(searcher.doc(address), score, p.trust, "lexical")
                if keep.accepts(hit):
                    hits.append(hit)
                    documents.add(hit.id)
                if p.documents and len(documents) >= p.documents:
                    return hits
            offset += len(found)
            if len(hits) >= p.k or len(found) < page or (not keep.active and not p.documents):
                return hits[: p.k]
            page = min(4 * page, p.k - len(hits)) if p.documents else 4 * page
