"""Running ingest recipes and reading back everything the indexes hold, for comparisons."""

from __future__ import annotations

import json
import socket
from typing import Any

from pica.kernel import runner
from pica.kernel.settings import Settings


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def claude_line(n: int, text: str, session: str) -> str:
    """Line n of a Claude Code transcript: a user message in project /work/ledger."""
    return json.dumps({
        "type": "user", "timestamp": f"2026-05-01T10:0{n}:00Z", "cwd": "/work/ledger", "sessionId": session,
        "uuid": f"u{n}", "message": {"role": "user", "content": [{"type": "text", "text": text}]},
    })  # fmt: skip


def make_folder(root, files: dict[str, str]):
    """A folder holding `files` (relative path -> text)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def index(path, collection: str, **options: Any) -> dict[str, Any]:
    return runner.run(
        "ingest/files", variables={"path": str(path), "collection": collection, **options}
    ).output


def embed(embedder: str = "embed.hash.v1") -> dict[str, Any]:
    return runner.run("ingest/embed", variables={"embedder": embedder}).output


def search(query: str, **variables: Any) -> list:
    return runner.run("search/lexical", variables={"query": query, **variables}).output


def snapshot() -> dict[str, Any]:
    """Everything both indexes and the catalog hold, in comparable form."""
    import tantivy

    from pica.stages.index.keyword_index import open_for_search, read_marker
    from pica.stages.store.catalog import Catalog
    from pica.stages.store.lance_store import LanceStore

    home = Settings().home
    store = LanceStore(home / "lance")
    documents = {d["id"]: d["hash"] for d in store._select(store.documents, None, ["id", "hash"])}
    chunks = {
        c["id"]: (
            c["doc_id"],
            c["doc_hash"],
            c["line_start"],
            c["line_end"],
            c["char_start"],
            c["char_end"],
            None if c["vector"] is None else tuple(round(x, 4) for x in c["vector"][:8]),
        )
        for c in store._select(
            store.chunks,
            None,
            ["id", "doc_id", "doc_hash", "line_start", "line_end", "char_start", "char_end", "vector"],
        )
    }
    index = open_for_search(home / "tantivy")
    searcher = index.searcher()
    hits = searcher.search(tantivy.Query.all_query(), limit=max(searcher.num_docs, 1)).hits
    keyword = sorted(searcher.doc(address)["chunk_id"][0] for _, address in hits)
    with Catalog(home) as catalog:
        files = {(c, p): r for c, p, r in catalog.skipped()}
        version = catalog.get("documents_version")
    return {
        "documents": documents,
        "chunks": chunks,
        "keyword": keyword,
        "skipped": files,
        "in_step": read_marker(home / "tantivy").get("lance_version") == store.documents_version(),
        "catalog_version_ok": int(version or 0) == store.documents_version(),
    }
