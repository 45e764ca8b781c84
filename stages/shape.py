"""The last step of every search: filter, one hit per document, sort, cut to k, choose fields."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.filters import HitFilter, sort_key, valid_filters, value_of


class ShapeParams(Params):
    k: int = Field(10, gt=0, le=10_000, description="How many results.")
    all_passages: bool = Field(False, description="Every matching passage, not one per document.")
    collection: str = Field("", description="Only this collection.")
    path: str = Field("", description="Only paths matching this glob (e.g. docs/**/*.md).")
    filters: list[str] = Field(default=[], description="FIELD=VALUE, !=, >, >=, <, <= (a=x,y: any of).")
    sort: str = Field("", description="FIELD or -FIELD (descending); by score when empty.")
    fields: list[str] = Field(default=["*"], description="Metadata fields to keep; * for all.")
    compact: bool = Field(False, description="Leave out passage text.")

    @field_validator("filters")
    @classmethod
    def filters_parse(cls, filters: list[str]) -> list[str]:
        return valid_filters(filters)


@stage
class ShapeResults(Stage):
    """Filter hits by collection, path and fields; keep each document's best; sort; cut to k."""

    id = "shape.results.v1"
    Params = ShapeParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        def hit(doc: str, n: int, score: float, year: str) -> Hit:
            return Hit(doc, f"{doc}#{n}", "c", doc, doc, 1, 1, score, "text", metadata={"created": year})

        hits = [hit("a", 0, 3.0, "2024-05-01"), hit("a", 1, 2.0, "2024-05-01"), hit("b", 0, 1.0, "2023")]
        return Example(params={"filters": ["created<=2024"]}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        p = self.params
        keep = HitFilter(p.collection, p.path, p.filters)
        kept = [h for h in hits if keep.accepts(h)]
        if not p.all_passages:
            seen: set[str] = set()
            kept = [h for h in kept if not (h.id in seen or seen.add(h.id))]  # type: ignore[func-returns-value]
        if p.sort:
            name, descending = p.sort.lstrip("-"), p.sort.startswith("-")
            present = [h for h in kept if value_of(h, name) is not None]
            missing = [h for h in kept if value_of(h, name) is None]
            present.sort(key=lambda h: sort_key(value_of(h, name)), reverse=descending)
            kept = present + missing
        kept = kept[: p.k]
        return {"hits": [self._trim(h) for h in kept]}

    def _trim(self, hit: Hit) -> Hit:
        metadata = (
            hit.metadata
            if "*" in self.params.fields
            else {k: v for k, v in hit.metadata.items() if k in self.params.fields}
        )
        return replace(hit, metadata=metadata, passage="" if self.params.compact else hit.passage)
