"""The Tantivy keyword index over chunks: its schema, its layout version, and opening it safely."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

LAYOUT = 1  # bump when the schema changes; an index of another layout is refused, never misread
LAYOUT_FILE = "pica-layout.json"
SEARCH_FIELDS = ["title", "text", "meta", "path"]


class IndexMissing(FileNotFoundError):
    pass


def build_schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    builder.add_text_field("doc_id", stored=True, tokenizer_name="raw")
    builder.add_text_field("collection", stored=True, tokenizer_name="raw")
    builder.add_text_field("source", stored=True, tokenizer_name="raw")
    builder.add_text_field("path", stored=True)
    builder.add_text_field("title", stored=True, tokenizer_name="en_stem")
    builder.add_text_field("text", stored=True, tokenizer_name="en_stem")
    builder.add_text_field("meta", stored=False, tokenizer_name="en_stem")
    builder.add_json_field("metadata", stored=True)
    builder.add_integer_field("line_start", stored=True)
    builder.add_integer_field("line_end", stored=True)
    return builder.build()


def open_index(index_dir: str | Path, create: bool) -> Any:
    """The index at index_dir; created when `create` and absent. Refuses another layout."""
    import tantivy

    directory = Path(index_dir).expanduser()
    layout_file = directory / LAYOUT_FILE
    if not layout_file.exists():
        if not create:
            raise IndexMissing(f"no keyword index at {directory}; run an ingest recipe first")
        directory.mkdir(parents=True, exist_ok=True)
        index = tantivy.Index(build_schema(), path=str(directory))
        _write_atomically(layout_file, json.dumps({"layout": LAYOUT}))
        return index
    found = json.loads(layout_file.read_text()).get("layout")
    if found != LAYOUT:
        raise RuntimeError(
            f"the keyword index at {directory} has layout {found}, this Pica reads layout "
            f"{LAYOUT}; delete the folder and ingest again"
        )
    return tantivy.Index(build_schema(), path=str(directory), reuse=True)


def meta_text(metadata: dict[str, Any]) -> str:
    """Front-matter values as searchable words (nested values flattened)."""
    parts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif value is not None and not isinstance(value, bool):
            parts.append(str(value))

    walk({k: v for k, v in metadata.items() if k != "encoding"})
    return "\n".join(parts)


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
