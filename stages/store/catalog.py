"""The catalog: which files each collection had at its last committed run, and the write lock.

SQLite (stdlib, transactional) so that a run that finds nothing changed needs neither LanceDB
nor Tantivy. It is written only after LanceDB has committed, so after a crash it can lag behind
LanceDB but never run ahead of it: a lagging entry makes the next run read that file again, and
the store's content hashes make the replay a no-op.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    collection TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    status TEXT NOT NULL,          -- ok | skipped
    reason TEXT NOT NULL DEFAULT '',
    documents INTEGER NOT NULL DEFAULT 0,
    indexed_at REAL NOT NULL,
    PRIMARY KEY (collection, path)
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cursors (   -- where a reader resumes an append-only file (transcripts)
    collection TEXT NOT NULL,
    path TEXT NOT NULL,
    cursor TEXT NOT NULL,          -- JSON, the reader's own
    PRIMARY KEY (collection, path)
);
CREATE TABLE IF NOT EXISTS redactions (  -- secrets redacted in each file as it is now indexed
    collection TEXT NOT NULL,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,            -- the secret's class: github_token, private_key ...
    n INTEGER NOT NULL,
    PRIMARY KEY (collection, path, kind)
);
"""


class Catalog:
    def __init__(self, home: str | Path):
        self.home = Path(home).expanduser()
        self.home.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.home / "catalog.sqlite", timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def files(self, collection: str) -> dict[str, tuple[int, int, str]]:
        """path -> (size, mtime_ns, status) as of the last committed run."""
        rows = self.db.execute(
            "SELECT path, size, mtime_ns, status FROM files WHERE collection = ?", (collection,)
        )
        return {path: (size, mtime, status) for path, size, mtime, status in rows}

    def skipped(self, collection: str | None = None) -> list[tuple[str, str, str]]:
        """(collection, path, reason) of files that could not be read."""
        query = "SELECT collection, path, reason FROM files WHERE status = 'skipped'"
        args: tuple = ()
        if collection is not None:
            query += " AND collection = ?"
            args = (collection,)
        return list(self.db.execute(query + " ORDER BY collection, path", args))

    def cursors(self, collection: str) -> dict[str, dict]:
        """path -> the cursor its reader left at the last committed run."""
        rows = self.db.execute("SELECT path, cursor FROM cursors WHERE collection = ?", (collection,))
        return {path: json.loads(cursor) for path, cursor in rows}

    def record(
        self,
        collection: str,
        seen: list[tuple[str, int, int, str, str, int]],
        deleted: list[str],
        documents_version: int,
        cursors: dict[str, dict] | None = None,
        redactions: dict[str, dict[str, int]] | None = None,
        partial: set[str] = frozenset(),
        about: dict[str, Any] | None = None,
    ) -> None:
        """Commit one run: (path, size, mtime_ns, status, reason, documents) rows, deletions,
        readers' cursors, the secrets redacted per file read (added to a file's earlier count when
        it was read from where it stopped, in `partial`; replacing it otherwise), what the
        collection is now (`about`: its source and metadata fields) and the LanceDB documents
        version they agree with, in one transaction."""
        now = time.time()
        redactions = redactions or {}
        with self.db:
            self.db.executemany(
                "DELETE FROM redactions WHERE collection = ? AND path = ?",
                [(collection, path) for path in [*deleted, *redactions] if path not in partial],
            )
            self.db.executemany(
                "INSERT INTO redactions VALUES (?, ?, ?, ?) "
                "ON CONFLICT (collection, path, kind) DO UPDATE SET n = n + excluded.n",
                [
                    (collection, path, kind, n)
                    for path, found in redactions.items()
                    for kind, n in found.items()
                ],
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO cursors VALUES (?, ?, ?)",
                [(collection, path, json.dumps(c)) for path, c in (cursors or {}).items()],
            )
            self.db.executemany(
                "DELETE FROM cursors WHERE collection = ? AND path = ?",
                [(collection, path) for path in deleted],
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(collection, *row, now) for row in seen],
            )
            self.db.executemany(
                "DELETE FROM files WHERE collection = ? AND path = ?",
                [(collection, path) for path in deleted],
            )
            if about is not None:
                self.set(f"about/{collection}", json.dumps(about))
            self.set("documents_version", str(documents_version))

    def reread_unless_redacted_with(self, collection: str, rules: str) -> bool:
        """Unless the collection's text was redacted by `rules` (a fingerprint of the redaction
        code), mark each of its files changed and drop their cursors, so that the runs from now on
        read every file whole again, in batches, through the usual path: a run killed halfway
        leaves the rest still marked. True when it marked them."""
        key = f"redaction/{collection}"
        if self.get(key) == rules:
            return False
        with self.db:
            marked = self.db.execute("UPDATE files SET mtime_ns = -1 WHERE collection = ?", (collection,))
            self.db.execute("DELETE FROM cursors WHERE collection = ?", (collection,))
            self.set(key, rules)
        return marked.rowcount > 0

    def forget(self, collection: str, documents_version: int) -> None:
        with self.db:
            self.db.execute("DELETE FROM files WHERE collection = ?", (collection,))
            self.db.execute("DELETE FROM cursors WHERE collection = ?", (collection,))
            self.db.execute("DELETE FROM redactions WHERE collection = ?", (collection,))
            self.db.execute(
                "DELETE FROM state WHERE key IN (?, ?)", (f"about/{collection}", f"redaction/{collection}")
            )
            self.set("documents_version", str(documents_version))

    def summary(self) -> dict[str, dict[str, float]]:
        """collection -> files, skipped, last indexed time."""
        rows = self.db.execute(
            "SELECT collection, COUNT(*), SUM(status = 'skipped'), MAX(indexed_at) "
            "FROM files GROUP BY collection"
        )
        return {c: {"files": n, "skipped": s or 0, "indexed_at": t} for c, n, s, t in rows}

    def overview(self) -> dict[str, dict[str, Any]]:
        """collection -> documents, source and metadata fields as of its last committed run: what
        an MCP client is told on connecting, read without opening LanceDB (that import alone costs
        a second). Fields are None for a collection last indexed before they were recorded."""
        rows = self.db.execute(
            "SELECT collection, SUM(documents) FROM files WHERE status = 'ok' GROUP BY collection"
        )
        out = {}
        for collection, documents in rows:
            about = json.loads(self.get(f"about/{collection}") or "{}")
            out[collection] = {
                "documents": about.get("documents", documents or 0),
                "source": about.get("source", "files"),
                "fields": about.get("fields"),
            }
        return out

    def redactions(self) -> dict[str, dict[str, int]]:
        """collection -> {class: secrets redacted in its files as they are indexed now}."""
        rows = self.db.execute(
            "SELECT collection, kind, SUM(n) FROM redactions GROUP BY collection, kind "
            "ORDER BY collection, SUM(n) DESC, kind"
        )
        found: dict[str, dict[str, int]] = {}
        for collection, kind, n in rows:
            found.setdefault(collection, {})[kind] = n
        return found

    def get(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO state VALUES (?, ?)", (key, value))


@contextlib.contextmanager
def writer_lock(home: str | Path, waiting: Callable[[str], None] = print) -> Iterator[None]:
    """One writer at a time per PICA_HOME; a second one waits, saying who it waits for.

    flock is released by the kernel when the holder dies, even by SIGKILL, so a crash never
    leaves a stale lock behind.
    """
    path = Path(home).expanduser() / "writer.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            waiting(f"another indexer (pid {holder}) is writing to {path.parent}; waiting for it")
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
