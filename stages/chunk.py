"""Split documents into chunks on line boundaries, preferring to start a chunk at a heading."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from pydantic import Field

from pica.kernel.records import Chunk, Document
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.markdown import headings


class LinesParams(Params):
    # 600 keeps 97% of chunks (title included) within MiniLM's 256 word pieces on the corpus;
    # docs/benchmarks.md has the measurement.
    max_chars: int = Field(600, gt=50, description="Largest chunk, in characters.")
    overlap_lines: int = Field(
        1, ge=0, description="Lines repeated from the previous chunk when one is split by size."
    )


@stage
class ChunkLines(Stage):
    """Chunk documents on line boundaries, starting at headings, with a small overlap."""

    id = "chunk.lines.v1"
    Params = LinesParams
    inputs = {"documents": list[Document]}
    outputs = {"chunks": list[Chunk]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        doc = Document("c/a.md", "c", "a.md", "A", "# A\n" + "word " * 300 + "\n## B\ntext\n")
        return Example(params={"max_chars": 400}, inputs={"documents": [doc]})

    def run(self, ctx: Context, documents: list[Document]) -> dict[str, Any]:
        chunks: list[Chunk] = []
        for doc in documents:
            spans = split_lines(doc.text.split("\n"), self.params.max_chars, self.params.overlap_lines)
            for n, span in enumerate(spans):
                lines = (span.first_line + doc.first_line, span.last_line + doc.first_line)
                metadata = doc.metadata
                if doc.source == "transcripts":
                    lines, metadata = _message_lines(doc, span)
                chunks.append(
                    Chunk(
                        id=f"{doc.id}#{n}",
                        doc_id=doc.id,
                        collection=doc.collection,
                        path=doc.path,
                        title=doc.title,
                        text=doc.text[span.char_start : span.char_end],
                        line_start=lines[0],
                        line_end=lines[1],
                        metadata=metadata,
                        source=doc.source,
                        char_start=span.char_start,
                        char_end=span.char_end,
                    )
                )
        ctx.report(f"{len(chunks)} chunks from {len(documents)} documents")
        return {"chunks": chunks}


def _message_lines(doc: Document, span: Span) -> tuple[tuple[int, int], dict[str, Any]]:
    """A transcript message is text decoded from JSON, so its lines are not lines of the file: a
    chunk cites the file line(s) its message was read from (what an agent opening the file needs)
    and keeps its own place inside the message as metadata."""
    first = doc.first_line
    inside = message_lines(doc.text, span.char_start, span.char_end)
    return (first, int(doc.metadata.get("line_end") or first)), {**doc.metadata, **inside}


def message_lines(text: str, char_start: int, char_end: int) -> dict[str, int]:
    """The 1-based lines of a message's `text` that the chunk text[char_start:char_end] spans
    (for whoever rebuilds a transcript chunk from the stored message and offsets)."""
    first = text.count("\n", 0, char_start) + 1
    return {"message_line_start": first, "message_line_end": first + text.count("\n", char_start, char_end)}


def split_lines(lines: list[str], max_chars: int, overlap: int) -> list[Span]:
    """Spans of whole lines (0-based, inclusive) with their offsets into "\n".join(lines).

    A heading starts a new span unless the current one is still small (a quarter of max_chars), so
    short sections travel together. A span split by size repeats its last `overlap` lines at the
    start of the next, if they are short. A line longer than max_chars is cut into pieces.
    Whitespace-only spans are dropped.
    """
    heading_lines = {h.line for h in headings(lines)}
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    spans: list[Span] = []
    current: list[int] = []  # line indexes
    size = 0

    def flush() -> None:
        if current and any(lines[i].strip() for i in current):
            # Trailing blank lines are not cited: a file ending in a newline would otherwise give
            # a passage one line past the file's last.
            first, last = current[0], max(i for i in current if lines[i].strip())
            spans.append(Span(first, last, offsets[first], offsets[last] + len(lines[last])))

    for i, line in enumerate(lines):
        if len(line) > max_chars:
            flush()
            current, size = [], 0
            for begin, end in _cut(line, max_chars):
                if line[begin:end].strip():
                    spans.append(Span(i, i, offsets[i] + begin, offsets[i] + end))
            continue
        if i in heading_lines and size >= max_chars // 4:
            flush()
            current, size = [], 0
        elif current and size + len(line) + 1 > max_chars:
            flush()
            carried = current[-overlap:] if overlap else []
            if sum(len(lines[j]) + 1 for j in carried) > max_chars // 4:
                carried = []
            current, size = carried, sum(len(lines[j]) + 1 for j in carried)
            if size + len(line) + 1 > max_chars:
                current, size = [], 0
        current.append(i)
        size += len(line) + 1
    flush()
    return spans


class Span(NamedTuple):
    first_line: int
    last_line: int
    char_start: int
    char_end: int


def _cut(line: str, max_chars: int) -> list[tuple[int, int]]:
    """(begin, end) pieces of at most max_chars, broken after the last space when there is one."""
    pieces = []
    begin = 0
    while len(line) - begin > max_chars:
        cut = line.rfind(" ", begin + max_chars // 2, begin + max_chars)
        end = cut if cut > begin else begin + max_chars
        pieces.append((begin, end))
        begin = end
        while begin < len(line) and line[begin] == " ":
            begin += 1
    pieces.append((begin, len(line)))
    return pieces
