"""Which hits a search keeps: collection, path glob and metadata conditions.

One filter for every stage that narrows hits: retrievers apply it while they collect, so `k` is
filled from what passes, and shape.results.v1 applies it again at the end.
Conditions are FIELD=VALUE, FIELD!=VALUE, FIELD>VALUE, >=, <, <= (FIELD=a,b: any of); FIELD is
a hit attribute (path, title, score, ...) or a metadata field.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import Any

from pica.kernel.records import Hit

FILTER = re.compile(r"^\s*([^!<>=\s]+)\s*(!=|>=|<=|=|>|<)\s*(.*?)\s*$")
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2}([T ][\d:.]+)?)?)?$")
ATTRIBUTES = ("id", "collection", "path", "title", "source", "trust", "score", "line_start", "line_end")


def parse_filter(text: str) -> tuple[str, str, str]:
    """(field, operator, value) of one condition; ValueError when it is not one."""
    match = FILTER.match(text)
    if not match:
        raise ValueError(f"'{text}' is not FIELD=VALUE, FIELD!=VALUE, FIELD>VALUE, ... ")
    name, op, wanted = match.groups()
    return name, op, wanted


def valid_filters(filters: list[str]) -> list[str]:
    """The conditions unchanged, once each parses (a pydantic validator for `filters` params)."""
    for text in filters:
        parse_filter(text)
    return filters


class HitFilter:
    """Keeps hits of one collection, with paths matching a glob and metadata meeting conditions."""

    def __init__(self, collection: str = "", path: str = "", filters: Iterable[str] = ()):
        self.collection = collection
        self.path = path
        self.conditions = [parse_filter(text) for text in filters]

    @property
    def active(self) -> bool:
        """Whether it may leave anything out."""
        return bool(self.collection or self.path or self.conditions)

    def accepts(self, hit: Hit) -> bool:
        return (
            (not self.collection or hit.collection == self.collection)
            and (not self.path or fnmatch.fnmatch(hit.path, self.path))
            and all(matches(hit, *condition) for condition in self.conditions)
        )


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
