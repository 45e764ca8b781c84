"""Reader for JSON Lines: one document per line, its id, title and text fields found by name or by
dotted path into nested objects (`fields.text`, `_source.title`: Vespa feeds, Elasticsearch hits)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, FileChanges, FileRef, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Example
from pica.stages.readers.base import FileReader, ReaderParams, Unreadable
from pica.stages.readers.decode import decode, strip_terminal_codes

MAX_META_CHARS = 2000  # other fields become metadata when their JSON is at most this long


class JsonlParams(ReaderParams):
    patterns: list[str] = Field(default=["*.jsonl", "*.ndjson"], description="File name patterns.")
    id_fields: list[str] = Field(
        default=["id", "_id", "docid", "doc_id", "element_id"],
        description="Fields (a.b for nested ones) tried in order for a record's id (else its line number).",
    )
    title_fields: list[str] = Field(
        default=["title", "name"], description="Fields for the title (a.b for nested ones)."
    )
    text_fields: list[str] = Field(
        default=["text", "contents", "content", "body"],
        description="Fields for the text (a.b for nested ones).",
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
        if text_field is None or not str(_get(record, text_field)).strip():
            raise Unreadable(f"no text in any of the fields {', '.join(self.params.text_fields)}")
        id_field = _first(record, self.params.id_fields)
        record_id = str(_get(record, id_field)) if id_field else f"line-{number}"
        if record_id in seen:
            raise Unreadable(f"repeats the id '{record_id}' of an earlier line")
        seen.add(record_id)
        title_field = _first(record, self.params.title_fields)
        rest = record
        for used in (text_field, id_field, title_field):
            rest = _without(rest, used)
        metadata = {k: v for k, v in rest.items() if len(json.dumps(v, default=str)) <= MAX_META_CHARS}
        return Document(
            id=f"{collection}/{relative}#{record_id}",
            collection=collection,
            path=relative,
            title=str(_get(record, title_field)) if title_field else f"{relative}#{record_id}",
            text=strip_terminal_codes(str(_get(record, text_field))),
            # No line number here: a record that merely moved must not count as changed.
            metadata={**metadata, "record_id": record_id},
        )


def _first(record: dict[str, Any], names: list[str]) -> str | None:
    return next((n for n in names if _get(record, n) not in (None, "")), None)


def _get(record: dict[str, Any], name: str) -> Any:
    """The field `name`, or for `a.b` the field b of the object in a (a key holding the dot wins)."""
    if name in record:
        return record[name]
    value: Any = record
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _without(record: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The record without the field `name` (copying only the objects on its path), so that a used
    field is not repeated in the metadata while its nested siblings stay."""
    if name is None:
        return record
    if name in record or "." not in name:
        return {k: v for k, v in record.items() if k != name}
    head, tail = name.split(".", 1)
    if not isinstance(record.get(head), dict):
        return record
    inner = _without(record[head], tail)
    return {**record, head: inner} if inner else {k: v for k, v in record.items() if k != head}
