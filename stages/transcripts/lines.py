"""What every transcript format shares: messages as records, and reading a JSON Lines file from
where the last run stopped.

A transcript is an append-only journal. The cursor a reader leaves for a file is the byte offset
it resumes at and a hash of every byte before it; next time, if the file still starts with those
bytes it only grew, and is read from the offset; otherwise (rewritten in place, even at the same
size, or truncated) it is read again from the start and its earlier documents are replaced.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(slots=True)
class Message:
    """One thing said or done in a session: text, thinking, a tool call or a tool's result."""

    key: str  # unique within its file and stable across runs: the document id's tail
    role: str  # user | assistant | tool | system
    kind: str  # text | thinking | tool_call | tool_result | summary | context | compaction | ...
    text: str
    line: int  # 1-based line of the file where it starts
    timestamp: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # tool name, model, agent id ...
    line_end: int = 0  # the file line it ends on, when blocks on later lines were merged into it


@dataclass(slots=True)
class Line:
    number: int  # 1-based
    offset: int  # byte offset of the line's start
    end: int  # byte offset just past its newline
    value: Any  # the parsed JSON, or None when the line is not JSON


@dataclass(slots=True)
class Read:
    """What reading a file gave: its lines from `start`, and where a resumed read must begin."""

    lines: list[Line]
    start: int  # byte offset the read began at (0: the whole file)
    first_line: int  # line number of the first line read
    complete_end: int  # offset just past the last newline-terminated line
    complete_lines: int  # how many lines end before complete_end


@dataclass(slots=True)
class Parsed:
    """A format's reading of some lines."""

    messages: list[Message]
    context: dict[str, Any]  # session id, cwd ... carried in the cursor to the next resumed read
    resume: tuple[int, int] | None = None  # (offset, line) to resume at, if before the read's end
    restart: bool = False  # the new lines rewrite earlier ones (a rewind): read the whole file


def head_hash(path: Path, length: int) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        remaining = length
        while remaining > 0:
            block = handle.read(min(remaining, 1 << 20))
            if not block:
                break
            digest.update(block)
            remaining -= len(block)
    return digest.hexdigest()


def resume_point(path: Path, cursor: dict[str, Any] | None) -> tuple[int, int]:
    """(offset, line number) to read from: the cursor's if the file only grew since, else (0, 1)."""
    if not cursor:
        return 0, 1
    offset = int(cursor.get("offset", 0))
    if offset <= 0 or path.stat().st_size < offset or head_hash(path, offset) != cursor.get("head"):
        return 0, 1
    return offset, int(cursor.get("line", 1))


def read_lines(path: Path, start: int, first_line: int) -> Read:
    """Parse each line from byte `start`. A last line without its newline is used if it parses
    (a finished file) and otherwise left for the next run (still being written)."""
    with path.open("rb") as handle:
        handle.seek(start)
        data = handle.read()
    lines, offset, number = [], start, first_line
    complete_end, complete_lines = start, 0
    for raw in data.splitlines(keepends=True):
        terminated = raw.endswith(b"\n")
        value = _parse(raw)
        if terminated or value is not None:
            lines.append(Line(number, offset, offset + len(raw), value))
        if terminated:
            complete_end, complete_lines = offset + len(raw), number - first_line + 1
        offset += len(raw)
        number += 1
    return Read(lines, start, first_line, complete_end, complete_lines)


def _parse(raw: bytes) -> Any:
    text = raw.strip()
    if not text:
        return ""
    try:
        return json.loads(text)
    except ValueError:
        return None


def iter_objects(read: Read, problems: list[tuple[int, str]]) -> Iterator[tuple[Line, dict[str, Any]]]:
    """The lines that are JSON objects; every other non-blank line is a counted problem."""
    for line in read.lines:
        if line.value == "":
            continue
        if not isinstance(line.value, dict):
            what = "not JSON" if line.value is None else "JSON but not an object"
            problems.append((line.number, f"{what}"))
            continue
        yield line, line.value


def text_of(content: Any) -> str:
    """Text from a string or a list of parts ({text}, {type: text, text}, images noted)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif part.get("type") in ("image", "input_image") or "inlineData" in part:
                parts.append(f"[image {_media_type(part)}]".replace(" ]", "]"))
    return "\n".join(p for p in parts if p)


def _media_type(part: dict[str, Any]) -> str:
    source = part.get("source") or part.get("inlineData") or {}
    return str(source.get("media_type") or source.get("mimeType") or "") if isinstance(source, dict) else ""


def as_text(value: Any) -> str:
    """Tool arguments and results as searchable text. Strings stay as they are; objects become
    `key: value` lines (a multi-line value starting on the next line); lists of objects take a
    line per item, lists of plain values one line. JSON would turn each line break of a file's
    content into a literal `\\n`: a whole README on one line, and line-initial words fused with
    the `n` (`nimport`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            text = as_text(item)
            lines.append(f"{key}:\n{text}" if "\n" in text else f"{key}: {text}")
        return "\n".join(lines)
    if isinstance(value, list):
        flat = all(not isinstance(v, dict | list) for v in value)  # ["bash", "-lc", "ls"]
        return (" " if flat else "\n").join(as_text(v) for v in value)
    return json.dumps(value, default=str)  # numbers, booleans, null
