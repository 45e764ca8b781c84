"""One document, or a range of its lines, as the index stores it (never read from the file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.store.lance_store import LanceStore, sql_text


class FetchParams(Params):
    lance_dir: str = Field(description="The LanceDB database.")
    doc_id: str = Field(description="The document: collection/path (JSON Lines records: path#id).")
    lines: str = Field("", description="FIRST-LAST file lines, e.g. 14-23; empty for all.")
    fields: list[str] = Field(default=["*"], description="Metadata fields to include; * for all.")


@stage
class FetchDocument(Stage):
    """Return a stored document's text (or a line range of it) with its metadata."""

    id = "fetch.document.v1"
    Params = FetchParams
    outputs = {"document": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.store.write import StoreLance

        store = StoreLance.example(workdir)
        StoreLance(StoreLance.Params(**store.params)).run(Context(), **store.inputs)
        return Example(params={"lance_dir": store.params["lance_dir"], "doc_id": "c/a.md"})

    def run(self, ctx: Context) -> dict[str, Any]:
        store = LanceStore(self.params.lance_dir)
        rows = store._select(
            store.documents,
            f"id = {sql_text(self.params.doc_id)}",
            ["id", "collection", "path", "title", "text", "metadata", "source", "first_line"],
        )
        if not rows:
            raise LookupError(
                f"no document '{self.params.doc_id}' in the index (ids look like collection/path)"
            )
        doc = rows[0]
        lines = doc["text"].split("\n")
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()  # the newline that ends the last line does not start another
        first = doc["first_line"]
        start, end = first, first + len(lines) - 1
        if self.params.lines:
            start, end = parse_range(self.params.lines, start, end, doc["id"])
        metadata = json.loads(doc["metadata"] or "{}")
        if "*" not in self.params.fields:
            metadata = {k: v for k, v in metadata.items() if k in self.params.fields}
        return {
            "document": {
                "id": doc["id"],
                "collection": doc["collection"],
                "path": doc["path"],
                "title": doc["title"],
                "source": doc["source"],
                "line_start": start,
                "line_end": end,
                "text": "\n".join(lines[start - first : end - first + 1]),
                "metadata": metadata,
            }
        }


def parse_range(text: str, first: int, last: int, doc_id: str = "the document") -> tuple[int, int]:
    """`14-23`, `14-` or `14` as (start, end) within [first, last]; ValueError when the range is
    not one or holds none of those lines (a range partly outside is cut to them)."""
    begin, dash, finish = text.partition("-")
    try:
        start = int(begin) if begin.strip() else first
        end = int(finish) if finish.strip() else (last if dash else start)
    except ValueError:
        raise ValueError(f"lines '{text}' must look like 14-23") from None
    if start > end:
        raise ValueError(f"lines '{text}': the first line comes after the last")
    if end < first or start > last:
        raise ValueError(f"lines {text} are outside {doc_id}: its text is lines {first}-{last}")
    return max(start, first), min(end, last)
