"""BM25 keyword search over the Tantivy chunk index."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.index.keyword_index import SEARCH_FIELDS, open_for_search

WORD = re.compile(r"\w+", re.UNICODE)
OPERATOR = re.compile(r'\b(AND|OR|NOT)\b|["()+\-:^*]')


class LexicalParams(Params):
    index_dir: str = Field(description="Folder of the keyword index.")
    query: str = Field(description="Words to find; Tantivy query syntax is understood.")
    k: int = Field(10, gt=0, le=1000, description="How many hits to return.")
    per_document: bool = Field(True, description="One hit per document: its best passage.")
    collection: str = Field("", description="Only this collection (empty: all).")


@stage
class RetrieveLexical(Stage):
    """Keyword search (BM25, stemmed) over chunk text, title, front matter and path."""

    id = "retrieve.lexical.v1"
    Params = LexicalParams
    inputs = {}
    outputs = {"hits": list[Hit]}
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
        self.index.reload()  # see commits made since warm-up
        searcher = self.index.searcher()
        limit = self.params.k * 5 if self.params.per_document else self.params.k
        hits: list[Hit] = []
        for conjunction in (True, False):
            query = self._parse(self.params.query, conjunction)
            if query is None:
                break
            found = searcher.search(query, limit=limit).hits
            hits = [_to_hit(score, searcher.doc(address)) for score, address in found]
            # All words required first; only a plain query falls back to any word.
            if hits or OPERATOR.search(self.params.query):
                break
        if self.params.per_document:
            hits = _best_per_document(hits)
        return {"hits": hits[: self.params.k]}

    def _parse(self, text: str, conjunction: bool) -> Any:
        if not text.strip():
            return None
        if self.params.collection:
            text = f"({text}) AND collection:{json.dumps(self.params.collection)}"
        try:
            return self.index.parse_query(
                text, SEARCH_FIELDS, conjunction_by_default=conjunction, field_boosts={"title": 2.0}
            )
        except ValueError:
            words = WORD.findall(self.params.query)  # not valid syntax: search the plain words
            if not words:
                return None
            plain = " ".join(words)
            if self.params.collection:
                plain = f"({plain}) AND collection:{json.dumps(self.params.collection)}"
            return self.index.parse_query(plain, SEARCH_FIELDS, conjunction_by_default=conjunction)


def _to_hit(score: float, doc: Any) -> Hit:
    fields = doc.to_dict()

    def first(name: str, default: Any = "") -> Any:
        values = fields.get(name) or [default]
        return values[0]

    return Hit(
        id=first("doc_id"),
        chunk_id=first("chunk_id"),
        collection=first("collection"),
        path=first("path"),
        title=first("title"),
        line_start=int(first("line_start", 0)),
        line_end=int(first("line_end", 0)),
        score=float(score),
        passage=first("text"),
        source=first("source"),
        metadata=json.loads(first("metadata_json", b"{}")),
    )


def _best_per_document(hits: list[Hit]) -> list[Hit]:
    seen: set[str] = set()
    best = []
    for hit in hits:  # already best first
        if hit.id not in seen:
            seen.add(hit.id)
            best.append(hit)
    return best
