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
    char_start: int = 0  # offsets into the document's text: text == doc.text[char_start:char_end]
    char_end: int = 0


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
    trust: str = ""  # the source's trust tier: fact, reference, lead or stale
    via: str = ""  # the retriever that found it (lexical, semantic, grep...); fusion groups by it
    # Every other place the same content was found: {source, id, collection, path, lines, trust}.
    corroboration: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class Skipped:
    """An input that could not be used, and why; reported, never fatal."""

    path: str
    reason: str


@dataclass(slots=True)
class FileRef:
    """A file under a collection's root, as scanned."""

    path: str  # relative to the root, with forward slashes
    size: int
    mtime_ns: int


@dataclass(slots=True)
class FileChanges:
    """What a scan of one collection found changed since the last committed run."""

    collection: str
    root: str
    changed: list[FileRef] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    postponed: list[str] = field(default_factory=list)  # changed too, left for the next batch
    # Files read only from where the last run stopped (appended transcripts): their earlier
    # documents stay. `cursors` carries, per file, what the reader needs to resume it next time.
    partial: list[str] = field(default_factory=list)
    cursors: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True)
class StoreChanges:
    """What one store commit changed, and the documents-table versions before and after it."""

    collection: str
    added: list[str] = field(default_factory=list)  # ids of new or changed documents
    removed: list[str] = field(default_factory=list)  # ids of deleted or changed documents
    previous_version: int = 0
    version: int = 0


def to_plain(value: Any) -> Any:
    """Records (and lists/dicts of them) as JSON-ready plain data."""
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, list | tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value
