"""Split documents into chunks on line boundaries, preferring to start a chunk at a heading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Chunk, Document
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.markdown import headings


class LinesParams(Params):
    max_chars: int = Field(1000, gt=50, description="Largest chunk, in characters.")
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
            spans = split_lines(
                doc.text.split("\n"), self.params.max_chars, self.params.overlap_lines
            )
            for n, (start, end, text) in enumerate(spans):
                chunks.append(
                    Chunk(
                        id=f"{doc.id}#{n}",
                        doc_id=doc.id,
                        collection=doc.collection,
                        path=doc.path,
                        title=doc.title,
                        text=text,
                        line_start=start + doc.first_line,
                        line_end=end + doc.first_line,
                        metadata=doc.metadata,
                        source=doc.source,
                    )
                )
        ctx.report(f"{len(chunks)} chunks from {len(documents)} documents")
        return {"chunks": chunks}


def split_lines(lines: list[str], max_chars: int, overlap: int) -> list[tuple[int, int, str]]:
    """(first line, last line, text) spans, 0-based inclusive; whitespace-only spans are dropped.

    A heading starts a new span unless the current one is still small (a quarter of max_chars), so
    short sections travel together. A span split by size repeats its last `overlap` lines at the
    start of the next, if they are short. A line longer than max_chars is cut into pieces.
    """
    heading_lines = {h.line for h in headings(lines)}
    spans: list[tuple[int, int, str]] = []
    current: list[int] = []  # line indexes
    size = 0

    def flush() -> None:
        if current:
            text = "\n".join(lines[i] for i in current)
            if text.strip():
                spans.append((current[0], current[-1], text))

    for i, line in enumerate(lines):
        if len(line) > max_chars:
            flush()
            current, size = [], 0
            spans.extend((i, i, piece) for piece in _cut(line, max_chars) if piece.strip())
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


def _cut(line: str, max_chars: int) -> list[str]:
    """Pieces of at most max_chars, broken at the last space when there is one."""
    pieces = []
    while len(line) > max_chars:
        cut = line.rfind(" ", max_chars // 2, max_chars)
        cut = cut if cut > 0 else max_chars
        pieces.append(line[:cut])
        line = line[cut:].lstrip(" ")
    pieces.append(line)
    return pieces
