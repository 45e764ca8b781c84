"""Reader for JSON Lines: one document per line, its id, title and text fields found by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, FileChanges, FileRef, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Example
from pica.stages.readers.base import FileReader, ReaderParams, Unreadable
from pica.stages.readers.decode import decode

MAX_META_CHARS = 2000  # other fields become metadata when their JSON is at most this long


class JsonlParams(ReaderParams):
    patterns: list[str] = Field(default=["*.jsonl", "*.ndjson"], description="File name patterns.")
    id_fields: list[str] = Field(
        default=["id", "_id", "docid", "doc_id", "element_id"],
        description="Field names tried in order for a record's id (else its line number).",
    )
    title_fields: list[str] = Field(default=["title", "name"], description="Fields for the title.")
    text_fields: list[str] = Field(
        default=["text", "contents", "content", "body"], description="Fields for the text."
    )


@stage
class ReadJsonl(FileReader):
    """Read JSON Lines files, one document per record; bad lines are skipped and reported."""

    id = "read.jsonl.v1"
    Params = JsonlParams

    @classmethod
    def example(cls, workdir: Path) -> Example:
        (workdir / "d.jsonl").write_text('{"id": "1", "text": "first"}\n{"id": "2", "text": "two"}\n')
        files = FileChanges("c", str(workdir), changed=[FileRef("d.jsonl", 56, 0)])
        return Example(params={}, inputs={"files": files})

    def read_file(
        self, path: Path, relative: str, collection: str, problems: list[Skipped]
    ) -> list[Document]:
        text, _ = decode(path.read_bytes())
        documents: list[Document] = []
        seen: set[str] = set()
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                documents.append(self._record(line, number, relative, collection, seen))
            except Unreadable as problem:
                problems.append(Skipped(f"{relative}:{number}", str(problem)))
        return documents

    def _record(self, line: str, number: int, relative: str, collection: str, seen: set[str]) -> Document:
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise Unreadable(f"not JSON ({error.msg} at column {error.colno})") from None
        if not isinstance(record, dict):
            raise Unreadable(f"a JSON {type(record).__name__}, not an object")
        text_field = _first(record, self.params.text_fields)
        if text_field is None or not str(record[text_field]).strip():
            raise Unreadable(f"no text in any of the fields {', '.join(self.params.text_fields)}")
        id_field = _first(record, self.params.id_fields)
        record_id = str(record[id_field]) if id_field else f"line-{number}"
        if record_id in seen:
            raise Unreadable(f"repeats the id '{record_id}' of an earlier line")
        seen.add(record_id)
        title_field = _first(record, self.params.title_fields)
        used = {text_field, id_field, title_field}
        metadata = {
            k: v
            for k, v in record.items()
            if k not in used and len(json.dumps(v, default=str)) <= MAX_META_CHARS
        }
        return Document(
            id=f"{collection}/{relative}#{record_id}",
            collection=collection,
            path=relative,
            title=str(record[title_field]) if title_field else f"{relative}#{record_id}",
            text=str(record[text_field]),
            # No line number here: a record that merely moved must not count as changed.
            metadata={**metadata, "record_id": record_id},
        )


def _first(record: dict[str, Any], names: list[str]) -> str | None:
    return next((n for n in names if record.get(n) not in (None, "")), None)
