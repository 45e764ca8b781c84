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
from pica.stages.index.keyword_index import SEARCH_FIELDS, open_for_search, stored_hit
from pica.stages.terms import WORD

OPERATOR = re.compile(r'\b(AND|OR|NOT|NEAR(/\d+)?)\b|["()+\-:^*~]')
NEAR = re.compile(r'(\w+|"[^"]+")\s+NEAR(?:/(\d+))?\s+(\w+|"[^"]+")')
NEAR_SLOP = 5


class LexicalParams(Params):
    index_dir: str = Field(description="Folder of the keyword index.")
    query: str = Field(description='Words to find; AND OR NOT NEAR "phrases" ( ) meta:word work.')
    k: int = Field(50, gt=0, le=5000, description="How many chunks to return.")
    collection: str = Field("", description="Only this collection (empty: all).")
    source: str = Field("", description="Only this source: files or transcripts (empty: all).")
    require_all: bool = Field(True, description="Every word must match (falling back to any word).")
    # Every chunk repeats its document's title, so a title match counts once per chunk already;
    # 0.5 measured best of 0-3 on both benchmark sets (docs/benchmarks.md).
    title_boost: float = Field(0.5, ge=0, description="Weight of title matches against text matches.")
    trust: str = Field("reference", description="Trust tier of what it finds.")


@stage
class RetrieveLexical(Stage):
    """Keyword search (BM25, stemmed) over chunk text, title, front-matter values and path."""

    id = "retrieve.lexical.v1"
    Params = LexicalParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "k", "collection", "source", "require_all", "title_boost", "trust"})
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
        text = self.params.query
        if not text.strip():
            return {"hits": []}
        query, plain = self._parse(text, conjunction=self.params.require_all)
        hits = self._search(searcher, query)
        if not hits and (plain or not OPERATOR.search(text)):
            # Nothing has every word: take documents with any, those with most words first.
            words = [w.lower() for w in WORD.findall(text)]
            hits = self._search(searcher, self._parse(text, conjunction=False)[0])
            hits.sort(key=lambda h: -sum(w in f"{h.title} {h.passage}".lower() for w in words))
        return {"hits": hits}

    def _search(self, searcher: Any, query: Any) -> list[Hit]:
        if query is None:
            return []
        found = searcher.search(query, limit=self.params.k).hits
        p = self.params
        return [stored_hit(searcher.doc(address), score, p.trust, "lexical") for score, address in found]

    def _parse(self, text: str, conjunction: bool) -> tuple[Any, bool]:
        """(query, whether it fell back to plain words because the syntax was not valid)."""
        try:
            return self._query(NEAR.sub(_near, text), conjunction), False
        except ValueError:
            words = [w.lower() for w in WORD.findall(text)]  # lower case: AND, OR are words here
            return (self._query(" ".join(words), conjunction) if words else None), True

    def _query(self, text: str, conjunction: bool) -> Any:
        for field in ("collection", "source"):
            if value := getattr(self.params, field):
                text = f"({text}) AND {field}:{json.dumps(value)}"
        return self.index.parse_query(
            text,
            SEARCH_FIELDS,
            conjunction_by_default=conjunction,
            field_boosts={"title": self.params.title_boost},
        )


def _near(match: re.Match[str]) -> str:
    """`a NEAR b` (or NEAR/n) as Tantivy's sloppy phrase `"a b"~n`."""
    left, slop, right = match.group(1).strip('"'), match.group(2), match.group(3).strip('"')
    return f'"{left} {right}"~{slop or NEAR_SLOP}'
