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
        metadata = json.loads(doc["metadata"] or "{}")
        document = {
            "id": doc["id"],
            "collection": doc["collection"],
            "path": doc["path"],
            "title": doc["title"],
            "source": doc["source"],
        }
        if doc["source"] == "transcripts":
            document.update(self._message(lines, metadata))
        else:
            first = doc["first_line"]
            start, end = first, first + len(lines) - 1
            if self.params.lines:
                start, end = parse_range(self.params.lines, start, end, doc["id"])
            document.update(
                line_start=start, line_end=end, text="\n".join(lines[start - first : end - first + 1])
            )
        if "*" not in self.params.fields:
            metadata = {k: v for k, v in metadata.items() if k in self.params.fields}
        return {"document": {**document, "metadata": metadata}}

    def _message(self, lines: list[str], metadata: dict[str, Any]) -> dict[str, Any]:
        """A transcript message: cited by its line(s) in the JSONL file, which `lines` may name to
        get it whole; any other range counts the lines inside the message, from 1."""
        file_start = int(metadata.get("line", 1))
        file_end = int(metadata.get("line_end", file_start))
        start, end = 1, len(lines)
        wanted = self.params.lines
        if wanted and wanted not in (f"{file_start}-{file_end}", str(file_start)):
            cited = f"{file_start}-{file_end}" if file_end != file_start else str(file_start)
            try:
                start, end = parse_range(wanted, 1, len(lines))
            except ValueError:
                raise ValueError(
                    f"lines {wanted} are outside {self.params.doc_id}: the message is line {cited} of its "
                    f"file (ask for {cited} to get it whole) and its text has lines 1-{len(lines)}"
                ) from None
        return {
            "line_start": file_start,
            "line_end": file_end,
            "message_line_start": start,
            "message_line_end": end,
            "text": "\n".join(lines[start - 1 : end]),
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
