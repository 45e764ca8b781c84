"""The last step of every search: filter, one hit per document, sort, cut to k, choose fields."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage

FILTER = re.compile(r"^\s*([^!<>=\s]+)\s*(!=|>=|<=|=|>|<)\s*(.*?)\s*$")
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2}([T ][\d:.]+)?)?)?$")
ATTRIBUTES = ("id", "collection", "path", "title", "source", "trust", "score", "line_start", "line_end")


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
        for text in filters:
            if not FILTER.match(text):
                raise ValueError(f"'{text}' is not FIELD=VALUE, FIELD!=VALUE, FIELD>VALUE, ... ")
        return filters


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
        conditions = [FILTER.match(f).groups() for f in p.filters]  # type: ignore[union-attr]
        kept = [
            h for h in hits
            if (not p.collection or h.collection == p.collection)
            and (not p.path or fnmatch.fnmatch(h.path, p.path))
            and all(matches(h, *condition) for condition in conditions)
        ]  # fmt: skip
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


def value_of(hit: Hit, name: str) -> Any:
    return getattr(hit, name) if name in ATTRIBUTES else hit.metadata.get(name)


def sort_key(value: Any) -> tuple[int, Any]:
    number = _number(value)
    return (0, number) if number is not None else (1, str(value))


def matches(hit: Hit, name: str, op: str, wanted: str) -> bool:
    value = value_of(hit, name)
    if value is None:
        return op == "!="
    values = value if isinstance(value, list) else [value]
    if op == "=":
        return any(_equal(v, w) for v in values for w in wanted.split(","))
    if op == "!=":
        return not any(_equal(v, w) for v in values for w in wanted.split(","))
    return any(_compare(v, op, wanted) for v in values)


def _equal(value: Any, wanted: str) -> bool:
    wanted = wanted.strip()
    a, b = _number(value), _number(wanted)
    if a is not None and b is not None:
        return a == b
    if DATE.match(wanted) and DATE.match(str(value)[: len(wanted)] or "x"):
        return str(value)[: len(wanted)] == wanted  # created=2024-05 means any day of that month
    return str(value).lower() == wanted.lower()


def _compare(value: Any, op: str, wanted: str) -> bool:
    a, b = _number(value), _number(wanted)
    if a is None or b is None or (DATE.match(wanted) and not isinstance(value, int | float)):
        # Dates compare at the precision given: created<=2024 takes all of 2024.
        a, b = str(value)[: len(wanted)], wanted
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value))
    except ValueError:
        return None
