"""LanceDB, the source of truth: documents (text stored once) and chunks (line spans + vectors).

Every write is a LanceDB commit, atomic on its own; a crash leaves each table at its last commit.
Chunks are written before documents, and documents before the catalog, so a replay after a crash
converges (see catalog.py). lancedb and pyarrow are imported only here, and only when needed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pica.kernel.files import write_atomically
from pica.kernel.records import Chunk, Document

VECTOR_DIM = 384
BATCH = 500  # ids per `IN (...)` filter
LAYOUT = 1  # of the LanceDB tables; MIGRATIONS[n] upgrades layout n to n + 1
LAYOUT_FILE = "layout.json"
PENDING_FILE = "replacing.json"  # collection -> ids of the documents a replace is changing
MIGRATIONS: dict[int, Any] = {}
COMPACT_AT = 32  # fragments of a table at which a commit compacts it
KEEP_VERSIONS_S = 3600  # old versions (and the text they hold) are deleted when compacting


def _without(mapping: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if k != key}


def sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(sql_text(v) for v in values)})"


def document_hash(doc: Document) -> str:
    payload = json.dumps(
        [doc.title, doc.text, doc.metadata, doc.first_line],
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]


def _schemas() -> tuple[Any, Any]:
    import pyarrow as pa

    documents = pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("collection", pa.string()),
            pa.field("path", pa.string()),
            pa.field("title", pa.string()),
            pa.field("text", pa.large_string()),
            pa.field("metadata", pa.string()),  # JSON
            pa.field("source", pa.string()),
            pa.field("hash", pa.string()),
            pa.field("first_line", pa.int32()),
        ]
    )
    chunks = pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("doc_id", pa.string()),
            pa.field("doc_hash", pa.string()),
            pa.field("collection", pa.string()),
            pa.field("path", pa.string()),
            pa.field("line_start", pa.int32()),
            pa.field("line_end", pa.int32()),
            pa.field("char_start", pa.int32()),
            pa.field("char_end", pa.int32()),
            pa.field("vector", pa.list_(pa.float32(), VECTOR_DIM), nullable=True),
        ]
    )
    return documents, chunks


class LanceStore:
    def __init__(self, lance_dir: str | Path):
        import lancedb

        self.dir = Path(lance_dir).expanduser()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(str(self.dir))
        self._upgrade()
        documents, chunks = _schemas()
        self.documents = self.db.create_table("documents", schema=documents, exist_ok=True)
        self.chunks = self.db.create_table("chunks", schema=chunks, exist_ok=True)

    def _upgrade(self) -> None:
        """Bring the tables to this Pica's layout, one migration at a time; refuse a newer one."""
        path = self.dir / LAYOUT_FILE
        found = json.loads(path.read_text())["layout"] if path.exists() else LAYOUT
        if found > LAYOUT:
            raise RuntimeError(
                f"{self.dir} was written by a newer Pica (layout {found}, this one "
                f"reads up to {LAYOUT}); upgrade Pica"
            )
        while found < LAYOUT:
            MIGRATIONS[found](self.db)
            found += 1
            self._write_layout(path, found)
        if not path.exists():
            self._write_layout(path, LAYOUT)

    @staticmethod
    def _write_layout(path: Path, layout: int) -> None:
        write_atomically(path, json.dumps({"layout": layout}))

    def documents_version(self) -> int:
        self.documents.checkout_latest()
        return self.documents.version

    def doc_hashes(self, collection: str) -> dict[str, tuple[str, str]]:
        """id -> (path, hash) of every document of a collection."""
        rows = self._select(self.documents, f"collection = {sql_text(collection)}", ["id", "path", "hash"])
        return {r["id"]: (r["path"], r["hash"]) for r in rows}

    def _pending(self) -> dict[str, list[str]]:
        path = self.dir / PENDING_FILE
        return json.loads(path.read_text()) if path.exists() else {}

    def repair(self, collection: str) -> set[str]:
        """Undo what a replace of COLLECTION that a crash interrupted left half done: delete the
        chunks of its documents that no stored document matches (a document not yet written or
        already removed, another hash, a chunk written twice). Returns the ids of its documents
        still stored, to be written again whatever their hash (their chunks may be gone)."""
        pending = self._pending()
        ids = pending.get(collection)
        if ids is None:
            return set()
        kept: set[str] = set()
        for start in range(0, len(ids), BATCH):
            batch = ids[start : start + BATCH]
            stored = self._select(self.documents, in_list("id", batch), ["id", "hash"])
            hashes = {d["id"]: d["hash"] for d in stored}
            kept |= hashes.keys()
            rows = self._select(self.chunks, in_list("doc_id", batch), ["id", "doc_id", "doc_hash"])
            seen: set[str] = set()
            bad = set()
            for row in rows:
                if hashes.get(row["doc_id"]) != row["doc_hash"] or row["id"] in seen:
                    bad.add(row["doc_id"])
                seen.add(row["id"])
            if bad:
                self.chunks.delete(in_list("doc_id", sorted(bad)))
        # A document no longer stored has nothing left to repair; one stored stays listed until a
        # replace writes it again (its file may come in a later batch).
        self._write_pending({**pending, collection: sorted(kept)} if kept else _without(pending, collection))
        return kept

    def _write_pending(self, pending: dict[str, list[str]]) -> None:
        path = self.dir / PENDING_FILE
        if pending:
            write_atomically(path, json.dumps(pending))
        else:
            path.unlink(missing_ok=True)

    def replace(
        self,
        added: list[tuple[Document, str]],
        chunks: list[Chunk],
        removed: list[str],
        collection: str | None = None,
    ) -> None:
        """Remove documents (and their chunks) by id, then add documents with their chunks.

        Four commits (chunks deleted, chunks added, documents deleted, documents added); until the
        last one lands, the ids are listed in PENDING_FILE, so a crash in between is repaired
        (`repair`) before the collection's next replace, which writes them all again."""
        import pyarrow as pa

        documents_schema, chunks_schema = _schemas()
        if collection is None:
            collection = added[0][0].collection if added else ""
        touched = sorted({d.id for d, _ in added} | set(removed))
        pending = self._pending()
        if touched:
            listed = sorted(set(pending.get(collection, [])) | set(touched))
            self._write_pending(pending | {collection: listed})
        for start in range(0, len(removed), BATCH):
            self.chunks.delete(in_list("doc_id", removed[start : start + BATCH]))
        hashes = {doc.id: digest for doc, digest in added}
        if chunks:
            self.chunks.add(
                pa.Table.from_pylist(
                    [
                        {
                            "id": c.id,
                            "doc_id": c.doc_id,
                            "doc_hash": hashes[c.doc_id],
                            "collection": c.collection,
                            "path": c.path,
                            "line_start": c.line_start,
                            "line_end": c.line_end,
                            "char_start": c.char_start,
                            "char_end": c.char_end,
                            "vector": None,
                        }
                        for c in chunks
                    ],
                    schema=chunks_schema,
                )
            )
        for start in range(0, len(removed), BATCH):
            self.documents.delete(in_list("id", removed[start : start + BATCH]))
        if added:
            self.documents.add(
                pa.Table.from_pylist(
                    [
                        {
                            "id": d.id,
                            "collection": d.collection,
                            "path": d.path,
                            "title": d.title,
                            "text": d.text,
                            "metadata": json.dumps(d.metadata, ensure_ascii=False, default=str),
                            "source": d.source,
                            "hash": digest,
                            "first_line": d.first_line,
                        }
                        for d, digest in added
                    ],
                    schema=documents_schema,
                )
            )
        pending = self._pending()
        left = sorted(set(pending.get(collection, [])) - set(touched))
        self._write_pending({**pending, collection: left} if left else _without(pending, collection))

    def compact(self) -> list[str]:
        """Compact a table once it has COMPACT_AT fragments: merge its fragments (rows and their
        deletions) into few, and delete the versions older than KEEP_VERSIONS_S (readers of an
        older one have that long). Changes no row; a crash during it leaves the last commit."""
        from datetime import timedelta

        compacted = []
        for name, table in (("documents", self.documents), ("chunks", self.chunks)):
            if table.stats()["fragment_stats"]["num_fragments"] < COMPACT_AT:
                continue
            try:
                table.optimize(cleanup_older_than=timedelta(seconds=KEEP_VERSIONS_S))
            except Exception:
                continue
            compacted.append(name)
        return compacted

    def iter_chunks(self, doc_ids: list[str] | None = None) -> Iterator[Chunk]:
        """Chunks with their text sliced from the stored documents (all, or of some documents)."""
        filters = (
            [None]
            if doc_ids is None
            else [in_list("id", doc_ids[s : s + BATCH]) for s in range(0, len(doc_ids), BATCH)]
        )
        for doc_filter in filters:
            docs = {
                d["id"]: d
                for d in self._select(
                    self.documents,
                    doc_filter,
                    ["id", "collection", "path", "title", "text", "metadata", "source"],
                )
            }
            if not docs:
                continue
            chunk_filter = in_list("doc_id", list(docs)) if doc_ids is not None else None
            for row in self._select(
                self.chunks,
                chunk_filter,
                ["id", "doc_id", "line_start", "line_end", "char_start", "char_end"],
            ):
                doc = docs.get(row["doc_id"])
                if doc is None:
                    continue  # a chunk whose document a crash left unwritten; replay removes it
                yield Chunk(
                    id=row["id"],
                    doc_id=row["doc_id"],
                    collection=doc["collection"],
                    path=doc["path"],
                    title=doc["title"],
                    text=doc["text"][row["char_start"] : row["char_end"]],
                    line_start=row["line_start"],
                    line_end=row["line_end"],
                    metadata=chunk_metadata(doc, row["char_start"], row["char_end"]),
                    source=doc["source"],
                    char_start=row["char_start"],
                    char_end=row["char_end"],
                )

    def pending(self, limit: int) -> list[tuple[str, str, str, str]]:
        """Up to `limit` chunks without a vector: (chunk id, doc hash, title, text)."""
        rows = self._select(
            self.chunks,
            "vector IS NULL",
            ["id", "doc_id", "doc_hash", "char_start", "char_end"],
            limit,
        )
        if not rows:
            return []
        doc_ids = sorted({r["doc_id"] for r in rows})
        docs = {}
        for start in range(0, len(doc_ids), BATCH):
            for d in self._select(
                self.documents,
                in_list("id", doc_ids[start : start + BATCH]),
                ["id", "title", "text", "hash"],
            ):
                docs[d["id"]] = d
        found = []
        for r in rows:
            doc = docs.get(r["doc_id"])
            if doc is not None and doc["hash"] == r["doc_hash"]:
                found.append(
                    (
                        r["id"],
                        r["doc_hash"],
                        doc["title"],
                        doc["text"][r["char_start"] : r["char_end"]],
                    )
                )
        return found

    def write_vectors(self, rows: list[tuple[str, str]], vectors: Any) -> None:
        """Set vectors of (chunk id, doc hash) rows, only where the chunk still has that hash."""
        import pyarrow as pa

        table = pa.table(
            {
                "id": [r[0] for r in rows],
                "doc_hash": [r[1] for r in rows],
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.reshape(-1), pa.float32()), VECTOR_DIM
                ),
            }
        )
        (
            self.chunks.merge_insert("id")
            .when_matched_update_all(where="target.doc_hash = source.doc_hash")
            .execute(table)
        )

    def documents_where(self, where: str | None, columns: list[str]) -> list[dict[str, Any]]:
        return self._select(self.documents, where, columns)

    def folder(self, collection: str, folder: str = "") -> dict[str, Any]:
        """What a collection holds in FOLDER ('' its top), read only: `folders`, each sub-folder
        with how many documents lie under it; `documents`, each path right there with its first
        document's id and title, its document count (a transcript's messages) and chunk count."""
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        where = f"collection = {sql_text(collection)}"
        folders: dict[str, int] = {}
        documents: dict[str, dict[str, Any]] = {}
        for row in self._select(self.documents, where, ["id", "path", "title", "source"]):
            path = row["path"] or ""
            if not path.startswith(prefix):
                continue
            rest = path[len(prefix) :]
            if "/" in rest:
                name = rest.split("/", 1)[0]
                folders[name] = folders.get(name, 0) + 1
                continue
            entry = documents.setdefault(
                path, {"id": row["id"], "path": path, "title": row["title"] or "", "source": row["source"],
                       "documents": 0, "chunks": 0},
            )  # fmt: skip
            entry["documents"] += 1
            if row["id"] < entry["id"]:
                entry["id"], entry["title"] = row["id"], row["title"] or ""
        if documents:
            for row in self._select(self.chunks, where, ["path"]):
                if row["path"] in documents:
                    documents[row["path"]]["chunks"] += 1
        return {
            "folders": sorted(folders.items()),
            "documents": [documents[p] for p in sorted(documents)],
        }

    def metadata_fields(self, collection: str, sample: int = 500) -> list[str]:
        """The metadata (front-matter) field names of a collection, from up to `sample` documents."""
        rows = self._select(self.documents, f"collection = {sql_text(collection)}", ["metadata"], sample)
        return sorted({key for row in rows for key in json.loads(row["metadata"] or "{}")})

    def about(self, collection: str) -> dict[str, Any]:
        """A collection's source, document count and metadata fields, for the catalog."""
        where = f"collection = {sql_text(collection)}"
        rows = self._select(self.documents, where, ["source"], 1)
        return {
            "source": rows[0]["source"] if rows else "files",
            "documents": self.documents.count_rows(where),
            "fields": self.metadata_fields(collection),
        }

    def counts(self) -> dict[str, dict[str, Any]]:
        """collection -> source, documents, chunks, embedded chunks."""
        out: dict[str, dict[str, Any]] = {}
        for row in self._select(self.documents, None, ["collection", "source"]):
            entry = out.setdefault(row["collection"], {"documents": 0, "source": row["source"]})
            entry["documents"] += 1
        for collection, entry in out.items():
            where = f"collection = {sql_text(collection)}"
            entry["chunks"] = self.chunks.count_rows(where)
            entry["embedded"] = self.chunks.count_rows(f"{where} AND vector IS NOT NULL")
        return out

    def remove_collection(self, collection: str) -> None:
        self.chunks.delete(f"collection = {sql_text(collection)}")
        self.documents.delete(f"collection = {sql_text(collection)}")

    @staticmethod
    def _select(
        table: Any, where: str | None, columns: list[str], limit: int | None = None
    ) -> list[dict[str, Any]]:
        query = table.search().select(columns).limit(limit)
        if where:
            query = query.where(where)
        return query.to_arrow().to_pylist()


def chunk_metadata(doc: dict[str, Any], char_start: int, char_end: int) -> dict[str, Any]:
    """A chunk's metadata: its document's, and for a transcript message the lines of the message
    the chunk spans (its citation is the message's line in the file)."""
    from pica.stages.chunk import message_lines

    metadata = json.loads(doc["metadata"] or "{}")
    if doc["source"] == "transcripts":
        metadata.update(message_lines(doc["text"], char_start, char_end))
    return metadata
