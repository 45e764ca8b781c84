"""The records stages pass to each other: slotted dataclasses, as millions must stay cheap."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class Document:
    """One source document; `id` is `collection/path` and stays stable across runs."""

    id: str
    collection: str
    path: str
    title: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    source: str = "files"
    first_line: int = 1  # the file's line number of text's first line (after front matter)


@dataclass(slots=True)
class Chunk:
    """A span of a document's text on line boundaries; lines are 1-based and inclusive."""

    id: str
    doc_id: str
    collection: str
    path: str
    title: str
    text: str
    line_start: int
    line_end: int
    metadata: dict[str, Any] = field(default_factory=dict)
    source: str = "files"


@dataclass(slots=True)
class Hit:
    """A search result that cites where it came from."""

    id: str
    chunk_id: str
    collection: str
    path: str
    title: str
    line_start: int
    line_end: int
    score: float
    passage: str
    source: str = "files"
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Skipped:
    """An input that could not be used, and why; reported, never fatal."""

    path: str
    reason: str


def to_plain(value: Any) -> Any:
    """Records (and lists/dicts of them) as JSON-ready plain data."""
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, list | tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value
