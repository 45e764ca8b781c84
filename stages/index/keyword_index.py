"""The Tantivy keyword index over chunks: its schema, its layout version, and opening it safely."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path
from typing import Any

from pica.kernel.files import write_atomically
from pica.kernel.records import Hit
from pica.stages.trust import Trust, tier

LAYOUT = 4  # bump when the schema changes: an index of another layout is rebuilt, never misread
MARKER = "pica-layout.json"  # {"layout": N, "lance_version": V}: what the index reflects
SEARCH_FIELDS = ["title", "text", "meta", "path"]

# Han, kana and Hangul are written without spaces, so each character is a token of its own and a
# query's run of them is searched as a phrase (or overlapping bigram phrases, as Lucene's CJK
# analyzer does); every other run of letters and digits is a word, as Tantivy's simple tokenizer
# has it. docs/benchmarks.md has the measurement.
TOKEN_PATTERN = (
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"
    r"|[\p{Alphabetic}\p{N}--\p{Han}--\p{Hiragana}--\p{Katakana}--\p{Hangul}]+"
)
STEMMED = "pica_stem"  # words lower-cased, accents folded, English-stemmed: title, text, meta
WORDS = "pica_words"  # the same without stemming: path
FIELD_ANALYZER = {"title": STEMMED, "text": STEMMED, "meta": STEMMED, "path": WORDS}


class IndexMissing(FileNotFoundError):
    pass


def build_schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    builder.add_text_field("doc_id", stored=True, tokenizer_name="raw")
    builder.add_text_field("collection", stored=True, tokenizer_name="raw")
    builder.add_text_field("source", stored=True, tokenizer_name="raw")
    builder.add_text_field("path", stored=True, tokenizer_name=WORDS)
    builder.add_text_field("title", stored=True, tokenizer_name=STEMMED)
    builder.add_text_field("text", stored=True, tokenizer_name=STEMMED)
    builder.add_text_field("meta", stored=False, tokenizer_name=STEMMED)
    builder.add_json_field("metadata", stored=False)  # searchable by key, for meta: queries
    builder.add_bytes_field("metadata_json", stored=True, indexed=False)  # returned exactly
    builder.add_integer_field("line_start", stored=True)
    builder.add_integer_field("line_end", stored=True)
    return builder.build()


@functools.cache
def analyzer(name: str) -> Any:
    """The Tantivy analyzer `name` (STEMMED or WORDS), for indexing and for analysing queries."""
    import tantivy

    builder = (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(TOKEN_PATTERN))
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
    )
    if name == STEMMED:
        builder = builder.filter(tantivy.Filter.stemmer("english"))
    return builder.build()


def _with_analyzers(index: Any) -> Any:
    for name in (STEMMED, WORDS):
        index.register_tokenizer(name, analyzer(name))
    return index


def read_marker(index_dir: str | Path) -> dict[str, Any]:
    try:
        return json.loads((Path(index_dir).expanduser() / MARKER).read_text())
    except (OSError, ValueError):
        return {}


def write_marker(index_dir: str | Path, lance_version: int) -> None:
    marker = json.dumps({"layout": LAYOUT, "lance_version": lance_version})
    write_atomically(Path(index_dir).expanduser() / MARKER, marker)


def stored_hit(doc: Any, score: float, trust: Trust, via: str) -> Hit:
    """A hit from the fields the index stores for a chunk (passage = the chunk's text)."""
    fields = doc.to_dict()

    def first(name: str, default: Any = "") -> Any:
        return (fields.get(name) or [default])[0]

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
        trust=tier(trust, first("source")),
        via=via,
    )


def open_for_search(index_dir: str | Path) -> Any:
    """The index as it is, for reading; a writer keeps it in step with LanceDB."""
    import tantivy

    directory = Path(index_dir).expanduser()
    marker = read_marker(directory)
    if not marker:
        raise IndexMissing(f"no keyword index at {directory}; add a collection and run `pica index`")
    if marker.get("layout") != LAYOUT:
        raise IndexMissing(f"the keyword index at {directory} has an old layout; run `pica index`")
    return _with_analyzers(tantivy.Index(build_schema(), path=str(directory), reuse=True))


def open_for_writing(index_dir: str | Path) -> tuple[Any, bool]:
    """(index, fresh): an index of another layout, or none, is replaced by an empty one."""
    import tantivy

    directory = Path(index_dir).expanduser()
    if directory.exists() and read_marker(directory).get("layout") != LAYOUT:
        shutil.rmtree(directory)  # derived data: rebuilt from LanceDB by the caller
    fresh = not directory.exists()
    directory.mkdir(parents=True, exist_ok=True)
    return _with_analyzers(tantivy.Index(build_schema(), path=str(directory), reuse=not fresh)), fresh


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
