"""Chunking on line boundaries."""

from __future__ import annotations

import itertools

from pica.kernel.records import Document
from pica.kernel.stage import Context
from pica.stages.chunk import ChunkLines, split_lines


def texts(lines, spans):
    joined = "\n".join(lines)
    return [joined[s.char_start : s.char_end] for s in spans]


def test_spans_cover_every_nonblank_line_in_order():
    lines = [f"line {i} " + "x" * (i % 37) for i in range(300)]
    spans = split_lines(lines, 500, 1)
    covered = sorted({i for s in spans for i in range(s.first_line, s.last_line + 1)})
    assert covered == list(range(300))
    for span, text in zip(spans, texts(lines, spans), strict=True):
        assert text == "\n".join(lines[span.first_line : span.last_line + 1])
        assert len(text) <= 500


def test_size_splits_repeat_one_line_of_overlap():
    lines = ["a" * 90 for _ in range(20)]
    spans = split_lines(lines, 400, 1)
    for previous, following in itertools.pairwise(spans):
        assert following.first_line == previous.last_line


def test_headings_start_chunks_unless_the_chunk_is_tiny():
    lines = ["# One", "short", "## Two", *(["text " * 20] * 3), "## Three", "tiny", "## Four", "x"]
    spans = split_lines(lines, 1000, 1)
    # "Two" joins the tiny "One"; "Three" starts a chunk; "Four" joins the tiny "Three".
    assert [(s.first_line, s.last_line) for s in spans] == [(0, 5), (6, 9)]


def test_heading_inside_code_fence_does_not_split():
    lines = ["# Top", "x" * 300, "```", "# comment in code", "```", "y" * 300]
    assert len(split_lines(lines, 1000, 1)) == 1


def test_a_huge_line_is_cut_into_pieces_on_its_own_line_number():
    lines = ["short", "word " * 1000, "after"]
    spans = split_lines(lines, 500, 1)
    middle = [
        (s, t) for s, t in zip(spans, texts(lines, spans), strict=True) if s.first_line == s.last_line == 1
    ]
    assert len(middle) >= 10
    assert all(len(t) <= 500 for _, t in middle)
    assert "".join(t for _, t in middle).replace(" ", "") == ("word " * 1000).replace(" ", "")


def test_chunks_carry_file_lines_and_offsets_into_the_document():
    doc = Document("c/a.md", "c", "a.md", "A", "# A\nbody\n\n## B\n" + "more words\n" * 80, first_line=5)
    chunks = ChunkLines(ChunkLines.Params()).run(Context(), documents=[doc])["chunks"]
    assert (chunks[0].id, chunks[0].line_start) == ("c/a.md#0", 5)
    for chunk in chunks:
        assert doc.text[chunk.char_start : chunk.char_end] == chunk.text
        lines = doc.text.split("\n")[chunk.line_start - 5 : chunk.line_end - 4]
        assert chunk.text == "\n".join(lines)


def test_a_passage_never_ends_past_the_files_last_line():
    # A 12-line file ending in a newline: "\n".split gives a 13th, empty "line" no chunk may cite.
    text = "# Title\n" + "".join(f"line {i} of the notes\n" for i in range(2, 13))
    doc = Document("c/a.md", "c", "a.md", "A", text)
    for max_chars in (60, 120, 600):
        chunks = ChunkLines(ChunkLines.Params(max_chars=max_chars)).run(Context(), documents=[doc])["chunks"]
        assert max(c.line_end for c in chunks) == 12
        assert all(c.text.strip() and not c.text.endswith("\n") for c in chunks)
