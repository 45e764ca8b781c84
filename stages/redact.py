"""Replace secrets with `[REDACTED:<class>]` wherever outside text enters Pica.

Everything a user or an agent can read back passes through `redact` (`stages/secrets/`) once:
documents before they are stored (`redact.secrets.v1`: text, title, metadata, path and id), and
hits read at query time from places Pica does not index (the knowledge graph, the web, a vector
table: `redact_hit`, called by those providers; `redact.hits.v1` for any other stage, such as a
summarizer, whose text was never stored).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from pica.kernel.records import Document, Hit, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.secrets import redact

MARK = "[REDACTED:"  # what a redaction leaves in the text


def stored_path(path: str, found: Counter[str] | None = None) -> str:
    """A file's relative path as the indexes keep and show it: its secrets redacted and, when it
    had any, a short hash of the real path before the extension, so that two files differing only
    in a secret stay two documents. The catalog keeps the real path, to find the file again."""
    shown = redact(path, found)
    if shown is path:
        return path
    digest = hashlib.sha256(path.encode()).hexdigest()[:8]
    folder, slash, name = shown.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    if not stem or "]" in suffix:
        stem, dot, suffix = name, "", ""
    return f"{folder}{slash}{stem}~{digest}{dot}{suffix}"


def count_line(found: Counter[str] | dict[str, int]) -> str:
    """`3 secrets: github_token 2, slack_token 1`, the most frequent class first."""
    ordered = sorted(found.items(), key=lambda item: (-item[1], item[0]))
    return f"{sum(found.values())} secrets: " + ", ".join(f"{kind} {n}" for kind, n in ordered)


class RedactParams(Params):
    pass


@stage
class RedactSecrets(Stage):
    """Redact secrets in each document's text, title, metadata, path and id; report how many per
    class. Outputs the counts per file (real path, for the catalog) and for the run, and the
    skipped files with their paths and reasons redacted, for display."""

    id = "redact.secrets.v1"
    Params = RedactParams
    inputs = {"documents": list[Document], "skipped": list[Skipped]}
    outputs = {"documents": list[Document], "per_file": dict, "counts": dict, "skipped": list[Skipped]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        doc = Document("c/a.md", "c", "a.md", "A", "token: ghp_" + "aB3dE5" * 6 + "\n")
        return Example(params={}, inputs={"documents": [doc], "skipped": [Skipped("b.pdf", "broken")]})

    def run(self, ctx: Context, documents: list[Document], skipped: list[Skipped]) -> dict[str, Any]:
        per_file: dict[str, Counter[str]] = {}
        paths: dict[str, str] = {}
        out = []
        for doc in documents:
            found = per_file.setdefault(doc.path, Counter())
            if doc.path not in paths:  # a file's path is counted once, not once per document
                paths[doc.path] = stored_path(doc.path, found)
            out.append(redact_document(doc, paths[doc.path], found))
        counts: Counter[str] = sum(per_file.values(), Counter())
        if counts:
            ctx.report("redacted " + count_line(counts))
        shown = [Skipped(redact(s.path), redact(s.reason)) for s in skipped]
        return {
            "documents": out,
            "per_file": {path: dict(found) for path, found in per_file.items() if found},
            "counts": dict(counts.most_common()),
            "skipped": shown,
        }


def redact_document(doc: Document, path: str, found: Counter[str]) -> Document:
    """The document with its secrets redacted (the same object when it had none); `path` is its
    stored path, which replaces the real one at the head of its id (`collection/path...`)."""
    text = redact(doc.text, found)
    title = redact(doc.title, found)
    metadata = redact_value(doc.metadata, found)
    head = f"{doc.collection}/{doc.path}"
    if doc.id.startswith(head):
        tail = doc.id[len(head) :]
        new_tail = redact(tail, found)
        doc_id = doc.id if path is doc.path and new_tail is tail else f"{doc.collection}/{path}{new_tail}"
    else:
        doc_id = redact(doc.id, found)
    if (text, title, metadata, path, doc_id) == (doc.text, doc.title, doc.metadata, doc.path, doc.id):
        return doc
    return replace(doc, id=doc_id, path=path, text=text, title=title, metadata=metadata)


def redact_value(value: Any, found: Counter[str] | None = None) -> Any:
    """Strings inside metadata (nested dicts and lists too), redacted; unchanged values kept as is."""
    if isinstance(value, str):
        return redact(value, found)
    if isinstance(value, dict):
        items = {k: redact_value(v, found) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in value) else value
    if isinstance(value, list):
        values = [redact_value(v, found) for v in value]
        return values if any(a is not b for a, b in zip(values, value, strict=True)) else value
    return value


def redact_hit(hit: Hit, found: Counter[str] | None = None) -> Hit:
    """A hit with the secrets in everything it shows redacted (the same object when it had none):
    for text that reaches a caller without having been stored (a provider read at query time, a
    summary)."""
    fields = {
        name: redact_value(getattr(hit, name), found)
        for name in ("id", "chunk_id", "path", "title", "passage", "metadata", "corroboration")
    }
    changed = {name: value for name, value in fields.items() if value is not getattr(hit, name)}
    return replace(hit, **changed) if changed else hit


class RedactHitsParams(Params):
    pass


@stage
class RedactHits(Stage):
    """Redact secrets in hits whose text was never stored (and so never redacted at ingest): what a
    summarizer writes, or a third-party provider reads; Pica's own providers redact already."""

    id = "redact.hits.v1"
    Params = RedactHitsParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        hit = Hit("x", "x", "c", "x", "X", 1, 1, 1.0, "token: ghp_" + "aB3dE5" * 6)
        return Example(params={}, inputs={"hits": [hit]})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        return {"hits": [redact_hit(hit) for hit in hits]}
